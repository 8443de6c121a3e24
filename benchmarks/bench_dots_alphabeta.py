"""The compiled dots alpha-beta against the Python search it replaced (benchmarks/baselines/alphabeta_dots_python.py).

    python benchmarks/bench_dots_alphabeta.py [--positions 20] [--rounds 3] [--games 100] [--size 5x5]
                                              [--jobs N] [--ray [ADDRESS]] [--log-dir DIR]

Prints, each part skipped when its count is 0:
- speed: positions a CPU second (process CPU time, one core) of both searches on the same mid-game positions
  of 4x4 and 5x5 (random lines that give no box a third side), each at the depth the Python one finishes in
  about 0.2-2 s, a fresh table each; the two alternate position by position, in `--rounds` rounds. Per board:
  the median and range of each, and the median of the per-position ratios (target: at least 10x). Both
  searches must give every root line the same value (said when they do not).
- the match: `--games` games on the board (default 5x5), both at the settings' budget a move (alpha-beta's,
  1 s), in pairs: each random opening (4-8 safe lines) played twice, the compiled search first and then
  second. Wins and the score share (a draw half) with a 95% interval (target: at least 60%), the box margin,
  and the decision times of both (target: none of the compiled one's over 1.3 s). Each finished game is
  appended to the match's log in --log-dir (default data/runs); the figures are read from it, and the same
  command run again continues a stopped match.
"""
from __future__ import annotations

import time
from pathlib import Path

import _common  # noqa: F401  (puts the project on the import path)
import numpy as np
from _common import ROOT, mean_ci, ms_stats, run_logged, wilson
from baselines.alphabeta_dots_python import PythonAlphaBeta, Search as PythonSearch

from agents.alphabeta_dots import AlphaBetaDots, Search
from agents.base import time_budget
from agents.engines.dots.board import quiet_position
from arcade import runner
from arcade.games.dots import DotsRules, DotsState, parse_size
from arcade.settings import Settings

DEFAULTS = Settings()
LOGS = ROOT / "data" / "runs"
BUDGET_MS = time_budget(DEFAULTS, DEFAULTS.agent_params("dots", "alpha-beta")) * 1000
BOARDS = {(4, 4): (10, 6), (5, 5): (20, 5)}  # board: (lines drawn, depth searched)


def timed(search, lines: int, depth: int) -> tuple[float, dict]:
    """Positions a CPU second of one search of `lines` at `depth`, and its root values."""
    t0 = time.process_time()
    values, _ = search.root_values(lines, depth, True)
    return search.nodes / (time.process_time() - t0), {a: float(v) for a, v in values.items()}


def speed(count: int, rounds: int, seed: int) -> None:
    print(f"== positions a CPU second, compiled against Python, {count} mid-game positions a board, "
          f"{rounds} rounds alternated (seed {seed})")
    for (rows, cols), (drawn, depth) in BOARDS.items():
        rng = np.random.default_rng(seed)
        positions = [quiet_position(rows, cols, drawn, rng) for _ in range(count)]
        Search(rows, cols).root_values(positions[0], 1, True)  # (compiled or loaded now, not timed)
        fast, slow, ratios, differ = [], [], [], 0
        for r in range(rounds):
            for k, lines in enumerate(positions):
                order = [Search, PythonSearch] if (k + r) % 2 == 0 else [PythonSearch, Search]
                got = {cls: timed(cls(rows, cols), lines, depth) for cls in order}
                (f, fv), (s, sv) = got[Search], got[PythonSearch]
                fast.append(f)
                slow.append(s)
                ratios.append(f / s)
                differ += fv != sv
        print(f"-- {rows}x{cols}, {drawn} lines drawn, depth {depth}: compiled {np.median(fast) / 1e6:.2f}M/s "
              f"({min(fast) / 1e6:.2f}-{max(fast) / 1e6:.2f}M), Python {np.median(slow) / 1e3:.1f}k/s "
              f"({min(slow) / 1e3:.1f}-{max(slow) / 1e3:.1f}k); ratio median x{np.median(ratios):.1f} "
              f"(range x{min(ratios):.1f}-x{max(ratios):.1f}; target >= x10); values differ on {differ} of "
              f"{len(ratios)}")


