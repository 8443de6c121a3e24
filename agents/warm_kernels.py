"""Every kernel of the 2048 agents, the dots learner, the dots alpha-beta, mcts's compiled tree and the 2048,
match-3 and blackjack playouts compiled (or loaded from numba's cache) before anything needs it:
`python -m agents.warm_kernels`, run by `make run` and `make test`, and the arcade's agent process as it
starts (what first moves need). Apart
from agents/compiled.py, which the searches and learners import: this module imports them.
"""
from __future__ import annotations

import functools
import time
from pathlib import Path

import numpy as np

from agents import playout_2048, playout_blackjack, playout_match3
from agents.alphabeta_dots import Search as DotsSearch
from agents.compiled import kernels, warm
from agents.dots_network_agents import network_leaf
from agents.dots_ntuple import Network as DotsNetwork
from agents.expectimax_strong import Search
from agents.ntuple_net import NTupleNetwork
from agents.ntuple_td import TDGames
from agents.uct_tree import DotsTree, TicTacToeTree
from arcade.games.dots import DotsState


def network_tree(net: DotsNetwork) -> DotsTree:
    """A 2x2 compiled tree whose leaves the network values and the alpha-beta kernels solve (mcts-ntuple's)."""
    tree = DotsTree(2, 2)
    tree.leaf = network_leaf(net, 16, 1000, DotsSearch(2, 2))
    return tree


def prepare_all(data_dir: Path | None = None, playing_only: bool = False) -> float:
    """Compile (or load from the cache) every kernel with the argument types the agents use (with `playing_only`,
    those the first moves of the 2048, dots and blackjack agents use, not the learners' or the 2048 and match-3
    playouts, which their agents load as they are made); returns the seconds it took.
    `python -m agents.warm_kernels` runs it: the Makefile does before the arcade or the tests start, so the
    first window and every test process find the kernels compiled."""
    start = time.perf_counter()
    warm(_steps(data_dir, playing_only))
    return time.perf_counter() - start


def prepare_part(data_dir: Path | None, part: int) -> bool:
    """Step `part` of prepare_all(playing_only=True) (the 2048 searches first); whether steps are left. The
    arcade's agent process runs the steps one call each as the arcade opens, so a first move asked for
    meanwhile waits for the step loading, not for every kernel."""
    steps = _steps(data_dir, True)
    warm(steps[part:part + 1], part, len(steps))
    return part + 1 < len(steps)


@functools.lru_cache(maxsize=2)
def _steps(data_dir: Path | None, playing_only: bool) -> list:
    """prepare_all's steps: callables that make tiny kernel calls, the 2048 searches' first."""
    k = kernels(data_dir)
    board = np.zeros((4, 4), np.uint8)
    board[0, :2] = 1
    net = NTupleNetwork("3x4")
    read_only = NTupleNetwork("3x4")  # (a network read from a file: numba compiles read-only arrays apart)
    read_only.weights.flags.writeable = False
    steps = [lambda: Search(0.1, 1e-4).root(board, 2), lambda: Search(0.1, 1e-4, read_only).root(board, 2),
             lambda: read_only.value(np.zeros(1, np.uint64))]
    dots = DotsNetwork(2, 2)
    steps += [lambda: dots.move_values(0), lambda: dots.choices(np.zeros(1, np.int64)),
              lambda: dots.values(np.zeros(1, np.int64)),
              lambda: DotsSearch(2, 2).root_values(0, 2, True),
              lambda: DotsSearch(2, 2, dots.args()).root_values(0, 2, True),
              lambda: DotsTree(1, 1).warm(DotsState(1, 1)), lambda: network_tree(dots).warm(DotsState(2, 2)),
              lambda: TicTacToeTree().warm(0), playout_blackjack.warm]
    if not playing_only:  # (and the playouts: an agent that plays them loads them as it is made)
        steps += [playout_2048.warm_step, playout_match3.warm_step,
                  lambda: Search(0.1, 1e-4, net).root(board, 2), lambda: net.value(np.zeros(1, np.uint64)),
                  lambda: net.features(np.zeros(1, np.uint64)),
                  lambda: TDGames(net, 0.1, 0.1, np.random.default_rng(0)).step(10),
                  lambda: k.heuristic(np.uint64(0), np.zeros((3, 1 << 16), np.float32)),
                  lambda: kernels(data_dir, "dots").self_play(dots.args(), 1, 0.1, 0.1, dots.layout.n_lines,
                                                              dots.layout.box_lines, dots.layout.line_boxes,
                                                              np.random.default_rng(0), 0, 0.5)]
    return steps


if __name__ == "__main__":
    print(f"the compiled kernels are ready ({prepare_all():.1f} s)")
