"""Nim's position operations for the compiled UCT tree (agents/engines/tree_kernels.py says what they
are): (stones left, the seat that took the last stones or -1, the seat to move); a move is a number of stones,
1 to 3, as its bit. No evaluator: every leaf is played out."""
from __future__ import annotations

import numpy as np
from numba import njit

from agents.engines.compiled import keep_cache_fresh
from agents.engines.bits import bit_index, random_bit


NO_EVALUATOR = (0,)


@njit(cache=True)
def moves(stones, last, mover, full):
    return full & ((np.int64(1) << (min(stones, 3) + 1)) - 2)


@njit(cache=True)
def step(stones, last, mover, take, board_a, board_b):
    return stones - take, mover, 1 - mover


@njit(cache=True)
def result_of(stones, last, mover):
    return 1 if last == 0 else -1


@njit(cache=True)
def playout(stones, last, mover, full, order, board_a, board_b, rng):
    free = moves(stones, last, mover, full)
    while free:
        stones, last, mover = step(stones, last, mover, bit_index(random_bit(free, rng)), board_a, board_b)
        free = moves(stones, last, mover, full)
    return result_of(stones, last, mover)


@njit(cache=True)
def evaluate(stones, last, mover, full, args, work):
    return 0.0, False


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
