"""The compiled 2048 search against the C++ reference program (nneonneo/2048-ai), side by side, at equal depth.

    python benchmarks/bench_2048_speed.py [--cpp PROGRAM] [--positions 40] [--depths 3,4,5] [--rounds 3]
    python benchmarks/bench_2048_speed.py --cpp PROGRAM --late 30 [--rounds 3]

--late N: each at its own pace instead, on N late boards (past 8192, standard rules: bench_budgets'), the
decision by decision cost of a move: the C++ program at its depth rule (max(3, distinct tiles - 2), one pass)
against the arcade's agent at pace "c++" (the same rule, one pass, no clock: its act() whole, Python included),
alternated board by board and which goes first, process CPU time each (the C++ program's its own). Printed:
the median and p90 of each side's CPU a decision, the median and p90 of their ratio board by board, the depths,
and how many boards got the same move.

Both search the same mid-game positions (benchmarks/bench_2048.mid_game_positions) at a fixed depth
(chance layers; the C++ program's depth_limit) with the same probability cut-off (1e-4), alternating
position by position and which goes first, each timed in process CPU time. Positions are counted the C++
program's way: every move tried at a player node (its moves_evaled). Printed per depth: positions a CPU
second of each (median and range over the rounds), the ratio of their CPU times on the same positions (the
same work), and how many positions got the same move.

--cpp names the C++ search with the small driver of benchmarks/cpp2048 around it (built by
benchmarks/cpp2048/build.sh in a scratch folder; neither is part of this repository). Without --cpp the C++
side is skipped and every ratio against it is unmeasured.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import _common  # noqa: E402
from _common import ROOT  # noqa: F401  (puts the repository on the path)

from agents.base import best_action
from agents.expectimax_strong import Search
from agents.engines.twenty48 import board64
from cpp2048_program import Cpp
from arcade.settings import Settings

TARGET = 60e6  # positions a CPU second at depths 3-5 (the target; the C++ program's range: 40-66M)


def ours(search: Search, board: np.ndarray, depth: int) -> tuple[int, float, int]:
    t0 = time.process_time()
    values = search.root(board, depth)
    return search.positions, time.process_time() - t0, best_action(values)


def main() -> None:
    ap = _common.Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cpp", help="the C++ program (see above); without it the C++ side is unmeasured")
    ap.add_argument("--positions", type=int, default=40, positive=True)
    ap.add_argument("--depths", default="3,4,5")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--late", type=int, default=0, help="N late boards, each side at the C++ program's pace")
    args = ap.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    if args.late:
        if not args.cpp:
            ap.error("--late compares with the C++ program: give --cpp PROGRAM")
        return at_the_cpp_pace(Cpp(args.cpp), args.late, args.rounds)
    return at_equal_depths(Cpp(args.cpp) if args.cpp else None, args.positions, depths, args.rounds)


def at_equal_depths(cpp: Cpp | None, positions: int, depths: list[int], rounds: int) -> None:
    """Positions a CPU second of each side at each fixed depth on mid-game boards (see the module's docstring)."""
    from bench_2048 import mid_game_positions

    p_min = Settings().agent_params("2048", "expectimax").min_probability
    boards = [s.board for s in mid_game_positions(positions)]
    search = Search(0.1, p_min)
    search.root(boards[0], 2)  # compiled (or loaded from the cache) before timing
    print(f"== the compiled search{' and the C++ program' if cpp else ''}: {len(boards)} mid-game 4x4 positions, "
          f"p(4) = 0.1, cut-off {p_min:g}, fixed depth, {rounds} rounds alternating, process CPU time")
    try:
        for depth in depths:
            rates = {"compiled": [], "C++": []}
            ratios, same = [], 0
            for r in range(rounds):
                totals = {"compiled": [0, 0.0], "C++": [0, 0.0]}
                moves = {"compiled": [], "C++": []}
                for i, board in enumerate(boards):
                    sides = [("compiled", lambda board=board, depth=depth: ours(search, board, depth))]
                    if cpp:
                        sides.append(("C++", lambda board=board, depth=depth: cpp.search(int(board64.pack(board)), depth)[:3]))
                    if (i + r) % 2:
                        sides.reverse()
                    for name, run in sides:
                        n, seconds, move = run()
                        totals[name][0] += n
                        totals[name][1] += seconds
                        moves[name].append(move)
                for name, (n, seconds) in totals.items():
                    if seconds:
                        rates[name].append(n / seconds)
                if cpp:
                    ratios.append(totals["C++"][1] / totals["compiled"][1])
                    same = sum(a == b for a, b in zip(moves["compiled"], moves["C++"], strict=True))
            print(f"-- depth {depth}")
            for name, r in rates.items():
                if r:
                    print(f"  {name:8s} {np.median(r) / 1e6:6.1f}M positions a CPU second "
                          f"(rounds {', '.join(f'{x / 1e6:.1f}' for x in r)})")
            line = f"  target >= {TARGET / 1e6:.0f}M: {'met' if np.median(rates['compiled']) >= TARGET else 'NOT met'}"
            if cpp:
                line += (f"; C++ time / compiled time on the same positions: x{np.median(ratios):.2f} "
                         f"(rounds {min(ratios):.2f} .. {max(ratios):.2f}); same move on {same}/{len(boards)}")
            else:
                line += "; against the C++ program: unmeasured (no --cpp)"
            print(line, flush=True)
    finally:
        if cpp:
            cpp.close()


def at_the_cpp_pace(cpp: Cpp, count: int, rounds: int) -> None:
    """Each side's CPU a decision at the C++ program's pace on `count` late boards (see --late)."""
    from agents import find
    from arcade.games import make_rules
    from bench_budgets import late_2048_positions
    from cpp2048_program import OWN_RULE

    settings = Settings().with_table("game2048", spawn_four_probability=0.1).with_table("agents", budget_clock="none")
    settings = settings.with_agent("expectimax", game="2048", pace="c++")
    rules = make_rules("2048", settings)
    agent = find("2048", "expectimax").create(rules, settings)
    states = late_2048_positions(count, 7)
    agent.act(states[0])  # compiled (or loaded) before timing
    print(f"== at the C++ program's pace: {len(states)} late boards (past 8192, standard rules), each side one "
          f"pass at max(3, distinct tiles - 2), {rounds} rounds alternating, process CPU time a decision")
    mine, theirs, ratios, same, depths = [], [], [], 0, []
    try:
        for r in range(rounds):
            for i, state in enumerate(states):
                packed = int(board64.pack(state.board))
                sides = ["arcade", "C++"] if (i + r) % 2 == 0 else ["C++", "arcade"]
                got = {}
                for side in sides:
                    if side == "C++":
                        _, seconds, move, depth = cpp.search(packed, OWN_RULE)
                        got[side] = (seconds, move, depth)
                    else:
                        t0 = time.process_time()
                        move = agent.act(state)
                        got[side] = (time.process_time() - t0, move, agent.figures().get("depth"))
                mine.append(got["arcade"][0])
                theirs.append(got["C++"][0])
                ratios.append(got["arcade"][0] / max(got["C++"][0], 1e-6))
                if r == 0:
                    same += got["arcade"][1] == got["C++"][1]
                    depths.append((got["arcade"][2], got["C++"][2]))
            print(f"  round {r + 1} of {rounds} done", flush=True)
    finally:
        cpp.close()
    for name, values in (("arcade (pace c++)", mine), ("C++ program", theirs)):
        v = np.array(values) * 1000
        print(f"  {name:18s} CPU a decision: median {np.median(v):7.1f} ms  p90 {np.percentile(v, 90):7.1f} ms  "
              f"max {v.max():7.1f} ms  (n={v.size})")
    ratio = np.array(ratios)
    print(f"  arcade / C++ on the same board: median x{np.median(ratio):.2f}, p90 x{np.percentile(ratio, 90):.2f} "
          f"(target: no more than x1.00 at both)")
    agree = sum(a == b for a, b in depths)
    print(f"  depth searched the same on {agree}/{len(depths)} boards (depths {min(d for d, _ in depths)}-"
          f"{max(d for d, _ in depths)}); the same move on {same}/{len(states)}")


if __name__ == "__main__":
    _common.run(main)
