"""The runner on Ray (installed by make test from requirements-ray.txt): equal per-game results to a serial
run, and a worker that dies mid-game costs only that game."""
from __future__ import annotations

import pytest

ray = pytest.importorskip("ray", reason="Ray is installed by make test (requirements-ray.txt)")
pytestmark = pytest.mark.xdist_group("ray")  # one local cluster for the module, on one worker

from agents import find  # noqa: E402
from agents.mcts import MCTS  # noqa: E402
from arcade import runner  # noqa: E402
from arcade.games import make_rules  # noqa: E402
from arcade.runner import Players, RayCluster, RunSpec, Serial, execute, jobs_of, without_times  # noqa: E402
from tests.extra_game.runner_agents import DiesOnce  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    # (set up again when a worker of the parallel suite runs another module's tests between these: Ray is
    # then still up, so it is started only once per process and stops when the process ends)
    if not ray.is_initialized():
        ray.init(num_cpus=2, logging_level="ERROR", log_to_driver=False, include_dashboard=False,
                 runtime_env=runner.RUNTIME_ENV)
    backend = RayCluster()
    backend.connect()  # joins the Ray started here
    yield backend


def _run(settings, agent_of=lambda a: a, games=6):
    # the count of simulations ends a move, not the clock: equal games however loaded the machine is
    settings = settings.with_agent("mcts", simulations=60).with_table("agents", budget_clock="none")
    rules = make_rules("tictactoe", settings)
    # mcts's Python tree on the rules (plain): a Ray worker runs a copy of the project without numba's cache,
    # so the compiled tree would first compile there (tens of seconds of this suite, for nothing Ray tests)
    agent = agent_of(MCTS(rules, settings, plain=True))
    players = Players(rules, agent, find("tictactoe", "random").create(rules, settings))
    spec = RunSpec.of("tictactoe", "mcts", "random", games, 11, settings)
    return players, jobs_of(spec, rules.players)


def test_ray_plays_the_same_games_as_a_serial_run(cluster, settings):
    players, jobs = _run(settings)
    on_ray = execute(players, jobs, cluster)
    assert on_ray.complete
    assert without_times(on_ray.records) == without_times(execute(players, jobs, Serial()).records)
    assert cluster.name.startswith("Ray (1 node, 2 CPUs")
    assert runner.cluster_problem(ray.get_runtime_context().gcs_address) is None  # a running head passes the probe


def test_a_worker_that_dies_mid_game_costs_only_that_game(cluster, settings, tmp_path):
    mark = tmp_path / "died"
    players, jobs = _run(settings, agent_of=lambda a: DiesOnce(a, mark))
    on_ray = execute(players, jobs, cluster)
    assert mark.exists()  # a worker did die
    assert on_ray.complete and [r["index"] for r in on_ray.records] == list(range(6))
    plain, _ = _run(settings)
    assert without_times(on_ray.records) == without_times(execute(plain, jobs, Serial()).records)


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # free once closed: nothing listens there


@pytest.mark.parametrize("address", ["nowhere.invalid:6379", "127.0.0.1:{port}", "ray://127.0.0.1:{port}", "host:99999"])
def test_no_cluster_at_an_address_is_said_in_one_line_within_seconds(address):
    import time

    backend = RayCluster(address.format(port=_closed_port()))
    start = time.monotonic()
    with pytest.raises(runner.RunError) as err:
        backend.connect()
    assert time.monotonic() - start < 10  # Ray itself retried for 12 minutes and more
    message = str(err.value)
    assert "\n" not in message and ("no Ray cluster at" in message or "not an address" in message)


def test_bench_with_no_cluster_exits_with_one_line(capsys, tmp_path):
    from arcade.cli import main

    settings = tmp_path / "settings.toml"
    settings.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n')
    code = main(["--settings", str(settings), "bench", "tictactoe", "--agent", "random", "--games", "2",
                 "--ray", f"127.0.0.1:{_closed_port()}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1].startswith("main.py: error: no Ray cluster at 127.0.0.1:")

