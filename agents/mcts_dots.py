"""mcts: Monte Carlo tree search (UCT) with random playouts, for dots boards of every size.

Each simulation walks down the tree by UCT (mean result + c * sqrt(ln N / n), results from the
view of the player who drew the line), adds one new position, plays the rest of the game at
random and backs the result up (win 1, draw 1/2, loss 0). The tree follows who moves: a player
who completes a box moves again. A uniformly random playout is the free lines in a random
order, so one permutation from the Generator plays it. [dots] mcts_simulations and
mcts_exploration set the work and the constant. This is the general-purpose baseline game AI
libraries ship; it knows nothing about chains.
"""
from __future__ import annotations

import math

import numpy as np

from agents.base import register
from agents.dots_engine import Position, geometry


class Node:
    __slots__ = ("mover", "children", "untried", "visits", "wins")

    def __init__(self, mover: int, free: list[int]):
        self.mover = mover  # who draws the next line here
        self.children: dict[int, Node] = {}
        self.untried = free
        self.visits = 0
        self.wins = 0.0  # results of the player who drew the line into this node


def playout(pos: Position, order, mover: int, scores: list[int]) -> list[int]:
    """Draw the free lines in `order`; the final scores (pos is left as it was)."""
    scores = list(scores)
    for line in order:
        mover = pos.play(line, mover, scores)
    for line in reversed(order):
        pos.undo(line)
    return scores


@register("mcts", ("dots",), "Monte Carlo tree search (UCT) with random playouts, simulations from settings",
          order=40, process=True,
          about="It plays many imagined games from the position: down the moves that have done well so far "
                "(and some it has tried less), then at random to the end, and counts who won. The line whose "
                "imagined games it won most often is its move. It knows nothing about chains; random "
                "endings give boxes away all the time, which is what a plan for the endgame exploits.",
          params=("mcts_simulations", "mcts_exploration"))
class MCTSDots:
    """UCT over dots positions; explain gives the share of simulations won through each free line."""

    name = "mcts"

    def __init__(self, rules, settings):
        self.rules = rules
        self.simulations = settings.dots.mcts_simulations
        self.c = settings.dots.mcts_exploration
        self._figures: dict = {}

    def _search(self, state, rng) -> Node:
        if rng is None:  # explain (and act without one): a Generator seeded by the position, so values replay
            rng = np.random.default_rng([state.lines & (2**63 - 1), state.lines >> 63, state.rows, state.cols,
                                         state.mover, *state.scores])
        geo = geometry(state.rows, state.cols)
        pos = Position(geo, state.lines)
        root = Node(state.mover, pos.free_lines())
        c = self.c
        for _ in range(self.simulations):
            node, path, drawn = root, [root], []
            scores, mover = list(state.scores), state.mover
            # selection: down fully expanded nodes
            while not node.untried and node.children:
                log_n = math.log(node.visits)
                line, node = max(node.children.items(),
                                 key=lambda kv: kv[1].wins / kv[1].visits + c * math.sqrt(log_n / kv[1].visits))
                mover = pos.play(line, mover, scores)
                drawn.append(line)
                path.append(node)
            # expansion: one new child
            if node.untried:
                line = node.untried.pop(int(rng.integers(len(node.untried))))
                mover = pos.play(line, mover, scores)
                drawn.append(line)
                child = Node(mover, pos.free_lines())
                node.children[line] = child
                node = child
                path.append(node)
            # playout
            free = pos.free_lines()
            final = playout(pos, rng.permutation(free).tolist(), mover, scores) if free else scores
            for line in reversed(drawn):
                pos.undo(line)
            # backup: each node's wins are for the player who drew the line into it (its parent's mover)
            result = (1.0, 0.0) if final[0] > final[1] else (0.0, 1.0) if final[1] > final[0] else (0.5, 0.5)
            for parent, child in zip(path, path[1:]):
                child.visits += 1
                child.wins += result[parent.mover]
            root.visits += 1
        most = max((child.visits for child in root.children.values()), default=0)
        self._figures = {"simulations": self.simulations, "most visited line": most}
        return root

    def explain(self, state, rng=None) -> dict[int, float]:
        """{free line: share of the simulations through it that its drawer won (draws count half)}."""
        root = self._search(state, rng)
        return {line: child.wins / child.visits for line, child in root.children.items()}

    def act(self, state, rng=None) -> int:
        """The most visited line (the robust choice of UCT)."""
        root = self._search(state, rng)
        return max(root.children.items(), key=lambda kv: (kv[1].visits, -kv[0]))[0]

    def figures(self) -> dict:
        return dict(self._figures)

    def value_legend(self, mover: str) -> str:
        return (f"The numbers: the share of mcts's imagined games through that line that {mover} won "
                "(random play to the end; a draw counts half).")
