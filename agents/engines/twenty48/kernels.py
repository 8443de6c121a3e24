"""The compiled inner loops of the 4x4 2048 agents (numba): the expectimax search and the n-tuple learner
(mcts's playouts and steps, which call the moves here, are agents/engines/twenty48/playout_kernels.py).

Everything here works on uint64 boards as agents/engines/twenty48/board64.py packs them (cell i is nibble i, row r
the 16 bits from 16r) and on that module's row tables, handed in as plain arrays (agents/engines/twenty48/board64.move_tables,
agents/expectimax_strong.score_tables). numba's cache is keyed by the file that defines a kernel and does
not see edits to the kernels it calls in another file: a kernel module that imports these drops its cache
when this file changes (agents/engines/compiled.keep_cache_fresh, its last line).

- `search(...)`: depth-first expectimax of one root. A chance node (an afterstate) averages the player's
  best reply over every placement of a 2 or a 4; a node less likely than the cut-off, or at depth 0, is
  valued by the evaluation instead. Values of chance nodes go into a transposition table (a board at the
  same depth left is searched once a decision). The evaluation is the heuristic's line table (lost: the
  game-over value, merges count only through it) or an n-tuple network (the points a move gains are
  added, lost: 0). A search stops when it has valued `cap` positions and says so (the caller keeps the
  last depth that finished).
- `td_run(...)`: TD(0) on afterstates (optionally with temporal coherence) for a stretch of moves of one
  game after another, the games' state carried from call to call, the network's weights updated in place
  (several processes may share them: Hogwild).

No pygame, no Python objects in the loops; randomness from the numpy Generator passed in.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic

from agents.engines.compiled import keep_cache_fresh

U = np.uint64
TT_BITS = 21  # transposition table entries: 2M of 32 bytes (64 MB)
MAX_RUNS = 6  # runs of consecutive cells a tuple may have
DIVERGED = 1e8  # a TD error this large (or not a number) means the values have run away: training stops

# the fields of a search's `stats` array, and of its `conf` array
POSITIONS, CAP, STOPPED, HITS, GENERATION = range(5)
P_FOUR, MIN_PROB, LOST, STAGE_SIZE, LATE_EXPONENT = range(5)
# the rows of the score tables: a line's heuristic, and of the line slid toward its start / its end
LINE, SLID_FIRST, SLID_LAST = range(3)
# the fields of a training's `game` array (one game in play, carried between calls)
G_BOARD, G_PREV, G_HAS_PREV, G_SCORE, G_LENGTH, G_FRESH, G_MADE = range(7)


@intrinsic
def _prefetch(typingctx, array, index):
    """Ask the processor to start loading array[index] now (LLVM's prefetch: a read, kept in all caches)."""
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, signature.args[0], ary, [args[1]])
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [
            ir.IntType(8).as_pointer(), ir.IntType(32), ir.IntType(32), ir.IntType(32)]), "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, ir.IntType(8).as_pointer()), ir.Constant(ir.IntType(32), 0),
                          ir.Constant(ir.IntType(32), 3), ir.Constant(ir.IntType(32), 1)])
        return context.get_dummy_value()

    return sig, codegen


# --- boards ----------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def transpose(x):
    a = (x & U(0xF0F00F0FF0F00F0F)) | ((x & U(0x0000F0F00000F0F0)) << U(12)) | ((x & U(0x0F0F00000F0F0000)) >> U(12))
    return (a & U(0xFF00FF0000FF00FF)) | ((a & U(0x00FF00FF00000000)) >> U(24)) | ((a & U(0x00000000FF00FF00)) << U(24))


@njit(cache=True, inline="always")
def mirror(x):
    return (((x & U(0x000F000F000F000F)) << U(12)) | ((x & U(0x00F000F000F000F0)) << U(4))
            | ((x >> U(4)) & U(0x00F000F000F000F0)) | ((x >> U(12)) & U(0x000F000F000F000F)))


@njit(cache=True, inline="always")
def flip(x):
    return (((x & U(0xFFFF)) << U(48)) | ((x & U(0xFFFF0000)) << U(16))
            | ((x >> U(16)) & U(0xFFFF0000)) | (x >> U(48)))


