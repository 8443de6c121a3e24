"""Match-3 on B boards at once: the engine of the rollouts. RULES ONLY: numpy, no pygame.

Boards are a B x s x s int8 stack of settled boards (no line, no empty cell).

- `legal_mask(boards) -> B x S bool` (from arcade.games.match3, which the single
  board's legal swaps use too): which of the S = 2 s (s - 1) swaps make a line.
- `play(boards, swap_index, colours, refill) -> (boards, points)`: one swap per
  board, then every clearing step (10 points a gem times the cascade level),
  gravity and refills, for all boards together; each clearing step works only on
  the boards still cascading.
- Refills come from a `Refill`: `RngRefill(rng)` draws from a Generator in the
  same order as the single-board rules (so a batch of one replays
  `Match3Rules.play` exactly), `TapeRefill(tapes, tape_of)` gives board b the
  colours of tape `tape_of[b]` in order (common random numbers: every candidate
  swap of a rollout meets the same new gems).
- `settle(boards, turns_left, rng)`: boards with no legal swap left get their gems
  reshuffled, as the single-board rules do; returns the legal mask.
- `random_legal`, `greedy_cascade`: the two rollout policies, for every board at once.
"""
from __future__ import annotations

import functools

import numpy as np

from arcade.games.match3 import EMPTY, POINTS_PER_GEM, all_swaps, find_matches, legal_mask, reshuffle

@functools.lru_cache(maxsize=None)
def _swap_cells(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Flat cell indices (a, b) of the two cells of every swap, in all_swaps order."""
    sw = all_swaps(size)
    return sw[:, 0] * size + sw[:, 1], sw[:, 2] * size + sw[:, 3]


def apply_swaps(boards: np.ndarray, swap_index: np.ndarray) -> np.ndarray:
    """A copy of the stack with swap `swap_index[b]` made on board b."""
    n = boards.shape[-1]
    a, c = _swap_cells(n)
    flat = boards.reshape(len(boards), -1).copy()
    rows = np.arange(len(boards))
    ia, ic = a[swap_index], c[swap_index]
    flat[rows, ia], flat[rows, ic] = flat[rows, ic], flat[rows, ia]
    return flat.reshape(boards.shape)


def gravity(boards: np.ndarray) -> np.ndarray:
    """Gems fall into the cleared cells of every board (empties end on top); the stack's order is kept."""
    order = np.argsort(boards != EMPTY, axis=1, kind="stable")
    return np.take_along_axis(boards, order, axis=1)


class RngRefill:
    """New gems from a Generator: the holes of all boards in row-major order, as one draw."""

    def __init__(self, rng: np.random.Generator, colours: int):
        self.rng, self.colours = rng, colours

    def __call__(self, boards: np.ndarray, rows: np.ndarray, holes: np.ndarray) -> None:
        boards[holes] = self.rng.integers(0, self.colours, size=int(holes.sum()))


class TapeRefill:
    """New gems for board b from tape `tape_of[b]` (a row of `tapes`, T colours), in order, each board
    keeping its own place: boards that read the same tape meet the same new gems (common random numbers)."""

    def __init__(self, tapes: np.ndarray, tape_of: np.ndarray):
        self.tapes, self.tape_of = tapes, np.asarray(tape_of)
        self.used = np.zeros(len(self.tape_of), dtype=np.int64)

    def __call__(self, boards: np.ndarray, rows: np.ndarray, holes: np.ndarray) -> None:
        flat = holes.reshape(len(holes), -1)
        rank = np.cumsum(flat, axis=1) - 1  # k-th hole of its board
        b_idx, cell = np.nonzero(flat)
        pos = (self.used[rows][b_idx] + rank[b_idx, cell]) % self.tapes.shape[1]
        boards.reshape(len(boards), -1)[b_idx, cell] = self.tapes[self.tape_of[rows][b_idx], pos]
        self.used[rows] += flat.sum(axis=1)


def resolve(boards: np.ndarray, refill, rows: np.ndarray | None = None, max_levels: int = 1000) -> np.ndarray:
    """Clear lines, let gems fall and refill until every board is settled (in place); returns the points of
    each board. `rows` are the boards' indices for the refill (default 0..B-1)."""
    rows = np.arange(len(boards)) if rows is None else rows
    points = np.zeros(len(boards), dtype=np.int64)
    active = np.arange(len(boards))
    level = 1
    while active.size and level <= max_levels:
        sub = boards[active]
        cleared = find_matches(sub)
        counts = cleared.reshape(len(sub), -1).sum(axis=1)
        going = counts > 0
        if not going.any():
            break
        active, sub, cleared = active[going], sub[going], cleared[going]
        points[active] += POINTS_PER_GEM * level * counts[going]
        sub = gravity(np.where(cleared, EMPTY, sub).astype(boards.dtype))
        if refill is not None:  # None: cleared cells stay empty (unknown new gems), as greedy-cascade counts
            refill(sub, rows[active], sub == EMPTY)
        boards[active] = sub
        level += 1
    return points


def play(boards: np.ndarray, swap_index: np.ndarray, refill, rows: np.ndarray | None = None):
    """One turn on every board: (new boards, points). Swaps must be legal; boards are not reshuffled here."""
    out = apply_swaps(boards, swap_index)
    return out, resolve(out, refill, rows)


def settle(boards: np.ndarray, turns_left, rng: np.random.Generator) -> np.ndarray:
    """After a turn: boards with turns to come (turns_left > 0) and no legal swap are reshuffled, as the
    single-board rules do (in place). Returns the legal mask of the boards as they now are."""
    mask = legal_mask(boards)
    stuck = (np.asarray(turns_left) > 0) & ~mask.any(axis=1)
    for b in np.flatnonzero(stuck):
        boards[b] = reshuffle(boards[b], rng)
        mask[b] = legal_mask(boards[b][None])[0]
    return mask


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal swap index per board (boards with none get 0)."""
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def turn_scores(boards: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The turn score of every legal swap (B x S; -1 where `mask` says illegal), counting the cascades of the
    gems each board shows (refills unknown: cleared cells stay empty): what greedy-cascade compares."""
    b_idx, s_idx = np.nonzero(mask)
    scores = np.full(mask.shape, -1, dtype=np.int64)
    if b_idx.size:
        scores[b_idx, s_idx] = resolve(apply_swaps(boards[b_idx], s_idx), None)
    return scores


def greedy_cascade(boards: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """greedy-cascade's choice on every board: the legal swap of largest turn score (turn_scores); the first
    of equal scores. Returns (swap index, its score) per board."""
    scores = turn_scores(boards, mask)
    best = np.argmax(scores, axis=1)
    return best, scores[np.arange(len(boards)), best]
