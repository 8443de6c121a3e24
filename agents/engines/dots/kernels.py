"""The compiled inner loops of the dots learner (numba): an n-tuple network's value of a line set, the
greedy move it makes, the greedy agent's move (its sparring partner), and TD(0) self-play, by the rules of
arcade/games/dots.py (the alpha-beta's recursion, which values its horizon by this network, is
agents/engines/dots/search_kernels.py).

A position is its drawn lines, one bit a line (the rules' numbering). The network: tuples of lines, each
read through every symmetry of the board; a tuple read under a symmetry gives an index into its own
weight table (bit k of the index: whether the tuple's k-th line, mapped by that symmetry, is drawn), and
the value is the sum of those weights plus one weight for the number of lines drawn. The arrays, made once
per board by agents/dots_ntuple.py:

  reads   (T*S, K) int64: line of the k-th place of tuple t under symmetry s (-1 past the tuple's end)
  offsets (T*S,) int64: where each read's table starts in `weights` (the S reads of a tuple share one table);
          -1: the read is a further image of the read before it, and the tuple is read once, canonically
          (a tuple of the whole board: the least of its images' indexes, its weight counted S times; every
          image of a position reads that one weight, so a table of them all holds one weight a class)
  counts  (C*S, J) int64: box of the j-th place of box tuple c under symmetry s (-1 past its end): a box
          tuple's index is its boxes' drawn sides (0-4) as the digits of a base-5 number
  count_offsets (C*S,) int64: where each of those reads' tables starts
  weights (W,) float64: the tables, then one weight per count of lines drawn (layer_at is where), then
          the summary's table (summary_at = layer_at + lines + 1): the free lines that give no box away
          (safe), the boxes with two sides drawn and those with three, each capped (SAFE_CAP, ...)
  box_lines (B, 4) int64: each box's four lines; line_boxes (L, 2): each line's boxes (-1: none)
  box_masks (B,) int64: each box's four lines as a mask

The value of a line set is the box margin the player to move can expect over the boxes still open; drawing
line l that completes g boxes is worth g + V(after) (the same player moves again), else -V(after); a full
board is worth 0. No pygame, no Python objects in the loops; randomness from the numpy Generator passed in.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from agents.engines.compiled import keep_cache_fresh
from agents.engines.bits import popcount, bit_index, random_bit  # noqa: F401  (the kernels below and their callers)



@njit(cache=True)
def gain(lines, line, box_lines, line_boxes):
    """Boxes that drawing `line` (not drawn) on `lines` completes: 0, 1 or 2."""
    after = lines | (np.int64(1) << line)
    g = 0
    for j in range(2):
        b = line_boxes[line, j]
        if b >= 0:
            done = True
            for k in range(4):
                done &= ((after >> box_lines[b, k]) & 1) == 1
            g += done
    return g


SAFE_CAP, TWO_CAP, THREE_CAP = 32, 32, 4
DIVERGED = 1e6  # a TD error this large (margins are tens of boxes) or not a number: the values ran away


@njit(cache=True, inline="always")
def _safe(lines, line, box_masks, line_boxes):
    """Whether drawing `line` (not drawn) gives no box its third side."""
    for j in range(2):
        b = line_boxes[line, j]
        if b >= 0 and popcount(lines & box_masks[b]) == 2:
            return False
    return True


@njit(cache=True)
def _summary(lines, box_masks, box_lines, line_boxes, n_lines):
    """The index of a line set's summary: its safe lines, two-sided and three-sided boxes (each capped)."""
    two = three = 0
    for b in range(box_masks.size):
        sides = popcount(lines & box_masks[b])
        two += sides == 2
        three += sides == 3
    safe = 0
    for line in range(n_lines):
        if not (lines >> line) & 1:
            safe += _safe(lines, line, box_masks, line_boxes)
    return (min(safe, SAFE_CAP - 1) * TWO_CAP + min(two, TWO_CAP - 1)) * THREE_CAP + min(three, THREE_CAP - 1)


