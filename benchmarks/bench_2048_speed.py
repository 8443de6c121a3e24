"""The strong 2048 search's speed against an earlier version of itself, at equal depth.

    python benchmarks/bench_2048_speed.py [--against REV] [--positions 40] [--depths 3,4,5] [--rounds 3]

The C++ reference program (nneonneo/2048-ai) cannot be built here, so issue 27's speed target (the C++
program at most 2.5x faster per position, from 4.2x / 5.5x / 5.7x at depths 3 / 4 / 5 when the issue was
written) is measured against the search as it was then: REV (default: the commit before issue 27's first
change) is checked out in a temporary git worktree, and the two searches run alternately in fresh processes,
each on the same mid-game positions (BitSearch.root at a fixed depth, one search object per position, no cache
between them). Printed per depth: positions a second of each (median and range over the rounds), the ratio
of their times on the same positions (the same work), how many positions got the same move, and the C++
program's lead that leaves (its lead at the issue divided by the ratio).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _common import ROOT

from arcade.games import board64

ISSUE_TIME = "e2e990b~1"  # the search when issue 27 was written
CPP_LEAD_AT_ISSUE = {3: 4.2, 4: 5.5, 5: 5.7}  # the C++ program's positions a second over the search then
TARGET_LEAD = 2.5

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
from agents.base import best_action
from agents.expectimax_strong import BitSearch
from arcade.games import board64
boards = board64.unpack(np.load(sys.argv[2]))
depth, p_min = int(sys.argv[3]), float(sys.argv[4])
BitSearch(0.1, p_min).root(boards[0], 1)  # the tables, built before timing
searched, seconds, moves = 0, 0.0, []
for board in boards:
    search = BitSearch(0.1, p_min)
    t0 = time.perf_counter()
    values = search.root(board, depth)
    seconds += time.perf_counter() - t0
    searched += search.positions
    moves.append(best_action(values))
print(json.dumps({"positions": searched, "seconds": seconds, "moves": moves}))
"""


def run_child(tree: Path, boards_file: Path, depth: int, p_min: float) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(boards_file), str(depth), str(p_min)],
                         cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", default=ISSUE_TIME, help="the git revision to compare with")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--depths", default="3,4,5")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    depths = [int(d) for d in args.depths.split(",")]

    from bench_2048 import DEFAULTS, mid_game_positions

    p_min = DEFAULTS.game2048.strong_min_probability
    rev = subprocess.run(["git", "rev-parse", "--short", args.against], cwd=ROOT, capture_output=True,
                         text=True)
    if rev.returncode:
        sys.exit(f"--against {args.against}: not a revision of this repository ({rev.stderr.strip()}); "
                 f"give a commit hash or a name git knows")
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp) / "then"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(old_tree), args.against], cwd=ROOT,
                       check=True)
        try:
            boards_file = Path(tmp) / "positions.npy"
            np.save(boards_file, board64.pack(np.array([s.board for s in mid_game_positions(args.positions)])))
            trees = {"then": old_tree, "now": ROOT}
            print(f"== the strong search now against {args.against} ({rev.stdout.strip()}): {args.positions} "
                  f"mid-game 4x4 positions, fixed depth, p(4) = 0.1, {args.rounds} rounds alternating, "
                  f"a fresh process each")
            for depth in depths:
                rates = {name: [] for name in trees}
                ratios, same = [], 0
                for r in range(args.rounds):
                    order = list(trees) if r % 2 == 0 else list(trees)[::-1]
                    found = {name: run_child(trees[name], boards_file, depth, p_min) for name in order}
                    for name, f in found.items():
                        rates[name].append(f["positions"] / f["seconds"])
                    ratios.append(found["then"]["seconds"] / found["now"]["seconds"])
                    same = sum(a == b for a, b in zip(found["then"]["moves"], found["now"]["moves"]))
                print(f"-- depth {depth}")
                for name, r in rates.items():
                    print(f"  {name:5s} {np.median(r) / 1e6:6.2f}M positions/s  "
                          f"(rounds {', '.join(f'{x / 1e6:.2f}' for x in r)})")
                ratio = float(np.median(ratios))
                line = (f"  now / then: x{ratio:.2f} (rounds {min(ratios):.2f} .. {max(ratios):.2f}); "
                        f"same move on {same}/{args.positions}")
                if args.against == ISSUE_TIME and depth in CPP_LEAD_AT_ISSUE:
                    lead = CPP_LEAD_AT_ISSUE[depth]
                    line += (f"; the C++ program's lead {lead}x at the issue -> {lead / ratio:.2f}x now "
                             f"(target <= {TARGET_LEAD}x: x{lead / TARGET_LEAD:.2f} needed)")
                print(line, flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old_tree)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
