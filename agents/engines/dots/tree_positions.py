"""Dots' position operations for the compiled UCT tree (agents/engines/tree_kernels.py says what they are):
a position is (drawn lines as bits, the box margin of seat 0 over seat 1, the seat to move); a move is a line, and
a line that completes a box keeps the turn (kernels.gain says which do). The evaluator is the learnt network
of agents/dots_ntuple.py, the small leaves solved by the alpha-beta kernels (search_kernels.position_value).
`features`: the position as an AlphaZero network reads it.

Copies of the rules (arcade/games/dots.py DotsRules.step: a box to the player who completes it, who moves
again; DotsRules.outcome: the margin decides), held equal by tests/test_engines.py.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from agents.engines.compiled import keep_cache_fresh
from agents.engines.bits import bit_index, popcount, random_bit  # noqa: F401  (bit_index, random_bit: the tree's)
from agents.engines.dots.kernels import gain
from agents.engines.dots.kernels import value as network_value
from agents.engines.dots.search_kernels import CAP, NODES, STOPPED, position_value


_one, _wide = np.zeros(1, np.int64), np.zeros((1, 1), np.int64)
_NO_NETWORK = (_wide, _one, _wide, _one, _one, np.zeros(1), 0, _wide, _wide, 1)
NO_SOLVER = ((_wide, _wide, _one), (_one, np.zeros(1, np.int8), np.zeros(1, np.int8), np.zeros(1), np.zeros(1, np.int8)),
             _one, (_wide, _one, _one, _one, _one, _one, _one, _one), _one)
# evaluate's args: (network, exact_lines, exact_positions, solver); these of the same types, never read
NO_EVALUATOR = (_NO_NETWORK, 0, 0, NO_SOLVER)


@njit(cache=True)
def step(lines, margin, mover, line, box_lines, line_boxes):
    """Draw a free line: (lines, margin, mover) after it; a line that completes a box keeps the turn."""
    g = gain(lines, line, box_lines, line_boxes)
    lines |= np.int64(1) << line
    if g:
        margin += g if mover == 0 else -g
    else:
        mover ^= 1
    return lines, margin, mover


@njit(cache=True)
def moves(lines, margin, mover, full):
    """The free lines as a mask (0: the board is full, the game over)."""
    return full & ~lines


@njit(cache=True)
def result_of(lines, margin, mover):
    """Seat 0's result (+1, 0, -1) of a finished game: the sign of its margin."""
    return (margin > 0) - (margin < 0)


@njit(cache=True)
def play_order(lines, margin, mover, order, n, box_lines, line_boxes):
    """The final margin of seat 0 after drawing order[:n] (the free lines) in that order."""
    for i in range(n):
        lines, margin, mover = step(lines, margin, mover, order[i], box_lines, line_boxes)
    return margin


@njit(cache=True)
def playout(lines, margin, mover, full, order, box_lines, line_boxes, rng):
    """Seat 0's result (+1, 0, -1) of a uniformly random playout to the end (the free lines in a random order,
    Fisher-Yates into `order`)."""
    n = 0
    free = full & ~lines
    while free:
        bit = free & -free
        order[n] = bit_index(bit)
        n += 1
        free ^= bit
    for i in range(n - 1, 0, -1):
        j = min(np.int64(rng.random() * (i + 1)), i)
        order[i], order[j] = order[j], order[i]
    final = play_order(lines, margin, mover, order, n, box_lines, line_boxes)
    return (final > 0) - (final < 0)


