"""The compiled UCT tree (agents/engines/tree_kernels.py, on an engine's positions module) driven under a
decision's budget, for mcts where a game's engine declares one (its `compiled_tree`): the same search as the
Python tree of agents/mcts.py, one simulation at a time, with no Python in the walk. An engine's tree is a
subclass of CompiledTree naming its positions module and saying how a state becomes the kernels' position.

The compiled code cannot read the clock, so the simulations run in slices of about SLICE seconds (the
first slice small, the next sized by the rate measured so far, the last to what is left of the budget) and
the deadline is checked between them.
The tree's arrays are made once and grow (doubling) when a slice could fill them; nothing is built per
decision but the root.
"""
from __future__ import annotations

import numpy as np


SLICE = 0.01  # seconds of simulations between two looks at the clock
FIRST_SLICE = 64  # simulations in the first slice, before any rate is known
START_NODES = 1 << 15
POSITIONS_A_SECOND = 1_000_000  # about what the alpha-beta kernels search (a slice's cap on its leaves' solves)
_NO_BOARD = np.zeros((1, 1), np.int64)  # (the kernels' board arrays, for a game that has none)
_NO_BOARD.flags.writeable = False


class CompiledTree:
    """One engine's compiled tree and its arrays. The engine's subclass gives its positions module
    (`positions()`, imported there: the kernels' operations on its positions), its moves' count (moves are bits
    0 to n_moves - 1) and bits (full), the longest game in moves (max_length: the walks' scratch; default n_moves, a game where every move uses one up),
    its board arrays and `position(state)`: the state as the kernels' (a, b, c)."""

    def __init__(self, n_moves: int, full: int, board_a=_NO_BOARD, board_b=_NO_BOARD, max_length: int | None = None):
        from agents.engines import tree_kernels

        self.k = tree_kernels
        self.pos = tree_kernels.positions(self.positions())
        self.n_moves, self.full = n_moves, np.int64(full)
        self.max_length = n_moves if max_length is None else max_length
        self.board_a, self.board_b = board_a, board_b
        self.nodes = np.zeros((START_NODES, self.k.COLUMNS), np.int64)
        self.total = np.zeros(START_NODES)
        self.minimax = np.zeros(START_NODES)  # implicit minimax values (a NETWORK leaf with a minimax weight)
        self.order = np.zeros(self.max_length + 2, np.int64)
        self._scratch(1)
        self.root = (np.int64(0), np.int64(0), np.int64(0))
        self.used = 0
        self.leaf = self.k.playout_leaf(self.pos)  # how new leaves are valued (a random playout, or an EVALUATOR leaf)
        self.work = np.zeros(2, np.int64)  # positions its leaves' solves searched in a slice, and the slice's cap

    def positions(self):
        """The engine's positions module (agents/engines/tree_kernels.py says what it gives)."""
        raise NotImplementedError

    def position(self, state) -> tuple[int, int, int]:
        raise NotImplementedError

    def feature_count(self) -> int:
        """The length of a position's features on this board (its positions module's `features`: AlphaZero's
        network reads them)."""
        return self.pos.module.feature_count(self.board_a, self.board_b)

    def _scratch(self, batch: int) -> None:
        """The kernels' scratch for batches of `batch` walks."""
        self.batch = batch
        self.paths = np.zeros((batch, self.max_length + 2), np.int64)
        self.depths, self.waiting = np.zeros(batch, np.int64), np.zeros(batch, np.int64)
        self.results = np.zeros(batch)

    def reset(self, state) -> None:
        """A new root: the state given (the tree before it is dropped)."""
        self.root = tuple(np.int64(x) for x in self.position(state))
        self.used = self.k.reset(self.pos, self.nodes, self.total, self.minimax, *self.root, self.full)

    def room(self, simulations: int) -> None:
        """Make room for `simulations` more walks (each adds at most one node)."""
        need = self.used + simulations + 1
        if need > self.nodes.shape[0]:
            size = max(need, 2 * self.nodes.shape[0])
            nodes, total, minimax = np.zeros((size, self.k.COLUMNS), np.int64), np.zeros(size), np.zeros(size)
            nodes[:self.used], total[:self.used] = self.nodes[:self.used], self.total[:self.used]
            minimax[:self.used] = self.minimax[:self.used]
            self.nodes, self.total, self.minimax = nodes, total, minimax

    def simulate(self, simulations: int, c: float, rng: np.random.Generator, batch: int = 1) -> int:
        """Up to `simulations` more simulations, `batch` at a time (a virtual loss spreads a batch's walks)."""
        if batch != self.batch:
            self._scratch(batch)
        self.room(simulations + batch)
        done, self.used = self.k.simulate(self.pos, self.nodes, self.total, self.minimax, self.used, *self.root,
                                          simulations, batch, float(c), self.full, self.board_a, self.board_b, rng,
                                          self.paths, self.depths, self.waiting, self.results, self.order,
                                          self.leaf, self.work)
        return int(done)

    def proven(self) -> bool:
        return int(self.nodes[0, self.k.PROVEN]) != self.k.UNKNOWN

    def root_result(self) -> int | None:
        """The root's exact result for its mover (-1, 0, 1), once proven."""
        return int(self.nodes[0, self.k.PROVEN]) if self.proven() else None

    def children(self) -> list[tuple[int, int, float, int | None]]:
        """The root's children: (move, visits, total of results for the root's mover, proven result or None)."""
        actions = np.zeros(self.n_moves, np.int64)
        stats = np.zeros((self.n_moves, 3))
        n = self.k.root_children(self.nodes, self.total, actions, stats)
        unknown = self.k.UNKNOWN
        return [(int(actions[i]), int(stats[i, 0]), float(stats[i, 1]),
                 None if int(stats[i, 2]) == unknown else int(stats[i, 2])) for i in range(n)]

    def child_rows(self, index: int) -> list[tuple[int, int, int, float, int | None]]:
        """Node `index`'s children as the arrays hold them, read in Python (for the tree view, never during a
        search): (their index, move, visits, total of results for the mover at `index`, proven result for that
        mover or None)."""
        k, rows = self.k, []
        child = int(self.nodes[index, k.FIRST])
        while child >= 0:
            row = self.nodes[child]
            proven = int(row[k.PROVEN])
            rows.append((child, int(row[k.ACTION]), int(row[k.VISITS]), float(self.total[child]),
                         None if proven == k.UNKNOWN else proven))
            child = int(row[k.NEXT])
        return rows

    def mover(self, index: int) -> int:
        """The seat to move at node `index`."""
        return int(self.nodes[index, self.k.MOVER])

    def visits(self, index: int) -> int:
        return int(self.nodes[index, self.k.VISITS])

    def playout(self, state, rng: np.random.Generator) -> int:
        """Seat 0's result of one uniformly random playout from `state` to the end (the tree's own)."""
        return int(self.pos.module.playout(*(np.int64(x) for x in self.position(state)), self.full, self.order,
                                           self.board_a, self.board_b, rng))

    def warm(self, state) -> None:
        """Compile (or load) the kernels on a tiny search from `state`."""
        self.reset(state)
        self.simulate(4, 2.0, np.random.default_rng(0))
        self.children()


