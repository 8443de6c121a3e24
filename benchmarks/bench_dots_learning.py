"""Dots that learns (agents/dots_ntuple.py): its learning curve from scratch, and the shipped networks' strength.

    python benchmarks/bench_dots_learning.py [--train-games N] [--games G]

1. 3x3 from scratch (the settings' [dots.ntuple] parameters, on every core: Hogwild threads, --jobs):
   the share of moves the exact solver calls optimal on 500 held-out positions from greedy vs random games,
   at each checkpoint, against wall time (the target's clock) and process CPU time; the untrained
   network's share in the same run; the first checkpoint at 90% and the last quarter's median.
2. The shipped 3x3 network on the same positions (all of them, and those where not every move is optimal).
3. The shipped 4x4 network at 1 ply against greedy: G games (half moving first), wins, draws, losses and
   the score share's 95% interval; the untrained network's in the same run as the baseline.
Targets (issue 43): 3x3 from scratch 90% optimal within 10 minutes, shipped 3x3 97%, shipped 4x4 95% vs greedy.
"""
from __future__ import annotations

import tempfile
import time

import _common  # noqa: F401  (puts the project on the import path)
import numpy as np
from _common import wilson

from agents.dots_ntuple import DotsNTuple, Network, optimal_share, wins_against
from arcade.games.dots import DotsRules
from arcade.runner import default_jobs
from arcade.settings import Settings

SEED = 20_000_003  # the strength games' seeds (training and the curve's positions use others)


def from_scratch(games: int, jobs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings().with_table("data", folder=folder)
        agent = DotsNTuple(DotsRules(3, 3), settings)
        start, wall = time.process_time(), time.perf_counter()
        print(f"== 3x3 from scratch: {games:,} self-play games on {jobs} threads, [dots.ntuple] "
              f"{settings.agent_params('dots', 'ntuple')}")
        print(f"   {'games':>9} {'wall s':>7} {'CPU s':>7} {'optimal':>8} {'where it matters':>17}")
        points = []

        def point(done, figures):
            points.append((time.perf_counter() - wall, figures["optimal moves"]))
            print(f"   {done:>9,} {points[-1][0]:>7.1f} {time.process_time() - start:>7.1f} "
                  f"{figures['optimal moves']:>8.1%} {figures['optimal where it matters']:>17.1%}", flush=True)

        agent.train(games, np.random.default_rng(1), from_scratch=True, checkpoint=point, jobs=jobs)
        first = next((t for t, share in points if share >= 0.9), None)
        last = [share for _, share in points[-max(1, len(points) // 4):]]
        print(f"   first at 90%: {'never' if first is None else f'{first:.0f} s wall'}; the last quarter's "
              f"checkpoints: median {np.median(last):.1%} ({min(last):.1%}-{max(last):.1%}); "
              f"target 90% within 600 s wall: {'met' if first is not None and first <= 600 else 'NOT met'}")


def shipped(games: int) -> None:
    settings = Settings()
    for label, net in (("untrained", Network(3, 3)), ("shipped", DotsNTuple(DotsRules(3, 3), settings)._net(3, 3)[0])):
        share, decisive = optimal_share(net, settings.data_dir)
        print(f"== 3x3 {label}: optimal moves {share:.1%} of 500 held-out positions, {decisive:.1%} where not "
              "every move is optimal (target for the shipped network: 97%)")
    for label, net in (("untrained", Network(4, 4)), ("shipped", DotsNTuple(DotsRules(4, 4), settings)._net(4, 4)[0])):
        start = time.process_time()
        share = wins_against(net, games, SEED, Settings())
        lo, hi = wilson(round(share * games), games)
        print(f"== 4x4 {label} at 1 ply against greedy, {games} games (half first): score share {share:.1%} "
              f"(95% {lo:.1%}-{hi:.1%}), {time.process_time() - start:.1f} CPU s (target 95%)")


def main() -> None:
    p = _common.Parser(description=__doc__.splitlines()[0])
    p.add_argument("--train-games", type=int, default=4_000_000, help="3x3 self-play games from scratch (0: skip)")
    p.add_argument("--jobs", type=int, default=default_jobs(), positive=True,
                   help="threads of the training from scratch (default: every core)")
    p.add_argument("--games", type=int, default=2000, positive=True, help="4x4 games against greedy")
    args = p.parse_args()
    shipped(args.games)
    if args.train_games:
        from_scratch(args.train_games, args.jobs)


if __name__ == "__main__":
    _common.run(main)
