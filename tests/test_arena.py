"""The arena (issue 64, its command-line part): entrants' ratings fitted by Bradley-Terry with intervals on a
two-player game, paired scores on a one-player one, the same table for any number of jobs, a stopped arena
continued from its logs, and bad entrants said in one line."""
import json
import math

import numpy as np
import pytest

from arcade.foundation import notices
from arcade.arena import bradley_terry, parse_entrants, rating_errors
from arcade.cli import main

DOTS = ["arena", "dots(rows=2,cols=2)", "--agents", "solver,alpha-beta,greedy,random", "--games", "8", "--seed", "3",
        "--json"]


def _arena(capsys, argv):
    code = main(argv)
    out = capsys.readouterr().out
    return code, json.loads(out) if code in (0, 130) else out


def test_bradley_terry_is_the_closed_form_for_two_and_its_intervals_shrink_with_games():
    wins = np.array([[0.0, 3.0], [1.0, 0.0]])  # A beat B three times in four; with the virtual draw 3.5 : 1.5
    elo = bradley_terry(2, wins)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6) and elo.sum() == pytest.approx(0)
    few, many = rating_errors(2, wins, elo), rating_errors(2, wins * 25, bradley_terry(2, wins * 25))
    assert (many < few).all() and (few > 0).all()


def test_the_arena_ranks_perfect_play_above_greedy_above_random_the_same_with_one_job_or_two(capsys, tmp_path):
    code, one = _arena(capsys, DOTS + ["--jobs", "1", "--log-dir", str(tmp_path / "a")])
    assert code == 0 and one["complete"]
    # the same games on two processes: one pairing is enough to show it (each pairing starts its pool, ~2 s)
    pair = [a if a != "solver,alpha-beta,greedy,random" else "alpha-beta,greedy" for a in DOTS]
    code, serial = _arena(capsys, pair + ["--jobs", "1", "--log-dir", str(tmp_path / "b")])
    code2, two = _arena(capsys, pair + ["--jobs", "2", "--log-dir", str(tmp_path / "c")])
    counts = lambda pair: {k: pair[k] for k in ("first", "second", "wins", "draws", "losses")}
    assert code == code2 == 0 and serial == two and counts(serial["pairs"][0]) in [counts(p) for p in one["pairs"]]
    order = [row["entrant"] for row in one["ratings"]]
    assert set(order[:2]) == {"solver", "alpha-beta"} and order[2:] == ["greedy", "random"]
    for row in one["ratings"]:
        assert row["low"] < row["rating"] < row["high"] and row["games"] == 3 * 8
    pair = next(p for p in one["pairs"] if p["first"] == "greedy" and p["second"] == "random")
    assert pair["wins"] + pair["draws"] + pair["losses"] == 8 and pair["wins"] > pair["losses"]


def test_a_stopped_arena_continues_from_its_logs(capsys, tmp_path):
    folder = tmp_path / "logs"
    code, whole = _arena(capsys, DOTS + ["--jobs", "1", "--log-dir", str(folder)])
    logs = sorted(folder.glob("*.jsonl"))
    assert code == 0 and len(logs) == 6
    cut = logs[2].read_text().splitlines()
    logs[2].write_text("\n".join(cut[:4]) + "\n")  # as if stopped after three of its games
    code, again = _arena(capsys, DOTS + ["--jobs", "1", "--log-dir", str(folder)])
    assert code == 0 and again == whole and len(logs[2].read_text().splitlines()) == len(cut)


def test_an_empty_or_damaged_arena_log_is_said_and_the_arena_plays_on(capsys, tmp_path):
    """Issue 73 item 14: a log killed as it was created (zero bytes) no longer blocks its arena, and damaged
    lines in a log are said in one line, not skipped without a word."""
    folder = tmp_path / "logs"
    code, whole = _arena(capsys, DOTS + ["--jobs", "1", "--log-dir", str(folder)])
    logs = sorted(folder.glob("*.jsonl"))
    logs[0].write_bytes(b"")
    lines = logs[1].read_bytes().splitlines()
    logs[1].write_bytes(b"\n".join(lines[:2] + [b"\xff not a game"] + lines[2:]) + b"\n")
    code, again = _arena(capsys, DOTS + ["--jobs", "1", "--log-dir", str(folder)])
    assert code == 0 and again == whole
    said = [line for line in notices.recent() if str(folder) in line]
    assert any("empty" in line and logs[0].name in line for line in said)
    assert any("1 line left out" in line and logs[1].name in line for line in said)


