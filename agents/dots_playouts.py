"""Many random dots playouts at once, in numpy: the searches' playouts for dots, declared by the game (its
GameType's `playouts`, read by agents/game_search.playout_returns).

A random playout draws the free lines in a random order. Once the order is fixed the result follows without
playing it line by line: a box is completed at the step its last side is drawn, a step that completes no box
hands the turn over, so the mover at step t is the mover at the start flipped once per box-less step before
t, and the box goes to that mover. Every one of those is an array operation over (playouts x lines), so a
batch of a few dozen playouts costs about as much as one numpy call sequence.
"""
from __future__ import annotations

import functools

import numpy as np

from agents.dots_engine import geometry


@functools.lru_cache(maxsize=None)
def _tables(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    geo = geometry(rows, cols)
    return np.arange(geo.n_lines, dtype=np.int64), np.array(geo.box_lines, dtype=np.intp)


def playout_scores(rows: int, cols: int, lines: np.ndarray, scores: np.ndarray, movers: np.ndarray,
                   keys: np.ndarray) -> np.ndarray:
    """The boxes each seat holds at the end of playouts that draw the free lines in the order of `keys`.

    lines: (B,) line bits (int64: a 5x5 board has 60 lines); scores: (B, 2) boxes so far; movers: (B,) the seat
    to move; keys: (B, n_lines) floats in [0, 1), a free line with a smaller key drawn first. Returns (B, 2)
    final box counts. (Fewer numpy calls count here more than fewer operations: a batch is a few dozen.)"""
    step_of, box_lines = _tables(rows, cols)
    b, n_lines = keys.shape
    drawn = (lines[:, None] >> step_of) & 1
    start = drawn.sum(axis=1)  # the playout's first step: the lines already drawn take the steps before it
    order = (keys - drawn).argsort(axis=1)  # drawn lines' keys are below 0: they come first
    step = np.empty_like(order)
    rows_at = np.arange(b)[:, None]
    step[rows_at, order] = step_of
    done_at = step[:, box_lines].max(axis=2)  # (B, boxes): the step a box's last side is drawn
    fresh = done_at >= start[:, None]  # completed during the playout, not before it
    keeps_turn = np.zeros((b, n_lines + 1), dtype=bool)  # a step that completes a box (column n_lines: none)
    keeps_turn[rows_at, np.where(fresh, done_at, n_lines)] = True
    keeps_turn[:, :n_lines] |= step_of < start[:, None]  # (steps before the playout hand nothing over)
    flips = np.cumsum(~keeps_turn[:, :n_lines], axis=1)  # turns handed over up to each step
    owner = (movers[:, None] + flips[rows_at, done_at]) & 1  # a box's step keeps the turn: inclusive is fine
    gained1 = (fresh & (owner == 1)).sum(axis=1)
    return scores + np.stack([fresh.sum(axis=1) - gained1, gained1], axis=1)


def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list[tuple[float, float]] | None:
    """Each state's result for both seats (+1 / 0 / -1) after a random playout to the end; None where a playout
    would stop early (max_moves shorter than a game's free lines: the caller plays those one by one)."""
    first = states[0]
    n_lines = first.board.n_lines
    if max_moves < n_lines and any(n_lines - s.lines.bit_count() > max_moves for s in states):
        return None
    table = np.array([(s.lines, s.scores[0], s.scores[1], s.mover) for s in states], dtype=np.int64)
    final = playout_scores(first.rows, first.cols, table[:, 0], table[:, 1:3], table[:, 3],
                           rng.random((len(states), n_lines)))
    margin = np.sign(final[:, 0] - final[:, 1]).tolist()
    return [(float(m), float(-m)) for m in margin]



def warm() -> None:
    """Nothing to compile: numpy."""
