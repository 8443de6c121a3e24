"""The compiled recursion of the dots alpha-beta (numba; agents/alphabeta_dots.py drives it: the root,
iterative deepening, time), its chain analysis and its transposition table.

A position is its line set; `sides` (B,) holds each box's drawn sides and is kept in step as lines are drawn
and undone. geo = (box_lines (B, 4), line_boxes (L, 2), centre_first (L,)): the lines from the middle out.
The transposition table tt = (keys (N,) int64: line set + 1, 0 empty; depth (N,) int8; flag (N,) int8;
value (N,) float64; best line (N,) int8), N a power of two, an entry replaced by whatever lands on its slot.
stats (5,) int64: positions, the cap on them, stopped (1 when the cap stopped the search: its values are
then unfinished and nothing it left in the table is wrong), table hits, entries filled.
scratch = (moves (L+1, L): a ply's move list, run (B+1,), seen (B,), chains (B+1,), loops (B+1,): counts of
components by length, drawn (L,), memo_keys (M,), memo_values (M,): loony values by component multiset).
Values are box margins for the player to move over the open boxes; at the horizon the parity of the safe
lines left (+-PARITY_WEIGHT) or, when `net` is given, the n-tuple network's value.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from agents.engines.compiled import keep_cache_fresh
from agents.engines.dots.kernels import popcount, value


EXACT, LOWER, UPPER = 0, 1, 2
NODES, CAP, STOPPED, HITS, FILLED = 0, 1, 2, 3, 4
INF = 1e6
PARITY_WEIGHT = 2.0
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1, _MIX2 = np.uint64(0xFF51AFD7ED558CCD), np.uint64(0xC4CEB9FE1A85EC53)


@njit(cache=True, inline="always")
def _draw(line, sides, line_boxes):
    g = 0
    for j in range(2):
        b = line_boxes[line, j]
        if b >= 0:
            sides[b] += 1
            if sides[b] == 4:
                g += 1
    return g


@njit(cache=True, inline="always")
def _undo(line, sides, line_boxes):
    for j in range(2):
        b = line_boxes[line, j]
        if b >= 0:
            sides[b] -= 1


@njit(cache=True, inline="always")
def _other_box(line, box, line_boxes):
    """The box across `line` from `box` (-1: the edge)."""
    b = line_boxes[line, 0]
    return line_boxes[line, 1] if b == box else b


@njit(cache=True, inline="always")
def _free_side(lines, box, but, box_lines):
    """A free line of `box` other than `but` (-1: none)."""
    for k in range(4):
        line = box_lines[box, k]
        if line != but and ((lines >> line) & 1) == 0:
            return line
    return -1


@njit(cache=True, inline="always")
def _listed(items, n, x):
    for i in range(n):
        if items[i] == x:
            return True
    return False


@njit(cache=True)
def _walk(lines, box, line, sides, box_lines, line_boxes, run):
    """The boxes taken one after another from the capturable `box` by drawing its free `line` first:
    (how many, the second line drawn (-1: none), whether the run ends in another capturable box)."""
    run[0] = box
    n, second, prev = 1, -1, line
    cur = _other_box(line, box, line_boxes)
    while cur >= 0 and sides[cur] == 2 and not _listed(run, n, cur):
        run[n] = cur
        n += 1
        nxt = _free_side(lines, cur, prev, box_lines)
        if second < 0:
            second = nxt
        cur, prev = _other_box(nxt, cur, line_boxes), nxt
    both_open = cur >= 0 and sides[cur] == 3 and not _listed(run, n, cur)
    return n + (1 if both_open else 0), second, both_open


@njit(cache=True)
def capture_moves(lines, sides, box_lines, line_boxes, run, out):
    """When a box can be taken, the lines worth searching into out and how many (1 or 2); 0 to search every
    line (agents/engines/dots/board.Position.capture_choices says which, and why)."""
    found = False
    for box in range(sides.size):
        if sides[box] == 3:
            found = True
            line = _free_side(lines, box, -1, box_lines)
            other = _other_box(line, box, line_boxes)
            if other < 0 or sides[other] != 2:
                out[0] = line
                return 1
    if not found:
        return 0
    first, first_second, first_n, first_open = -1, -1, 0, False
    for box in range(sides.size):
        if sides[box] != 3:
            continue
        line = _free_side(lines, box, -1, box_lines)
        n, second, both_open = _walk(lines, box, line, sides, box_lines, line_boxes, run)
        if (n >= 5) if both_open else (n >= 3):
            out[0] = line
            return 1
        if first < 0:
            first, first_second, first_n, first_open = line, second, n, both_open
    if (first_n == 4) if first_open else (first_n == 2):
        out[0], out[1] = first, first_second
        return 2
    return 0


@njit(cache=True)
def loony_components(lines, sides, box_lines, line_boxes, seen, chains, loops):
    """When every open box has exactly two sides drawn: the counts of chains (ending at the edge) and loops
    of each length into chains and loops (indexed by length), and 1 if all chains are 3+ and loops 4+ (then
    loony_value is exact), else 0; -1 when some open box has other than two sides."""
    for b in range(sides.size):
        if sides[b] != 4 and sides[b] != 2:
            return -1
    chains[:] = 0
    loops[:] = 0
    seen[:] = 0
    simple = 1
    for start in range(sides.size):
        if sides[start] == 4 or seen[start]:
            continue
        seen[start] = 1
        size, edges = 1, 0
        for k in range(4):
            first = box_lines[start, k]
            if (lines >> first) & 1:
                continue
            cur, prev = _other_box(first, start, line_boxes), first
            while cur >= 0 and not seen[cur]:
                seen[cur] = 1
                size += 1
                prev = _free_side(lines, cur, prev, box_lines)
                cur = _other_box(prev, cur, line_boxes)
            if cur < 0:
                edges += 1
        if edges:
            chains[size] += 1
            if size < 3:
                simple = 0
        else:
            loops[size] += 1
            if size < 4:
                simple = 0
    return simple


@njit(cache=True)
def loony_value(chains, loops, memo_keys, memo_values):
    """The box margin of the player who must open one of these chains (3+) and loops (4+), both sides
    playing perfectly (Berlekamp's recursion, as agents/engines/dots/board.loony_value); counts by length."""
    key = np.int64(0)
    for n in range(chains.size):
        for _ in range(chains[n]):
            key = key * 64 + 2 * n
    for n in range(loops.size):
        for _ in range(loops[n]):
            key = key * 64 + 2 * n + 1
    if key == 0:
        return 0
    slot = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(64 - 16)) & (memo_keys.size - 1)
    if memo_keys[slot] == key:
        return memo_values[slot]
    best = -(1 << 30)
    for n in range(chains.size):
        if chains[n]:
            chains[n] -= 1
            after = loony_value(chains, loops, memo_keys, memo_values)
            chains[n] += 1
            best = max(best, min(-n - after, 4 - n + after))
    for n in range(loops.size):
        if loops[n]:
            loops[n] -= 1
            after = loony_value(chains, loops, memo_keys, memo_values)
            loops[n] += 1
            best = max(best, min(-n - after, 8 - n + after))
    memo_keys[slot], memo_values[slot] = key, best
    return best


