"""The game runner: per-game results independent of who plays them, the log, resuming, stopping."""
from __future__ import annotations

import json

import pytest

from agents import find
from arcade import runner
from arcade.cli import main
from arcade.games import make_rules
from arcade.headless import summarize
from arcade.runner import (
    GameLog,
    LocalProcesses,
    Players,
    RunSpec,
    Serial,
    as_record,
    execute,
    jobs_of,
    without_times,
)
from tests.extra_game.runner_agents import CountingLearner


def _players(settings, game="tictactoe", agent="mcts", opponent="random"):
    # the count of simulations ends a move, not the clock: equal games however loaded the machine is
    settings = settings.with_agent("mcts", simulations=60).with_table("agents", budget_clock="none")
    rules = make_rules(game, settings)
    a = find(game, agent).create(rules, settings)
    o = find(game, opponent).create(rules, settings) if rules.players == 2 else None
    return settings, rules, Players(rules, a, o)


def _spec(settings, players: Players, games=8, seed=40) -> RunSpec:
    return RunSpec.of("tictactoe", players.agent.name, getattr(players.opponent, "name", None), games, seed, settings)


def test_each_game_has_its_own_seed_and_seat():
    spec = RunSpec("tictactoe", "mcts", "random", 5, 100, 7, "k")
    jobs = jobs_of(spec, players=2)
    assert [j.game_seed for j in jobs] == [100, 101, 102, 103, 104]
    assert [j.agent_seat for j in jobs] == [0, 0, 0, 1, 1]  # the first half (rounded up) in seat 0
    assert {j.agent_seed for j in jobs} == {7}
    assert [j.agent_seat for j in jobs_of(spec, players=1)] == [0] * 5


def test_serial_and_local_processes_give_equal_games_in_any_order(settings):
    settings, rules, players = _players(settings)
    jobs = jobs_of(_spec(settings, players), rules.players)
    serial = execute(players, jobs, Serial()).records
    backwards = execute(players, list(reversed(jobs)), Serial()).records
    pooled = execute(players, jobs, LocalProcesses(2)).records
    assert [r["index"] for r in serial] == list(range(8))
    assert without_times(serial) == without_times(backwards) == without_times(pooled)
    assert len({json.dumps(r["outcome"]) for r in serial}) > 1  # the games differ from each other


class _Reporting:
    """Plays the first legal move and reports figures of each kind, as a search does."""

    name = "reporting"

    def __init__(self, rules):
        self.rules = rules

    def act(self, state, rng):
        return self.rules.legal_actions(state)[0]

    def figures(self) -> dict:
        return {"positions": 7, "depth": 2.5, "exact": "yes", "solved": True}


def test_a_record_sums_the_measured_agents_numeric_figures_over_its_decisions(settings):
    _, rules, players = _players(settings, opponent="random")
    players = Players(rules, _Reporting(rules), players.opponent)
    spec = RunSpec("tictactoe", "reporting", "random", 2, 3, 1, "")
    for record in execute(players, jobs_of(spec, 2), Serial()).records:
        decisions = len(record["decision_ms"])
        assert decisions >= 2
        # words and yes/no flags are not added up; the opponent's decisions are not counted
        assert record["figures"] == {"positions": 7 * decisions, "depth": 2.5 * decisions}
    # the summary divides them back: a mean a decision (a summed depth means nothing)
    records = [as_record(r) for r in execute(players, jobs_of(spec, 2), Serial()).records]
    assert summarize(records)["figures_per_decision"] == {"positions": 7.0, "depth": 2.5}


def test_a_learner_starts_every_game_from_the_same_state(settings):
    rules = make_rules("tictactoe", settings)
    learner = CountingLearner(rules)
    players = Players(rules, learner, find("tictactoe", "random").create(rules, settings))
    jobs = jobs_of(_spec(settings, players, games=4), rules.players)
    alone = execute(players, jobs[2:3], Serial()).records
    after_others = execute(players, jobs, Serial()).records
    assert without_times(alone) == without_times(after_others[2:3])
    assert learner.seen == 0  # the run's agent itself is not changed by the games


