"""The compiled PUCT tree (numba): AlphaZero's search (Silver et al. 2017, as OpenSpiel's MCTSBot with its
AlphaZero evaluator) for a two-player game without chance, on an engine's positions module as the UCT tree of
agents/engines/tree_kernels.py takes it (`positions(module)`; moves, step, features and final_value are its
operations), with the network's forward pass compiled into the walk.

A network (agents/alphazero_net.py says what it computes) is the tuple (w1 (inputs, h1), b1, w2 (h2, h1), b2,
wp (moves, h2), bp, wv (h2,), bv (1,)) of float64 arrays: two ReLU layers, a policy head (a softmax over the
legal moves: the priors) and a value head (tanh: the mover's expected final value in [-1, 1]).

Each simulation walks down from the root by PUCT, choosing the child of largest
    Q + c P sqrt(N) / (1 + n)
(Q: the child's mean result for the player who moved into it, 0 while unvisited; P its prior; N the parent's
visits, n the child's), until a node not yet expanded; there the network gives the priors of every legal move
(all children made at once) and the value that is backed up (no playout); a finished game backs up its exact
value (the engine's final_value: tic-tac-toe's result, dots' box margin over the boxes). The tree is `nodes`
(capacity x COLUMNS, int64) and `stats` (capacity x 3, float64: TOTAL, PRIOR, NET: a node's values, prior and the network's own value, each for the player who moved into it). A node's
children are contiguous (FIRST, COUNT; COUNT -1: not expanded, 0: the game is over there).

`self_play` plays a whole game of the network against itself (after a few random moves, Dirichlet noise on the
root's priors, moves drawn in proportion to the visits for the first moves, the most visited after), for the learner of
agents/alphazero_training.py; it lets go of the interpreter lock, so threads play games side by side.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from agents.engines.bits import bit_index, random_bit
from agents.engines.compiled import keep_cache_fresh
from agents.engines.tree_kernels import features, final_value, moves, step

ACTION, VISITS, FIRST, COUNT, MOVER = range(5)
COLUMNS = 5
TOTAL, PRIOR, NET = range(3)
STATS = 3


@njit(cache=True, inline="always")
def _hidden(net, x, h1, h2):
    """The two ReLU layers on the features x into h1 and h2."""
    w1, b1, w2, b2 = net[0], net[1], net[2], net[3]
    n1, n2 = b1.shape[0], b2.shape[0]
    for j in range(n1):
        h1[j] = b1[j]
    for i in range(x.shape[0]):  # (the features are mostly 0: a row of w1 a feature that is not)
        xi = x[i]
        if xi != 0.0:
            for j in range(n1):
                h1[j] += xi * w1[i, j]
    for j in range(n1):
        if h1[j] < 0.0:
            h1[j] = 0.0
    for k in range(n2):
        s = b2[k]
        for j in range(n1):
            s += w2[k, j] * h1[j]
        h2[k] = s if s > 0.0 else 0.0


@njit(cache=True)
def forward(net, x, legal, h1, h2, priors):
    """The network on the features x: the priors of the legal moves (bits of `legal`) into `priors` (0 for the
    others) and the mover's value (returned). h1, h2: the hidden layers' scratch."""
    _hidden(net, x, h1, h2)
    wp, bp, wv, bv = net[4], net[5], net[6], net[7]
    n2 = h2.shape[0]
    top = -math.inf
    for m in range(priors.shape[0]):
        priors[m] = 0.0
        if (legal >> m) & 1:
            s = bp[m]
            for k in range(n2):
                s += wp[m, k] * h2[k]
            priors[m] = s
            top = max(top, s)
    total = 0.0
    for m in range(priors.shape[0]):
        if (legal >> m) & 1:
            priors[m] = math.exp(priors[m] - top)
            total += priors[m]
    for m in range(priors.shape[0]):
        priors[m] /= total
    v = bv[0]
    for k in range(n2):
        v += wv[k] * h2[k]
    return math.tanh(v)


@njit(cache=True)
def forward_batch(pos, net, positions, full, board_a, board_b, n_features, priors_out, values_out):
    """The network on each row (a, b, c) of `positions`: priors into priors_out's rows, values (for each
    position's mover) into values_out."""
    x = np.zeros(n_features)
    h1, h2 = np.zeros(net[1].shape[0]), np.zeros(net[3].shape[0])
    for i in range(positions.shape[0]):
        a, b, c = positions[i, 0], positions[i, 1], positions[i, 2]
        features(pos, a, b, c, full, board_a, board_b, x)
        values_out[i] = forward(net, x, moves(pos, a, b, c, full), h1, h2, priors_out[i])


