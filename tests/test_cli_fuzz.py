"""Malformed command lines: generated bad values for every option of every subcommand and every game's
state format. A user's mistake is exit status 2 and one line on stderr, never a traceback, and nothing
long runs before it is said."""
import itertools
import time

import numpy as np
import pytest

from arcade.cli import main

BAD_NUMBERS = ["", " ", "-1", "-9223372036854775809", "99999999999999999999999", "1e9", "0x10", "½", "٣", "NaN",
               "1.5", "abc", "--", "9" * 400]
BAD_NAMES = ["", " ", "no-such-agent", "RANDOM ", "../x", "\u202e", "a" * 5000]
BAD_STATES = {
    "2048": ["", "2,2", "2,2,0/0,0,0/0,0,0", "3,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0", "-2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0",
             "9223372036854775808,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0", "٢,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0",
             "2,4,8,16,32,64,128,256/" * 8],
    "tictactoe": ["", "XXX/OOO/...", "X/O", "ZZZ/.../...", "XO./.../...X", "٣.../.../..."],
    "dots": ["", "0101", "2" * 12, "1" * 13, "x" * 24, "0" * 60],
    "match3": ["", "1234", "12345/12345", "9" * 9 + "/" + "/".join(["012340123"] * 8), "00000/11111/22222/33333/44444",
               "0120120/1201201/2012012/0120120/1201201/2012012/0120120"],
    "blackjack": ["", "1|2", "x|-|2,2", "3|-|9,9", "3|5|1,1", "99|-|1,1", "-1|-|1,1", "3|-|0,0", "3|-|1,1,1"],
}


def _run(capsys, argv):
    capsys.readouterr()
    t0 = time.perf_counter()
    code = main(argv)
    seconds = time.perf_counter() - t0
    out = capsys.readouterr()
    return code, out.err, seconds


def _one_clear_line(code, err, argv):
    assert code == 2, (argv, code, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("main.py: error: "), (argv, err)
    assert "Traceback" not in err


@pytest.mark.parametrize("command, option", [("bench", "--games"), ("bench", "--seed"), ("play", "--seed"),
                                             ("train", "--episodes"), ("train", "--seed"), ("decide", "score"),
                                             ("decide", "turns")])
def test_bad_numbers_are_one_line(capsys, command, option):
    """Options, and the figures a state writes after its board (a 2048 score, match-3 turns left)."""
    game = {"train": "tictactoe", "decide": "2048" if option == "score" else "match3"}.get(command, "2048")
    board = "2,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0" if game == "2048" else "012340123/" * 8 + "123401234"
    extra = {"train": ["--agent", "td-value"], "decide": ["--agent", "greedy"]}.get(command, [])
    for value in BAD_NUMBERS + ["0"] * (option in ("--games", "--episodes", "turns")):
        given = [f"--state={board} {option}={value}"] if command == "decide" else [f"{option}={value}"]
        argv = [command, game, *extra, *given]
        code, err, seconds = _run(capsys, argv)
        _one_clear_line(code, err, argv)
        assert seconds < 5, argv  # said before any long work


@pytest.mark.parametrize("command", ["bench", "decide", "train", "play"])
def test_bad_names_are_one_line(capsys, command):
    for name, option in itertools.product(BAD_NAMES, ["--agent"] + (["--opponent"] if command == "bench" else [])):
        argv = [command, "tictactoe", f"{option}={name}"]
        if command == "decide":
            argv += ["--state", "X../.../..."] + ([] if option == "--agent" else ["--agent", "random"])
        if command == "train" and option != "--agent":
            argv += ["--agent", "td-value"]
        code, err, _ = _run(capsys, argv)
        _one_clear_line(code, err, argv)


@pytest.mark.parametrize("game", list(BAD_STATES))
def test_bad_states_are_one_line(capsys, game):
    agent = {"tictactoe": "minimax", "dots": "solver", "blackjack": "value-iteration"}.get(game, "greedy")
    rng = np.random.default_rng(1)
    generated = ["".join(rng.choice(list("0123456789|/,-.XO x")) for _ in range(rng.integers(1, 40)))
                 for _ in range(25)]
    for text in BAD_STATES[game] + generated:
        argv = ["decide", game, "--agent", agent, f"--state={text}"]
        code, err, _ = _run(capsys, argv)
        if code == 0:
            continue  # a generated text that happens to be a valid state
        _one_clear_line(code, err, argv)


def test_unknown_games_options_and_missing_values(capsys):
    for argv in (["bench"], ["bench", "chess"], ["decide", "2048", "--agent", "greedy", "--state"],
                 ["decide", "2048", "--agent", "greedy", "--state", "-1|x"], ["train", "2048", "--agent", "greedy"],
                 ["bench", "2048", "--nope"], ["play", "tictactoe", "--agent", "x" * 10000], [""],
                 ["bench", "tictactoe", "--opponent", "random", "--games", "2", "--report"]):
        code, err, _ = _run(capsys, argv)
        _one_clear_line(code, err, argv)
    code, err, _ = _run(capsys, ["decide", "blackjack", "--agent", "value-iteration", "--state", "-x|1,1"])
    _one_clear_line(code, err, "--state -x|1,1")
    assert "--state=-1" in err  # the hint for a value that starts with '-'


def test_train_out_refuses_what_is_not_a_regular_file(tmp_path, capsys):
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for out in ["", str(fifo), str(tmp_path), str(blocker / "under"), str(tmp_path / ("n" * 300))]:
        argv = ["train", "tictactoe", "--agent", "td-value", "--episodes", "50000000", f"--out={out}"]
        code, err, seconds = _run(capsys, argv)
        _one_clear_line(code, err, argv)
        assert seconds < 5  # before the training, not after it
    assert fifo.exists() and not fifo.is_file()  # the FIFO is still a FIFO


def test_atomic_replace_keeps_the_files_permissions(tmp_path, capsys):
    target = tmp_path / "table.npz"
    train = ["train", "tictactoe", "--agent", "td-value", "--episodes", "10", "--out", str(target)]
    assert main(train) == 0
    target.chmod(0o640)
    before = target.read_bytes()
    assert main(train) == 0  # trains on from the file and replaces it
    assert (target.stat().st_mode & 0o777) == 0o640 and target.read_bytes() != before


def test_an_unreadable_out_file_is_kept_aside_and_training_goes_on(tmp_path, capsys):
    target = tmp_path / "table.npz"
    target.write_bytes(b"old")
    assert main(["train", "tictactoe", "--agent", "td-value", "--episodes", "10", "--out", str(target)]) == 0
    assert (tmp_path / "table.npz.corrupt").read_bytes() == b"old" and target.read_bytes() != b"old"
    assert "kept as table.npz.corrupt" in capsys.readouterr().err
