"""The searches' random playout for 4x4 2048 on 64-bit boards (agents/game_search.register_playout).

A playout is one board moved hundreds of times, where numpy's per-call cost dominates: here the board
is a Python int (4 bits a cell, as arcade/games/board64.py packs it) and each move is four row-table
lookups in plain lists. The chance draws come from a `random.Random` seeded from the search's
Generator, so a seeded search still replays. Other sizes, and boards with two tiles of 32768 or more,
fall back to the rules' own playout.
"""
from __future__ import annotations

import functools
import random

import numpy as np

from agents.game_search import register_playout
from arcade.games import board64
from arcade.games.twenty48 import State2048, slide_rows_left

@functools.lru_cache(maxsize=1)
def _tables():
    """Lists by row code: the row slid left and right, and the points each slide scores."""
    t = board64.row_tables()
    codes = np.arange(1 << 16, dtype=np.uint64)
    rows = ((codes[:, None] >> (np.arange(4, dtype=np.uint64) * np.uint64(4))) & np.uint64(0xF)).astype(np.int64)
    _, left_gain = slide_rows_left(rows)
    _, right_gain = slide_rows_left(rows[:, ::-1].copy())
    return t.left.tolist(), t.right.tolist(), left_gain.astype(np.int64).tolist(), right_gain.astype(np.int64).tolist()


def _transpose(x: int) -> int:
    a = (x & 0xF0F00F0FF0F00F0F) | ((x & 0x0000F0F00000F0F0) << 12) | ((x & 0x0F0F00000F0F0000) >> 12)
    return (a & 0xFF00FF0000FF00FF) | ((a & 0x00FF00FF00000000) >> 24) | ((a & 0x00000000FF00FF00) << 24)


def _slide(x: int, table, gains) -> tuple[int, int]:
    out = 0
    gained = 0
    for k in (0, 16, 32, 48):
        code = (x >> k) & 0xFFFF
        out |= table[code] << k
        gained += gains[code]
    return out, gained


def moves(x: int) -> list[tuple[int, int]]:
    """(board, points) after up, down, left and right (a move that changes nothing gives the board back)."""
    left, right, left_gain, right_gain = _tables()
    t = _transpose(x)
    up, gu = _slide(t, left, left_gain)
    down, gd = _slide(t, right, right_gain)
    return [(_transpose(up), gu), (_transpose(down), gd), _slide(x, left, left_gain), _slide(x, right, right_gain)]


def random_playout(rules, state: State2048, rng, max_moves: int) -> State2048:
    """Uniformly random legal moves and the computer's tiles until no move is left (or max_moves)."""
    if rules.size != 4 or not board64.fits(state.board):
        from agents.game_search import rules_playout

        return rules_playout(rules, state, rng, max_moves)
    r = random.Random(int(rng.integers(2**63)))
    p_four = rules.spawn_four_probability
    x, score = int(board64.pack(state.board)), int(state.score)
    for _ in range(max_moves):
        legal = [(b, g) for b, g in moves(x) if b != x]
        if not legal:
            break
        x, gained = legal[r.randrange(len(legal))]
        score += gained
        empty = [k for k in range(0, 64, 4) if not (x >> k) & 0xF]
        if empty:
            x |= (2 if r.random() < p_four else 1) << empty[r.randrange(len(empty))]
    return State2048(board64.unpack(np.uint64(x))[0], score)


register_playout("2048", random_playout)
