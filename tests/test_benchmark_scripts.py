"""The benchmark scripts as people run them: SIGINT (even to a run a shell started in the background, with
SIGINT ignored) stops them within seconds, says what finished, and the same command continues from the logs;
a wrong argument is one line, not a traceback."""
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _started_with_sigint_ignored(argv, **kwargs):
    """As `cmd &` in a script starts it: SIGINT ignored from the start."""
    return subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN), **kwargs)


def _stop_when_logged(proc, log_dir: Path, games: int, deadline_s: float = 240) -> tuple[str, float]:
    """SIGINT once `games` games are in the logs of `log_dir`; (output, seconds from the signal to the exit)."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        logged = sum(max(0, len(p.read_text().splitlines()) - 1) for p in log_dir.glob("*.jsonl"))
        if logged >= games or proc.poll() is not None:
            break
        time.sleep(0.2)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    return out, time.monotonic() - start


def test_bench_dots_strong_stops_on_sigint_says_what_finished_and_resumes(tmp_path):
    argv = [sys.executable, "benchmarks/bench_dots_strong.py", "--positions", "0", "--won-games", "0",
            "--games", "400", "--sizes", "2x3", "--jobs", "1", "--log-dir", str(tmp_path)]
    proc = _started_with_sigint_ignored(argv)  # (2x3: games of tens of ms, 400 of them far from done at the stop)
    out, took = _stop_when_logged(proc, tmp_path, 2)
    assert proc.returncode == 130, out
    assert took < 30 and "Traceback" not in out
    assert "stopped with" in out and "wins" not in out  # no figures of a match that did not finish
    (log,) = tmp_path.glob("*.jsonl")
    kept = len(log.read_text().splitlines()) - 1
    assert kept >= 2
    again = _started_with_sigint_ignored(argv)
    out, _ = _stop_when_logged(again, tmp_path, kept + 1)
    assert f"{400 - kept} games to play, {kept} in" in out


def test_cli_bench_stops_on_sigint_in_the_background(tmp_path):
    settings = tmp_path / "settings.toml"
    settings.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n')
    log = tmp_path / "run.jsonl"
    argv = [sys.executable, "main.py", "--settings", str(settings), "bench", "dots(rows=3,cols=3)", "--agent",
            "alpha-beta", "--opponent", "greedy", "--games", "40", "--jobs", "1", "--log", str(log)]
    proc = _started_with_sigint_ignored(argv)
    out, took = _stop_when_logged(proc, tmp_path, 1)
    assert proc.returncode == 130 and took < 30, out
    assert "continue with python main.py bench --resume" in out


@pytest.mark.parametrize("script, argv, words", [
    ("bench_2048.py", ["--jobs", "0"], "--jobs must be more than 0, got 0"),
    ("bench_2048.py", ["--jobs", "-3"], "--jobs must be more than 0"),
    ("bench_2048.py", ["--games", "-1"], "--games must be 0 or more"),
    ("bench_match3.py", ["--games", "many"], "--games takes an integer"),
    ("bench_envs.py", ["--seconds", "nan"], "--seconds must be more than 0"),
    ("bench_mcts_speed.py", ["--positions", "0"], "--positions must be more than 0"),
    ("bench_dots_learning.py", ["--games", "0"], "--games must be more than 0"),
])
def test_a_wrong_argument_to_a_benchmark_is_one_line(script, argv, words):
    done = subprocess.run([sys.executable, f"benchmarks/{script}", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert words in done.stderr.strip().splitlines()[-1], done.stderr


def test_the_mcts_speed_benchmark_prints_both_ways_and_their_ratio():
    """Tiny: two games, one position, two rounds of 30 simulations; each game's block names the declared engine
    and the rules' own, with a ratio."""
    done = subprocess.run([sys.executable, "benchmarks/bench_mcts_speed.py", "--games", "match3", "tictactoe",
                           "--positions", "1", "--rounds", "2", "--simulations", "30"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for game in ("match3", "tictactoe"):
        block = done.stdout.split(f"-- {game}")[1]
        assert "fast engine" in block and "by the rules" in block and "ratio" in block
    assert "target >= 5,000" in done.stdout  # match-3's target is printed beside its figure


def test_the_first_move_benchmark_breaks_a_fresh_process_into_pieces_that_add_up():
    """--pieces: every piece of a fresh process's way to its first 2048 decision printed with a median, and
    `in all` the sum of the pieces (one process: each median is its own figure)."""
    done = subprocess.run([sys.executable, "benchmarks/bench_first_move.py", "--pieces", "--rounds", "1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = {line.split(":")[0].strip(): float(line.split("median ")[1].split(" s")[0])
               for line in done.stdout.splitlines() if "median" in line}
    assert {"import numba", "the search's tables (numpy)", "in all"} <= set(figures) and len(figures) == 8
    pieces = [v for k, v in figures.items() if k != "in all"]
    assert figures["in all"] == pytest.approx(sum(pieces), abs=0.0005 * (len(pieces) + 1))  # (each printed to 1 ms)
    assert all(v >= 0 for v in figures.values()) and figures["import numba"] > 0


def test_the_soak_in_small_plays_a_screen_trains_and_leaves_no_process():
    """bench_soak's smoke version: one screen (tic-tac-toe: minimax playing, td-value training), a line a
    second, then the arcade quits and nothing it started is left; every check is printed."""
    done = subprocess.run([sys.executable, "benchmarks/bench_soak.py", "--minutes", "0.01", "--screen-seconds", "1",
                           "--every", "0.5", "--game", "tictactoe"], cwd=ROOT, capture_output=True, text=True,
                          timeout=240)
    lines = done.stdout.splitlines()
    assert sum("tictactoe  memory" in line for line in lines) >= 1, done.stdout + done.stderr
    checks = [line for line in lines if line.startswith(("  ok ", "  MISS"))]
    assert len(checks) == 5, done.stdout  # memory, threads and workers, frames, errors, processes left
    assert "  ok   no agent error" in done.stdout
    assert "  ok   no process of the arcade left 30 s after it quit" in done.stdout, done.stdout
    # (frame p99 and memory are the soak's figures, not a test's: a loaded machine misses them)


def test_the_cpp_player_plays_the_arcades_game_by_the_moves_its_program_answers(tmp_path):
    """benchmarks/cpp2048_program.py's glue, with a stand-in for the C++ program speaking its line protocol
    (the first legal move, fixed figures): the board reaches it packed as board64 packs it, its moves are
    played on the arcade's rules and seeds, and its own CPU seconds are what the record's figures add up."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from cpp2048_program import CppPlayer

    from arcade.games import make_rules
    from arcade.games.twenty48 import ReachesTile, move_all
    from arcade.headless import play_game
    from arcade.session import GameSession
    from arcade.settings import Settings

    fake = tmp_path / "fake_cpp"
    fake.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(ROOT)!r})\n"
                    "from agents.engines.twenty48 import board64\nfrom arcade.games.twenty48 import move_all\n"
                    "for line in sys.stdin:\n"
                    "    board, depth = line.split()\n"
                    "    legal = move_all(board64.unpack(int(board, 16)))[2][0]\n"
                    "    print(100, 0.001, int(legal.argmax()), 3, flush=True)\n")
    fake.chmod(0o755)
    rules = make_rules("2048", Settings().with_table("game2048", spawn_four_probability=0.1))
    record = play_game(rules, [CppPlayer(str(fake))], 11, until=ReachesTile(64))
    assert record.moves > 10 and record.figures["positions"] == 100 * record.moves
    assert record.figures["program_cpu_s"] == pytest.approx(0.001 * record.moves)
    session = GameSession(rules, 11)
    for action in record.actions:  # each move was the first legal one on the board as the rules had it
        assert action == int(move_all(session.state.board[None])[2][0].argmax())
        session.play(action)
