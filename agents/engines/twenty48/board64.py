"""4x4 2048 boards packed into one uint64 each, and their moves by row tables.

Cell (r, c) is the nibble at bit 4 * (4r + c): row r is the 16 bits from
16r, and in a row's code cell c is hex digit c (the layout of
`twenty48.line_tables`, so a row code indexes the same tables). A nibble holds
an exponent; 15 stands for any tile of 32768 or more and never merges. That
keeps every board a player meets on the fast path: a second tile of 32768 or
more is the one case the packing cannot hold (`fits` says so, and the search
then keeps the array path).

A move of N boards is four row extractions, four gathers from a 65,536-entry
table and ORs; up and down go through a transpose done with bit operations and
tables whose entries are already spread back into a column. Everything works
on whole numpy arrays of boards (a search layer at a time).
"""
from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from arcade.games.twenty48 import slide_rows_left

BIG = 15  # the nibble of every tile >= 32768; it never merges
_NIBBLE_SHIFTS = np.arange(16, dtype=np.uint64) * np.uint64(4)
_TWO_AT = np.uint64(1) << _NIBBLE_SHIFTS  # cell i holding a 2 (exponent 1); also bit 4i of an empty_mask
_LOW_BITS = np.uint64(0x1111111111111111)
_LE64 = np.dtype("<u8")


class RowTables(NamedTuple):
    """For each of the 65,536 row codes: the row slid left and right (as codes), and the same
    results spread into a column (digit k at bit 16k) for up and down."""

    left: np.ndarray
    right: np.ndarray
    up: np.ndarray
    down: np.ndarray


