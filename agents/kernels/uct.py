"""The compiled UCT tree (numba): the search of agents/mcts.py (OpenSpiel's MCTSBot: UCT with c on results in
[-1, 1], one uniformly random playout a leaf, the solver) for a two-player game without chance, where the
walk down the tree costs more in Python than the playout it leads to. Written once over a game's position as
three int64s (a, b, c) and its four operations (_moves, _step, _result, playout), which branch on the
game's code; a game's own rules stay in its kernels (DEPENDS: agents/compiled.kernels drops this module's
cache when one of them changes, since numba checks only a kernel's own file).

- DOTS: (drawn lines as bits, the box margin of seat 0 over seat 1, the seat to move); a move is a line;
  agents/kernels/dots.py's `gain` says which lines complete boxes (the mover then moves again).
- TICTACTOE: (X's cells as bits, O's cells, the seat to move: X is seat 0); a move is a cell 3*row + col.

The tree is two arrays that live as long as the agent and grow when full: `nodes` (capacity x COLUMNS)
int64 and `total` float64. A node's children are a linked list (FIRST, NEXT) made one at a time as the
walk expands them; TRIED masks the moves that have a child, LEGAL its moves (0: the game is over). A
node's total and PROVEN are results for the player who moved into it (its parent's mover), as in the
Python tree. Randomness from the numpy Generator passed in.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from agents.kernels.dots import _popcount, bit_index, gain, random_bit
from agents.kernels.dots import value as network_value
from agents.kernels.dots_search import CAP, NODES, STOPPED, position_value

DEPENDS = ("dots", "dots_search")

ACTION, VISITS, PROVEN, FIRST, NEXT, TRIED, LEGAL, MOVER = range(8)
COLUMNS = 8
UNKNOWN = 2  # PROVEN until the solver knows the node: then -1, 0 or 1
DOTS, TICTACTOE = 0, 1  # the games it plays
PLAYOUT, NETWORK = 0, 1  # how a new leaf is valued (leaf[0]): a random playout, or dots' learnt network
TTT_LINES = (0o7, 0o70, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124)  # the eight lines of three as cell bits


@njit(cache=True)
def dots_step(lines, margin, mover, line, box_lines, line_boxes):
    """Draw a free line: (lines, margin, mover) after it; a line that completes a box keeps the turn."""
    g = gain(lines, line, box_lines, line_boxes)
    lines |= np.int64(1) << line
    if g:
        margin += g if mover == 0 else -g
    else:
        mover ^= 1
    return lines, margin, mover


@njit(cache=True)
def dots_play_order(lines, margin, mover, order, n, box_lines, line_boxes):
    """The final margin of seat 0 after drawing order[:n] (the free lines) in that order."""
    for i in range(n):
        lines, margin, mover = dots_step(lines, margin, mover, order[i], box_lines, line_boxes)
    return margin


@njit(cache=True)
def dots_playout(lines, margin, mover, full, order, box_lines, line_boxes, rng):
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
    final = dots_play_order(lines, margin, mover, order, n, box_lines, line_boxes)
    return (final > 0) - (final < 0)


@njit(cache=True, inline="always")
def _ttt_line(marks):
    for line in TTT_LINES:
        if marks & line == line:
            return True
    return False


@njit(cache=True)
def _moves(game, a, b, c, full):
    """The moves of a position as a mask (0: the game is over)."""
    if game == DOTS:
        return full & ~a
    if _ttt_line(a) or _ttt_line(b):
        return np.int64(0)
    return full & ~(a | b)


@njit(cache=True)
def _step(game, a, b, c, move, box_lines, line_boxes):
    """The position after `move` (legal)."""
    if game == DOTS:
        return dots_step(a, b, c, move, box_lines, line_boxes)
    bit = np.int64(1) << move
    if c == 0:
        return a | bit, b, np.int64(1)
    return a, b | bit, np.int64(0)


@njit(cache=True)
def _result(game, a, b, c):
    """Seat 0's result (+1, 0, -1) of a finished game."""
    if game == DOTS:
        return (b > 0) - (b < 0)
    return 1 if _ttt_line(a) else (-1 if _ttt_line(b) else 0)


