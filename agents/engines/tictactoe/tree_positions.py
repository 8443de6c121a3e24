"""Tic-tac-toe's position operations for the compiled UCT tree (agents/engines/tree_kernels.py says what
they are): a position is (X's cells as bits, O's cells as bits, the seat to move: X is seat 0); a move is a
cell 3 * row + col. No evaluator: every leaf is played out.

Copies of the rules (arcade/games/tictactoe.py: a line of three wins, a full board draws; X moves first),
held equal by tests/test_engines.py.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from agents.engines.compiled import keep_cache_fresh
from agents.engines.bits import bit_index, random_bit


LINES = (0o7, 0o70, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124)  # the eight lines of three as cell bits
NO_EVALUATOR = (0,)  # evaluate's args: none read


@njit(cache=True, inline="always")
def _line(marks):
    for line in LINES:
        if marks & line == line:
            return True
    return False


@njit(cache=True)
def moves(x, o, mover, full):
    """The empty cells as a mask (0: a line is made or the board is full)."""
    if _line(x) or _line(o):
        return np.int64(0)
    return full & ~(x | o)


@njit(cache=True)
def step(x, o, mover, cell, board_a, board_b):
    """The mover marks an empty cell; the other seat moves next."""
    bit = np.int64(1) << cell
    if mover == 0:
        return x | bit, o, np.int64(1)
    return x, o | bit, np.int64(0)


@njit(cache=True)
def result_of(x, o, mover):
    """Seat 0's (X's) result of a finished game: +1 X's line, -1 O's, 0 a draw."""
    return 1 if _line(x) else (-1 if _line(o) else 0)


@njit(cache=True)
def playout(x, o, mover, full, order, board_a, board_b, rng):
    """Seat 0's result of a uniformly random playout to the end."""
    free = moves(x, o, mover, full)
    while free:
        x, o, mover = step(x, o, mover, bit_index(random_bit(free, rng)), board_a, board_b)
        free = moves(x, o, mover, full)
    return result_of(x, o, mover)


@njit(cache=True)
def evaluate(x, o, mover, full, args, work):
    """No evaluator: never called by a tree that plays out its leaves (it is compiled all the same)."""
    return 0.0, False


VALUE_MEANING = "+1 a win, 0 a draw, -1 a loss"  # what final_value (an AlphaZero value) counts


@njit(cache=True)
def final_value(x, o, mover, board_a, board_b):
    """Seat 0's value of a finished game as AlphaZero learns and searches it: its result."""
    return float(result_of(x, o, mover))


def symmetries(board_a, board_b) -> np.ndarray:
    """The board's 8 symmetries as permutations of the cells (perm[cell] is the cell it becomes; the identity
    first): what AlphaZero's learner sees each position under."""
    grid = np.arange(9).reshape(3, 3)
    images = [np.rot90(grid, k) for k in range(4)]
    images += [np.fliplr(g) for g in images]
    out = np.zeros((8, 9), np.int64)
    for i, image in enumerate(images):
        out[i, image.ravel()] = np.arange(9)
    return out


def map_positions(positions: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Positions (rows of a, b, c) under a symmetry: X's and O's cells moved by perm."""
    out = positions.copy()
    for col in (0, 1):
        out[:, col] = 0
        for cell, image in enumerate(perm):
            out[:, col] |= ((positions[:, col] >> cell) & 1) << image
    return out


def feature_count(board_a, board_b) -> int:
    """The length of `features`' vector: the mover's cells, then the other seat's."""
    return 18


@njit(cache=True)
def features(x, o, mover, full, board_a, board_b, out):
    """The position as an AlphaZero network reads it (agents/alphazero_net.py), for the seat to move: out[0:9]
    1 where the mover has marked a cell, out[9:18] where the other seat has."""
    mine, theirs = (x, o) if mover == 0 else (o, x)
    for cell in range(9):
        out[cell] = float((mine >> cell) & 1)
        out[9 + cell] = float((theirs >> cell) & 1)


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