@njit(cache=True, inline="always")
def _row(x, k):
    """Row k's code: unsigned, so indexing with it needs no check for a negative index."""
    return (x >> U(16 * k)) & U(0xFFFF)


@njit(cache=True, inline="always")
def _rows_through(tables, w, x):
    """The board whose row k is tables[w, row k of x] (uint16 row tables: a line slid left, right). Tables
    are indexed in two dimensions, not sliced: a slice in a loop costs a reference count."""
    return (U(tables[w, _row(x, 0)]) | (U(tables[w, _row(x, 1)]) << U(16)) | (U(tables[w, _row(x, 2)]) << U(32))
            | (U(tables[w, _row(x, 3)]) << U(48)))


@njit(cache=True, inline="always")
def _gain(gains, w, x):
    return gains[w, _row(x, 0)] + gains[w, _row(x, 1)] + gains[w, _row(x, 2)] + gains[w, _row(x, 3)]


@njit(cache=True, inline="always")
def move(x, t, direction, moves_t, gains_t):
    """(the board after the move, the points it gains); the board itself when the move changes nothing.
    t is x transposed: up and down slide its rows (x's columns) and transpose back. moves_t, gains_t: the
    row tables (row 0 toward the start of a line, row 1 toward its end)."""
    w = direction & 1
    if direction < 2:
        return transpose(_rows_through(moves_t, w, t)), _gain(gains_t, w, t)
    return _rows_through(moves_t, w, x), _gain(gains_t, w, x)


@njit(cache=True, inline="always")
def empty_cells(x):
    t = x | (x >> U(1))
    t |= t >> U(2)
    return ~t & U(0x1111111111111111)


@njit(cache=True, inline="always")
def count_bits(m):
    """How many cells an empty_cells mask marks (its nibbles summed by one multiplication)."""
    if m == U(0x1111111111111111):
        return 16
    return np.int64((m * U(0x1111111111111111)) >> U(60))


@njit(cache=True, inline="always")
def max_nibble(x):
    best = 0
    for i in range(16):
        v = np.int64((x >> U(4 * i)) & U(0xF))
        if v > best:
            best = v
    return best


@njit(cache=True)
def spawn_tile(x, rng, p_four):
    """x with a 2 (or a 4 with probability p_four) in a uniformly chosen empty cell; x must have one.
    Two uniforms as board64.spawn reads them: the cell by the first, the tile by the second."""
    empty = empty_cells(x)
    n = count_bits(empty)
    k = min(np.int64(rng.random() * n), n - 1)
    four = rng.random() < p_four
    seen = 0
    for i in range(16):
        if (empty >> U(4 * i)) & U(1):
            if seen == k:
                return x | ((U(2) if four else U(1)) << U(4 * i))
            seen += 1
    return x


# --- evaluations -----------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _lines_value(scores, w, x):
    return (np.float64(scores[w, _row(x, 0)]) + np.float64(scores[w, _row(x, 1)])
            + np.float64(scores[w, _row(x, 2)]) + np.float64(scores[w, _row(x, 3)]))


@njit(cache=True)
def heuristic(x, scores):
    """The heuristic of a board: its rows' and columns' scores from the 65,536-line table."""
    return _lines_value(scores, LINE, x) + _lines_value(scores, LINE, transpose(x))


@njit(cache=True, inline="always")
def _index(s, runs, k):
    """The weight tuple k reads on board s. Row k of `runs`: the tuple's offset, its count of runs of
    consecutive cells, then (first cell, length, place in the tuple) for each run."""
    idx = U(0)
    for j in range(runs[k, 1]):
        first, length, place = runs[k, 2 + 3 * j], runs[k, 3 + 3 * j], runs[k, 4 + 3 * j]
        idx |= ((s >> U(4 * first)) & U((1 << (4 * length)) - 1)) << U(4 * place)
    return np.int64(idx) + runs[k, 0]


@njit(cache=True, inline="always")
def _stage(x, stage_size, late_exponent):
    """Where the tables x reads start: the late set's for a board holding 2**late_exponent or more."""
    if late_exponent > 0 and max_nibble(x) >= late_exponent:
        return stage_size
    return 0


