"""The compiled inner loops of match-3 (numba): random playouts by the rules of arcade/games/match3.py, and
monte-carlo's greedy-cascade rollouts.

A playout plays uniformly random legal swaps (in the rules' order of swaps, all_swaps) until the turns run
out or `max_moves` turns are played, each turn resolved as the rules resolve it: every clearing step
scores 10 points a gem times its cascade level, gems fall, the emptied cells (in reading order) are
refilled by one draw of `rng.integers(0, colours, n)`, and a board left with no legal swap (turns
remaining) is reshuffled by `rng.permutation` until it has one and no line. numba's Generator draws what
numpy's draws, so a playout here is the rules' playout, draw for draw (tests/test_search_any_game.py).
monte-carlo's rollouts (`greedy_rollouts`: a swap, then greedy-cascade turns, the new gems read from a
tape) are the batched engine's (arcade/games/match3_batch), rollout by rollout (tests/test_match3_batch.py).
No pygame, no Python objects in the loops.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from agents.engines.compiled import keep_cache_fresh

EMPTY = -1
POINTS_PER_GEM = 10
MAX_LEVELS = 1000  # as arcade.games.match3.resolve
RESHUFFLE_TRIES = 10_000  # as arcade.games.match3.reshuffle


PAD = -2  # around a padded copy of the board: no colour, and not EMPTY


@njit(cache=True, inline="always")
def _lines_up(p, r, c, colour, dr, dc):
    """Whether `colour`, moved into (r, c) of padded board p from the neighbour at (r - dr, c - dc), is in a
    line there: two more of it straight on (dr, dc), or across that direction two on one side or one on
    each. (The pad of two cells makes every look-up a plain load.)"""
    a1 = p[r - dc, c - dr] == colour
    z1 = p[r + dc, c + dr] == colour
    return (((p[r + dr, c + dc] == colour) & (p[r + 2 * dr, c + 2 * dc] == colour))
            | (a1 & (z1 | (p[r - 2 * dc, c - 2 * dr] == colour))) | (z1 & (p[r + 2 * dc, c + 2 * dr] == colour)))


@njit(cache=True)
def legal_swaps(b, out):
    """The swaps that make a line on settled board b, as indexes into the rules' all_swaps order (the
    horizontal ones row by row, then the vertical ones), into `out`; returns how many. Checked as the rules'
    legal_mask checks them: each gem against the cells beyond its new place, on a padded copy."""
    s = b.shape[0]
    p = np.full((s + 4, s + 4), PAD, dtype=np.int8)
    p[2:s + 2, 2:s + 2] = b
    n = 0
    for k in range(2):  # 0: horizontal swaps (r, c)-(r, c + 1); 1: vertical (r, c)-(r + 1, c)
        dr, dc = k, 1 - k
        for r in range(s - k):
            for c in range(s - 1 + k):
                a, z = p[r + 2, c + 2], p[r + 2 + dr, c + 2 + dc]
                if a == z:
                    continue
                if _lines_up(p, r + 2, c + 2, z, -dr, -dc) | _lines_up(p, r + 2 + dr, c + 2 + dc, a, dr, dc):
                    out[n] = k * s * (s - 1) + r * (s - 1 + k) + c
                    n += 1
    return n


@njit(cache=True)
def _matches(b, mask):
    """Mark the gems in lines of 3+ (as find_matches); returns how many. (Bitwise & on the comparisons:
    numba compiles `and` chains in these loops many times slower.)"""
    s = b.shape[0]
    mask[:] = False
    for r in range(s):
        for c in range(s - 2):
            colour = b[r, c]
            if (colour != EMPTY) & (b[r, c + 1] == colour) & (b[r, c + 2] == colour):
                mask[r, c] = mask[r, c + 1] = mask[r, c + 2] = True
    for r in range(s - 2):
        for c in range(s):
            colour = b[r, c]
            if (colour != EMPTY) & (b[r + 1, c] == colour) & (b[r + 2, c] == colour):
                mask[r, c] = mask[r + 1, c] = mask[r + 2, c] = True
    return mask.sum()


@njit(cache=True)
def _fall(b, mask):
    """Clear the marked gems and let the rest fall (keeping their order): the emptied top cells are EMPTY."""
    s = b.shape[0]
    for c in range(s):
        w = s - 1
        for r in range(s - 1, -1, -1):
            if not mask[r, c]:
                b[w, c] = b[r, c]
                w -= 1
        for r in range(w, -1, -1):
            b[r, c] = EMPTY


@njit(cache=True)
def _fall_and_refill(b, mask, count, colours, rng):
    """Clear the marked gems, let the rest fall (keeping their order), and fill the emptied top cells in
    reading order from one draw of `count` colours."""
    _fall(b, mask)
    fresh = rng.integers(0, colours, count)
    s = b.shape[0]
    k = 0
    for r in range(s):
        for c in range(s):
            if b[r, c] == EMPTY:
                b[r, c] = fresh[k]
                k += 1


@njit(cache=True)
def _resolve(b, mask, colours, rng):
    """Every clearing step of a turn on b (in place); the points they score."""
    points = 0
    level = 1
    while level <= MAX_LEVELS:
        count = _matches(b, mask)
        if count == 0:
            break
        _fall_and_refill(b, mask, count, colours, rng)
        points += POINTS_PER_GEM * count * level
        level += 1
    return points


@njit(cache=True)
def _reshuffle(b, mask, swaps, rng):
    """b's gems in new places with no line and a legal swap (as reshuffle); False if none was found."""
    s = b.shape[0]
    flat = b.ravel().copy()
    for _ in range(RESHUFFLE_TRIES):
        candidate = rng.permutation(flat).reshape((s, s))
        if _matches(candidate, mask) == 0 and legal_swaps(candidate, swaps) > 0:
            b[:, :] = candidate
            return True
    return False


