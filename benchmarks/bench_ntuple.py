"""The ntuple 2048 learner's figures: training speed, the shipped network's size, load time and time a move,
and (from the strength runs' logs) its strength and the learnt evaluation against the heuristic in search.

    python benchmarks/bench_ntuple.py                  # training speed, load, time a move (a few minutes)
    python benchmarks/bench_ntuple.py --compare        # figures of the strength logs (no games played)
    python benchmarks/bench_ntuple.py --late A.npz B.npz   # networks paired on the game past 16384 (a few min)
    python benchmarks/bench_ntuple.py --curves A.csv B.csv # training runs' learning curves side by side

Training speed is measured on one core, in process CPU time, in fresh processes pinned to one CPU: the
compiled learner (fixed rates and temporal coherence) against the numpy learner it replaced (batched TD,
1,024 games in lockstep, run from git revision --against in a temporary worktree), alternated over rounds,
all learning into a copy of the shipped network (so the games are as long as a trained network's); with
--cores S, one thread against every core for S seconds each. Strength comes from
benchmarks/bench_2048_strength.py's logs (games to the end, resumable):

    python benchmarks/bench_2048_strength.py --agent ntuple --rules standard --games 1000 --log-dir data/runs
    python benchmarks/bench_2048_strength.py --agent expectimax-ntuple --rules standard --games 12

(--compare reads docs/benchmarks and data/runs, or the folders after --logs.)
"""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import _common  # noqa: E402
from _common import ROOT, mean_ci, wilson

from agents.ntuple import ASSETS, NTupleAgent, filename, read
from agents.ntuple_net import NTupleNetwork
from arcade.run_log import kept_path
from agents.ntuple_td import Report, Restart, TDGames, train
from arcade.games.twenty48 import Rules2048
from arcade.settings import Settings
from arcade.training import read_curve_file

P_FOUR = 0.1
SHIPPED = ASSETS / filename(P_FOUR)
LOGS = (ROOT / "docs" / "benchmarks", ROOT / "data" / "runs")


NUMPY_LEARNER = "aa3ca9c"  # the last revision with the numpy learner (batched TD)
CHILD = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
import numpy as np
from pathlib import Path
from agents.ntuple import read
from agents.ntuple_net import Coherence, NTupleNetwork
import agents.ntuple_td as td_module
kind, seconds, seed = sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
net = read(Path(sys.argv[2]), "x").net
net = NTupleNetwork(net.tuple_set, np.array(net.weights))
coherence = Coherence(net.size) if kind.endswith("coherent") else None
rng = np.random.default_rng(seed)
if kind.startswith("numpy"):
    td = td_module.BatchTD(net, 0.1, 0.1, 1024, rng, coherence=coherence)
    step = td.step
else:
    td = td_module.TDGames(net, 0.1, 0.1, rng, coherence=coherence)
    step = td.step
for _ in range(3):  # warm: compiled, tables built, pages touched
    step()
start, before = time.process_time(), td.moves
while time.process_time() - start < seconds:
    step()