@njit(cache=True)
def safe_run(lines, sides, centre_first, line_boxes, drawn):
    """How many safe lines (giving no box a third side) can be drawn one after another, centre first."""
    n = 0
    for line in centre_first:
        if (lines >> line) & 1:
            continue
        ok = True
        for j in range(2):
            b = line_boxes[line, j]
            if b >= 0 and sides[b] >= 2:
                ok = False
        if ok:
            _draw(line, sides, line_boxes)
            drawn[n] = line
            n += 1
    for i in range(n):
        _undo(drawn[i], sides, line_boxes)
    return n


@njit(cache=True)
def ordered_moves(lines, sides, first, line_boxes, centre_first, out):
    """The free lines in search order into out, and how many: `first` (the table's line) if free, captures,
    lines that give nothing away (centre first), then those handing over one box, then two."""
    n_lines = centre_first.size
    n = 0
    for line in range(n_lines):
        if ((lines >> line) & 1) == 0 and _most_sides(line, sides, line_boxes) == 3:
            out[n] = line
            n += 1
    for line in centre_first:
        if ((lines >> line) & 1) == 0 and _most_sides(line, sides, line_boxes) < 2:
            out[n] = line
            n += 1
    for k in range(1, 3):
        for line in range(n_lines):
            if ((lines >> line) & 1) == 0 and _most_sides(line, sides, line_boxes) == 2:
                twos = 0
                for j in range(2):
                    b = line_boxes[line, j]
                    if b >= 0 and sides[b] == 2:
                        twos += 1
                if twos == k:
                    out[n] = line
                    n += 1
    _to_front(out, n, first)
    return n