@njit(cache=True, inline="always")
def _symmetries(x):
    """The 8 images of board x under the square's symmetries (x, mirrored, flipped, both; then transposed)."""
    t = transpose(x)
    m, tm = mirror(x), mirror(t)
    return (x, m, flip(x), flip(m), t, tm, flip(t), flip(tm))


@njit(cache=True)
def features(x, runs, stage_size, late_exponent, out, prefetch_in=None):
    """The weight indexes board x reads, into `out` (tuples x 8, tuple-major then symmetry, as
    NTupleNetwork.features orders them); returns how many. With `prefetch_in` (the weights), each weight's
    load starts as soon as its index is known (the tables are far larger than the caches)."""
    syms = _symmetries(x)
    base = _stage(x, stage_size, late_exponent)
    n = 0
    for k in range(runs.shape[0]):
        if runs[k, 1] <= 2:  # (every shipped tuple: one or two runs, read once a tuple, not once a symmetry)
            offset = runs[k, 0] + base
            shift1, mask1 = U(4 * runs[k, 2]), U((1 << (4 * runs[k, 3])) - 1)
            two = runs[k, 1] == 2
            shift2 = U(4 * runs[k, 5]) if two else U(0)
            mask2 = U((1 << (4 * runs[k, 6])) - 1) if two else U(0)
            place2 = U(4 * runs[k, 7]) if two else U(0)
            for s in syms:
                out[n] = np.int64(((s >> shift1) & mask1) | (((s >> shift2) & mask2) << place2)) + offset
                if prefetch_in is not None:
                    _prefetch(prefetch_in, out[n])
                n += 1
        else:
            for s in syms:
                out[n] = _index(s, runs, k) + base
                if prefetch_in is not None:
                    _prefetch(prefetch_in, out[n])
                n += 1
    return n


@njit(cache=True, inline="always")
def _read(weights, feats):
    total = 0.0
    for j in range(feats.size):
        total += weights[feats[j]]
    return total


@njit(cache=True)
def ntuple_value(x, weights, runs, stage_size, late_exponent, scratch):
    """V(x) of an n-tuple network: the sum of the weights its features read (float64, in their order);
    `scratch` holds the F indexes."""
    features(x, runs, stage_size, late_exponent, scratch)
    return _read(weights, scratch)


@njit(cache=True)
def ntuple_values(boards, weights, runs, stage_size, late_exponent, out):
    """ntuple_value of every board into `out`."""
    scratch = np.empty(runs.shape[0] * 8, dtype=np.int64)
    for i in range(boards.size):
        out[i] = ntuple_value(boards[i], weights, runs, stage_size, late_exponent, scratch)


@njit(cache=True, inline="always")
def _greedy(x, moves_t, gains_t, weights, runs, stage_size, late_exponent, feats, after, gains):
    """The best of x's moves by the points it gains + V(its afterstate): (that sum, the move; -inf, -1 when
    none is legal). after[d], gains[d] and feats[d] are left holding each move's afterstate, points and
    indexes. Every afterstate is indexed first (its weights' loads started), then read: the loads of all
    four overlap."""
    t = transpose(x)
    for d in range(4):
        after[d], gains[d] = move(x, t, d, moves_t, gains_t)
        if after[d] != x:
            features(after[d], runs, stage_size, late_exponent, feats[d], weights)
    best_v, best_d = -np.inf, -1
    for d in range(4):
        if after[d] != x:
            v = gains[d] + _read(weights, feats[d])
            if v > best_v:
                best_v, best_d = v, d
    return best_v, best_d


# --- the search ------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _slot(x, depth):
    """Where board x at `depth` left has its table entry: four words (board, tag, value, unused), one
    cache line's half, so a look-up is one miss."""
    h = (x ^ (U(depth + 1) * U(0x9E3779B97F4A7C15))) * U(0xBF58476D1CE4E5B9)
    return np.int64(h >> U(64 - TT_BITS)) * 4


@njit(cache=True, inline="always")
def _tag(stats, depth):
    """What a table entry of this decision and depth holds beside its board."""
    return U((stats[GENERATION] << 8) | depth)


@njit(cache=True, inline="always")
def _look_up(x, depth, tt, stats):
    """(its slot, whether the table holds board x at `depth` left for this decision, the value held)."""
    s = _slot(x, depth)
    if tt[s + 1] == _tag(stats, depth) and tt[s] == x:
        stats[HITS] += 1
        return s, True, tt.view(np.float64)[s + 2]
    return s, False, 0.0