def _slide_codes(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows (M x 4 exponents) slid toward index 0 with BIG never merging: (the new codes, the score each
    slide gains)."""
    rows = rows.astype(np.int64)
    big = rows == BIG
    # give every BIG cell a value of its own, so no two of them (and nothing else) can merge
    rows[big] = 100 + np.nonzero(big)[1]
    slid, gained = slide_rows_left(rows)
    slid[slid >= 100] = BIG
    codes = (slid.astype(np.uint64) << (np.arange(4, dtype=np.uint64) * np.uint64(4))).sum(axis=1, dtype=np.uint64)
    return codes, gained


@functools.lru_cache(maxsize=1)
def _slid_lines() -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Every line code slid toward its first cell and toward its last: each (the new codes, with digit k of
    the second's cell 3 - k; the score gained), built once for row_tables and gain_tables."""
    codes = np.arange(1 << 16, dtype=np.uint64)
    rows = ((codes[:, None] >> (np.arange(4, dtype=np.uint64) * np.uint64(4))) & np.uint64(0xF)).astype(np.int64)
    return _slide_codes(rows), _slide_codes(rows[:, ::-1])


@functools.lru_cache(maxsize=1)
def gain_tables() -> np.ndarray:
    """4 x 65,536 (int64): the score a line gains when the board moves up, down, left, right, by the
    line's code (up and down index column codes, left and right row codes); BIG never merges."""
    (_, toward_first), (_, toward_last) = _slid_lines()
    return np.stack([toward_first, toward_last, toward_first, toward_last])


def _spread(codes: np.ndarray) -> np.ndarray:
    """Row codes turned into columns: hex digit k moves to bit 16k."""
    out = np.zeros_like(codes)
    for k in range(4):
        out |= ((codes >> np.uint64(4 * k)) & np.uint64(0xF)) << np.uint64(16 * k)
    return out


@functools.lru_cache(maxsize=1)
def row_tables() -> RowTables:
    """The move tables (built once, about 10 ms)."""
    (left, _), (right_rev, _) = _slid_lines()  # (digit k of right_rev is cell 3 - k)
    right = np.zeros_like(right_rev)
    for k in range(4):
        right |= ((right_rev >> np.uint64(4 * k)) & np.uint64(0xF)) << np.uint64(4 * (3 - k))
    return RowTables(left, right, _spread(left), _spread(right))


def fits(board: np.ndarray) -> bool:
    """Whether a 4x4 exponent board packs without losing a merge: at most one tile >= 32768."""
    return board.shape == (4, 4) and int((board >= BIG).sum()) <= 1


def pack(boards: np.ndarray) -> np.ndarray:
    """Exponent boards (N x 4 x 4, or one 4 x 4) -> uint64 (N,) or one uint64; tiles >= 32768 become BIG."""
    cells = np.minimum(np.asarray(boards), BIG).astype(np.uint64)
    flat = cells.reshape(-1, 16)
    packed = np.bitwise_or.reduce(flat << _NIBBLE_SHIFTS, axis=1)
    return packed if cells.ndim == 3 else packed[0]


def unpack(packed) -> np.ndarray:
    """uint64 boards (N,) -> exponent boards N x 4 x 4 (uint8)."""
    packed = np.atleast_1d(np.asarray(packed, dtype=np.uint64))
    return ((packed[:, None] >> _NIBBLE_SHIFTS) & np.uint64(0xF)).astype(np.uint8).reshape(-1, 4, 4)


_T_KEEP, _T_UP12, _T_DOWN12 = (np.uint64(0xF0F00F0FF0F00F0F), np.uint64(0x0000F0F00000F0F0),
                                np.uint64(0x0F0F00000F0F0000))
_T_KEEP2, _T_DOWN24, _T_UP24 = (np.uint64(0xFF00FF0000FF00FF), np.uint64(0x00FF00FF00000000),
                                np.uint64(0x00000000FF00FF00))
_12, _24 = np.uint64(12), np.uint64(24)


def transpose(x: np.ndarray) -> np.ndarray:
    """Each board mirrored on its main diagonal, by masks and shifts (rows become columns): nibbles swap
    across the diagonals of each 2x2 block, then the 2x2 blocks swap. In place on two arrays (a search
    transposes millions of boards; fresh temporaries doubled the time)."""
    x = np.asarray(x, dtype=np.uint64)
    if x.ndim == 0:
        return transpose(x[None])[0]
    a = x & _T_KEEP
    t = x & _T_UP12
    t <<= _12
    a |= t
    np.bitwise_and(x, _T_DOWN12, out=t)
    t >>= _12
    a |= t
    b = a & _T_KEEP2
    np.bitwise_and(a, _T_DOWN24, out=t)
    t >>= _24
    b |= t
    np.bitwise_and(a, _T_UP24, out=t)
    t <<= _24
    b |= t
    return b


def lines(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row codes and the column codes of each board: two 4 x N index arrays (line k of every board
    in row k, ready for np.take)."""
    # the four uint16 words of a little-endian uint64 are its rows, lowest first
    # (uint16 codes, not intp: np.take reads them as they are, and a quarter of the bytes to copy)
    rows = np.ascontiguousarray(x, dtype=_LE64).view("<u2").reshape(-1, 4).T.copy()
    cols = np.ascontiguousarray(transpose(x), dtype=_LE64).view("<u2").reshape(-1, 4).T.copy()
    return rows, cols


def move_all(x: np.ndarray, codes: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """All four moves of every board: 4 x N uint64, row d the boards moved up, down, left, right.
    A move that changes nothing returns the board itself (legal = result != board). `codes` are the
    boards' `lines(x)`, where the caller has them already."""
    t = row_tables()
    rows, cols = lines(x) if codes is None else codes
    out = np.empty((4, len(x)), dtype=np.uint64)
    for d, table, codes, shifts in ((0, t.up, cols, _COLUMN_SHIFTS), (1, t.down, cols, _COLUMN_SHIFTS),
                                    (2, t.left, rows, _ROW_SHIFTS), (3, t.right, rows, _ROW_SHIFTS)):
        _assemble(table, codes, shifts, out[d])
    return out


_COLUMN_SHIFTS = tuple(np.uint64(4 * k) for k in range(4))  # where line k of a board goes: column k
_ROW_SHIFTS = tuple(np.uint64(16 * k) for k in range(4))  # or row k


def _assemble(table: np.ndarray, codes: np.ndarray, shifts: tuple, out: np.ndarray) -> None:
    """out = the four lines' table entries (4 x N codes), line k shifted by shifts[k], ORed together."""
    # (mode "clip" with out=: the default mode writes through a buffer, 1.8x slower; codes are always in range)
    table.take(codes[0], out=out, mode="clip")
    for k in range(1, 4):
        out |= table.take(codes[k]) << shifts[k]


def empty_mask(x: np.ndarray) -> np.ndarray:
    """Bit 4i set where nibble i is empty."""
    t = x | (x >> np.uint64(1))
    t |= t >> np.uint64(2)
    return ~t & _LOW_BITS


def spawn_children(x: np.ndarray, p_four: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every placement of the computer on each board: (children, parent index, probability within parent).
    Boards without an empty cell have no children."""
    empty = empty_mask(x)
    # (flatnonzero and a split, not 2-d nonzero: 7x faster)
    at = np.flatnonzero((empty[:, None] & _TWO_AT) != 0)
    parent, cell = at >> 4, at & 15
    counts = np.bitwise_count(empty).take(parent)
    tile = _TWO_AT.take(cell)
    if not 0 < p_four < 1:
        kids = x.take(parent) | tile
        if p_four >= 1:
            kids += tile  # exponent 1 -> 2 in that nibble
        return kids, parent, 1.0 / counts
    m = at.size  # the twos, then the fours, written into place
    kids, p_kid = np.empty(2 * m, dtype=np.uint64), np.empty(2 * m)
    np.bitwise_or(x.take(parent), tile, out=kids[:m])
    np.add(kids[:m], tile, out=kids[m:])
    np.divide(1.0 - p_four, counts, out=p_kid[:m])
    np.divide(p_four, counts, out=p_kid[m:])
    return kids, np.concatenate([parent, parent]), p_kid


def spawn(x: np.ndarray, u_cell: np.ndarray, u_four: np.ndarray, p_four: float) -> np.ndarray:
    """One tile on each board (uint64) in an empty cell: cell floor(u_cell * empties) in reading order, a 4
    where u_four < p_four. Every board must have an empty cell."""
    empty = (empty_mask(x)[:, None] >> _NIBBLE_SHIFTS) & np.uint64(1)  # N x 16: 1 = empty
    counts = empty.sum(axis=1, dtype=np.int64)
    k = np.minimum((u_cell * counts).astype(np.int64), counts - 1)
    cell = np.argmax(np.cumsum(empty, axis=1, dtype=np.int64) > k[:, None], axis=1)
    tile = np.where(u_four < p_four, np.uint64(2), np.uint64(1))
    return x | (tile << (cell.astype(np.uint64) * np.uint64(4)))


def gains_of(directions: np.ndarray, line_codes: np.ndarray) -> np.ndarray:
    """The score each board gains by its move: `directions` (N,) and the 4 x N codes of the lines that move
    (columns for up and down, rows for left and right)."""
    table = gain_tables()
    return (table[directions, line_codes[0]] + table[directions, line_codes[1]] + table[directions, line_codes[2]]
            + table[directions, line_codes[3]])


def all_gains(codes: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The score each of the four moves gains on every board (4 x N, int64, 0 for a move that changes
    nothing), from the boards' `lines(x)`."""
    table = gain_tables()
    rows, cols = codes
    out = np.empty((4, rows.shape[1]), dtype=np.int64)
    for d, lines_ in ((0, cols), (1, cols), (2, rows), (3, rows)):
        table[d].take(lines_[0], out=out[d], mode="clip")
        for k in range(1, 4):
            out[d] += table[d].take(lines_[k])
    return out


# the largest nibble of each 16-bit row code
_ROW_MAX = ((np.arange(1 << 16)[:, None] >> np.arange(0, 16, 4)) & 0xF).max(axis=1).astype(np.uint8)


def max_exponent(x: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """The largest nibble (tile exponent) of each board (uint8); `rows`: its row codes (lines(x)[0]) when they
    are at hand (a table look-up per row: a quarter of the work of reading all 16 nibbles)."""
    rows = lines(np.asarray(x, dtype=np.uint64))[0] if rows is None else rows
    return np.take(_ROW_MAX, rows).max(axis=0)


@functools.lru_cache(maxsize=1)
def move_tables() -> tuple[np.ndarray, np.ndarray]:
    """The 2048 kernels' row tables: (2 x 65,536 uint16, each row code slid left and right; 2 x 65,536
    int64, the points those slides score)."""
    rows = row_tables()
    moves = np.stack([rows.left, rows.right]).astype(np.uint16)
    gains = np.ascontiguousarray(gain_tables()[2:4])
    moves.flags.writeable = gains.flags.writeable = False
    return moves, gains