def playout_returns(tree_of, states: list, rng: np.random.Generator) -> list[tuple[float, float]]:
    """Each state's result for both seats (+1 / 0 / -1) after one random playout to the end on its compiled tree
    (tree_of(state)): the playouts a game's engine offers searches other than this tree."""
    out = []
    for s in states:
        m = float(tree_of(s).playout(s, rng))
        out.append((m, -m))
    return out


def run(tree, simulations: int, c: float, deadline, rng: np.random.Generator, batch: int = 1) -> int:
    """Simulations on a reset tree, `batch` at a time, until `simulations`, a proven root or the deadline;
    returns how many ran."""
    done, size = 0, FIRST_SLICE
    while done < simulations and not tree.proven():
        n = min(max(batch, size - size % batch), simulations - done)  # (whole batches: the same run however sliced)
        started = deadline.elapsed()
        tree.work[1] = int(POSITIONS_A_SECOND * min(SLICE, max(deadline.left(), 0.001)))
        ran = tree.simulate(n, c, rng, batch)
        done += ran
        if deadline.passed() or ran == 0:
            break
        spent = deadline.elapsed() - started
        # the next slice: about SLICE seconds, or what is left of the budget if less (so it ends near it)
        size = int(max(16, min(1 << 20, ran * min(SLICE, deadline.left()) / spent))) if spent > 0 else 4 * size
    return done