@njit(cache=True, inline="always")
def _leaf(x, conf, scores, weights, runs, feats):
    """The evaluation of afterstate x: the heuristic (weights None), or the network's value."""
    if weights is None:
        return heuristic(x, scores)
    return ntuple_value(x, weights, runs, np.int64(conf[STAGE_SIZE]), np.int64(conf[LATE_EXPONENT]), feats[0])


@njit(cache=True, inline="always")
def _heuristic_reply(x, scores, moves_t):
    """The best heuristic over x's legal moves (-inf if none), each moved board scored as the lines the move
    slid (the slid-line tables, read by x's own line codes) plus the lines across them."""
    t = transpose(x)
    best = -np.inf
    for d in range(4):
        codes = t if d < 2 else x  # the lines the move slides: columns (rows of t) or rows
        slid = _rows_through(moves_t, d & 1, codes)
        if slid == codes:
            continue
        # the moved board's other lines: the rows of the moved board (up, down) or of it transposed
        v = _lines_value(scores, SLID_FIRST + (d & 1), codes) + _lines_value(scores, LINE, transpose(slid))
        if v > best:
            best = v
    return best


@njit(cache=True, inline="always")
def _spawn_probability(tile, p_four, n):
    return (1.0 - p_four) / n if tile == 1 else p_four / n


@njit(cache=True, inline="always")
def _last_chance(x, prob, conf, scores, moves_t, gains_t, weights, runs, tt, stats, feats, after,
                 gains):
    """chance_value of x one chance layer deep, written out (most of a search's chance nodes are these:
    inlined into their callers, they cost no call). Each placement's reply is the best move by the
    heuristic of the board it leaves, or by its points + the network's value of that board."""
    if prob < conf[MIN_PROB]:
        return _leaf(x, conf, scores, weights, runs, feats)
    s, known, value = _look_up(x, 1, tt, stats)
    if known:
        return value
    if stats[POSITIONS] > stats[CAP]:
        stats[STOPPED] = 1
        return 0.0
    stage, late = np.int64(conf[STAGE_SIZE]), np.int64(conf[LATE_EXPONENT])
    empty = empty_cells(x)
    n = count_bits(empty)
    total = 0.0
    for i in range(16):
        if (empty >> U(4 * i)) & U(1):
            for tile in range(1, 3):
                p = _spawn_probability(tile, conf[P_FOUR], n)
                if p > 0.0:
                    kid = x | (U(tile) << U(4 * i))
                    stats[POSITIONS] += 4
                    if weights is None:
                        best = _heuristic_reply(kid, scores, moves_t)
                    else:
                        best = _greedy(kid, moves_t, gains_t, weights, runs, stage, late, feats, after, gains)[0]
                    total += p * (conf[LOST] if best == -np.inf else best)
    tt[s], tt[s + 1], tt.view(np.float64)[s + 2] = x, _tag(stats, 1), total
    return total


@njit(cache=True, _nrt=False)
def chance_value(x, depth, prob, conf, scores, moves_t, gains_t, weights, runs, tt, stats, feats,
                 after, gains):
    """The expected value of afterstate x (the computer places a tile next), `depth` chance layers deep.
    `prob` is the probability of reaching x from the root; below the cut-off x is valued as a leaf. feats,
    after and gains are scratch space for the last layer's replies."""
    if stats[STOPPED]:
        return 0.0
    if depth == 0 or prob < conf[MIN_PROB]:  # (before the table: a cut leaf costs less than a miss)
        return _leaf(x, conf, scores, weights, runs, feats)
    if depth == 1:
        return _last_chance(x, prob, conf, scores, moves_t, gains_t, weights, runs, tt, stats, feats,
                            after, gains)
    s, known, value = _look_up(x, depth, tt, stats)
    if known:
        return value
    if stats[POSITIONS] > stats[CAP]:
        stats[STOPPED] = 1
        return 0.0
    points = 1.0 if weights is not None else 0.0  # a move's points count where the network values boards
    empty = empty_cells(x)
    n = count_bits(empty)
    total = 0.0
    for i in range(16):
        if not (empty >> U(4 * i)) & U(1):
            continue
        for tile in range(1, 3):
            p = _spawn_probability(tile, conf[P_FOUR], n)
            if p == 0.0:
                continue
            kid = x | (U(tile) << U(4 * i))
            stats[POSITIONS] += 4
            best = -np.inf
            t = transpose(kid)
            for d in range(4):
                moved, gained = move(kid, t, d, moves_t, gains_t)
                if moved == kid:
                    continue
                if depth == 2:
                    v = _last_chance(moved, prob * p, conf, scores, moves_t, gains_t, weights, runs, tt,
                                     stats, feats, after, gains)
                else:
                    v = chance_value(moved, depth - 1, prob * p, conf, scores, moves_t, gains_t, weights, runs,
                                     tt, stats, feats, after, gains)
                v += points * gained
                if v > best:
                    best = v
            total += p * (conf[LOST] if best == -np.inf else best)
    if stats[STOPPED]:
        return 0.0
    tt[s], tt[s + 1], tt.view(np.float64)[s + 2] = x, _tag(stats, depth), total
    return total