print(json.dumps((td.moves - before) / (time.process_time() - start)))
"""


def moves_a_second(tree: Path, kind: str, seconds: float, seed: int) -> float:
    """Moves a CPU second of one learner (`kind`: compiled / numpy, optionally + "-coherent") in a fresh
    process pinned to one core, the code from `tree`."""
    out = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(SHIPPED), kind, str(seconds), str(seed)],
                         cwd=tree, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def training_speed(rounds: int, seconds: float, against: str) -> None:
    if read(SHIPPED, "x") is None:
        print(f"no shipped network at {SHIPPED}: train one first (README)")
        return
    import tempfile

    rates = {"compiled": [], "compiled-coherent": [], "numpy": [], "numpy-coherent": []}
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "then"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(old), against], cwd=ROOT, check=True)
        try:
            for r in range(rounds):  # alternated, so a noisy spell hits all four
                kinds = list(rates) if r % 2 == 0 else list(rates)[::-1]
                for kind in kinds:
                    rates[kind].append(moves_a_second(old if kind.startswith("numpy") else ROOT, kind, seconds, r))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    print(f"-- training speed, one core, process CPU time, {rounds} rounds of {seconds:g} s each, alternated; "
          f"the numpy learner from {against}")
    for kind, r in rates.items():
        print(f"  {kind:18s} median {np.median(r):>12,.0f} moves a CPU second ({min(r):,.0f}-{max(r):,.0f})")
    for rate in ("", "-coherent"):
        ratio = np.array(rates["compiled" + rate]) / np.array(rates["numpy" + rate])
        print(f"  compiled / numpy{rate}: x{np.median(ratio):.2f} ({ratio.min():.2f}-{ratio.max():.2f})")
    print(f"  target: the compiled learner >= 2,000,000 with the default tuples "
          f"({'met' if np.median(rates['compiled']) >= 2e6 else 'NOT met'})")


def cores_scaling(rounds: int, seconds: float) -> None:
    """Training on one thread against every core (Hogwild threads on the same weights), moves a second of a
    whole training call (finished games' moves), alternated."""
    loaded = read(SHIPPED, "x")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    rates = {1: [], cores: []}
    for r in range(rounds):
        for jobs in (rates if r % 2 == 0 else list(rates)[::-1]):
            net = NTupleNetwork(loaded.net.tuple_set, np.array(loaded.net.weights))
            deadline = time.perf_counter() + seconds
            figures = train(net, 10**9, P_FOUR, 0.1, np.random.default_rng(r), jobs=jobs,
                            report=Report(stop=lambda deadline=deadline: time.perf_counter() > deadline))
            rates[jobs].append(figures["moves"] / figures["seconds"])
    one, many = np.array(rates[1]), np.array(rates[cores])
    print(f"-- training on every core: {rounds} rounds of {seconds:g} s, alternated (finished games' moves, wall)")
    print(f"  1 thread: median {np.median(one):,.0f} moves/s; {cores} threads: median {np.median(many):,.0f} "
          f"moves/s: x{np.median(many / one):.2f} ({(many / one).min():.2f}-{(many / one).max():.2f}); target x1.8")


def load_and_move_times(loads: int) -> None:
    size = SHIPPED.stat().st_size / 1e6
    code = ("import time, sys; sys.path.insert(0, %r); t = time.perf_counter(); from agents.ntuple import read; "
            "from pathlib import Path; read(Path(%r), 'x'); print(time.perf_counter() - t)") % (str(ROOT), str(SHIPPED))
    times = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
             for _ in range(loads)]
    loaded = read(SHIPPED, "x")
    print(f"-- the shipped network {SHIPPED.name}: {size:.1f} MB on disk (target <= 32), tuples "
          f"{loaded.meta['tuples']}, {loaded.net.nonzero():,} weights learnt, trained {int(loaded.meta['games']):,} "
          f"games / {int(loaded.meta['moves']):,} moves")
    print(f"  cold load in a fresh process: median {np.median(times):.2f} s, max {max(times):.2f} s over {loads} "
          "(target < 2 s)")
    rules = Rules2048(spawn_four_probability=P_FOUR)
    agent = NTupleAgent(rules, Settings().with_table("game2048", spawn_four_probability=P_FOUR))
    rng = np.random.default_rng(0)
    state, took = rules.new_state(rng), []
    while not rules.is_terminal(state) and len(took) < 3000:
        t = time.perf_counter()
        action = agent.act(state)
        took.append(time.perf_counter() - t)
        state = rules.step(state, action, rng)
    took = np.array(took) * 1000
    print(f"  a move at 1 ply: median {np.median(took):.3f} ms, p99 {np.percentile(took, 99):.3f} ms over "
          f"{took.size} moves (target < 1 ms)")


LATE_TILE = 16384


def late_starts(net: NTupleNetwork, n: int, seed: int) -> np.ndarray:
    """`n` boards on which games from the start, played by `net` at 1 ply, first made LATE_TILE (kept by the
    trainer's restart pool, at learning rate 0 and with no restarts)."""
    td = TDGames(net, P_FOUR, 0.0, np.random.default_rng(seed), Restart(LATE_TILE, 0.0))
    while td.pooled < n:
        td.step()
    return td.pool[:n].copy()