def test_a_pair_shows_its_difference_with_its_own_interval_and_a_sweep_is_a_bound():
    """Issue 73 item 8: each rating's interval is against the mean of all entrants, so two that overlap can
    still differ: the pair's difference has its own interval (from the fit's covariance, checked here against
    the variance of a difference computed by hand); an entrant that won every game has a bound, not a rating."""
    import numpy as np

    from arcade.arena import (
        Entrant,
        Pairing,
        rating_covariance,
        rating_text,
        two_player_table,
    )

    a, b, c = Entrant("a"), Entrant("b"), Entrant("c")
    games = lambda first, second, w, d, l: Pairing(first, second, [{"result": "win"}] * w + [{"result": "draw"}] * d
                                                   + [{"result": "loss"}] * l, True)
    table = two_player_table([a, b, c], [games(a, b, 30, 0, 0), games(a, c, 20, 5, 5), games(b, c, 14, 2, 14)])
    rows = {r["entrant"]: r for r in table["ratings"]}
    assert rows["a"]["sweep"] is None and rows["b"]["sweep"] is None
    assert rating_text(rows["a"]).startswith("+")
    wins = np.array([[0, 30, 22.5], [0, 0, 15], [7.5, 15, 0]])
    elo = np.array([rows[k]["rating"] for k in "abc"])
    cov = rating_covariance(3, wins, elo)
    bc = next(p for p in table["pairs"] if p["first"] == "b" and p["second"] == "c")
    half = 1.96 * np.sqrt(cov[1, 1] + cov[2, 2] - 2 * cov[1, 2])
    assert bc["difference"] == pytest.approx(elo[1] - elo[2]) and bc["high"] - bc["difference"] == pytest.approx(half)
    assert half < (rows["b"]["high"] - rows["b"]["low"]) / 2 + (rows["c"]["high"] - rows["c"]["low"]) / 2
    swept = two_player_table([a, b], [games(a, b, 40, 0, 0)])
    top = swept["ratings"][0]
    assert top["sweep"] == "won every game" and rating_text(top).startswith(">= ") and "lower bound" in rating_text(top)
    assert rating_text(swept["ratings"][1]).startswith("<= ")


def test_a_one_player_arena_pairs_the_scores_by_seed_and_counts_the_milestones(capsys, tmp_path):
    code, table = _arena(capsys, ["arena", "2048(size=3)", "--agents", "greedy,random", "--games", "6", "--jobs", "1",
                                  "--log-dir", str(tmp_path), "--json"])
    assert code == 0
    first, second = table["entrants"]
    assert first["entrant"] == "greedy" and first["games"] == second["games"] == 6
    assert set(first["milestones"]) == {"2048", "4096", "8192", "16384"}
    assert second["vs_first"]["games"] == 6
    assert second["vs_first"]["mean"] == pytest.approx(second["mean"] - first["mean"])


def test_an_entrant_may_be_an_agent_with_other_parameters():
    entrants = parse_entrants("tictactoe", "mcts,mcts:compiled_simulations=50:exploration=1.5,random")
    assert [e.label for e in entrants] == ["mcts", "mcts:compiled_simulations=50:exploration=1.5", "random"]
    assert dict(entrants[1].params) == {"compiled_simulations": 50, "exploration": 1.5}


@pytest.mark.parametrize("agents, words", [
    ("solver", "two entrants or more"),
    ("solver,nobody", "nobody"),
    ("solver,greedy,solver", "named twice"),
    ("mcts:simulations=0,random", "from 1 to"),
    ("mcts:nope=1,random", "no parameter nope"),
    ("mcts:simulations,random", "not param=value"),
])
def test_a_bad_entrant_is_one_line_before_any_game(capsys, tmp_path, agents, words):
    assert main(["arena", "dots", "--agents", agents, "--games", "2", "--log-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err
    assert not list(tmp_path.glob("*.jsonl"))


def test_an_arena_on_a_ray_cluster_nobody_runs_is_one_line_before_any_game(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    # (a process of its own: Ray imported in a test's process shapes the later Ray tests of its worker)
    done = subprocess.run([sys.executable, "main.py", "arena", "dots", "--agents", "greedy,random", "--games", "2",
                           "--ray", "127.0.0.1:1", "--log-dir", str(tmp_path)], cwd=Path(__file__).parent.parent,
                          capture_output=True, text=True, timeout=120)
    err = done.stderr.strip()
    assert done.returncode == 2 and len(err.splitlines()) == 1 and "no Ray cluster at 127.0.0.1:1" in err, err
    assert not list(tmp_path.glob("*.jsonl"))


def test_an_arena_is_kept_per_game_and_variant_and_k_shows_it_beside_the_statistics(app, tmp_path, capsys):
    import pygame

    from arcade.arena import kept_results
    from arcade.screens import open_game
    from arcade.screens.overlays import StatisticsView
    from tests.helpers import key

    toml = tmp_path / "settings.toml"
    toml.write_text(f'[data]\nfolder = "{app.settings.data_dir}"\n')
    code = main(["--settings", str(toml), "arena", "dots", "--agents", "greedy,random", "--games", "4", "--seed",
                 "1", "--jobs", "1", "--json"])
    table = json.loads(capsys.readouterr().out)
    assert code == 0
    kept = kept_results(app.settings.data_dir, "dots", app.settings)
    assert kept["games"] == 4 and kept["complete"] and kept["table"]["ratings"] == table["ratings"]
    other = app.settings.with_table("dots", rows=app.settings.dots.rows + 1)
    assert kept_results(app.settings.data_dir, "dots", other) is None  # another variant: another arena
    screen = open_game(app, "dots")
    app.push(screen)
    key(app, pygame.K_k)
    assert isinstance(app.top, StatisticsView)
    lines = app.top.draw_over(app.surface)
    best = table["ratings"][0]
    from arcade.arena import rating_text

    assert any(line.startswith("arena of ") and f"{best['entrant']} {rating_text(best)}" in line for line in lines)
