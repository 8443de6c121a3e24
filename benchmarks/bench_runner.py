"""The game runner's scaling: overhead against the plain serial loop, games an hour on every core, and a
two-node Ray cluster simulated on this machine giving the same per-game results as a serial run.

    python benchmarks/bench_runner.py [--rounds 5] [--strength-games 4] [--stop-at 512] [--no-ray]

1. Overhead: 100 games of 2048's greedy agent: the serial loop `bench` ran before the runner (one
   Generator for all games, no log) against the runner in this process (--jobs 1) and on all cores
   (a fresh process pool each time, its start-up counted). Rounds alternate the methods.
2. Games an hour: the strong expectimax at 100 ms a move of CPU time (games stopped at --stop-at so a round takes
   minutes, not hours), the same seeds in one process and on all cores.
3. Ray: `ray start --head --num-cpus 1` and a second `ray start --address ... --num-cpus 1` on this
   machine: two nodes of one CPU; a bench on it against the same bench played serially.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import _common  # noqa: F401  (puts the project on the import path)

from agents import find
from arcade import runner
from arcade.games import make_rules
from arcade.games.twenty48 import ReachesTile
from arcade.headless import play_game
from arcade.settings import Settings


def spread(xs) -> str:
    xs = np.asarray(xs)
    return f"median {np.median(xs):.2f} s (range {xs.min():.2f}-{xs.max():.2f}, n={xs.size})"


def serial_before(players: runner.Players, games: int, seed: int, agent_seed: int) -> list:
    """The loop `bench` ran before the runner: games one after another, one Generator for all."""
    rng = np.random.default_rng(agent_seed)
    return [play_game(players.rules, [players.agent], seed + g, 0, rng) for g in range(games)]


def overhead(rounds: int, games: int = 100) -> None:
    settings = Settings()
    rules = make_rules("2048", settings)
    players = runner.Players(rules, find("2048", "greedy").create(rules, settings))
    spec = runner.RunSpec("2048", "greedy", None, games, 0, 1, "")
    jobs = runner.jobs_of(spec, 1)
    cores = runner.default_jobs()
    methods = {
        "before (serial loop)": lambda: serial_before(players, games, 0, 1),
        "runner --jobs 1": lambda: runner.execute(players, jobs, runner.Serial()),
        f"runner --jobs {cores}": lambda: runner.execute(players, jobs, runner.LocalProcesses(cores)),
    }
    times = {name: [] for name in methods}
    for _ in range(rounds):
        for name, run in methods.items():
            t0 = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t0)
    print(f"== overhead: {games} games of 2048 greedy, {rounds} rounds alternating")
    base = np.array(times["before (serial loop)"])
    for name, t in times.items():
        ratio = np.array(t) / base
        print(f"  {name:24s} {spread(t)}   ratio to before: median x{np.median(ratio):.2f} "
              f"({ratio.min():.2f}-{ratio.max():.2f})")
    print("  target: --jobs 1 at most x1.50, all cores less than x1.00")


def games_an_hour(games: int, stop_at: int, rounds: int) -> None:
    # the budget in the search's CPU time: a game does not change with the load, so both arms play the same games
    settings = (Settings().with_table("game2048", spawn_four_probability=0.1).with_agent("expectimax", game="2048", time_budget_ms=100)
                .with_table("agents", budget_clock="cpu"))
    rules = make_rules("2048", settings)
    players = runner.Players(rules, find("2048", "expectimax").create(rules, settings), until=ReachesTile(stop_at))
    jobs = runner.jobs_of(runner.RunSpec("2048", "expectimax", None, games, 500, 1, ""), 1)
    cores = runner.default_jobs()
    print(f"== games an hour: strong expectimax, 100 ms a move (CPU time), standard rules, {games} games stopped "
          f"at {stop_at}, {rounds} rounds alternating")
    rates = {"1 process": [], f"{cores} processes": []}
    move_rates = {name: [] for name in rates}
    for _ in range(rounds):
        for name, backend in (("1 process", runner.Serial()), (f"{cores} processes", runner.LocalProcesses(cores))):
            t0 = time.perf_counter()
            records = runner.execute(players, jobs, backend).records
            seconds = time.perf_counter() - t0
            rates[name].append(games / seconds * 3600)
            move_rates[name].append(sum(r["moves"] for r in records) / seconds)
    for name, r in rates.items():
        print(f"  {name:12s} {np.median(r):7.0f} games an hour (rounds: {', '.join(f'{x:.0f}' for x in r)}); "
              f"{np.median(move_rates[name]):.1f} moves a second")
    ratio = np.array(rates[f"{cores} processes"]) / np.array(rates["1 process"])
    move_ratio = np.array(move_rates[f"{cores} processes"]) / np.array(move_rates["1 process"])
    print(f"  ratio: median x{np.median(ratio):.2f} (rounds {ratio.min():.2f}-{ratio.max():.2f}; target >= 1.8 on "
          f"two cores); moves a second x{np.median(move_ratio):.2f}")


def ray_two_nodes(games: int) -> None:
    ray_bin = Path(sys.executable).parent / "ray"
    if not ray_bin.exists():
        print("== Ray: not installed (pip install -r requirements-ray.txt); skipped")
        return
    port = 6391
    env = {**os.environ, "RAY_AUTH_MODE": "token"}
    temp = tempfile.mkdtemp(prefix="arcade-ray-")
    print(f"== Ray: two nodes of one CPU on this machine, {games} games of tic-tac-toe mcts vs random")
    start = [[str(ray_bin), "start", "--head", "--num-cpus", "1", "--port", str(port), "--disable-usage-stats",
              "--temp-dir", temp],
             [str(ray_bin), "start", "--address", f"127.0.0.1:{port}", "--num-cpus", "1", "--disable-usage-stats"]]
    try:
        for cmd in start:
            subprocess.run(cmd, env=env, check=True, capture_output=True)
        settings = Settings().with_agent("mcts", simulations=300, compiled_simulations=300).with_table(
            "agents", time_budget_ms=60_000)
        rules = make_rules("tictactoe", settings)
        players = runner.Players(rules, find("tictactoe", "mcts").create(rules, settings),
                                 find("tictactoe", "random").create(rules, settings))
        jobs = runner.jobs_of(runner.RunSpec("tictactoe", "mcts", "random", games, 0, 1, ""), 2)
        t0 = time.perf_counter()
        serial = runner.execute(players, jobs, runner.Serial()).records
        t_serial = time.perf_counter() - t0
        cluster = runner.RayCluster(f"127.0.0.1:{port}")
        cluster.connect()
        t0 = time.perf_counter()
        on_ray = runner.execute(players, jobs, cluster).records
        t_ray = time.perf_counter() - t0
        cluster.shutdown()
        untimed = [[{k: v for k, v in r.items() if k not in ("decision_ms", "opponent_ms")} for r in rs] for rs in (serial, on_ray)]
        same = sum(a == b for a, b in zip(*untimed, strict=True))
        print(f"  cluster: {cluster.name}")
        print(f"  per-game results equal to the serial run: {same}/{games} (target: all)")
        print(f"  wall time: serial {t_serial:.1f} s, Ray {t_ray:.1f} s (its workers' start-up included)")
    finally:
        stop_own_cluster(temp)  # (not `ray stop --force`: it stops every Ray process on the machine)
        shutil.rmtree(temp, ignore_errors=True)


def _processes() -> dict[int, tuple[int, str]]:
    """{pid: (parent pid, command line)} of this machine's processes (Linux /proc)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            out[int(entry.name)] = (parent, cmd)
    return out


def stop_own_cluster(temp: str, grace_s: float = 10.0) -> None:
    """Stop the Ray processes of the cluster this benchmark started (their command lines name its temp
    folder) and the processes they started; another cluster on the machine is left alone."""
    procs = _processes()
    mine = {pid for pid, (_, cmd) in procs.items() if temp in cmd}
    grew = True
    while grew:
        children = {pid for pid, (parent, _) in procs.items() if parent in mine} - mine
        grew = bool(children)
        mine |= children
    mine.discard(os.getpid())
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in mine:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in mine):
            time.sleep(0.2)


def main():
    ap = _common.Parser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--strength-games", type=int, default=8, help="0 skips the games-an-hour part")
    ap.add_argument("--strength-rounds", type=int, default=3)
    ap.add_argument("--stop-at", type=int, default=2048)
    ap.add_argument("--ray-games", type=int, default=40)
    ap.add_argument("--no-ray", action="store_true")
    args = ap.parse_args()
    overhead(args.rounds)
    if args.strength_games:
        games_an_hour(args.strength_games, args.stop_at, args.strength_rounds)
    if not args.no_ray:
        ray_two_nodes(args.ray_games)


if __name__ == "__main__":
    _common.run(main)
