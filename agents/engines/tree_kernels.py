"""The compiled UCT tree (numba): the search of agents/mcts.py (OpenSpiel's MCTSBot: UCT with c on results in
[-1, 1], one uniformly random playout a leaf, the solver) for a two-player game without chance, where the
walk down the tree costs more in Python than the playout it leads to.

Written once over a game's position as three int64s (a, b, c: c is the seat to move) and the operations of
its engine's positions module, reached through `positions(module)`: a value whose numba type names the
module, passed as every kernel's first argument. The operations below are numba overloads on that type, so
each engine gets machine code of its own from this one source, cached across processes as any kernel is (a
compiled function passed in or closed over would miss the cache in every process). An engine's positions
module gives:

- moves(a, b, c, full) -> the legal moves as a bit mask (0: the game is over); full: every move's bit;
- step(a, b, c, move, board_a, board_b) -> the position after a legal move (board_a, board_b: the engine's
  board arrays, any arrays where it has none);
- result_of(a, b, c) -> seat 0's result (+1, 0, -1) of a finished game;
- playout(a, b, c, full, order, board_a, board_b, rng) -> seat 0's result of a uniformly random playout;
- features(a, b, c, full, board_a, board_b, out): the position as an AlphaZero network reads it, for the seat
  to move, into `out` (agents/engines/puct_kernels.py's; feature_count(board_a, board_b) its length);
- final_value(a, b, c, board_a, board_b): seat 0's value of a finished game as AlphaZero counts it (its result,
  or dots' box margin over the boxes; the module's VALUE_MEANING says which);
- evaluate(a, b, c, full, args, work) -> (seat 0's value in [-1, 1], whether it is exact): the engine's
  evaluator (a learnt network, a solver), reading `args`; NO_EVALUATOR: args of the same types for a tree
  that plays out its leaves. work[0] counts the positions an evaluation searched (work[1] caps a slice).

A leaf argument is (KIND, ARGS, SHARE, MINIMAX): PLAYOUT leaves are played out at random; EVALUATOR leaves
are valued by evaluate(ARGS), mixed with a playout's result by SHARE, or, with a MINIMAX weight > 0,
played out with the evaluator's values backed up apart (implicit minimax).

The tree is two arrays that live as long as the agent and grow when full: `nodes` (capacity x COLUMNS)
int64 and `total` float64. A node's children are a linked list (FIRST, NEXT) made one at a time as the
walk expands them; TRIED masks the moves that have a child, LEGAL its moves (0: the game is over). A
node's total and PROVEN are results for the player who moved into it (its parent's mover), as in the
Python tree. Randomness from the numpy Generator passed in.
"""
from __future__ import annotations

import math
import sys
from types import ModuleType

from numba import njit, types
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

from agents.engines.compiled import keep_cache_fresh
from agents.engines.bits import bit_index, random_bit


class Positions:
    """An engine's positions module as the kernels take it (made by `positions`)."""

    def __init__(self, module: ModuleType):
        self.module = module


class PositionsType(types.Type):
    """The numba type of a Positions: one type a positions module, named by it (a cached kernel's signature
    holds it, so each engine's machine code is kept apart)."""

    def __init__(self, module_name: str):
        self.module_name = module_name
        super().__init__(name=f"Positions({module_name})")


@typeof_impl.register(Positions)
def _typeof_positions(value, context):
    return PositionsType(value.module.__name__)


register_model(PositionsType)(models.OpaqueModel)  # (nothing is read from it: its type is what matters)