@njit(cache=True)
def value(lines, net):
    """The network's value of a line set (for the player to move). net: (reads, offsets, counts,
    count_offsets, box_masks, weights, layer_at, box_lines, line_boxes, n_lines)."""
    reads, offsets, counts, count_offsets, box_masks, weights, layer_at, box_lines, line_boxes, n_lines = net
    total = weights[layer_at + popcount(lines)]
    total += weights[layer_at + n_lines + 1 + _summary(lines, box_masks, box_lines, line_boxes, n_lines)]
    r = 0
    while r < reads.shape[0]:
        index, images, _ = _canonical(lines, reads, offsets, r)
        total += images * weights[offsets[r] + index]
        r += images
    for r in range(counts.shape[0]):
        total += weights[count_offsets[r] + _count_index(lines, counts, box_masks, r)]
    return total


@njit(cache=True, inline="always")
def _line_index(lines, reads, r):
    index = 0
    for k in range(reads.shape[1]):
        line = reads[r, k]
        if line < 0:
            break
        index |= ((lines >> line) & 1) << k
    return index


@njit(cache=True, inline="always")
def _canonical(lines, reads, offsets, r):
    """Read r and the further images after it (offsets -1): (the least of their indexes, how many reads
    that is, how many of them give that least index). A read with no further images: (its index, 1, 1)."""
    least = _line_index(lines, reads, r)
    images = ties = 1
    while r + images < reads.shape[0] and offsets[r + images] < 0:
        index = _line_index(lines, reads, r + images)
        if index < least:
            least, ties = index, 1
        elif index == least:
            ties += 1
        images += 1
    return least, images, ties


@njit(cache=True, inline="always")
def _count_index(lines, counts, box_masks, r):
    index = 0
    for j in range(counts.shape[1] - 1, -1, -1):
        box = counts[r, j]
        if box >= 0:
            index = index * 5 + popcount(lines & box_masks[box])
    return index


@njit(cache=True)
def move_values(lines, n_lines, net, box_lines, line_boxes, out):
    """out[l]: what drawing line l is worth to the player to move (-inf for a drawn line)."""
    full = (np.int64(1) << n_lines) - 1
    for line in range(n_lines):
        if (lines >> line) & 1:
            out[line] = -np.inf
            continue
        after = lines | (np.int64(1) << line)
        g = gain(lines, line, box_lines, line_boxes)
        v = 0.0 if after == full else value(after, net)
        out[line] = g + v if g > 0 else -v


@njit(cache=True)
def best_move(lines, n_lines, net, box_lines, line_boxes, scratch):
    """The line the network values most (ties: the lowest), and that value."""
    move_values(lines, n_lines, net, box_lines, line_boxes, scratch)
    best = -1
    for line in range(n_lines):
        if best < 0 or scratch[line] > scratch[best]:
            best = line
    return best, scratch[best]


@njit(cache=True)
def _features(lines, net, out, canon):
    """The weight indexes a line set reads (line tuples', box tuples', then its layer's) into `out`, each
    once a read; a canonically read tuple's instead into a row of `canon` (its weight's index, its images,
    the ties: _canonical). Returns (entries of out, rows of canon)."""
    reads, offsets, counts, count_offsets, box_masks, _, layer_at, box_lines, line_boxes, n_lines = net
    n = n_canon = r = 0
    while r < reads.shape[0]:
        if r + 1 < reads.shape[0] and offsets[r + 1] < 0:
            index, images, ties = _canonical(lines, reads, offsets, r)
            canon[n_canon, 0], canon[n_canon, 1], canon[n_canon, 2] = offsets[r] + index, images, ties
            n_canon += 1
            r += images
        else:
            out[n] = offsets[r] + _line_index(lines, reads, r)
            n += 1
            r += 1
    for r in range(counts.shape[0]):
        out[n] = count_offsets[r] + _count_index(lines, counts, box_masks, r)
        n += 1
    out[n] = layer_at + popcount(lines)
    out[n + 1] = layer_at + n_lines + 1 + _summary(lines, box_masks, box_lines, line_boxes, n_lines)
    return n + 2, n_canon