def openings(rows: int, cols: int, pairs: int, seed: int) -> list[DotsState]:
    """A random opening a pair: 4-8 lines that give no box a third side."""
    rng = np.random.default_rng(seed)
    return [DotsState(rows, cols, quiet_position(rows, cols, int(rng.integers(4, 9)), rng), (0, 0), 0)
            for _ in range(pairs)]


def match(size: tuple[int, int], games: int, seed: int, backend, log_dir) -> None:
    rows, cols = size
    rules = DotsRules(rows, cols)
    starts = openings(rows, cols, (games + 1) // 2, seed)
    jobs = [runner.GameJob(k, seed + k, k % 2, DEFAULTS.seeds.agent, start=starts[k // 2]) for k in range(games)]
    spec = runner.RunSpec.of("dots", "alpha-beta", "alpha-beta-python", games, seed, DEFAULTS,
                             variant=f"dots(rows={rows},cols={cols})-paired-openings")
    players = runner.Players(rules, AlphaBetaDots(rules, DEFAULTS), PythonAlphaBeta(rules, DEFAULTS))
    print(f"== the match: compiled against Python alpha-beta, {BUDGET_MS:.0f} ms a move each, {games} games on "
          f"{rows}x{cols} in pairs from random openings, on {backend.name}")
    name = f"dots_alphabeta_compiled_vs_python_{rows}x{cols}_{games}_seed{seed}.jsonl"
    ran = run_logged(players, spec, Path(log_dir) / name, backend, f"{rows}x{cols} compiled vs Python", jobs)
    if ran is None:
        return
    records, complete = ran
    if not complete:
        raise KeyboardInterrupt
    margins = [r["outcome"]["scores"][r["agent_seat"]] - r["outcome"]["scores"][1 - r["agent_seat"]] for r in records]
    wins, draws = sum(m > 0 for m in margins), sum(m == 0 for m in margins)
    share = (wins + draws / 2) / len(margins)
    lo, hi = wilson(wins + draws // 2, len(margins))
    by_seat = [sum(m > 0 for m, r in zip(margins, records, strict=True) if r["agent_seat"] == s) for s in (0, 1)]
    mean, ci = mean_ci(margins)
    mine = [t / 1000 for r in records for t in r["decision_ms"]]
    theirs = [t / 1000 for r in records for t in r["opponent_ms"]]
    print(f"  compiled {wins} wins, {draws} draws, {len(margins) - wins - draws} losses of {len(margins)}: score share "
          f"{share:.1%} (95% interval {lo:.1%}-{hi:.1%}; target >= 60%); as first {by_seat[0]}, as second "
          f"{by_seat[1]} wins")
    print(f"  box margin mean {mean:+.2f} +- {ci:.2f}")
    print(f"  compiled a move: {ms_stats(mine)}; over 1.3 s: {sum(t > 1.3 for t in mine)} (target 0)")
    print(f"  Python a move:   {ms_stats(theirs)}")


def main():
    ap = _common.Parser()
    ap.add_argument("--positions", type=int, default=20, help="positions a board for the speed part (0: skip)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=100, help="games of the match, in pairs (0: skip)")
    ap.add_argument("--size", default="5x5")
    ap.add_argument("--jobs", type=int, default=runner.default_jobs(), help="games at once (the game runner)")
    ap.add_argument("--ray", nargs="?", const="auto", metavar="ADDRESS", help="games as Ray tasks")
    ap.add_argument("--seed", type=int, default=2041)
    ap.add_argument("--log-dir", default=str(LOGS), help=f"where the per-game logs are (default {LOGS})")
    args = ap.parse_args()
    start = time.perf_counter()
    if args.positions:
        speed(args.positions, args.rounds, args.seed)
    if args.games:
        match(parse_size(args.size), args.games, args.seed, runner.backend_of(args.jobs, args.ray), args.log_dir)
    print(f"wall time {(time.perf_counter() - start) / 60:.1f} min")


if __name__ == "__main__":
    _common.run(main)