@unbox(PositionsType)
def _unbox_positions(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


_POSITIONS: dict[str, Positions] = {}


def positions(module: ModuleType) -> Positions:
    """The kernels' first argument for an engine's positions `module` (one a module). The kernels' cache is
    dropped here where that module, or a kernel module it imports, changed since the cache was written."""
    if module.__name__ not in _POSITIONS:
        keep_cache_fresh(__name__, also=(module,))
        _POSITIONS[module.__name__] = Positions(module)
    return _POSITIONS[module.__name__]


def operation(pos: PositionsType, name: str):
    """The engine's compiled operation `name` for a Positions type (None for another type: not ours)."""
    return getattr(sys.modules[pos.module_name], name) if isinstance(pos, PositionsType) else None


def moves(pos, a, b, c, full):
    raise NotImplementedError("compiled only: the engine's moves")


def step(pos, a, b, c, move, board_a, board_b):
    raise NotImplementedError("compiled only: the engine's step")


def result_of(pos, a, b, c):
    raise NotImplementedError("compiled only: the engine's result_of")


def playout(pos, a, b, c, full, order, board_a, board_b, rng):
    raise NotImplementedError("compiled only: the engine's playout")


def evaluate(pos, a, b, c, full, args, work):
    raise NotImplementedError("compiled only: the engine's evaluate")


def features(pos, a, b, c, full, board_a, board_b, out):
    raise NotImplementedError("compiled only: the engine's features")


def final_value(pos, a, b, c, board_a, board_b):
    raise NotImplementedError("compiled only: the engine's final_value")


@overload(moves, inline="always")
def _moves(pos, a, b, c, full):
    fn = operation(pos, "moves")
    return None if fn is None else lambda pos, a, b, c, full: fn(a, b, c, full)


@overload(step, inline="always")
def _step(pos, a, b, c, move, board_a, board_b):
    fn = operation(pos, "step")
    return None if fn is None else lambda pos, a, b, c, move, board_a, board_b: fn(a, b, c, move, board_a, board_b)


@overload(result_of, inline="always")
def _result_of(pos, a, b, c):
    fn = operation(pos, "result_of")
    return None if fn is None else lambda pos, a, b, c: fn(a, b, c)


@overload(playout, inline="always")
def _playout(pos, a, b, c, full, order, board_a, board_b, rng):
    fn = operation(pos, "playout")
    return None if fn is None else \
        lambda pos, a, b, c, full, order, board_a, board_b, rng: fn(a, b, c, full, order, board_a, board_b, rng)


@overload(evaluate, inline="always")
def _evaluate(pos, a, b, c, full, args, work):
    fn = operation(pos, "evaluate")
    return None if fn is None else lambda pos, a, b, c, full, args, work: fn(a, b, c, full, args, work)


@overload(features, inline="always")
def _features(pos, a, b, c, full, board_a, board_b, out):
    fn = operation(pos, "features")
    return None if fn is None else lambda pos, a, b, c, full, board_a, board_b, out: fn(a, b, c, full, board_a, board_b, out)


@overload(final_value, inline="always")
def _final_value(pos, a, b, c, board_a, board_b):
    fn = operation(pos, "final_value")
    return None if fn is None else lambda pos, a, b, c, board_a, board_b: fn(a, b, c, board_a, board_b)


ACTION, VISITS, PROVEN, FIRST, NEXT, TRIED, LEGAL, MOVER = range(8)
COLUMNS = 8
UNKNOWN = 2  # PROVEN until the solver knows the node: then -1, 0 or 1
PLAYOUT, EVALUATOR = 0, 1  # how a new leaf is valued (its KIND): a random playout, or the engine's evaluate
KIND, ARGS, SHARE, MINIMAX = range(4)  # the fields of a leaf argument


@njit(cache=True)
def evaluated_leaf(pos, a, b, mover, full, leaf, work, order, board_a, board_b, rng):
    """Seat 0's result in [-1, 1] for a new leaf (not finished) with an EVALUATOR leaf: the evaluator's value,
    mixed with a random playout's result by SHARE when that is > 0 and the value is not exact:
    (1 - share) value + share playout."""
    guess, exact = evaluate(pos, a, b, mover, full, leaf[ARGS], work)
    share = leaf[SHARE]
    if share > 0.0 and not exact:
        guess = (1.0 - share) * guess + share * playout(pos, a, b, mover, full, order, board_a, board_b, rng)
    return guess


@njit(cache=True)
def reset(pos, nodes, total, minimax, a, b, c, full):
    """Empty the tree and put the root (the position a, b, c) at node 0; returns the nodes in use (1)."""
    minimax[0] = 0.0
    nodes[0, ACTION] = -1
    nodes[0, VISITS] = 0
    nodes[0, PROVEN] = UNKNOWN
    nodes[0, FIRST] = -1
    nodes[0, NEXT] = -1
    nodes[0, TRIED] = 0
    nodes[0, LEGAL] = moves(pos, a, b, c, full)
    nodes[0, MOVER] = c
    total[0] = 0.0
    return 1


@njit(cache=True)
def simulate(pos, nodes, total, minimax, used, a0, b0, c0, simulations, batch, c, full, board_a, board_b, rng,
             paths, depths, waiting, results, order, leaf, work):
    """Up to `simulations` simulations from the root (a0, b0, c0 as reset was given), `batch` at a time as the
    Python tree runs them: each walk goes down by UCT (mean + c sqrt(ln N / n); a proven child counts its exact
    result) with a virtual loss on every node it enters (a visit and a loss, so the batch's later walks spread
    out), expands one random untried move and values the new leaf (a random playout, or with an EVALUATOR
    leaf `evaluated_leaf`); a finished game's exact result (proven) is backed up at once, the batch's other results after its
    last walk, each taking its walk's virtual loss back; then the solver proves what it can up each path (a node
    whose mover has a proven win, or whose every move is proven). Stops early when the root is proven, fewer
    nodes are free than one more batch may need, or its leaves' solves have searched more positions than
    work[1] (0: no limit; work[0] counts them). Returns (simulations done, nodes in use).
    With an EVALUATOR leaf whose minimax weight w = leaf[MINIMAX] > 0, implicit minimax backups (Lanctot,
    Winands, Pepels and Sturtevant 2014): a new leaf is played out at random as mcts's are (or valued exactly),
    and the evaluator's value of it is kept apart (`minimax`, per node for the player who moved into it), backed up as a minimax
    over each node's children; the walk then chooses by (1 - w) mean + w minimax + c sqrt(ln N / n).
    paths (batch, moves + 2), depths, waiting and results (batch,): scratch; order (moves + 2,): a playout's.
    full: every move's bit. board_a, board_b: the engine's board arrays. (c is the exploration; a position's
    third number is its mover.)"""
    capacity = nodes.shape[0]
    done = 0
    evaluated = leaf[KIND] == EVALUATOR
    w = leaf[MINIMAX] if evaluated else 0.0
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
                a, b, mover = step(pos, a, b, mover, nodes[node, ACTION], board_a, board_b)
                path[depth] = node
                depth += 1
            # expansion: one new child, a random untried move, entered with the same virtual loss
            untried = nodes[node, LEGAL] & ~nodes[node, TRIED]
            if nodes[node, PROVEN] == UNKNOWN and untried:
                bit = random_bit(untried, rng)
                parent_mover = mover
                a, b, mover = step(pos, a, b, mover, bit_index(bit), board_a, board_b)
                legal = moves(pos, a, b, mover, full)
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
                    result = result_of(pos, a, b, mover)
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
                if evaluated:
                    results[pending] = _evaluated_result(pos, w, nodes, minimax, path, depth, a, b, mover, full, board_a,
                                                         board_b, rng, order, leaf, work)
                else:
                    results[pending] = playout(pos, a, b, mover, full, order, board_a, board_b, rng)
                pending += 1
        for i in range(pending):
            k = waiting[i]
            _backup(nodes, total, paths[k], depths[k], results[i])
            _prove(nodes, paths[k], depths[k])
        done += size
    return done, used


@njit(cache=True)
def _evaluated_result(pos, w, nodes, minimax, path, depth, a, b, mover, full, board_a, board_b, rng, order, leaf, work):
    """Seat 0's result for the new leaf (a, b, mover) that ends the walk `path`, with an EVALUATOR leaf: with a
    minimax weight w > 0 a random playout (or the evaluator's exact result), the evaluator's value kept in
    `minimax` and backed up; else evaluated_leaf's value. (Apart from simulate: the playouts stay in its loop.)"""
    if w > 0.0 and depth >= 2:
        guess, exact = evaluate(pos, a, b, mover, full, leaf[ARGS], work)
        minimax[path[depth - 1]] = guess if nodes[path[depth - 2], MOVER] == 0 else -guess
        _back_minimax(nodes, minimax, path, depth)
        return guess if exact else playout(pos, a, b, mover, full, order, board_a, board_b, rng)
    return evaluated_leaf(pos, a, b, mover, full, leaf, work, order, board_a, board_b, rng)


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


def playout_leaf(pos: Positions) -> tuple:
    """The leaf argument of a tree that plays out its leaves on `pos`'s engine."""
    return PLAYOUT, pos.module.NO_EVALUATOR, 0.0, 0.0


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