def test_a_finished_one_player_log_grows_into_a_longer_run_keeping_its_games(settings, tmp_path):
    from dataclasses import replace

    settings, rules, players = _players(settings, game="2048", agent="greedy")
    spec = RunSpec.of("2048", "greedy", None, 3, 40, settings)
    path = tmp_path / "run.jsonl"
    log = GameLog.create(path, spec)
    execute(players, jobs_of(spec, 1), Serial(), log)
    longer = replace(spec, games=5)
    assert spec.stands_to(longer, players=1) == "grows" and spec.stands_to(spec, 1) == "same"
    assert spec.stands_to(replace(spec, games=2), 1) is None and spec.stands_to(replace(longer, seed=41), 1) is None
    assert spec.stands_to(longer, players=2) is None  # a two-player run's seats depend on its count of games
    kept = GameLog.open(path).records
    log = GameLog.open(path)
    log.become(longer)
    assert [j.index for j in log.missing(1)] == [3, 4]
    execute(players, log.missing(1), Serial(), log)
    again = GameLog.open(path)
    assert again.spec == longer and again.records[:3] == kept
    whole = execute(players, jobs_of(longer, 1), Serial()).records
    assert without_times(again.records) == without_times(whole)


def test_a_run_s_key_reads_only_its_own_game_s_and_agents_settings(settings):
    spec = RunSpec.of("2048", "ntuple", None, 3, 40, settings)
    other_game = RunSpec.of("2048", "ntuple", None, 3, 40, settings.with_agent("monte-carlo", game="match3", time_budget_ms=7))
    assert other_game == spec  # another game's table changed: the same run
    other_agent = settings.with_agent("expectimax", game="2048", time_budget_ms=7)
    assert RunSpec.of("2048", "ntuple", None, 3, 40, other_agent) == spec  # an agent that does not play: the same
    assert RunSpec.of("2048", "expectimax", None, 3, 40, other_agent) != RunSpec.of("2048", "expectimax", None, 3, 40,
                                                                                    settings)
    assert RunSpec.of("2048", "ntuple", None, 3, 40, settings.with_table("agents", time_budget_ms=7)) != spec
    # settings only training reads (an agent plays from what it learnt) leave it the same run
    trained = settings.with_agent("ntuple", game="2048", rates="coherent", learning_rate=0.2, games=9,
                                  restart_tile=2048, restart_share=0.1)
    assert RunSpec.of("2048", "ntuple", None, 3, 40, trained) == spec
    # the tuple set is the shape a training from nothing builds: the network that plays is the file found
    tuples = RunSpec.of("2048", "ntuple", None, 3, 40, settings.with_agent("ntuple", game="2048", tuples="3x4"))
    assert tuples.settings_key == spec.settings_key


def test_the_log_holds_every_game_and_a_resumed_run_plays_only_the_rest(settings, tmp_path):
    settings, rules, players = _players(settings)
    spec = _spec(settings, players)
    path = tmp_path / "run.jsonl"
    log = GameLog.create(path, spec)
    jobs = jobs_of(spec, rules.players)
    execute(players, jobs[:3], Serial(), log)
    with open(path, "ab") as f:  # a run killed while writing its fourth line
        f.write(b'{"index": 3, "seed": 4')
    again = GameLog.open(path)
    assert again.spec == spec
    assert [r["index"] for r in again.records] == [0, 1, 2]
    missing = again.missing(rules.players)
    assert [j.index for j in missing] == [3, 4, 5, 6, 7]
    played = []

    class Watching(Serial):
        def run(self, players, jobs):
            for record in super().run(players, jobs):
                played.append(record["index"])
                yield record

    result = execute(players, missing, Watching(), again)
    assert played == [3, 4, 5, 6, 7] and result.complete
    whole = execute(players, jobs, Serial()).records
    assert without_times(result.records) == without_times(whole)
    assert without_times(GameLog.open(path).records) == without_times(whole)  # the cut line did not spoil it
    with pytest.raises(runner.RunError, match="--resume"):
        GameLog.create(path, spec)  # a log is never started over


def test_ctrl_c_stops_the_workers_and_keeps_what_finished(settings):
    settings, rules, players = _players(settings)
    jobs = jobs_of(_spec(settings, players), rules.players)
    stopped = []

    class Interrupted(Serial):
        def run(self, players, jobs):
            for n, record in enumerate(super().run(players, jobs)):
                if n == 3:
                    raise KeyboardInterrupt
                yield record

        def stop(self):
            stopped.append(True)

    result = execute(players, jobs, Interrupted())
    assert not result.complete and stopped
    assert [r["index"] for r in result.records] == [0, 1, 2]