@njit(cache=True, _nrt=False)
def search(x, depth, conf, scores, moves_t, gains_t, weights, runs, tt, stats, out, feats, after, gains):
    """The value of each of root x's four moves into `out` (-inf where illegal), each searched `depth` chance
    layers; stats[STOPPED] is set when the cap on positions stopped it (then `out` is unfinished).
    Positions are counted as the C++ program counts them: 4 a player node (every move tried). Compiled
    without reference counting (nothing here allocates): counting the arrays passed down every recursive
    call took half the search's time.
    The evaluation: the heuristic when weights (and runs, feats, after, gains) are None, so that it is
    compiled apart with no network code in its loops; else the network (feats: 4 x F int64, after: 4
    uint64, gains: 4 int64 for the last layer's replies)."""
    t = transpose(x)
    stats[POSITIONS] += 4
    for d in range(4):
        moved, gained = move(x, t, d, moves_t, gains_t)
        if moved == x:
            out[d] = -np.inf
            continue
        v = chance_value(moved, depth, 1.0, conf, scores, moves_t, gains_t, weights, runs, tt, stats,
                         feats, after, gains)
        out[d] = v + gained if weights is not None else v


# --- the learner -----------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _step(w, c, error, rate, n, weights, coherent, signed, absolute):
    """Weight w, read c times by the afterstate, moves by (1 - (1 - r)**c) / n of the error (_learn)."""
    r = rate
    if coherent:
        a = absolute[w]
        # (|E| <= A, but a lost update of threads learning without locks, or float32 rounding, can
        # leave |E| > A: a step past the rate, which at rates near 1 overshoots until the values run away)
        r = rate * (min(abs(signed[w]) / a, 1.0) if a > 0 else 1.0)
        signed[w] += c * error
        absolute[w] += c * abs(error)
    share = r if c == 1 else 1.0 - (1.0 - r) ** c
    weights[w] += share / n * error


@njit(cache=True)
def _learn(feats, error, rate, weights, coherent, signed, absolute):
    """One TD step of the afterstate whose F weight indexes are `feats`: each weight it reads moves by rate / F
    of `error`, times its temporal coherence |E| / A (1 while A is 0) when `coherent`, read before this error
    is added to E and |error| to A. A weight read c times (a board symmetric in a tuple's cells: its 8
    images read one weight more than once, only ever within one tuple's 8) moves by (1 - (1 - rate)**c) / F
    of the error, what c steps in a row would close, not c times one step: on a fully symmetric board that
    would move the value 8 x 8 x 4 / 32 = 8 times the rate's share of the error, past its target."""
    n = feats.size
    for start in range(0, n, 8):  # a tuple's 8 features
        repeats = False
        for i in range(start, start + 7):
            for k in range(i + 1, start + 8):
                repeats |= feats[i] == feats[k]
        if not repeats:  # (most boards read 8 different weights of a tuple: this loop alone, branch-free)
            for j in range(start, start + 8):
                _step(feats[j], 1, error, rate, n, weights, coherent, signed, absolute)
            continue
        for j in range(start, start + 8):
            w = feats[j]
            seen = False
            for k in range(start, j):
                seen |= feats[k] == w
            if seen:
                continue  # counted where it first appears
            c = 1
            for k in range(j + 1, start + 8):
                c += feats[k] == w
            _step(w, c, error, rate, n, weights, coherent, signed, absolute)