def play_out(net: NTupleNetwork, starts: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Each start played to the end by `net` at 1 ply: (the points scored from it, the largest exponent)."""
    from agents.engines.twenty48.kernels import G_BOARD

    td = TDGames(net, P_FOUR, 0.0, np.random.default_rng(seed), ended_rows=1)  # a step ends with its game
    points, tops = np.zeros(starts.size, dtype=np.int64), np.zeros(starts.size, dtype=np.int64)
    for i, start in enumerate(starts):
        td.game[:] = 0
        td.game[G_BOARD] = start
        scores, top, _, _ = td.step(10**9)
        points[i], tops[i] = scores[0], top[0]
    return points, tops


def late_game(paths: list[str], n: int, rounds: int) -> None:
    """The networks in `paths` paired on the same boards past LATE_TILE: the points each scores from there
    and the share that makes 32768, at 1 ply (the boards are made by the first network)."""
    nets = []
    for path in paths:
        loaded = read(Path(path), "x")
        if loaded is None:
            sys.exit(f"--late {path}: not a network file this arcade can read")
        nets.append(loaded.net)
    print(f"-- the game past {LATE_TILE} at 1 ply: {rounds} rounds of {n} boards on which {Path(paths[0]).name} "
          f"first made {LATE_TILE}, each network from the same boards")
    points = {k: [] for k in range(len(nets))}
    tops = {k: [] for k in range(len(nets))}
    for r in range(rounds):
        starts = late_starts(nets[0], n, seed=100 + r)
        for k, net in enumerate(nets):
            got, top = play_out(net, starts, seed=200 + r)
            points[k].append(got)
            tops[k].append(top)
    base = np.concatenate(points[0])
    for k, path in enumerate(paths):
        got, top = np.concatenate(points[k]), np.concatenate(tops[k])
        made = int((top >= 15).sum())
        lo, hi = wilson(made, top.size)
        line = (f"  {Path(path).name}: points from there mean {got.mean():,.0f} +- {mean_ci(got)[1]:,.0f}; "
                f"32768 in {made / top.size:.1%} ({lo:.0%}-{hi:.0%})")
        if k:
            mean, ci = mean_ci(got - base)
            line += f"; paired against the first {mean:+,.0f} +- {ci:,.0f}"
        print(line)


def records(name: str, folders=LOGS) -> dict[int, dict]:
    """The games of the first log called `name` in `folders`, by index."""
    path = next((kept_path(Path(folder) / name) for folder in folders if kept_path(Path(folder) / name)), None)
    if path is None:
        return {}
    out = {}
    with (gzip.open if path.suffix == ".gz" else open)(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            try:
                row = json.loads(line)
            except ValueError:  # a line a kill cut short
                continue
            if "index" in row and "score" in row:
                out[row["index"]] = row
    return out


def shares(rows: list[dict]) -> str:
    tiles = np.array([r["outcome"]["max_tile"] for r in rows])
    parts = []
    for t in (2048, 4096, 8192, 16384, 32768):
        lo, hi = wilson(int((tiles >= t).sum()), tiles.size)
        parts.append(f"{t}: {np.mean(tiles >= t):.1%} ({lo:.0%}-{hi:.0%})")
    return "  ".join(parts)


def compare(folders=LOGS) -> None:
    one_ply = records("2048_strength_ntuple_p0.1_100ms_cpu_to-the-end.jsonl", folders)
    if one_ply:
        rows = list(one_ply.values())
        mean, ci = mean_ci([r["score"] for r in rows])
        ms = np.concatenate([r["decision_ms"] for r in rows])
        print(f"-- ntuple at 1 ply, standard rules, {len(rows)} games to the end")
        print(f"  reaching {shares(rows)}")
        print(f"  score mean {mean:,.0f} +- {ci:,.0f}; decision median {np.median(ms):.3f} ms, p99 "
              f"{np.percentile(ms, 99):.3f} ms (target: 2048 in >= 90% at < 1 ms a move)")
    heuristic = records("2048_strength_p0.1_100ms_cpu_to-the-end.jsonl", folders)
    learned = records("2048_strength_expectimax-ntuple_p0.1_100ms_cpu_to-the-end.jsonl", folders)
    both = sorted(set(heuristic) & set(learned))
    print(f"-- expectimax at 100 ms (CPU time), standard rules, to the end: heuristic {len(heuristic)} games, "
          f"learnt evaluation {len(learned)} games, {len(both)} paired (same seeds)")
    for label, rows in (("heuristic", [heuristic[i] for i in both]), ("ntuple", [learned[i] for i in both])):
        if rows:
            mean, ci = mean_ci([r["score"] for r in rows])
            print(f"  {label:9s}: mean {mean:,.0f} +- {ci:,.0f}; {shares(rows)}")
    if len(both) >= 2:
        diff = [learned[i]["score"] - heuristic[i]["score"] for i in both]
        mean, ci = mean_ci(diff)
        print(f"  paired difference (ntuple - heuristic): {mean:+,.0f} +- {ci:,.0f}")


CURVE_LEVELS = (40_000, 60_000, 80_000, 100_000, 120_000)  # mean scores a learning curve is timed to


def read_curve(path: str) -> tuple[np.ndarray, np.ndarray]:
    """(games, mean score) of a `train --curve` file's points, in order."""
    try:
        points = [(games, values["mean score"]) for games, values in read_curve_file(path) if "mean score" in values]
    except OSError as exc:
        sys.exit(f"--curves {path}: cannot read it ({exc.strerror})")
    if not points:
        sys.exit(f"--curves {path}: no 'mean score' points (a file written by main.py train --curve)")
    games, means = zip(*points, strict=True)
    return np.array(games), np.array(means)


def curves(paths: list[str]) -> None:
    """Learning curves of training runs side by side: the mean score of each at the same game counts (the
    first run's points; the others' nearest point), and the games each took until a block's
    mean first reached each of CURVE_LEVELS (a point is the mean of the block of games that ends there)."""
    read = [read_curve(p) for p in paths]
    names = [Path(p).stem for p in paths]
    print(f"-- learning curves ({', '.join(names)}): block mean score at the same games")
    games0 = read[0][0]
    marks = sorted({int(games0[int(k)]) for k in np.linspace(0, games0.size - 1, min(12, games0.size))})
    w = max(14, *(len(n) + 2 for n in names))  # a column's width
    print("  " + f"{'games':>9}" + "".join(f"{n:>{w}}" for n in names))
    # how far past its last point a run still answers (half its widest spacing; a run not that far yet: none)
    reach = [games[-1] + (np.diff(games).max() if games.size > 1 else games[0]) / 2 for games, _ in read]
    for g in marks:
        row = []
        for (games, means), last in zip(read, reach, strict=True):
            at = int(np.abs(games - g).argmin())
            row.append(f"{means[at]:>{w},.0f}" if g <= last else f"{'-':>{w}}")
        print(f"  {g:>9,}" + "".join(row))
    print("  games until a block's mean first reached:")
    for level in CURVE_LEVELS:
        cells = []
        for games, means in read:
            hit = np.flatnonzero(means >= level)
            cells.append(f"{games[hit[0]]:>{w},}" if hit.size else f"{'not yet':>{w}}")
        print(f"  {level:>9,}" + "".join(cells))


def main() -> None:
    ap = _common.Parser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=4.0, help="each training-speed measurement")
    ap.add_argument("--loads", type=int, default=5, help="fresh processes timing the network's load")
    ap.add_argument("--compare", action="store_true", help="only the figures of the strength logs")
    ap.add_argument("--cores", type=float, default=0, help="also: seconds of each one-thread / all-cores "
                                                           "training run (0: skip)")
    ap.add_argument("--against", default=NUMPY_LEARNER, help="the git revision whose (numpy) learner is the "
                                                            "baseline of the training speed")
    ap.add_argument("--late", nargs="+", metavar="NETWORK", help="only: these network files paired on the game "
                                                                  f"past {LATE_TILE} at 1 ply")
    ap.add_argument("--late-boards", type=int, default=256, help="boards a round of --late")
    ap.add_argument("--logs", nargs="+", metavar="FOLDER", default=[str(f) for f in LOGS],
                    help="where --compare reads the strength logs, the first holding each name (default "
                         "docs/benchmarks, then data/runs)")
    ap.add_argument("--curves", nargs="+", metavar="CSV", help="only: these training runs' learning curves "
                                                               "(main.py train --curve files) side by side")
    args = ap.parse_args()
    if args.curves:
        curves(args.curves)
        return
    if args.late:
        late_game(args.late, args.late_boards, args.rounds)
        return
    if args.cores > 0:
        cores_scaling(args.rounds, args.cores)
    if not args.compare:
        training_speed(args.rounds, args.seconds, args.against)
        load_and_move_times(args.loads)
    compare(args.logs)


if __name__ == "__main__":
    _common.run(main)