@njit(cache=True)
def evaluate(a, b, mover, full, args, work):
    """(seat 0's result in [-1, 1] for a leaf (not finished), whether it is exact). args = (network,
    exact_lines, exact_positions, solver): a leaf with exact_lines free lines or fewer is solved by the
    alpha-beta kernels (solver: their geo, table, stats, scratch and sides; its exact win, draw or loss, unless
    that takes more than exact_positions positions), else the box margin so far plus the network's value of
    the rest for the side to move, squashed by tanh(margin / 2). work[0] counts the positions the solves
    search."""
    net, exact_lines, exact_positions, solver = args
    free = popcount(full & ~a)
    if free <= exact_lines:
        geo, table, stats, scratch, sides = solver
        stats[NODES] = 0
        stats[STOPPED] = 0
        stats[CAP] = exact_positions
        v = position_value(a, free, geo, table, stats, scratch, sides, None)
        work[0] += stats[NODES]
        if stats[STOPPED] == 0:
            margin = b + (v if mover == 0 else -v)
            return float((margin > 0) - (margin < 0)), True
    v = network_value(a, net)
    return math.tanh((b + (v if mover == 0 else -v)) / 2.0), False


VALUE_MEANING = "the final box margin over the boxes: +1 every box, -1 none"  # what final_value counts


@njit(cache=True)
def final_value(lines, margin, mover, box_lines, line_boxes):
    """Seat 0's value of a finished game as AlphaZero learns and searches it: its box margin over the boxes, so
    the search plays for the most boxes as the exact solver does (a win alone: any margin above 0)."""
    return margin / box_lines.shape[0]


def symmetries(box_lines, line_boxes) -> np.ndarray:
    """The board's symmetries (4 on a rectangle, 8 on a square) as permutations of the lines (perm[line] is the
    line it becomes; the identity first): what AlphaZero's learner sees each position under."""
    from arcade.games.dots import line_symmetries

    boxes, lines = box_lines.shape[0], line_boxes.shape[0]
    both = lines - 2 * boxes  # rows + cols (lines = 2 rows cols + rows + cols)
    rows = next(r for r in range(1, both) if r * (both - r) == boxes)
    return np.array(line_symmetries(rows, both - rows), np.int64)


def map_positions(positions: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Positions (rows of lines, margin, mover) under a symmetry: the lines moved by perm."""
    out = positions.copy()
    out[:, 0] = 0
    for line, image in enumerate(perm):
        out[:, 0] |= ((positions[:, 0] >> line) & 1) << image
    return out


def feature_count(box_lines, line_boxes) -> int:
    """The length of `features`' vector on a board: a value a line, two a box, the margin, the free and the safe
    lines."""
    return line_boxes.shape[0] + 2 * box_lines.shape[0] + 5


@njit(cache=True)
def features(lines, margin, mover, full, box_lines, line_boxes, out):
    """The position as an AlphaZero network reads it (agents/alphazero_net.py), for the seat to move: 1 for
    each drawn line; for each box, 1 where three of its sides are drawn (it can be taken now), then 1 where
    two are (the next line there gives it away); last the mover's box margin so far over the boxes, the share of
    lines still free and whether their count is odd, the share of safe lines (free lines that give no box a
    third side) and whether their count is odd (who must open the first chain: the endgame's parity)."""
    n, boxes = line_boxes.shape[0], box_lines.shape[0]
    for line in range(n):
        out[line] = float((lines >> line) & 1)
    for box in range(boxes):
        sides = 0
        for k in range(4):
            sides += (lines >> box_lines[box, k]) & 1
        out[n + box] = 1.0 if sides == 3 else 0.0
        out[n + boxes + box] = 1.0 if sides == 2 else 0.0
    out[n + 2 * boxes] = (margin if mover == 0 else -margin) / boxes
    free = n - popcount(lines)
    out[n + 2 * boxes + 1] = free / n
    out[n + 2 * boxes + 2] = float(free & 1)
    safe = 0  # free lines that give no box a third side
    for line in range(n):
        if not (lines >> line) & 1:
            ok = True
            for j in range(2):
                box = line_boxes[line, j]
                if box >= 0:
                    sides = 0
                    for k in range(4):
                        sides += (lines >> box_lines[box, k]) & 1
                    ok &= sides < 2
            safe += ok
    out[n + 2 * boxes + 3] = safe / n
    out[n + 2 * boxes + 4] = float(safe & 1)


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