@njit(cache=True)
def playout(game, a, b, c, full, order, box_lines, line_boxes, rng):
    """Seat 0's result of a uniformly random playout to the end."""
    if game == DOTS:
        return dots_playout(a, b, c, full, order, box_lines, line_boxes, rng)
    moves = _moves(game, a, b, c, full)
    while moves:
        bit = random_bit(moves, rng)
        a, b, c = _step(game, a, b, c, bit_index(bit), box_lines, line_boxes)
        moves = _moves(game, a, b, c, full)
    return _result(game, a, b, c)


@njit(cache=True)
def solved_or_guessed(a, b, mover, full, leaf, work):
    """(seat 0's result in [-1, 1] for a new dots leaf (not finished), whether it is exact). leaf = (NETWORK,
    network, exact_lines, exact_positions, solver, playout_share, minimax): a leaf with exact_lines free lines or
    fewer is solved by the alpha-beta kernels (solver: their geo, table, stats, scratch and sides; its exact win,
    draw or loss, unless that takes more than exact_positions positions), else the box margin so far plus the
    network's value of the rest for the side to move, squashed by tanh(margin / 2). work[0] counts the positions
    the solves search (the tree's: simulate ends a slice once it passes work[1], so a slice of costly leaves
    keeps to its time)."""
    net, exact_lines, exact_positions, solver = leaf[1], leaf[2], leaf[3], leaf[4]
    free = _popcount(full & ~a)
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


@njit(cache=True)
def network_leaf(a, b, mover, full, leaf, work, order, box_lines, line_boxes, rng):
    """Seat 0's result in [-1, 1] for a new dots leaf (not finished) valued as agents/dots_ntuple's NetworkLeaves
    does: solved_or_guessed's, a guess with playout_share (leaf[5]) > 0 mixed with a random playout's result:
    (1 - share) network + share playout."""
    guess, exact = solved_or_guessed(a, b, mover, full, leaf, work)
    share = leaf[5]
    if share > 0.0 and not exact:
        guess = (1.0 - share) * guess + share * dots_playout(a, b, mover, full, order, box_lines, line_boxes, rng)
    return guess


@njit(cache=True)
def reset(game, nodes, total, minimax, a, b, c, full):
    """Empty the tree and put the root (the position a, b, c) at node 0; returns the nodes in use (1)."""
    minimax[0] = 0.0
    nodes[0, ACTION] = -1
    nodes[0, VISITS] = 0
    nodes[0, PROVEN] = UNKNOWN
    nodes[0, FIRST] = -1
    nodes[0, NEXT] = -1
    nodes[0, TRIED] = 0
    nodes[0, LEGAL] = _moves(game, a, b, c, full)
    nodes[0, MOVER] = c
    total[0] = 0.0
    return 1


