"""The compiled PUCT tree (agents/engines/puct_kernels.py) driven as the UCT tree is (agents/engines/uct_tree.run:
slices between looks at the clock), on the positions of a game's compiled UCT tree (its engine's
`compiled_tree`: the positions module, the moves, the board arrays, how a state becomes (a, b, c)).
The arrays are made once and grow (doubling) when a slice could fill them.
"""
from __future__ import annotations

import numpy as np

UNVISITED = {"zero": 0, "siblings": 1}  # an unvisited child's Q by name, as the kernels take it
START_NODES = 1 << 14
CHUNK = 4096  # expansions the arrays make room for at a time


class PUCTTree:
    """A PUCT tree on the positions of `game_tree` (an agents/engines/uct_tree.CompiledTree), searched with the
    network `net` (a tuple of arrays: agents/alphazero_net.Network.args); unvisited: an unvisited child's Q (0:
    0; 1: its visited siblings' mean)."""

    def __init__(self, game_tree, net: tuple, unvisited: int = 0):
        from agents.engines import puct_kernels

        self.k = puct_kernels
        self.game = game_tree
        self.pos, self.full = game_tree.pos, game_tree.full
        self.n_moves = game_tree.n_moves
        self.net = net
        self.unvisited = unvisited  # an unvisited child's Q: 0, or 1 its siblings' mean (puct_kernels.simulate_puct)
        self.n_features = game_tree.feature_count()
        self.nodes = np.zeros((START_NODES, puct_kernels.COLUMNS), np.int64)
        self.stats = np.zeros((START_NODES, puct_kernels.STATS))
        self.path = np.zeros(game_tree.max_length + 2, np.int64)
        self.x = np.zeros(self.n_features)
        self.h1, self.h2 = np.zeros(net[1].shape[0]), np.zeros(net[3].shape[0])
        self.priors = np.zeros(self.n_moves)
        self.root = (np.int64(0), np.int64(0), np.int64(0))
        self.used = 0
        self.work = np.zeros(2, np.int64)  # (uct_tree.run sets a slice's cap here: no leaf is solved in this tree)

    def reset(self, state) -> None:
        """A new root: the state given."""
        self.root = tuple(np.int64(x) for x in self.game.position(state))
        self.used = self.k.reset(self.nodes, self.stats, self.root[2])

    def room(self, simulations: int) -> None:
        """Make room for `simulations` more walks (each adds at most one node's children)."""
        need = self.used + (simulations + 1) * self.n_moves
        if need > self.nodes.shape[0]:
            size = max(need, 2 * self.nodes.shape[0])
            nodes, stats = np.zeros((size, self.k.COLUMNS), np.int64), np.zeros((size, self.k.STATS))
            nodes[:self.used], stats[:self.used] = self.nodes[:self.used], self.stats[:self.used]
            self.nodes, self.stats = nodes, stats

    def simulate(self, simulations: int, c: float, rng: np.random.Generator | None = None, batch: int = 1) -> int:
        """Up to `simulations` more simulations with PUCT's c (rng, batch: the UCT tree's driver passes them;
        this search draws nothing and walks one at a time). The arrays grow as the kernel fills them (room for
        CHUNK expansions at a time: a walk that ends on a finished game adds nothing, so the late game's
        hundreds of thousands of walks need no room of their own)."""
        done = 0
        while done < simulations:
            self.room(min(simulations - done, CHUNK))
            ran, self.used = self.k.simulate_puct(self.pos, self.net, self.nodes, self.stats, self.used, *self.root,
                                                  simulations - done, float(c), self.unvisited, self.full,
                                                  self.game.board_a, self.game.board_b, self.path, self.x, self.h1,
                                                  self.h2, self.priors)
            done += int(ran)
            if ran == 0:  # (the game is over at the root)
                break
        return done

    def proven(self) -> bool:
        """(This search proves nothing: the driver's early stop never comes.)"""
        return False

    def child_rows(self, index: int) -> list[tuple[int, int, int, float, float, float]]:
        """Node `index`'s children, read in Python (the tree view, the values): (their index, move, visits, total
        of values for the mover at `index`, prior, the network's value for that mover (the exact final value where the
        game is over there: finished()), nan where not expanded)."""
        k = self.k
        first, count = int(self.nodes[index, k.FIRST]), int(self.nodes[index, k.COUNT])
        return [(child, int(self.nodes[child, k.ACTION]), int(self.nodes[child, k.VISITS]),
                 float(self.stats[child, k.TOTAL]), float(self.stats[child, k.PRIOR]), float(self.stats[child, k.NET]))
                for child in range(first, first + max(count, 0))]

    def finished(self, index: int) -> bool:
        """Whether the game is over at node `index` (its NET then holds the exact final value, not the
        network's)."""
        return int(self.nodes[index, self.k.COUNT]) == 0

    def mover(self, index: int) -> int:
        """The seat to move at node `index` (-1 where the walk never entered it)."""
        return int(self.nodes[index, self.k.MOVER])

    def visits(self, index: int) -> int:
        return int(self.nodes[index, self.k.VISITS])

    def most_visited(self) -> int:
        """The root's most visited move (ties: the larger prior, then the lower move): the move played, as
        self-play plays it (puct_kernels.most_visited)."""
        return int(self.k.most_visited(self.nodes, self.stats))

    def evaluate(self, states: list) -> tuple[np.ndarray, np.ndarray]:
        """The network on each state: priors (states, moves) and the movers' values."""
        positions = np.array([self.game.position(s) for s in states], np.int64).reshape(-1, 3)
        priors, values = np.zeros((len(states), self.n_moves)), np.zeros(len(states))
        self.k.forward_batch(self.pos, self.net, positions, self.full, self.game.board_a, self.game.board_b,
                             self.n_features, priors, values)
        return priors, values