@njit(cache=True)
def _new_game(game, rng, p_four, pool, pooled, restart_share):
    x = spawn_tile(spawn_tile(U(0), rng, p_four), rng, p_four)
    game[G_FRESH], game[G_MADE] = 1, 0
    kept = min(pooled, pool.size)
    if kept > 0 and rng.random() < restart_share:
        x = pool[min(np.int64(rng.random() * kept), kept - 1)]  # (Generator.integers needs reference counting)
        game[G_FRESH] = 0
    game[G_BOARD] = x
    game[G_HAS_PREV], game[G_SCORE], game[G_LENGTH] = 0, 0, 0


@njit(cache=True, _nrt=False, nogil=True)
def td_run(game, prev_feats, moves, rate, p_four, rng, weights, runs, stage_size, late_exponent, moves_t, gains_t,
           coherent, signed, absolute, pool, counters, restart_exponent, restart_share, ended, feats, after, gains):
    """Play and learn up to `moves` moves (TD(0) on afterstates, greedy on reward + V(afterstate)) from the
    game in `game` (uint64 fields G_*; an empty board: none yet; a new game starts where one ends) and the
    weight indexes of its last afterstate, `prev_feats`; returns how many games ended, each written as a row
    of `ended` (score, largest exponent, moves, fresh), stopping early when it is full. counters: [boards
    ever pooled, moves played, 1 once a TD error was not finite or past DIVERGED (it stops there)]. A fresh game's board on which it first makes 2**restart_exponent is pooled
    (restart_exponent 0: none), and restart_share of new games start from a pooled board.

    Each move's afterstates are indexed once: the chosen one's indexes are kept, and its TD step one move
    later re-reads the weights there (as they are then) without indexing the board again. feats (4 x F
    int64), after (4 uint64), gains (4 int64): scratch space. Compiled without reference counting (nothing
    here allocates): counting every array passed to a helper cost half the time of the search."""
    n_ended = 0
    played = 0
    if game[G_BOARD] == 0:
        _new_game(game, rng, p_four, pool, counters[0], restart_share)
    while played < moves:
        x = game[G_BOARD]
        best_v, best_d = _greedy(x, moves_t, gains_t, weights, runs, stage_size, late_exponent, feats, after, gains)
        best_after, best_r = after[max(best_d, 0)], gains[max(best_d, 0)]
        alive = best_d >= 0
        if game[G_HAS_PREV] and rate > 0:
            error = (best_v if alive else 0.0) - _read(weights, prev_feats)
            if not abs(error) < DIVERGED:  # (true for a NaN too): stop before it spreads to more weights
                counters[2] = 1
                break
            _learn(prev_feats, error, rate, weights, coherent, signed, absolute)
        if not alive:
            ended[n_ended, 0] = np.int64(game[G_SCORE])
            ended[n_ended, 1] = max_nibble(x)
            ended[n_ended, 2] = np.int64(game[G_LENGTH])
            ended[n_ended, 3] = np.int64(game[G_FRESH])
            n_ended += 1
            _new_game(game, rng, p_four, pool, counters[0], restart_share)
            if n_ended == ended.shape[0]:
                break
            continue
        played += 1
        for j in range(prev_feats.size):
            prev_feats[j] = feats[best_d, j]
            if coherent:  # its TD step, a move from now, reads these two sums too: start their loads now
                _prefetch(signed, prev_feats[j])
                _prefetch(absolute, prev_feats[j])
        game[G_PREV], game[G_HAS_PREV] = best_after, U(1)
        game[G_SCORE] += U(best_r)
        game[G_LENGTH] += U(1)
        nxt = spawn_tile(best_after, rng, p_four)
        game[G_BOARD] = nxt
        if restart_exponent > 0 and game[G_FRESH] and not game[G_MADE] and best_r >= (1 << restart_exponent):
            if max_nibble(nxt) >= restart_exponent:
                game[G_MADE] = U(1)
                pool[counters[0] % pool.size] = nxt
                counters[0] += 1
    counters[1] += played
    return n_ended


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
