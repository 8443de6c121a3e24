"""2048 agents' strength (the strong expectimax by default): whole games on every core (or a Ray cluster),
resumable.

Each rule set is a run of the arcade's game runner (arcade/runner.py): every finished game is appended to
its log under data/runs/ (--log-dir: the logs quoted in the README are in docs/benchmarks) as it finishes, the figures are read from the logs, and running the same
command again continues a stopped run (the games already in a log are not played again).

    python benchmarks/bench_2048_strength.py --games 12 --stop-at 0        # played to the end, all cores
    python benchmarks/bench_2048_strength.py --games 12 --stop-at 0 --ray  # on a Ray cluster
    python benchmarks/bench_2048_strength.py --summary                     # only the figures of the logs
    python benchmarks/bench_2048_strength.py --paired --log-dir docs/benchmarks  # the C++-pace runs, game by game
    python benchmarks/bench_2048_strength.py --agent expectimax-ntuple --rules standard --games 12
    python benchmarks/bench_2048_strength.py --agent ntuple --rules standard --games 1000
    python benchmarks/bench_2048_strength.py --agent c++ --cpp PROGRAM --rules standard --games 24

--agent c++ plays the C++ reference program (nneonneo/2048-ai, built with benchmarks/cpp2048/build.sh in a
scratch folder, never part of this repository) at its own pace on the same games: the arcade's rules and seeds
draw every tile, the program only chooses the moves. Its CPU a game is the program's own process time.

Every agent plays the same games for the same seeds (game i from SEED + i), so two agents' logs pair up
game by game (benchmarks/bench_ntuple.py --compare prints the paired differences).
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import _common  # noqa: E402
from _common import ROOT, mean_ci, ms_stats, run_logged

from agents import find
from cpp2048_program import CppPlayer
from agents.expectimax_strong import PACES
from arcade import runner
from arcade.run_log import kept_path
from arcade.games import make_rules
from arcade.games.twenty48 import ReachesTile
from arcade.settings import Settings

RULE_SETS = {  # spawn probability of a 4: name, targets (tile, share of games)
    0.1: ("standard rules, a 4 with probability 0.1", ((8192, 0.95), (16384, 0.70), (32768, 0.36))),
    0.0: ("the course's rules, 2-tiles only", ((16384, 0.80),)),
}
SEED = 1000
LOGS = ROOT / "data" / "runs"  # (the repository's docs/benchmarks is written only when --log-dir names it)


def log_path(p_four: float, stop_at: int, budget_ms: int, clock: str, agent: str = "expectimax", folder=None,
             pace: str = "budget"):
    stop = f"stop{stop_at}" if stop_at else "to-the-end"
    who = "" if agent == "expectimax" else "cpp-2048-ai_" if agent == CPP else f"{agent}_"  # (expectimax: the old names)
    paced = f"{budget_ms}ms_{clock}" if pace == "budget" else f"{pace.replace('+', 'p')}-pace"
    return Path(folder or LOGS) / f"2048_strength_{who}p{p_four}_{paced}_{stop}.jsonl"


CPP = "c++"  # --agent: the C++ reference program rather than an arcade agent


def players_for(p_four: float, budget_ms: int, stop_at: int, clock: str, agent: str = "expectimax",
                pace: str = "budget", cpp: str | None = None):
    settings = Settings().with_table("game2048", spawn_four_probability=p_four).with_table("agents", budget_clock=clock)
    paced = {"time_budget_ms": budget_ms} if pace == "budget" else {"pace": pace}
    searcher = agent if agent in ("expectimax", "expectimax-ntuple") else "expectimax"  # (what other agents may ask)
    settings = settings.with_agent(searcher, game="2048", **paced)
    rules = make_rules("2048", settings)
    agent = CppPlayer(cpp) if agent == CPP else find("2048", agent).create(rules, settings)
    return settings, runner.Players(rules, agent, until=ReachesTile(stop_at) if stop_at else None)


def tile_shares(tiles: np.ndarray) -> str:
    parts, t = [], 256
    while t <= max(tiles.max(), 4096):
        parts.append(f"{t}: {np.mean(tiles >= t):.0%}")
        t *= 2
    return "  ".join(parts)


def summarize(p_four: float, records: list[dict], stop_at: int) -> None:
    name, targets = RULE_SETS[p_four]
    if not records:
        print(f"-- {name}: no game finished")
        return
    tiles = np.array([r["outcome"]["max_tile"] for r in records])
    scores = [r["score"] for r in records]
    stopped = f" (games stopped at {stop_at})" if stop_at else " (played to the end)"
    print(f"-- {name}: {len(records)} games{stopped}")
    print("  " + "  ".join(f"{t} in {np.mean(tiles >= t):.0%} (reference {share:.0%})" for t, share in targets
                           if not stop_at or t <= stop_at))
    print(f"  largest tile: {tile_shares(tiles)}")
    mean, ci = mean_ci(scores)
    print(f"  score mean {mean:.0f} +- {ci:.0f}, median {np.median(scores):.0f}; moves per game median "
          f"{np.median([r['moves'] for r in records]):.0f}")
    cpu = [cpu_minutes(r) for r in records if "cpu_s" in r]
    if cpu:
        print(f"  CPU a game (process time): median {np.median(cpu):.1f} min, range {min(cpu):.1f}-{max(cpu):.1f}")
    times = np.array([t for r in records for t in r["decision_ms"]]) / 1000
    print(f"  decision time (wall): {ms_stats(times)}; over 120 ms: {np.mean(times > 0.12):.2%}, over 200 ms: "
          f"{np.mean(times > 0.2):.2%}")


def cpu_minutes(record: dict) -> float:
    """A logged game's CPU in minutes: the C++ program's own where it played (its figures), else the process's."""
    return record["figures"].get("program_cpu_s", record.get("cpu_s", 0)) / 60