@njit(cache=True, inline="always")
def _most_sides(line, sides, line_boxes):
    most = sides[line_boxes[line, 0]]
    b = line_boxes[line, 1]
    if b >= 0 and sides[b] > most:
        most = sides[b]
    return most


@njit(cache=True, inline="always")
def _to_front(moves, n, first):
    for i in range(n):
        if moves[i] == first:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = first
            return


@njit(cache=True, inline="always")
def _slot(lines, size):
    """A line set's slot in a table of `size` (a power of two): every line's bit moves the slot (murmur's
    finaliser; a plain multiplication's middle bits ignore the top lines of a 5x5 board)."""
    x = np.uint64(lines)
    x ^= x >> np.uint64(33)
    x *= _MIX1
    x ^= x >> np.uint64(33)
    x *= _MIX2
    x ^= x >> np.uint64(33)
    return np.int64(x & np.uint64(size - 1))


@njit(cache=True, inline="always")
def _store(tt, stats, slot, lines, depth, flag, value_, best):
    keys, depths, flags, values_, bests = tt
    if keys[slot] == 0:
        stats[FILLED] += 1
    keys[slot], depths[slot], flags[slot], values_[slot], bests[slot] = lines + 1, depth, flag, value_, best


@njit(cache=True, inline="always")
def _probe(tt, slot, lines, depth, alpha, beta):
    """What the table's entry for `lines` says to a search of `depth` in (alpha, beta): (whether it settles
    it, the value it settles, the line to search first (-1: none))."""
    keys, depths, flags, values_, bests = tt
    if keys[slot] != lines + 1:
        return False, 0.0, -1
    known = values_[slot]
    if depths[slot] >= depth:
        flag = flags[slot]
        if flag == EXACT or (known >= beta if flag == LOWER else known <= alpha):
            return True, known, -1
    return False, known, np.int64(bests[slot])


@njit(cache=True)
def _horizon(lines, sides, geo, scratch, net):
    if net is None:
        return PARITY_WEIGHT if safe_run(lines, sides, geo[2], geo[1], scratch[5]) % 2 else -PARITY_WEIGHT
    return value(lines, net)