@njit(cache=True)
def features_batch(pos, positions, full, board_a, board_b, out, legal_out):
    """Each row (a, b, c) of `positions` as the network reads it (out's rows) and its legal moves (legal_out's
    rows: 1.0 a legal move)."""
    for i in range(positions.shape[0]):
        a, b, c = positions[i, 0], positions[i, 1], positions[i, 2]
        features(pos, a, b, c, full, board_a, board_b, out[i])
        legal = moves(pos, a, b, c, full)
        for m in range(legal_out.shape[1]):
            legal_out[i, m] = float((legal >> m) & 1)


@njit(cache=True)
def reset(nodes, stats, c):
    """Empty the tree: the root (its mover c) at node 0, not expanded; returns the nodes in use (1)."""
    nodes[0, ACTION] = -1
    nodes[0, VISITS] = 0
    nodes[0, FIRST] = -1
    nodes[0, COUNT] = -1
    nodes[0, MOVER] = c
    stats[0, TOTAL] = 0.0
    stats[0, PRIOR] = 1.0
    stats[0, NET] = 0.0
    return 1


@njit(cache=True)
def _expand(pos, net, nodes, stats, used, node, a, b, mover, full, board_a, board_b, x, h1, h2, priors):
    """Value the node reached (a, b, mover): a finished game its exact final value, else the network's value, its
    children made with the network's priors. Returns (seat 0's value, nodes in use)."""
    legal = moves(pos, a, b, mover, full)
    if legal == 0:
        nodes[node, COUNT] = 0
        return final_value(pos, a, b, mover, board_a, board_b), used
    features(pos, a, b, mover, full, board_a, board_b, x)
    v = forward(net, x, legal, h1, h2, priors)
    nodes[node, FIRST] = used
    count = 0
    for m in range(priors.shape[0]):
        if (legal >> m) & 1:
            child = used + count
            nodes[child, ACTION] = m
            nodes[child, VISITS] = 0
            nodes[child, FIRST] = -1
            nodes[child, COUNT] = -1
            nodes[child, MOVER] = -1  # (known once it is entered)
            stats[child, TOTAL] = 0.0
            stats[child, PRIOR] = priors[m]
            stats[child, NET] = math.nan
            count += 1
    nodes[node, COUNT] = count
    return (v if mover == 0 else -v), used + count


@njit(cache=True, nogil=True)
def simulate_puct(pos, net, nodes, stats, used, a0, b0, c0, simulations, c, unvisited, full, board_a, board_b, path,
                  x, h1, h2, priors):
    """Up to `simulations` simulations from the root (a0, b0, c0 as reset was given): PUCT down to a node not
    yet expanded (or a finished game), its value backed up to the root. An unvisited child's Q: 0 (unvisited
    = 0, AlphaZero's and OpenSpiel's), or with unvisited = 1 the mean value of the node's visited children
    (for its mover: neither hopeful where it is losing nor shy where it is winning). Stops early where fewer
    nodes are free than one expansion may need. path (longest game + 2,), x (features), h1, h2, priors (moves,):
    scratch. Returns (simulations done, nodes in use)."""
    capacity = nodes.shape[0]
    room = priors.shape[0]
    done = 0
    if nodes[0, COUNT] == 0:  # (the game is over at the root: nothing to search)
        return 0, used
    while done < simulations and used + room <= capacity:
        node = 0
        a, b, mover = a0, b0, c0
        path[0] = 0
        depth = 1
        while nodes[node, COUNT] > 0:
            first, count = nodes[node, FIRST], nodes[node, COUNT]
            explore = c * math.sqrt(nodes[node, VISITS])
            fpu = 0.0
            if unvisited == 1:
                seen, worth = 0, 0.0
                for child in range(first, first + count):
                    seen += nodes[child, VISITS]
                    worth += stats[child, TOTAL]
                fpu = worth / seen if seen > 0 else 0.0
            best, best_u = first, -math.inf
            for child in range(first, first + count):
                n = nodes[child, VISITS]
                q = stats[child, TOTAL] / n if n > 0 else fpu
                u = q + explore * stats[child, PRIOR] / (1.0 + n)
                if u > best_u:
                    best, best_u = child, u
            node = best
            a, b, mover = step(pos, a, b, mover, nodes[node, ACTION], board_a, board_b)
            nodes[node, MOVER] = mover
            path[depth] = node
            depth += 1
        if nodes[node, COUNT] < 0:
            v0, used = _expand(pos, net, nodes, stats, used, node, a, b, mover, full, board_a, board_b, x, h1,
                               h2, priors)
            if depth > 1:  # the network's own value (or the exact final value) for the player who moved into it
                stats[node, NET] = v0 if nodes[path[depth - 2], MOVER] == 0 else -v0
        else:  # a finished game met again: its exact final value, kept as its NET
            parent_mover = nodes[path[depth - 2], MOVER]
            v0 = stats[node, NET] if parent_mover == 0 else -stats[node, NET]
        nodes[0, VISITS] += 1
        for d in range(1, depth):
            nd = path[d]
            nodes[nd, VISITS] += 1
            stats[nd, TOTAL] += v0 if nodes[path[d - 1], MOVER] == 0 else -v0
        done += 1
    return done, used


