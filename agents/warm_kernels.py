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
from agents.base import set_progress_sink
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


FAMILY_NAMES = ("2048 and blackjack", "dots, tic-tac-toe and match-3")
SLOW_STEP_S = 2.0  # a step that has run this long is compiling (one loaded from the cache takes milliseconds)
SAY_EVERY_S = 5.0  # then a line this often while a step compiles
NEVER_QUIET_S = 10.0  # and never longer than this without one, however the time splits into steps


class StepLines:
    """A progress sink (report_progress's, fed once a step and once a second by compiled.warm) that prints
    a terminal line when kernels are compiling: a step running SLOW_STEP_S, then every SAY_EVERY_S, never
    NEVER_QUIET_S without one, and a last line when it ends. A first `make run` (a minute idle, half an hour
    on a loaded machine) is never a blank terminal; a run whose kernels load from the cache prints nothing."""

    def __init__(self, label: str, out=None, clock=time.monotonic):
        import sys

        self.label, self.out, self.clock = label, out or sys.stdout, clock
        self.start = self.said_at = clock()
        self.step, self.step_at, self.spoke = -1.0, self.start, False

    def __call__(self, task: str, done: float, total: float, detail: str = "") -> None:
        now = self.clock()
        if done != self.step:
            self.step, self.step_at = done, now
        finished = done >= total
        slow = now - self.step_at >= SLOW_STEP_S and now - self.said_at >= (SAY_EVERY_S if self.spoke else 0)
        if not (slow or now - self.said_at >= NEVER_QUIET_S or (finished and self.spoke)):
            return
        self.said_at, self.spoke = now, True
        where = "done" if finished else f"kernel {int(done) + 1} of {int(total)}"
        print(f"  compiling the {self.label} kernels (the first time only): {where}, "
              f"{now - self.start:.0f} s", file=self.out, flush=True)


def prepare_all(data_dir: Path | None = None, playing_only: bool = False, jobs: int = 1, say: bool = False) -> float:
    """Compile (or load from the cache) every kernel with the argument types the agents use (with `playing_only`,
    those the first moves of the 2048, dots and blackjack agents use, not the learners' or the 2048 and match-3
    playouts, which their agents load as they are made); returns the seconds it took. With jobs > 1, the
    two families of kernels that share nothing (the 2048 and blackjack ones here; dots', the trees' and
    match-3's in a process of their own) compile at once.
    `python -m agents.warm_kernels` runs it: the Makefile does before the arcade or the tests start, so the
    first window and every test process find the kernels compiled."""
    start = time.perf_counter()
    if jobs <= 1:
        if say:
            set_progress_sink(StepLines(" and ".join(FAMILY_NAMES)))
        warm([step for _, step in _steps(data_dir, playing_only)])
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
            other = pool.submit(_prepare_family, data_dir, playing_only, DOTS, say)
            _prepare_family(data_dir, playing_only, TWENTY48, say)  # (here, while the other process starts)
            other.result()
    return time.perf_counter() - start


def _prepare_family(data_dir: Path | None, playing_only: bool, family: int, say: bool = False) -> None:
    if say:
        set_progress_sink(StepLines(FAMILY_NAMES[family]))
    warm([step for of, step in _steps(data_dir, playing_only) if of == family])


def prepare_part(data_dir: Path | None, part: int) -> bool:
    """Step `part` of prepare_all(playing_only=True) (the 2048 searches first); whether steps are left. The
    arcade's agent process runs the steps one call each as the arcade opens, so a first move asked for
    meanwhile waits for the step loading, not for every kernel."""
    steps = [step for _, step in _steps(data_dir, True)]
    warm(steps[part:part + 1], part, len(steps))
    return part + 1 < len(steps)


TWENTY48, DOTS = range(2)  # the families of kernels that share none (TWENTY48: the 2048 and blackjack ones)


@functools.lru_cache(maxsize=2)
def _steps(data_dir: Path | None, playing_only: bool) -> list:
    """prepare_all's steps, the 2048 searches' first: (family, a callable that makes tiny kernel calls)."""
    k = kernels(data_dir)
    board = np.zeros((4, 4), np.uint8)
    board[0, :2] = 1
    net = NTupleNetwork("3x4")
    read_only = NTupleNetwork("3x4")  # (a network read from a file: numba compiles read-only arrays apart)
    read_only.weights.flags.writeable = False
    twenty48 = [lambda: Search(0.1, 1e-4).root(board, 2), lambda: Search(0.1, 1e-4, read_only).root(board, 2),
                lambda: read_only.value(np.zeros(1, np.uint64))]
    dots = DotsNetwork(2, 2)
    steps = [(TWENTY48, step) for step in twenty48]
    steps += [(DOTS, step) for step in (
        lambda: dots.move_values(0), lambda: dots.choices(np.zeros(1, np.int64)),
        lambda: dots.values(np.zeros(1, np.int64)),
        lambda: DotsSearch(2, 2).root_values(0, 2, True),
        lambda: DotsSearch(2, 2, dots.args()).root_values(0, 2, True),
        lambda: DotsTree(1, 1).warm(DotsState(1, 1)), lambda: network_tree(dots).warm(DotsState(2, 2)),
        lambda: TicTacToeTree().warm(0))]
    steps.append((TWENTY48, playout_blackjack.warm))
    if not playing_only:  # (and the playouts: an agent that plays them loads them as it is made)
        steps += [(TWENTY48, step) for step in (
            playout_2048.warm_step, lambda: Search(0.1, 1e-4, net).root(board, 2),
            lambda: net.value(np.zeros(1, np.uint64)), lambda: net.features(np.zeros(1, np.uint64)),
            lambda: TDGames(net, 0.1, 0.1, np.random.default_rng(0)).step(10),
            lambda: k.heuristic(np.uint64(0), np.zeros((3, 1 << 16), np.float32)))]
        steps += [(DOTS, playout_match3.warm_step),
                  (DOTS, lambda: kernels(data_dir, "dots").self_play(
                      dots.args(), 1, 0.1, 0.1, dots.layout.n_lines, dots.layout.box_lines,
                      dots.layout.line_boxes, np.random.default_rng(0), 0, 0.5))]
    return steps


if __name__ == "__main__":
    import os

    print("getting the agents' compiled kernels ready (numba keeps them: only a first run compiles)", flush=True)
    print(f"the compiled kernels are ready ({prepare_all(jobs=os.cpu_count() or 1, say=True):.1f} s)")
