"""The seed's depth-3 expectimax for 2048: player, computer, player, leaf valued by the game score.

Root: max over legal moves. Level 1: the computer, an average over every empty
cell of placing a 2 (or the 2/4 mix when spawn_four_probability > 0). Level 2:
the player again, max over legal moves. Level 3: the leaf, valued by the game
score (the state's score plus what the two moves gained). A player node with no
legal move is a leaf. Ties go to the first of up, down, left, right.

Each level is one batched numpy call over the whole frontier, not a recursion.
"""
from __future__ import annotations

import numpy as np

from agents.base import register
from arcade.games.twenty48 import move_all


def spawn_children(boards: np.ndarray, p_four: float):
    """Every computer placement on each board: (children, parent index, probability within parent)."""
    n, s, _ = boards.shape
    flat = boards.reshape(n, s * s)
    parent, cell = np.nonzero(flat == 0)
    empties = np.bincount(parent, minlength=n)
    tiles = [(1, 1.0 - p_four), (2, p_four)]
    kids, parents, probs = [], [], []
    for exponent, p in tiles:
        if p <= 0:
            continue
        child = flat[parent].copy()
        child[np.arange(len(parent)), cell] = exponent
        kids.append(child)
        parents.append(parent)
        probs.append(p / empties[parent])
    return (np.concatenate(kids).reshape(-1, s, s), np.concatenate(parents), np.concatenate(probs))


@register("expectimax-3", ("2048",), "the seed's depth-3 expectimax: max, chance, max, game score at the leaves",
          order=20)
class Expectimax3:
    name = "expectimax-3"

    def __init__(self, rules, settings=None):
        self.rules = rules

    def explain(self, state) -> dict[int, float]:
        """Expected leaf score of each legal root move."""
        after, gains, legal = move_all(state.board[None])
        dirs = np.flatnonzero(legal[0])
        if dirs.size == 0:
            return {}
        scores1 = state.score + gains[0, dirs]  # score after the root move
        kids, parent, prob = spawn_children(after[0, dirs], self.rules.spawn_four_probability)
        _, gains2, legal2 = move_all(kids)
        leaf = scores1[parent][:, None] + gains2
        best = np.where(legal2, leaf, -np.inf).max(axis=1)
        best = np.where(legal2.any(axis=1), best, scores1[parent])  # no legal move: a leaf
        values = np.bincount(parent, weights=prob * best, minlength=dirs.size)
        return {int(d): float(v) for d, v in zip(dirs, values)}

    def act(self, state, rng=None) -> int:
        values = self.explain(state)
        if not values:
            raise ValueError("no legal move in this state")
        return max(values, key=lambda d: (values[d], -d))  # ties: first of up, down, left, right
