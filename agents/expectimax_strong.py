"""The strong 2048 expectimax ("extra credit"): deeper search with a heuristic evaluation.

The evaluation is the kind the strongest 2048 players use: per row and column,
a bonus for empty cells and for equal neighbours (merge potential), penalties
for non-monotonic lines and for large tiles (weights after nneonneo's
well-known 2048 AI). The sum over all rows and columns scores a board. For
sizes up to 5 every possible line is scored once into a lookup table.

The search depth grows as the board fills; chance branches whose path
probability falls below a threshold are evaluated instead of expanded; each
layer's boards are deduplicated (a transposition cache per layer) and
evaluated as one numpy batch.
"""
from __future__ import annotations

import functools

import numpy as np

from agents.base import best_action, register
from agents.expectimax import spawn_children
from arcade.games.twenty48 import move_all

LOST_PENALTY = 200000.0
MONOTONICITY_POWER = 4.0
MONOTONICITY_WEIGHT = 47.0
SUM_POWER = 3.5
SUM_WEIGHT = 11.0
MERGES_WEIGHT = 700.0
EMPTY_WEIGHT = 270.0
_TABLE_MAX_SIZE = 5
NODE_BUDGET = 20000


def line_scores(lines: np.ndarray) -> np.ndarray:
    """Heuristic score of each line (M x s exponents)."""
    ranks = lines.astype(np.float64)
    empty = (lines == 0).sum(axis=1)
    # merge potential: runs of equal tiles once the empty cells between them are skipped
    packed = np.take_along_axis(lines, np.argsort(lines == 0, axis=1, kind="stable"), axis=1)
    eq = (packed[:, :-1] != 0) & (packed[:, :-1] == packed[:, 1:])
    run_starts = eq & ~np.concatenate([np.zeros((len(eq), 1), bool), eq[:, :-1]], axis=1)
    merges = eq.sum(axis=1) + run_starts.sum(axis=1)
    powered = ranks ** MONOTONICITY_POWER
    decreasing = np.clip(powered[:, 1:] - powered[:, :-1], 0, None).sum(axis=1)
    increasing = np.clip(powered[:, :-1] - powered[:, 1:], 0, None).sum(axis=1)
    return (LOST_PENALTY + EMPTY_WEIGHT * empty + MERGES_WEIGHT * merges
            - MONOTONICITY_WEIGHT * np.minimum(decreasing, increasing) - SUM_WEIGHT * (ranks ** SUM_POWER).sum(axis=1))


@functools.lru_cache(maxsize=None)
def _line_table(size: int) -> tuple[np.ndarray, np.ndarray]:
    weights = (16 ** np.arange(size)).astype(np.int64)
    codes = np.arange(16**size, dtype=np.int64)
    lines = ((codes[:, None] // weights) % 16).astype(np.uint8)
    return line_scores(lines).astype(np.float32), weights


def evaluate(boards: np.ndarray) -> np.ndarray:
    """Heuristic value of each board (N x s x s): the sum of its row and column scores."""
    n, s, _ = boards.shape
    if s <= _TABLE_MAX_SIZE and (boards.size == 0 or boards.max() < 16):
        table, weights = _line_table(s)
        rows = boards.astype(np.int64) @ weights
        cols = boards.transpose(0, 2, 1).astype(np.int64) @ weights
        return table[rows].sum(axis=1, dtype=np.float64) + table[cols].sum(axis=1, dtype=np.float64)
    rows = line_scores(boards.reshape(n * s, s)).reshape(n, s).sum(axis=1)
    cols = line_scores(boards.transpose(0, 2, 1).reshape(n * s, s)).reshape(n, s).sum(axis=1)
    return rows + cols


def _dedupe(boards: np.ndarray):
    """Unique boards and the index of each original in them."""
    n = len(boards)
    flat = np.ascontiguousarray(boards.reshape(n, -1))
    keys = flat.view(np.dtype((np.void, flat.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return boards[first], inverse.ravel()


@register("expectimax", ("2048",),
          "strong expectimax: heuristic evaluation, depth by empty cells, pruning, numpy frontiers", order=10, process=True,
          about="Expectimax searched deeper (more layers as the board fills) and valued by a heuristic of "
                "the best known 2048 players: empty cells, monotone rows and columns, merges ready. Unlikely "
                "tile placements are pruned; each layer is one numpy batch.",
          params=("strong_max_depth", "strong_min_probability", "spawn_four_probability"))
class StrongExpectimax:
    """Expectimax on a heuristic evaluation, depth by empty cells ([2048] strong_max_depth), chance
    branches below [2048] strong_min_probability pruned. act / explain as Expectimax3."""

    name = "expectimax"

    def __init__(self, rules, settings):
        self.rules = rules
        self.max_depth = settings.game2048.strong_max_depth
        self.min_probability = settings.game2048.strong_min_probability
        self._positions = 0
        self._figures: dict = {}

    def depth_for(self, board: np.ndarray) -> int:
        """Chance layers to search: deeper as the board fills (fewer branches, more danger),
        and never more than about NODE_BUDGET leaves (4 moves x E spawns per layer) on big boards."""
        empties = int((board == 0).sum())
        if empties > board.size // 3:
            depth = 2
        elif empties > 3:
            depth = 3
        else:
            depth = 4
        affordable = max(1, int(np.log(NODE_BUDGET) / np.log(max(2, 4 * empties))))
        return min(depth, affordable, self.max_depth)

    def _chance_values(self, boards: np.ndarray, probs: np.ndarray, depth: int) -> np.ndarray:
        """Expected value of boards the computer is about to place a tile on."""
        self._positions += len(boards)
        if depth == 0 or len(boards) == 0:
            return evaluate(boards)
        unique, inverse = _dedupe(boards)
        u_prob = np.zeros(len(unique))
        np.maximum.at(u_prob, inverse, probs)
        values = np.empty(len(unique))
        leaf = u_prob < self.min_probability
        values[leaf] = evaluate(unique[leaf])
        expand = np.flatnonzero(~leaf)
        if expand.size:
            kids, parent, p_kid = spawn_children(unique[expand], self.rules.spawn_four_probability)
            after, _, legal = move_all(kids)
            k_idx, d_idx = np.nonzero(legal)
            next_vals = self._chance_values(after[k_idx, d_idx], u_prob[expand][parent[k_idx]] * p_kid[k_idx],
                                            depth - 1)
            best = np.zeros(len(kids))  # a board with no legal move is lost: worth 0
            np.maximum.at(best, k_idx, next_vals)
            values[expand] = np.bincount(parent, weights=p_kid * best, minlength=expand.size)
        return values[inverse]

    def explain(self, state) -> dict[int, float]:
        """{direction: expected heuristic value of the board after it, searched depth_for(board) layers}."""
        after, _, legal = move_all(state.board[None])
        dirs = np.flatnonzero(legal[0])
        if dirs.size == 0:
            return {}
        depth = self.depth_for(state.board)
        self._positions = 0
        values = self._chance_values(after[0, dirs], np.ones(dirs.size), depth)
        self._figures = {"depth": depth, "positions": self._positions}
        return {int(d): float(v) for d, v in zip(dirs, values)}

    def figures(self) -> dict:
        """Of the last decision: chance layers searched and positions evaluated."""
        return dict(self._figures)

    def act(self, state, rng=None) -> int:
        return best_action(self.explain(state))

    def value_legend(self, mover: str) -> str:
        return ("The numbers: the expected heuristic value (empty cells, monotone rows, merges) of the board "
                "after each move, searched a few tile placements deep.")