@njit(cache=True, inline="always")
def _swap(b, k):
    """Swap number k (the rules' all_swaps order) made on b."""
    s = b.shape[0]
    horizontal = k < s * (s - 1)
    j = k if horizontal else k - s * (s - 1)
    r, c = (j // (s - 1), j % (s - 1)) if horizontal else (j // s, j % s)
    r2, c2 = (r, c + 1) if horizontal else (r + 1, c)
    b[r, c], b[r2, c2] = b[r2, c2], b[r, c]


@njit(cache=True)
def play_turn(b, k, turns_left, colours, rng, swaps):
    """One turn on board b (in place), as the rules' play: swap number k (all_swaps order), every clearing
    step, and, with turns left after it, a reshuffle if no swap is left. Returns (points, whether it
    reshuffled, how many legal swaps the new board has, their indexes in `swaps`; -1 when the game ends
    with this turn and they are not worked out, or the board could not be reshuffled)."""
    s = b.shape[0]
    mask = np.empty((s, s), dtype=np.bool_)
    _swap(b, k)
    points = _resolve(b, mask, colours, rng)
    if turns_left <= 1:
        return points, False, -1
    n = legal_swaps(b, swaps)
    if n > 0:
        return points, False, n
    if not _reshuffle(b, mask, swaps, rng):
        return points, True, -1
    return points, True, legal_swaps(b, swaps)


@njit(cache=True, nogil=True)
def random_playouts(boards, turns_left, scores, colours, rng, max_moves, out):
    """From each board (N x s x s int8, settled, with its turns left and score): random legal swaps drawn as
    rng.integers(0, legal) until the turns run out or max_moves turns are played; out[i] = the score then.
    A board that cannot be reshuffled stops its playout there (the rules raise; it never happens on a
    real board)."""
    s = boards.shape[1]
    swaps = np.empty(2 * s * (s - 1), dtype=np.int64)
    b = np.empty((s, s), dtype=np.int8)
    for i in range(boards.shape[0]):
        b[:, :] = boards[i]
        turns, score, n = turns_left[i], scores[i], -1
        for _ in range(max_moves):
            if turns <= 0:
                break
            if n < 0:  # the first turn of this board: its swaps (later turns leave them in `swaps`)
                n = legal_swaps(b, swaps)
            points, _, n = play_turn(b, swaps[rng.integers(0, n)], turns, colours, rng, swaps)
            score += points
            turns -= 1
            if n < 0:  # the game ended (or a board could not be reshuffled: the rules would raise)
                break
        out[i] = np.float64(score)


@njit(cache=True)
def _resolve_from_tape(b, mask, tape, used):
    """Every clearing step of a turn on b (in place), the emptied cells filled in reading order from `tape`
    (wrapping around) from place used[0] on, used[0] moved past them; an empty tape leaves them EMPTY (a turn
    as greedy-cascade counts it: new gems unknown). Returns the points."""
    s = b.shape[0]
    points = 0
    level = 1
    while level <= MAX_LEVELS:
        count = _matches(b, mask)
        if count == 0:
            break
        _fall(b, mask)
        if tape.size:
            k = used[0]
            for r in range(s):
                for c in range(s):
                    if b[r, c] == EMPTY:
                        b[r, c] = tape[k % tape.size]
                        k += 1
            used[0] = k
        points += POINTS_PER_GEM * count * level
        level += 1
    return points


@njit(cache=True)
def _greedy_cascade(b, swaps, n, mask, scratch, no_tape, no_place):
    """greedy-cascade's swap on settled board b (its n legal swaps in `swaps`): the largest turn score of the
    gems it shows, the first of equal scores."""
    best, best_points = swaps[0], -1
    for i in range(n):
        scratch[:, :] = b
        _swap(scratch, swaps[i])
        points = _resolve_from_tape(scratch, mask, no_tape, no_place)
        if points > best_points:
            best, best_points = swaps[i], points
    return best


@njit(cache=True, nogil=True)
def greedy_rollouts(board, candidates, tapes, depth, turns_left, rng, totals, finals):
    """Monte-Carlo's rollouts (agents/monte_carlo.py), played as the batched engine (arcade/games/match3_batch)
    plays them, one after another: for candidate swap a (candidates[a], legal on settled `board`) and tape j,
    the swap, then up to `depth` turns of greedy-cascade while turns are left (turns_left counts the
    candidate's own turn), every turn's new gems read from tapes[j] in order (so every candidate meets the
    same gems), a board left with no legal swap reshuffled first (rng, as the rules' reshuffle).
    totals[a, j] = the points of rollout j of candidate a, finals[a, j] = the board it ends on (A x n x s x s).
    Returns how many boards were reshuffled. (A board that cannot be reshuffled ends its rollout: the rules
    would raise; it never happens on a real board.)"""
    s = board.shape[0]
    mask = np.empty((s, s), dtype=np.bool_)
    swaps = np.empty(2 * s * (s - 1), dtype=np.int64)
    b = np.empty((s, s), dtype=np.int8)
    scratch = np.empty((s, s), dtype=np.int8)
    used = np.zeros(1, dtype=np.int64)
    no_tape = np.empty(0, dtype=tapes.dtype)
    no_place = np.zeros(1, dtype=np.int64)
    reshuffles = 0
    for a in range(candidates.size):
        for j in range(tapes.shape[0]):
            b[:, :] = board
            used[0] = 0
            _swap(b, candidates[a])
            total = _resolve_from_tape(b, mask, tapes[j], used)
            left = turns_left - 1
            for _ in range(min(depth, left)):
                n = legal_swaps(b, swaps)
                if n == 0:
                    reshuffles += 1
                    if not _reshuffle(b, mask, swaps, rng):
                        break
                    n = legal_swaps(b, swaps)
                _swap(b, _greedy_cascade(b, swaps, n, mask, scratch, no_tape, no_place))
                total += _resolve_from_tape(b, mask, tapes[j], used)
                left -= 1
            totals[a, j] = total
            finals[a, j] = b
    return reshuffles


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
