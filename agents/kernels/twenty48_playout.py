"""The compiled 2048 of mcts (numba): random playouts to the end (its leaf evaluation) and one move on the
rules' exponent board (its walk down the tree), on agents/kernels/twenty48.py's uint64 boards and row tables.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from agents.kernels.twenty48 import U, count_bits, empty_cells, move, spawn_tile, transpose

DEPENDS = ("twenty48",)


@njit(cache=True, nogil=True)
def random_playouts(boards, scores, rng, p_four, max_moves, moves_t, gains_t, out):
    """From each board (with its score so far): uniformly random legal moves, each followed by the computer's
    tile, until no move is left or `max_moves` moves are played; out[i] = the score then (float64)."""
    after = np.empty(4, dtype=np.uint64)
    gained = np.empty(4, dtype=np.int64)
    for i in range(boards.shape[0]):
        x = boards[i]
        score = scores[i]
        for _ in range(max_moves):
            t = transpose(x)
            n = 0
            for d in range(4):
                moved, g = move(x, t, d, moves_t, gains_t)
                if moved != x:
                    after[n], gained[n] = moved, g
                    n += 1
            if n == 0:
                break
            k = min(np.int64(rng.random() * n), n - 1)
            score += gained[k]
            x = spawn_tile(after[k], rng, p_four)  # a move that changed the board left a cell empty
        out[i] = np.float64(score)


# one move on an exponent board (mcts's walk down its tree)
@njit(cache=True, inline="always")
def _packed(cells):
    """A 4 x 4 exponent board as uint64, or 0 where it does not pack (a tile past 32768, or two of 32768)."""
    x = U(0)
    big = 0
    for i in range(16):
        v = cells[i // 4, i % 4]
        if v >= 15:
            big += 1
        if v > 15 or big > 1:
            return U(0)
        x |= U(v) << U(4 * i)
    return x


@njit(cache=True)
def legal_directions(cells, moves_t, gains_t, out):
    """out[d] = whether direction d (up, down, left, right) changes the 4 x 4 exponent board; False where
    the board does not pack (the caller asks the rules)."""
    x = _packed(cells)
    if x == U(0):
        return False
    t = transpose(x)
    for d in range(4):
        out[d] = move(x, t, d, moves_t, gains_t)[0] != x
    return True


@njit(cache=True)
def step_cells(cells, direction, u_cell, u_four, p_four, moves_t, gains_t, out):
    """The rules' step on a 4 x 4 exponent board given its two uniforms (the rules' spawn draws them: the
    empty cell, then whether it is a 4; drawn by the caller, as typing a Generator for numba costs more
    than this whole step). Writes the new board to `out`; returns -1 where the move changes nothing, -2
    where the board does not pack (the caller asks the rules), else points gained * 32 + a mask: bit d
    (d < 4) whether direction d changes the new board (its legal moves, worked out here rather than in
    another call), bit 4 whether the new board packs (if not, bits 0-3 are not set). One int rather than
    an array of flags: the walk down mcts's tree calls this for every step, where an array costs."""
    x = _packed(cells)
    if x == U(0):
        return -2
    moved, gained = move(x, transpose(x), direction, moves_t, gains_t)
    if moved == x:
        return -1
    empty = empty_cells(moved)
    n = count_bits(empty)
    k = min(np.int64(u_cell * n), n - 1)
    seen = 0
    for i in range(16):
        if (empty >> U(4 * i)) & U(1):
            if seen == k:
                x = moved | ((U(2) if u_four < p_four else U(1)) << U(4 * i))
                break
            seen += 1
    for i in range(16):
        out[i // 4, i % 4] = np.uint8((x >> U(4 * i)) & U(0xF))
    mask = 0
    if _packed(out) != U(0):
        mask = 16
        t = transpose(x)
        for d in range(4):
            if move(x, t, d, moves_t, gains_t)[0] != x:
                mask |= 1 << d
    return gained * 32 + mask
