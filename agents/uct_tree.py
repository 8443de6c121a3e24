"""The compiled UCT tree (agents/kernels/uct.py) driven under a decision's budget, for mcts where a game
declares one (its playouts module's `compiled_tree(rules, state)`; dots): the same search as the Python
tree of agents/mcts.py, one simulation at a time, with no Python in the walk.

The compiled code cannot read the clock, so the simulations run in slices of about SLICE seconds (the
first slice small, the next sized by the rate measured so far) and the deadline is checked between them.
The tree's arrays are made once and grow (doubling) when a slice could fill them; nothing is built per
decision but the root.
"""
from __future__ import annotations

import numpy as np

from agents.compiled import kernels
from agents.dots_engine import board_arrays

SLICE = 0.01  # seconds of simulations between two looks at the clock
FIRST_SLICE = 64  # simulations in the first slice, before any rate is known
START_NODES = 1 << 15


class DotsTree:
    """The tree kernels for one dots board: made once per board size by the agent (compiled_tree)."""

    def __init__(self, rows: int, cols: int):
        self.box_lines, self.line_boxes = board_arrays(rows, cols)
        self.n_lines = self.line_boxes.shape[0]
        self.full = np.int64((1 << self.n_lines) - 1)
        self.nodes = np.zeros((START_NODES, 8), np.int64)
        self.total = np.zeros(START_NODES)
        self.path = np.zeros(self.n_lines + 2, np.int64)
        self.order = np.zeros(self.n_lines + 2, np.int64)
        self.k = kernels(name="uct")
        self.root = (np.int64(0), np.int64(0), np.int64(0))
        self.used = 0

    def reset(self, state) -> None:
        """The root: a dots state (lines, scores, mover)."""
        lines, mover = np.int64(state.lines), np.int64(state.mover)
        self.root = (lines, np.int64(state.scores[0] - state.scores[1]), mover)
        self.used = self.k.reset(self.nodes, self.total, lines, mover, self.full)

    def room(self, simulations: int) -> None:
        """Make room for `simulations` more walks (each adds at most one node)."""
        need = self.used + simulations + 1
        if need > self.nodes.shape[0]:
            size = max(need, 2 * self.nodes.shape[0])
            nodes, total = np.zeros((size, 8), np.int64), np.zeros(size)
            nodes[:self.used], total[:self.used] = self.nodes[:self.used], self.total[:self.used]
            self.nodes, self.total = nodes, total

    def simulate(self, simulations: int, c: float, rng: np.random.Generator) -> int:
        done, self.used = self.k.dots_simulate(self.nodes, self.total, self.used, *self.root, simulations, float(c),
                                               self.full, self.box_lines, self.line_boxes, rng, self.path,
                                               self.order)
        return int(done)

    def proven(self) -> bool:
        return int(self.nodes[0, self.k.PROVEN]) != self.k.UNKNOWN

    def root_result(self) -> int | None:
        """The root's exact result for its mover (-1, 0, 1), once proven."""
        return int(self.nodes[0, self.k.PROVEN]) if self.proven() else None

    def children(self) -> list[tuple[int, int, float, int | None]]:
        """The root's children: (move, visits, total of results for the root's mover, proven result or None)."""
        actions = np.zeros(self.n_lines, np.int64)
        stats = np.zeros((self.n_lines, 3))
        n = self.k.root_children(self.nodes, self.total, actions, stats)
        unknown = self.k.UNKNOWN
        return [(int(actions[i]), int(stats[i, 0]), float(stats[i, 1]),
                 None if int(stats[i, 2]) == unknown else int(stats[i, 2])) for i in range(n)]

    def warm(self) -> None:
        """Compile (or load) the kernels on a tiny search."""
        from arcade.games.dots import DotsState

        self.reset(DotsState(1, 1))
        self.simulate(4, 2.0, np.random.default_rng(0))


def run(tree, simulations: int, c: float, deadline, rng: np.random.Generator) -> int:
    """Simulations on a reset tree until `simulations`, a proven root or the deadline; returns how many ran."""
    done, size = 0, FIRST_SLICE
    while done < simulations and not tree.proven():
        n = min(size, simulations - done)
        tree.room(n)
        started = deadline.elapsed()
        ran = tree.simulate(n, c, rng)
        done += ran
        if deadline.passed() or ran == 0:
            break
        spent = deadline.elapsed() - started
        size = int(max(16, min(1 << 20, ran * SLICE / spent))) if spent > 0 else 4 * size
    return done
