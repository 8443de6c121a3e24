"""The compiled 2048 of mcts (numba): random playouts to the end (its leaf evaluation) and one move on the
rules' exponent board (its walk down the tree), on agents/engines/twenty48/kernels.py's uint64 boards and row tables.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from agents.engines.compiled import keep_cache_fresh
from agents.engines.twenty48.kernels import U, count_bits, empty_cells, move, spawn_tile, transpose



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


# boards of any size (3x3, 5x5, ...: what does not pack in 64 bits), cell by cell as the rules' uint8 arrays
@njit(cache=True)
def move_cells(cells, direction, out):
    """The rules' slide of an s x s exponent board (after_move: tiles toward the wall, each pair of equal
    neighbours merged once, nearest the wall first) into `out`; returns the points gained, or -1 where the
    move changes nothing."""
    s = cells.shape[0]
    gained = 0
    changed = False
    line = np.empty(s, dtype=np.uint8)
    for a in range(s):
        for i in range(s):  # cell i of line a, counted from the wall the tiles slide to
            j = s - 1 - i if direction == 1 or direction == 3 else i
            line[i] = cells[j, a] if direction < 2 else cells[a, j]
        k, last = 0, 0
        for i in range(s):
            v = line[i]
            if v == 0:
                continue
            if v == last:
                line[k - 1] = v + 1
                gained += 1 << (v + 1)
                last = 0
            else:
                line[k] = v
                k += 1
                last = v
        for i in range(s):
            v = line[i] if i < k else 0
            j = s - 1 - i if direction == 1 or direction == 3 else i
            if direction < 2:
                changed |= cells[j, a] != v
                out[j, a] = v
            else:
                changed |= cells[a, j] != v
                out[a, j] = v
    return gained if changed else -1


@njit(cache=True)
def spawn_cells(cells, u_cell, u_four, p_four):
    """The rules' spawn in place given its two uniforms: empty cell min(u_cell * n, n - 1) in reading order
    gets a 4 where u_four < p_four, else a 2 (exponents 2 and 1). False where no cell is empty."""
    s = cells.shape[0]
    n = 0
    for i in range(s * s):
        n += cells[i // s, i % s] == 0
    if n == 0:
        return False
    k = min(np.int64(u_cell * n), n - 1)
    for i in range(s * s):
        if cells[i // s, i % s] == 0:
            if k == 0:
                cells[i // s, i % s] = 2 if u_four < p_four else 1
                return True
            k -= 1
    return True


@njit(cache=True)
def random_playouts_cells(boards, scores, rng, p_four, max_moves, out):
    """random_playouts on a stack of s x s exponent boards (n x s x s uint8, not changed)."""
    s = boards.shape[1]
    after = np.empty((4, s, s), dtype=np.uint8)
    gained = np.empty(4, dtype=np.int64)
    for i in range(boards.shape[0]):
        x = boards[i].copy()
        score = scores[i]
        for _ in range(max_moves):
            n = 0
            for d in range(4):
                g = move_cells(x, d, after[n])
                if g >= 0:
                    gained[n] = g
                    n += 1
            if n == 0:
                break
            k = min(np.int64(rng.random() * n), n - 1)
            score += gained[k]
            x[:, :] = after[k]
            u_cell = rng.random()
            spawn_cells(x, u_cell, rng.random(), p_four)
        out[i] = np.float64(score)


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
