"""Every compiled kernel's speed in this checkout against another commit's, side by side in one run: a
change that moves or rewrites kernels (issue 62's engine packages) must leave each within a few percent.

    .venv/bin/python benchmarks/bench_kernels_vs_commit.py --commit 7cd7d37 [--rounds 5]

The other commit is checked out into a temporary git worktree (removed at the end); each side runs the same
workloads in a fresh process of its own (its kernels compiled or loaded before anything is timed), through
entry points both commits have: mcts's compiled tree on dots 4x4 and tic-tac-toe, the 2048 search (heuristic
at depth 4, network at depth 3), the alpha-beta on dots 4x4, the 2048, match-3 and blackjack playouts. Each workload
is timed in process CPU time; the sides alternate round by round, the first of a round alternating too.
Printed per workload: each side's median seconds, and the ratio this checkout / the commit with its range
over the rounds (below 1: this checkout is faster).
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts the project on the path)
from _common import ROOT, run

WORKLOADS = ("mcts dots 4x4", "mcts tic-tac-toe", "2048 search d4", "2048 search d3 network", "alpha-beta dots 4x4",
             "playouts 2048", "playouts match3", "playouts blackjack")


def _workloads() -> dict:
    """name -> a callable doing the work once (made here, in the side's own process and tree)."""
    import numpy as np

    from agents.alphabeta_dots import Search as DotsSearch
    from agents.expectimax_strong import Search
    from agents.game_search import playout_returns, random_positions
    from agents.mcts import MCTS
    from agents.ntuple_net import NTupleNetwork
    from arcade.games import make_rules
    from arcade.settings import Settings

    counted = Settings().with_table("agents", budget_clock="none").with_agent("mcts", compiled_simulations=40_000)
    dots, ttt = make_rules("dots", counted.with_table("dots", rows=4, cols=4)), make_rules("tictactoe", counted)
    dots_states = random_positions(dots, 6, 0, (10, 20))
    mcts_dots, mcts_ttt = MCTS(dots, counted), MCTS(ttt, counted)
    boards = [s.board for s in random_positions(make_rules("2048", Settings().with_table(
        "game2048", spawn_four_probability=0.1)), 24, 1, (100, 300))]
    heuristic, learnt = Search(0.1, 1e-4), Search(0.1, 1e-4, NTupleNetwork("3x4"))
    solver = DotsSearch(4, 4)
    g2048 = make_rules("2048", Settings().with_table("game2048", spawn_four_probability=0.1))
    m3, bj = make_rules("match3", Settings()), make_rules("blackjack", Settings())
    s2048, sm3 = random_positions(g2048, 1024, 2, (0, 50)), random_positions(m3, 256, 2, (0, 10))
    sbj = [bj.new_state(np.random.default_rng(k)) for k in range(50_000)]
    return {
        "mcts dots 4x4": lambda: [mcts_dots.act(s, np.random.default_rng(k)) for k, s in enumerate(dots_states)],
        "mcts tic-tac-toe": lambda: [mcts_ttt.act(0, np.random.default_rng(k)) for k in range(4)],
        "2048 search d4": lambda: [heuristic.root(b, 4) for b in boards],
        "2048 search d3 network": lambda: [learnt.root(b, 3) for b in boards],
        "alpha-beta dots 4x4": lambda: [solver.root_values(s.lines, 9, True) for s in dots_states],
        "playouts 2048": lambda: playout_returns(g2048, s2048, np.random.default_rng(3), 10_000),
        "playouts match3": lambda: playout_returns(m3, sm3, np.random.default_rng(3), 10_000),
        "playouts blackjack": lambda: playout_returns(bj, sbj, np.random.default_rng(3), 10_000),
    }


def child() -> None:
    """One side's round: each workload once to warm (compile or load), then once timed; JSON on stdout."""
    work = _workloads()
    for w in work.values():
        w()
    out = {}
    for name, w in work.items():
        t0 = time.process_time()
        w()
        out[name] = time.process_time() - t0
    print(json.dumps(out))


def side(tree: Path) -> dict:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child"], cwd=tree, capture_output=True,
                          text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
                          timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"the side in {tree} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    if "--child" in sys.argv:
        sys.path.insert(0, str(Path.cwd()))
        child()
        return
    ap = _common.Parser()
    ap.add_argument("--commit", required=True, help="the commit to compare with (e.g. the one before a change)")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch) / "other"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), args.commit], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            print(f"== the compiled kernels: this checkout against {args.commit}, {args.rounds} rounds alternated "
                  "(process CPU time a workload)")
            times: dict[str, dict[str, list[float]]] = {"this": {}, "commit": {}}
            for r in range(args.rounds):
                for who in (("this", "commit") if r % 2 == 0 else ("commit", "this")):
                    got = side(ROOT if who == "this" else other)
                    for name, seconds in got.items():
                        times[who].setdefault(name, []).append(seconds)
                print(f"  round {r + 1} of {args.rounds} done", flush=True)
            import numpy as np

            for name in WORKLOADS:
                mine, theirs = np.array(times["this"][name]), np.array(times["commit"][name])
                ratios = mine / theirs
                print(f"  {name:24s} this {np.median(mine):.3f} s, {args.commit} {np.median(theirs):.3f} s: ratio "
                      f"{np.median(ratios):.3f} (range {ratios.min():.3f}-{ratios.max():.3f})")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, capture_output=True)


if __name__ == "__main__":
    run(main)