@njit(cache=True)
def simulate(game, nodes, total, minimax, used, a0, b0, c0, simulations, batch, c, full, box_lines, line_boxes, rng,
             paths, depths, waiting, results, order, leaf, work):
    """Up to `simulations` simulations from the root (a0, b0, c0 as reset was given), `batch` at a time as the
    Python tree runs them: each walk goes down by UCT (mean + c sqrt(ln N / n); a proven child counts its exact
    result) with a virtual loss on every node it enters (a visit and a loss, so the batch's later walks spread
    out), expands one random untried move and values the new leaf (a random playout, or with a NETWORK
    leaf `network_leaf`); a finished game's exact result (proven) is backed up at once, the batch's other results after its
    last walk, each taking its walk's virtual loss back; then the solver proves what it can up each path (a node
    whose mover has a proven win, or whose every move is proven). Stops early when the root is proven, fewer
    nodes are free than one more batch may need, or its leaves' solves have searched more positions than
    work[1] (0: no limit; work[0] counts them). Returns (simulations done, nodes in use).
    With a NETWORK leaf whose minimax weight w = leaf[6] > 0, implicit minimax backups (Lanctot, Winands,
    Pepels and Sturtevant 2014): a new leaf is played out at random as mcts's are (or solved), and the network's
    value of it is kept apart (`minimax`, per node for the player who moved into it), backed up as a minimax
    over each node's children; the walk then chooses by (1 - w) mean + w minimax + c sqrt(ln N / n).
    paths (batch, moves + 2), depths, waiting and results (batch,): scratch; order (moves + 2,): a playout's. full: every
    move's bit (dots: its lines; tic-tac-toe: its cells). box_lines, line_boxes: dots' board (any arrays else).
    (c is the exploration; a position's third number is its mover.)"""
    capacity = nodes.shape[0]
    done = 0
    network = leaf[0] == NETWORK and game == DOTS
    w = leaf[6] if network else 0.0
    work[0] = 0
    while done < simulations and nodes[0, PROVEN] == UNKNOWN and used + batch <= capacity \
            and (work[1] <= 0 or work[0] <= work[1]):
        size = min(batch, simulations - done)
        pending = 0
        for k in range(size):
            path = paths[k]
            node = 0
            a, b, mover = a0, b0, c0
            nodes[0, VISITS] += 1
            path[0] = 0
            depth = 1
            # selection
            while nodes[node, PROVEN] == UNKNOWN:
                legal = nodes[node, LEGAL]
                if legal == 0 or legal & ~nodes[node, TRIED]:
                    break
                explore = c * math.sqrt(math.log(nodes[node, VISITS]))
                best, best_u = -1, -math.inf
                child = nodes[node, FIRST]
                while child >= 0:
                    p = nodes[child, PROVEN]
                    if p != UNKNOWN:
                        u = float(p)
                    else:
                        n = nodes[child, VISITS]
                        u = total[child] / n + explore / math.sqrt(n)
                        if w > 0.0:
                            u += w * (minimax[child] - total[child] / n)
                    if u > best_u:
                        best, best_u = child, u
                    child = nodes[child, NEXT]
                node = best
                nodes[node, VISITS] += 1
                total[node] -= 1.0  # the virtual loss
                a, b, mover = _step(game, a, b, mover, nodes[node, ACTION], box_lines, line_boxes)
                path[depth] = node
                depth += 1
            # expansion: one new child, a random untried move, entered with the same virtual loss
            untried = nodes[node, LEGAL] & ~nodes[node, TRIED]
            if nodes[node, PROVEN] == UNKNOWN and untried:
                bit = random_bit(untried, rng)
                parent_mover = mover
                a, b, mover = _step(game, a, b, mover, bit_index(bit), box_lines, line_boxes)
                legal = _moves(game, a, b, mover, full)
                child = used
                used += 1
                nodes[child, ACTION] = bit_index(bit)
                nodes[child, VISITS] = 1
                nodes[child, FIRST] = -1
                nodes[child, NEXT] = nodes[node, FIRST]
                nodes[child, TRIED] = 0
                nodes[child, LEGAL] = legal
                nodes[child, MOVER] = mover
                nodes[child, PROVEN] = UNKNOWN
                total[child] = -1.0
                if legal == 0:  # a finished game: its result is exact
                    result = _result(game, a, b, mover)
                    nodes[child, PROVEN] = result if parent_mover == 0 else -result
                nodes[node, FIRST] = child
                nodes[node, TRIED] |= bit
                path[depth] = child
                depth += 1
                node = child
            depths[k] = depth
            p = nodes[node, PROVEN]
            if p != UNKNOWN:  # exact: backed up now
                _backup(nodes, total, path, depth, float(p if nodes[path[depth - 2], MOVER] == 0 else -p))
                _prove(nodes, path, depth)
                if w > 0.0:  # (a proven node's minimax is never read: its parent reads PROVEN)
                    _back_minimax(nodes, minimax, path, depth)
            else:
                waiting[pending] = k
                if network:
                    results[pending] = _network_result(w, nodes, minimax, path, depth, a, b, mover, full, box_lines,
                                                       line_boxes, rng, order, leaf, work)
                else:
                    results[pending] = playout(game, a, b, mover, full, order, box_lines, line_boxes, rng)
                pending += 1
        for i in range(pending):
            k = waiting[i]
            _backup(nodes, total, paths[k], depths[k], results[i])
            _prove(nodes, paths[k], depths[k])
        done += size
    return done, used