@njit(cache=True)
def greedy_line(lines, n_lines, box_masks, box_lines, line_boxes, rng):
    """The greedy agent's line (agents/greedy.py's GreedyDots): the first line that completes the most boxes;
    else a random line that gives no box its third side; else a random free line."""
    best, most = -1, 0
    safe = np.int64(0)
    for line in range(n_lines):
        if (lines >> line) & 1:
            continue
        g = gain(lines, line, box_lines, line_boxes)
        if g > most:
            best, most = line, g
        if _safe(lines, line, box_masks, line_boxes):
            safe |= np.int64(1) << line
    if best >= 0:
        return best
    return bit_index(random_bit(safe if safe else ((np.int64(1) << n_lines) - 1) & ~lines, rng))


@njit(cache=True, nogil=True)
def self_play(net, games, rate, epsilon, n_lines, box_lines, line_boxes, rng, openings, sparring):
    """TD(0) self-play: `games` games, each from the empty board, both sides choosing the move of largest
    worth (a random free line with probability epsilon), every position's value moved `rate` of the way to
    its greedy worth (the move of largest worth, whatever was played). The step is normalised (NLMS): a
    weight read c times moves c / sum(c^2) of it, so the value moves by exactly that share even where a
    symmetric position reads one weight through several symmetries (a plain rate / F step would move it up
    to 8 times too far, and diverge). A canonically read tuple steps as its S reads of S equal weights
    would: its one weight moves (ties) steps and adds S x ties to the norm. The first `openings` moves of a
    game are random (wider starts). In a `sparring` share of the games one seat (either, at random) plays the
    greedy agent's moves after the openings (greedy_line): the positions a greedy opponent leads to are
    learnt too, with the same target (what the network's best move is worth). Returns the moves played, or
    -1 when a TD error ran away (not a number, or past DIVERGED): it stops there, before the step spreads it
    (a runaway weight shows in the error of every position that reads it, so no look over all the weights is
    needed). Runs without the GIL: threads may share the weights (Hogwild), each with its own rng."""
    full = (np.int64(1) << n_lines) - 1
    weights = net[5]
    scratch = np.empty(n_lines, np.float64)
    feats = np.empty(net[0].shape[0] + net[2].shape[0] + 2, np.int64)
    canon = np.empty((net[0].shape[0], 3), np.int64)
    moves = 0
    for _ in range(games):
        lines = np.int64(0)
        played = mover = 0
        greedy_seat = -1
        if rng.random() < sparring:
            greedy_seat = 0 if rng.random() < 0.5 else 1
        while lines != full:
            best, worth = best_move(lines, n_lines, net, box_lines, line_boxes, scratch)
            n, n_canon = _features(lines, net, feats, canon)
            error = worth - value(lines, net)
            if not abs(error) < DIVERGED:  # (true for a NaN too)
                return -1
            norm = 0
            for i in range(n):
                for j in range(n):
                    norm += feats[i] == feats[j]
            for c in range(n_canon):
                norm += canon[c, 1] * canon[c, 2]
            step = rate * error / norm
            for i in range(n):
                weights[feats[i]] += step
            for c in range(n_canon):
                weights[canon[c, 0]] += canon[c, 2] * step
            line = best
            if mover == greedy_seat and played >= openings:
                line = greedy_line(lines, n_lines, net[4], box_lines, line_boxes, rng)
            elif played < openings or rng.random() < epsilon:
                line = bit_index(random_bit(full & ~lines, rng))
            if gain(lines, line, box_lines, line_boxes) == 0:
                mover = 1 - mover
            lines |= np.int64(1) << line
            played += 1
            moves += 1
    return moves


@njit(cache=True)
def choices(positions, n_lines, net, box_lines, line_boxes, out):
    """The network's greedy line in each of `positions` (line sets, none full), into out."""
    scratch = np.empty(n_lines, np.float64)
    for i in range(positions.size):
        out[i] = best_move(positions[i], n_lines, net, box_lines, line_boxes, scratch)[0]


@njit(cache=True)
def values(positions, net, out):
    """The network's value of each of `positions` (line sets), into out."""
    for i in range(positions.size):
        out[i] = value(positions[i], net)


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