@njit(cache=True)
def add_noise(nodes, stats, alpha, share, rng):
    """The root's priors mixed with Dirichlet(alpha) noise: (1 - share) P + share noise (AlphaZero's
    exploration in self-play). The root must be expanded."""
    first, count = nodes[0, FIRST], nodes[0, COUNT]
    if count <= 0:
        return
    noise = np.empty(count)
    total = 0.0
    for i in range(count):
        noise[i] = rng.gamma(alpha, 1.0)
        total += noise[i]
    for i in range(count):
        p = stats[first + i, PRIOR]
        stats[first + i, PRIOR] = (1.0 - share) * p + share * (noise[i] / total if total > 0 else 1.0 / count)


@njit(cache=True)
def visit_policy(nodes, out):
    """The root's children's visits as a distribution over the moves into `out` (0 for moves not searched);
    returns the visits counted."""
    out[:] = 0.0
    first, count = nodes[0, FIRST], nodes[0, COUNT]
    total = 0
    for child in range(first, first + max(count, 0)):
        total += nodes[child, VISITS]
    for child in range(first, first + max(count, 0)):
        out[nodes[child, ACTION]] = nodes[child, VISITS] / max(total, 1)
    return total


@njit(cache=True)
def most_visited(nodes, stats):
    """The root's most visited child's move (ties: the larger prior, then the lower move)."""
    first, count = nodes[0, FIRST], nodes[0, COUNT]
    best, best_n, best_p = -1, -1, -1.0
    for child in range(first, first + count):
        n, p = nodes[child, VISITS], stats[child, PRIOR]
        if n > best_n or (n == best_n and p > best_p):
            best, best_n, best_p = nodes[child, ACTION], n, p
    return best


@njit(cache=True, nogil=True)
def self_play(pos, net, a, b, c, full, board_a, board_b, simulations, c_puct, unvisited, alpha, share,
              sampled_moves, random_moves, rng, nodes, stats, path, x, h1, h2, priors, out_positions, out_policy, out_moves):
    """One game of the network against itself from (a, b, c): each move `simulations` simulations of PUCT
    (c_puct, unvisited as simulate_puct's) with Dirichlet(alpha) noise mixed into the root's priors by `share`; the first `sampled_moves`
    moves drawn in proportion to the visits, the rest the most visited. Each position's (a, b, c) into
    out_positions' rows, its visit distribution into out_policy's and the move played into out_moves. The game
    starts with a number of uniformly random moves drawn from 0 to `random_moves` (wider starts: positions a
    search of its own would not reach), not searched nor recorded. Returns (moves recorded, seat 0's final
    value: the engine's final_value)."""
    for _ in range(min(np.int64(rng.random() * (random_moves + 1)), random_moves)):
        legal = moves(pos, a, b, c, full)
        if legal == 0:
            break
        a, b, c = step(pos, a, b, c, bit_index(random_bit(legal, rng)), board_a, board_b)
    n = 0
    while moves(pos, a, b, c, full) != 0:
        reset(nodes, stats, c)
        _, used = simulate_puct(pos, net, nodes, stats, 1, a, b, c, 1, c_puct, unvisited, full, board_a, board_b,
                                path, x, h1, h2, priors)
        if share > 0.0:
            add_noise(nodes, stats, alpha, share, rng)
        simulate_puct(pos, net, nodes, stats, used, a, b, c, simulations - 1, c_puct, unvisited, full, board_a,
                      board_b, path, x, h1, h2, priors)
        out_positions[n, 0], out_positions[n, 1], out_positions[n, 2] = a, b, c
        policy = out_policy[n]
        visit_policy(nodes, policy)
        if n < sampled_moves:
            u = rng.random()
            move, acc = -1, 0.0
            for m in range(policy.shape[0]):
                if policy[m] > 0.0:
                    move = m
                    acc += policy[m]
                    if u < acc:
                        break
        else:
            move = most_visited(nodes, stats)
        out_moves[n] = move
        a, b, c = step(pos, a, b, c, move, board_a, board_b)
        n += 1
    return n, final_value(pos, a, b, c, board_a, board_b)


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