def test_a_log_kept_compressed_reads_by_its_plain_name_and_refuses_more_games(settings, tmp_path):
    """docs/benchmarks keeps its runs as NAME.jsonl.gz: opened by the name a command quotes (NAME.jsonl), it
    holds the same games; playing more into it says in one line how to (it is never half-written)."""
    import gzip

    settings, rules, players = _players(settings)
    spec = _spec(settings, players)
    path = tmp_path / "run.jsonl"
    execute(players, jobs_of(spec, rules.players)[:3], Serial(), GameLog.create(path, spec))
    plain = GameLog.open(path)
    packed = tmp_path / "run.jsonl.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    path.unlink()
    kept = GameLog.open(path)
    assert kept.path == packed and kept.spec == spec and kept.records == plain.records
    before = packed.read_bytes()
    with pytest.raises(runner.RunError, match=r"gunzip -k .*run.jsonl.gz"):
        kept.append(plain.records[0] | {"index": 3})
    assert packed.read_bytes() == before


def test_bench_writes_a_log_that_resume_continues(settings, tmp_path, capsys):
    path = tmp_path / "bench.jsonl"
    settings_file = tmp_path / "s.toml"
    settings_file.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n')
    base = ["--settings", str(settings_file), "bench"]
    assert main(base + ["2048", "--agent", "greedy", "--games", "6", "--jobs", "2", "--log", str(path),
                        "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    lines = path.read_text().splitlines()
    assert len(lines) == 7
    path.write_text("\n".join(lines[:3]) + "\n")  # as if stopped after two games
    assert main(base + ["--resume", str(path), "--jobs", "1", "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    untimed = [{k: v for k, v in g.items() if k != "decision_ms_median"} for g in first["per_game"]]
    assert [{k: v for k, v in g.items() if k != "decision_ms_median"} for g in resumed["per_game"]] == untimed
    assert len(path.read_text().splitlines()) == 7
    assert main(base + ["--resume", str(path), "--agent", "random"]) == 2
    assert "is a run of 2048: greedy" in capsys.readouterr().err
    assert main(base + ["2048", "--games", "2", "--log", str(path)]) == 2
    assert "--resume" in capsys.readouterr().err
    assert main(base + ["--games", "2"]) == 2
    assert "needs a game" in capsys.readouterr().err


def test_resume_keeps_the_runs_budget_clock(tmp_path, capsys):
    """A run started with --budget-clock cpu and stopped: `--resume LOG` (what the stop line says to type)
    refused it as "played with other settings"; the log now names its clock and the resume restores it."""
    path = tmp_path / "bench.jsonl"
    settings_file = tmp_path / "s.toml"
    settings_file.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n')
    base = ["--settings", str(settings_file), "bench"]
    assert main(base + ["2048", "--agent", "greedy", "--games", "4", "--jobs", "1", "--budget-clock", "cpu",
                        "--log", str(path)]) == 0
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["run"]["budget_clock"] == "cpu"
    path.write_text("\n".join(lines[:3]) + "\n")  # as if stopped after two games
    capsys.readouterr()
    assert main(base + ["--resume", str(path), "--jobs", "1"]) == 0, capsys.readouterr().err
    assert len(path.read_text().splitlines()) == 5
    assert main(base + ["--resume", str(path), "--budget-clock", "wall"]) == 2  # another clock: another run
    assert "played with the cpu clock, not the wall one; leave out --budget-clock" in capsys.readouterr().err


def test_without_ray_one_line_says_how_to_install_it(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(runner.RunError, match=r"pip install -r requirements-ray.txt"):
        runner.import_ray()


def test_workers_end_when_the_run_is_killed(tmp_path):
    """A bench killed with SIGKILL (no clean-up at all) leaves no worker process playing on."""
    import os
    import signal
    import subprocess
    import sys
    import time

    log = tmp_path / "run.jsonl"
    proc = subprocess.Popen([sys.executable, "main.py", "bench", "dots(rows=3,cols=3)", "--agent", "mcts",
                             "--games", "400", "--jobs", "2", "--log", str(log)], cwd=runner.ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not log.exists() or len(log.read_text().splitlines()) < 3):
        time.sleep(0.2)  # until the workers are playing (two games logged)
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert children
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 30
    alive = children
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in children if os.path.exists(f"/proc/{pid}") and
                 "zombie" not in open(f"/proc/{pid}/status").read().lower()]
        time.sleep(0.2)
    assert not alive


def _logged_run(settings, tmp_path, games=4):
    """A finished run's log of `games` random-vs-random tic-tac-toe games."""
    settings, rules, players = _players(settings, agent="random")
    spec = _spec(settings, players, games=games)
    log = GameLog.create(tmp_path / "run.jsonl", spec)
    execute(players, jobs_of(spec, rules.players), Serial(), log)
    return log.path, log.records


@pytest.mark.parametrize("bad_line", [
    b"\xff\xfe not text at all\n",  # bytes that are not UTF-8
    b'{"index": 1, "seed": 41}\n',  # a record missing fields
    b'{"index": 1, "seed": 41, "agent_seat": 0, "score": "lots", "moves": 5, "outcome": {}, "result": null, '
    b'"decision_ms": []}\n',  # a score that is not a number
    b'{"index": 999, "seed": 1039, "agent_seat": 0, "score": 0, "moves": 5, "outcome": {"winner": 0}, '
    b'"result": "win", "decision_ms": [1.0]}\n',  # a stray game outside the run's 4
    b"[1, 2, 3]\n",
])
def test_a_log_reads_only_its_own_games_and_says_how_many_lines_it_left_out(settings, tmp_path, bad_line):
    path, records = _logged_run(settings, tmp_path)
    with open(path, "ab") as f:
        f.write(bad_line)
    log = GameLog.open(path)
    assert [r["index"] for r in log.records] == [0, 1, 2, 3] and log.records == records
    assert log.skipped == 1 and "1 line left out" in log.skipped_line()
    assert not log.missing(2)


def test_a_last_line_cut_short_by_a_kill_is_left_out_without_a_word(settings, tmp_path):
    path, _ = _logged_run(settings, tmp_path)
    with open(path, "ab") as f:
        f.write(b'{"index": 4, "se')
    log = GameLog.open(path)
    assert len(log.records) == 4 and log.skipped == 0 and log.skipped_line() is None


@pytest.mark.parametrize("header", [b"\xff\xff\n", b'{"run": {"game": 3}}\n', b'{"version": 1}\n',
                                    b'{"run": {"game": "tictactoe", "agent": "random", "opponent": null, '
                                    b'"games": "many", "seed": 1, "agent_seed": 1, "settings_key": "k"}, '
                                    b'"version": 1}\n'])
def test_a_bad_header_is_one_line(tmp_path, header):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(header)
    with pytest.raises(runner.RunError, match="is not a run log"):
        GameLog.open(path)


def test_resume_of_a_damaged_log_plays_on_and_says_what_it_skipped(tmp_path, capsys):
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n')
    settings_file = str(settings_file)
    log = tmp_path / "r.jsonl"
    assert main(["--settings", settings_file, "bench", "2048", "--agent", "random", "--games", "3",
                 "--log", str(log)]) == 0
    with open(log, "ab") as f:
        f.write(b"\xc3\x28 garbage\n")
    capsys.readouterr()
    assert main(["--settings", settings_file, "bench", "--resume", str(log)]) == 0
    out = capsys.readouterr()
    assert "1 line left out" in out.err and "3 games from seed" in out.out


def test_a_log_that_cannot_be_written_stops_the_run_with_one_line_and_keeps_its_games(settings, tmp_path):
    _, rules, players = _players(settings, agent="random")
    spec = _spec(settings, players, games=6)
    log = GameLog.create(tmp_path / "full.jsonl", spec)
    real, written = GameLog._append, []

    def fills_up(self, record):
        if len(written) == 2:
            raise OSError(28, "No space left on device")
        written.append(record["index"])
        real(self, record)

    stopped = []
    backend = Serial()
    backend.stop = lambda: stopped.append(True)
    import unittest.mock

    with unittest.mock.patch.object(GameLog, "_append", fills_up):
        with pytest.raises(runner.RunError, match="No space left on device.*2 games in it.*--resume"):
            execute(players, jobs_of(spec, rules.players), backend, log)
    assert stopped and len(GameLog.open(log.path).records) == 2


def test_a_log_on_a_full_device_is_one_line(settings, tmp_path):
    _, _, players = _players(settings, agent="random")
    full = GameLog(runner.Path("/dev/full"), _spec(settings, players), [])
    with pytest.raises(runner.RunError, match="cannot be written"):
        full.append({"index": 0})