@njit(cache=True)
def search_value(lines, depth, alpha, beta, ply, sides, geo, tt, stats, scratch, net):
    """The negamax value of `lines` (the box margin the player to move can force over the open boxes),
    searched `depth` more non-forced lines; outside (alpha, beta) only a bound. `sides` must be the boxes'
    drawn sides of `lines`; ply indexes the move lists. Stops (stats[STOPPED]) past stats[CAP] positions."""
    if stats[NODES] >= stats[CAP]:
        stats[STOPPED] = 1
        return 0.0
    stats[NODES] += 1
    box_lines, line_boxes, centre_first = geo
    free = centre_first.size - popcount(lines)
    if free == 0:
        return 0.0
    if depth > free:
        depth = free  # a depth past the last line is a full solve: one table entry
    slot = _slot(lines, tt[0].size)
    settled, known, first = _probe(tt, slot, lines, depth, alpha, beta)
    if settled:
        stats[HITS] += 1
        return known
    moves = scratch[0][ply]
    n = capture_moves(lines, sides, box_lines, line_boxes, scratch[1], moves)
    if n == 0:
        if loony_components(lines, sides, box_lines, line_boxes, scratch[2], scratch[3], scratch[4]) == 1:
            v = float(loony_value(scratch[3], scratch[4], scratch[6], scratch[7]))
            _store(tt, stats, slot, lines, free, EXACT, v, -1)
            return v
        if depth <= 0:  # the horizon: who is likely to run out of safe lines first (the long-chain fight)
            return _horizon(lines, sides, geo, scratch, net)
        n = ordered_moves(lines, sides, first, line_boxes, centre_first, moves)
        child_depth = depth - 1
    else:
        _to_front(moves, n, first)
        child_depth = depth  # taking boxes is not a choice worth a ply
    best, best_line, a0 = -INF, moves[0], alpha
    for i in range(n):
        line = moves[i]
        g = _draw(line, sides, line_boxes)
        after = lines | (np.int64(1) << line)
        if g:
            v = g + search_value(after, child_depth, alpha - g, beta - g, ply + 1, sides, geo, tt, stats, scratch, net)
        else:
            v = -search_value(after, child_depth, -beta, -alpha, ply + 1, sides, geo, tt, stats, scratch, net)
        _undo(line, sides, line_boxes)
        if stats[STOPPED]:
            return 0.0
        if v > best:
            best, best_line = v, line
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    flag = UPPER if best <= a0 else (LOWER if best >= beta else EXACT)
    _store(tt, stats, slot, lines, depth, flag, best, best_line)
    return best


@njit(cache=True)
def box_sides(lines, box_lines, sides):
    """Each box's drawn sides of `lines` into sides."""
    for b in range(box_lines.shape[0]):
        s = 0
        for k in range(4):
            s += (lines >> box_lines[b, k]) & 1
        sides[b] = s


@njit(cache=True)
def line_value(lines, line, depth, lo, geo, tt, stats, scratch, sides, net):
    """What drawing the free `line` on `lines` is worth to its player: g + V(after) when it completes g
    boxes, else -V(after), V searched `depth` more lines; lo: a value the caller already has (only a value
    above it is exact; -INF for an exact value)."""
    box_sides(lines, geo[0], sides)
    g = _draw(line, sides, geo[1])
    after = lines | (np.int64(1) << line)
    ply = np.int64(0)  # (not a literal 0: numba would compile the recursion for it apart, and a cached
    # recursion whose outer and inner signatures differ crashes when loaded: numba issue 6713)
    if g:
        return g + search_value(after, np.int64(depth), lo - g, INF, ply, sides, geo, tt, stats, scratch, net)
    return -search_value(after, np.int64(depth), -INF, -lo, ply, sides, geo, tt, stats, scratch, net)


@njit(cache=True)
def position_value(lines, depth, geo, tt, stats, scratch, sides, net):
    """The value of `lines` for the player to move, searched `depth` more lines (a depth of its free lines or
    more: exact)."""
    box_sides(lines, geo[0], sides)
    return search_value(lines, np.int64(depth), -INF, INF, np.int64(0), sides, geo, tt, stats, scratch, net)


@njit(cache=True)
def root_moves(lines, first, every, geo, scratch, sides, out):
    """The root's lines in search order into out, and how many: every free line (ordered), or when a box can
    be taken and not `every`, only the capture choices."""
    box_sides(lines, geo[0], sides)
    if not every:
        n = capture_moves(lines, sides, geo[0], geo[1], scratch[1], out)
        if n:
            return n
    return ordered_moves(lines, sides, first, geo[1], geo[2], out)


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