def paired_at_cpp_pace(log_dir) -> None:
    """The C++-pace logs side by side, game by game on the same seeds: the heuristic search, the learnt search
    one layer shallower, the C++ program (each game's largest tile and score; what each log holds)."""
    logs = {"heuristic (c++ pace)": log_path(0.1, 0, 0, "cpu", "expectimax", log_dir, "c++"),
            "learnt (c++-1 pace)": log_path(0.1, 0, 0, "cpu", "expectimax-ntuple", log_dir, "c++-1"),
            "the C++ program": log_path(0.1, 0, 0, "cpu", CPP, log_dir, "c++")}
    games = {name: {r["seed"]: r for r in runner.GameLog.open(path).records} if kept_path(path) else {}
             for name, path in logs.items()}
    seeds = sorted(set().union(*(g.keys() for g in games.values())))
    print(f"-- the C++-pace runs game by game (standard rules; {', '.join(f'{n}: {len(g)}' for n, g in games.items())}"
          " games)")
    print("  seed  " + "".join(f"{name:>28}" for name in logs))
    for seed in seeds:
        cells = []
        for g in games.values():
            r = g.get(seed)
            if r is None:
                cells.append("-")
                continue
            cells.append(f"{r['outcome']['max_tile']:>8} {r['score']:>10,} {cpu_minutes(r):5.1f}m")
        print(f"  {seed:>4}  " + "".join(f"{c:>28}" for c in cells))
    print("  (each cell: the largest tile, the score, the CPU minutes of the game)")


def main():
    ap = _common.Parser()
    ap.add_argument("--games", type=int, default=12, help="games a rule set")
    ap.add_argument("--agent", default="expectimax", help="expectimax (default), expectimax-ntuple, ntuple, ...")
    ap.add_argument("--cpp", metavar="PROGRAM", help="with --agent c++: the program benchmarks/cpp2048/build.sh made")
    ap.add_argument("--stop-at", type=int, default=0, help="a game ends at this tile; 0 plays it out")
    ap.add_argument("--budget-ms", type=int, default=100)
    ap.add_argument("--pace", choices=PACES, default="budget",
                    help="the strong searches' pace: budget (--budget-ms a move), c++ (the C++ program's depth rule, "
                         "one pass, no clock), c++-1 (that rule less one layer), depth (one pass at max_depth)")
    ap.add_argument("--budget-clock", choices=("wall", "cpu"), default="cpu",
                    help="cpu (default): the search's own CPU time, so the figures do not depend on the load")
    ap.add_argument("--rules", choices=("standard", "course", "both"), default="both")
    ap.add_argument("--jobs", type=int, default=runner.default_jobs())
    ap.add_argument("--ray", nargs="?", const="auto", metavar="ADDRESS")
    ap.add_argument("--summary", action="store_true", help="only print the figures of the logs")
    ap.add_argument("--paired", action="store_true", help="only the C++-pace logs side by side, game by game")
    ap.add_argument("--log-dir", default=str(LOGS), help="where the logs are (default data/runs; the README's runs: "
                                                         "docs/benchmarks)")
    args = ap.parse_args()
    if args.paired:
        return paired_at_cpp_pace(args.log_dir)
    if args.agent == CPP and not args.summary and not (args.cpp and Path(args.cpp).is_file()):
        ap.error("--agent c++ needs --cpp PROGRAM, the program benchmarks/cpp2048/build.sh made")
    if args.agent == CPP:
        args.pace = "c++"  # (the program's own: its depth rule, no clock)
    chosen = {"standard": (0.1,), "course": (0.0,), "both": (0.1, 0.0)}[args.rules]
    backend = runner.backend_of(args.jobs, args.ray)
    paced = f"{args.budget_ms} ms a move ({args.budget_clock} time)" if args.pace == "budget" else f"{args.pace} pace"
    print(f"== {args.agent}, 4x4, {paced}, {args.games} games a rule set from seed {SEED}"
          + ("" if args.summary else f", on {backend.name}"))
    for p_four in chosen:
        settings, players = players_for(p_four, args.budget_ms, args.stop_at, args.budget_clock, args.agent, args.pace,
                                       args.cpp)
        path = log_path(p_four, args.stop_at, args.budget_ms, args.budget_clock, args.agent, args.log_dir, args.pace)
        spec = runner.RunSpec.of("2048", args.agent, None, args.games, SEED, settings)
        log = runner.GameLog.open(path) if kept_path(path) else None
        if log is not None and log.spec.stands_to(spec, 1) is None:
            print(f"  {path.name} holds another run ({log.spec.describe()}); its figures:")
            summarize(p_four, log.records, args.stop_at)
            continue
        if not args.summary:
            t0 = time.perf_counter()
            records, complete = run_logged(players, spec, path, backend, RULE_SETS[p_four][0])
            print(f"  wall time {(time.perf_counter() - t0) / 60:.1f} min"
                  + ("" if complete else " (stopped: run the same command to continue)"))
            summarize(p_four, records, args.stop_at)
            if not complete:
                break
            continue
        summarize(p_four, log.records if log else [], args.stop_at)
    backend.shutdown()


if __name__ == "__main__":
    _common.run(main)