@njit(cache=True)
def _network_result(w, nodes, minimax, path, depth, a, b, mover, full, box_lines, line_boxes, rng, order, leaf,
                    work):
    """Seat 0's result for the new dots leaf (a, b, mover) that ends the walk `path`, with a NETWORK leaf: with a
    minimax weight w > 0 a random playout (or the solve's exact result), the network's value kept in `minimax`
    and backed up; else network_leaf's value. (Apart from simulate: mcts's own playouts stay in its loop.)"""
    if w > 0.0 and depth >= 2:
        guess, exact = solved_or_guessed(a, b, mover, full, leaf, work)
        minimax[path[depth - 1]] = guess if nodes[path[depth - 2], MOVER] == 0 else -guess
        _back_minimax(nodes, minimax, path, depth)
        return guess if exact else dots_playout(a, b, mover, full, order, box_lines, line_boxes, rng)
    return network_leaf(a, b, mover, full, leaf, work, order, box_lines, line_boxes, rng)


@njit(cache=True)
def _backup(nodes, total, path, depth, result):
    """Seat 0's `result` into every node of the path after the root, for the player who moved into it, each
    taking its walk's virtual loss back."""
    for d in range(1, depth):
        total[path[d]] += (result if nodes[path[d - 1], MOVER] == 0 else -result) + 1.0


@njit(cache=True)
def _back_minimax(nodes, minimax, path, depth):
    """Up the path from the new leaf's parent: each node's minimax value becomes the best of its children's for
    its mover (a proven child's exact result), turned to its parent's mover; stops where nothing changes."""
    for d in range(depth - 2, -1, -1):
        node = path[d]
        best = -math.inf
        child = nodes[node, FIRST]
        while child >= 0:
            p = nodes[child, PROVEN]
            v = minimax[child] if p == UNKNOWN else float(p)
            if v > best:
                best = v
            child = nodes[child, NEXT]
        if d > 0 and nodes[path[d - 1], MOVER] != nodes[node, MOVER]:
            best = -best
        if best == minimax[node] and d < depth - 2:
            return
        minimax[node] = best


@njit(cache=True)
def _prove(nodes, path, depth):
    """Up the path: a node is proven when its mover has a child proven to win, or every move has a child and
    all are proven (the best of them for its mover); stops at the first node left open."""
    for d in range(depth - 1, -1, -1):
        node = path[d]
        if nodes[node, PROVEN] != UNKNOWN:
            continue
        best = -2
        open_child = (nodes[node, LEGAL] & ~nodes[node, TRIED]) != 0
        child = nodes[node, FIRST]
        while child >= 0:
            p = nodes[child, PROVEN]
            if p == UNKNOWN:
                open_child = True
            elif p > best:
                best = p
            child = nodes[child, NEXT]
        if best == -2 or (open_child and best < 1):
            return
        if d == 0 or nodes[path[d - 1], MOVER] == nodes[node, MOVER]:
            nodes[node, PROVEN] = best
        else:
            nodes[node, PROVEN] = -best


@njit(cache=True)
def root_children(nodes, total, out_actions, out_stats):
    """The root's children: their moves into out_actions, (visits, total, proven) rows into out_stats;
    returns how many."""
    k = 0
    child = nodes[0, FIRST]
    while child >= 0:
        out_actions[k] = nodes[child, ACTION]
        out_stats[k, 0] = nodes[child, VISITS]
        out_stats[k, 1] = total[child]
        out_stats[k, 2] = nodes[child, PROVEN]
        k += 1
        child = nodes[child, NEXT]
    return k
