"""The strong 2048 expectimax ("extra credit"): deep search with a heuristic evaluation.

The evaluation is the kind the strongest 2048 players use: per row and column,
a bonus for empty cells and for equal neighbours (merge potential), penalties
for non-monotonic lines and for large tiles (weights after nneonneo's
well-known 2048 AI). The sum over all rows and columns scores a board; every
possible line of up to 5 cells is scored once into a lookup table.

Search (expectimax, a numpy batch per layer, each layer deduplicated):
- 4x4 boards run on uint64 boards (arcade/games/board64.py): moves, spawns,
  deduplication and the evaluation are gathers and bit operations. The last
  layer (most of the positions) goes in cache-sized chunks, its heuristic read
  from the line tables without making the moved boards (evaluate_moves64). The depth
  follows the strongest players: max(3, distinct tiles - 2) chance layers,
  bounded by the probability cutoff (a placement path less likely than
  [2048] strong_min_probability is evaluated, not expanded), by
  [2048] strong_max_depth and by a time budget per move (iterative deepening
  stops when the next depth would not fit). A transposition cache keeps
  values of boards searched before and reuses one searched at least as deep.
- Other sizes (and the rare 4x4 board with two tiles of 32768 or more) run
  the array path on N x s x s exponent boards, depth by empty cells.
"""
from __future__ import annotations

import functools
import time

import numpy as np

from agents.base import best_action, budget_clock, register
from agents.ntuple import best_network, only_4x4
from arcade.games import board64
from arcade.games.twenty48 import move_all, spawn_children

LOST_PENALTY = 200000.0
MONOTONICITY_POWER = 4.0
MONOTONICITY_WEIGHT = 47.0
SUM_POWER = 3.5
SUM_WEIGHT = 11.0
MERGES_WEIGHT = 700.0
EMPTY_WEIGHT = 270.0
_TABLE_MAX_SIZE = 5
NODE_BUDGET = 20000  # the array path: about this many leaves at most
CACHE_LIMIT = 200_000  # boards kept in the transposition cache between moves
SAFETY = 1.5  # how much longer than measured a layer about to start may take
MEASURE_WEIGHT = 0.3  # the weight of the newest measurement in the running estimates of costs
LEAF_CHUNK = 16_384  # boards of the last layer placed, moved and valued at a time (about): they stay in cache
MEASURED_PASS = 10_000  # positions a pass needs before its time per position predicts the next layers'


def line_scores(lines: np.ndarray) -> np.ndarray:
    """Heuristic score of each line (M x s exponents)."""
    ranks = lines.astype(np.float64)
    empty = (lines == 0).sum(axis=1)
    # merge potential: runs of equal tiles once the empty cells between them are skipped
    packed = np.take_along_axis(lines, np.argsort(lines == 0, axis=1, kind="stable"), axis=1)
    eq = (packed[:, :-1] != 0) & (packed[:, :-1] == packed[:, 1:])
    run_starts = eq & ~np.concatenate([np.zeros((len(eq), 1), bool), eq[:, :-1]], axis=1)
    merges = eq.sum(axis=1) + run_starts.sum(axis=1)
    powered = ranks ** MONOTONICITY_POWER
    decreasing = np.clip(powered[:, 1:] - powered[:, :-1], 0, None).sum(axis=1)
    increasing = np.clip(powered[:, :-1] - powered[:, 1:], 0, None).sum(axis=1)
    return (LOST_PENALTY + EMPTY_WEIGHT * empty + MERGES_WEIGHT * merges
            - MONOTONICITY_WEIGHT * np.minimum(decreasing, increasing) - SUM_WEIGHT * (ranks ** SUM_POWER).sum(axis=1))


@functools.lru_cache(maxsize=None)
def game_over_value(size: int) -> float:
    """The value of a board with no legal move: below the evaluation of every live board of this size.

    A line's score is at least LOST_PENALTY - MONOTONICITY_WEIGHT (s-1) E^4 - SUM_WEIGHT s E^3.5 for
    exponents up to E (the empty and merge terms only add), E = s*s + 1 the largest an s x s board can
    hold, and a board scores 2s lines. (A lost board worth 0, as in the C++ program, ranks it above the
    live boards whose evaluation has gone negative: late boards with large tiles.)"""
    e = float(size * size + 1)
    line_floor = (LOST_PENALTY - MONOTONICITY_WEIGHT * (size - 1) * e**MONOTONICITY_POWER
                  - SUM_WEIGHT * size * e**SUM_POWER)
    return 2 * size * line_floor - 1.0


@functools.lru_cache(maxsize=None)
def _line_table(size: int) -> tuple[np.ndarray, np.ndarray]:
    weights = (16 ** np.arange(size)).astype(np.int64)
    codes = np.arange(16**size, dtype=np.int64)
    lines = ((codes[:, None] // weights) % 16).astype(np.uint8)
    return line_scores(lines).astype(np.float32), weights


def evaluate(boards: np.ndarray) -> np.ndarray:
    """Heuristic value of each board (N x s x s): the sum of its row and column scores."""
    n, s, _ = boards.shape
    if s <= _TABLE_MAX_SIZE and (boards.size == 0 or boards.max() < 16):
        table, weights = _line_table(s)
        rows = boards.astype(np.int64) @ weights
        cols = boards.transpose(0, 2, 1).astype(np.int64) @ weights
        return table[rows].sum(axis=1, dtype=np.float64) + table[cols].sum(axis=1, dtype=np.float64)
    rows = line_scores(boards.reshape(n * s, s)).reshape(n, s).sum(axis=1)
    cols = line_scores(boards.transpose(0, 2, 1).reshape(n * s, s)).reshape(n, s).sum(axis=1)
    return rows + cols


def evaluate64(boards: np.ndarray) -> np.ndarray:
    """The same heuristic on uint64 4x4 boards: eight gathers from the 65,536-line table."""
    table = _line_table64()
    rows, cols = board64.lines(boards)
    total = table.take(rows[0])
    for codes in (rows[1], rows[2], rows[3], cols[0], cols[1], cols[2], cols[3]):
        total += table.take(codes)
    return total


@functools.lru_cache(maxsize=1)
def _line_table64() -> np.ndarray:
    return _line_table(4)[0].astype(np.float64)


@functools.lru_cache(maxsize=1)
def _slid_line_table64() -> np.ndarray:
    """65,536 x 2: the score of each line code slid toward its start and toward its end."""
    table, slides = _line_table64(), board64.row_tables()
    return np.stack([table[slides.left.astype(np.intp)], table[slides.right.astype(np.intp)]], axis=1)


def evaluate_moves64(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The heuristic of the board after each of the four moves of every uint64 board, without making the
    moved boards' other lines by transposes: (values 4 x N, -inf where the move is illegal; legal 4 x N).
    A move's value is the score of the lines it slid (read from the slid-line table by the board's own
    line codes) plus the score of the lines across it (the rows of board64.moves_across's boards)."""
    table = _line_table64()
    boards, legal, rows, cols = board64.moves_across(x)
    across = boards.view("<u2").reshape(4, -1, 4)
    values = table.take(across[:, :, 0])
    for k in range(1, 4):
        values += table.take(across[:, :, k])
    slid = _slid_line_table64()
    for codes, first in ((cols, 0), (rows, 2)):  # up and down slide columns; left and right, rows
        part = slid.take(codes[0], axis=0)
        for k in range(1, 4):
            part += slid.take(codes[k], axis=0)
        values[first:first + 2] += part.T
    values += _ILLEGAL_ADDS.take(legal.view(np.uint8))  # -inf where illegal (a gather: 2x a masked store)
    return values, legal


_ILLEGAL_ADDS = np.array([-np.inf, 0.0])  # what a move's value gets added, by whether it is legal


def _dedupe(boards: np.ndarray):
    """Unique boards (N x s x s) and the index of each original in them."""
    n = len(boards)
    flat = np.ascontiguousarray(boards.reshape(n, -1))
    keys = flat.view(np.dtype((np.void, flat.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return boards[first], inverse.ravel()


def _dedupe64(boards: np.ndarray, probs: np.ndarray):
    """Unique uint64 boards, the index of each original in them, and each unique board's largest probability."""
    order = np.argsort(boards)
    ordered = boards[order]
    new = np.empty(len(boards), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    group = np.cumsum(new)  # of each sorted board: its unique board
    group -= 1
    inverse = np.empty(len(boards), dtype=np.intp)
    inverse[order] = group
    # (maximum.at over the sorted groups, not maximum.reduceat: 4x faster on many small groups)
    u_prob = np.zeros(int(group[-1]) + 1 if len(boards) else 0)
    np.maximum.at(u_prob, group, probs[order])
    return ordered[new], inverse, u_prob


def _valued_once(evaluate, boards: np.ndarray) -> np.ndarray:
    """evaluate(boards), each distinct board valued once. A search's leaves repeat: a tile placed in
    different cells of a line often slides to the same board (at depth 2, 56% of the afterstates a search
    values are repeats), and a learnt value (32 reads into a large table) costs several times a dedupe."""
    unique, inverse = np.unique(boards, return_inverse=True)
    return evaluate(unique)[inverse]


class ValueCache:
    """Values of chance nodes (uint64 boards before a placement) and the depth each was searched to,
    kept from one move to the next in sorted arrays (a lookup is one binary search per layer).

    Only the upper layers are kept (at most STORE_LAYER boards a layer, `limit` in all): after the
    move and the computer's tile, the new position's boards are the last search's second layer, so
    the shallow passes of the next iterative deepening come from here."""

    STORE_LAYER = 20000

    def __init__(self, limit: int = CACHE_LIMIT):
        self.limit = limit
        self.keys = np.empty(0, np.uint64)
        self.depths = np.empty(0, np.int8)
        self.values = np.empty(0, np.float64)
        self._pending: list = []
        self.hits = 0

    def lookup(self, boards: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """(mask of boards known to at least `depth`, their values)."""
        if not len(self.keys):
            return np.zeros(len(boards), bool), np.empty(0)
        at = np.minimum(np.searchsorted(self.keys, boards), len(self.keys) - 1)
        hit = (self.keys[at] == boards) & (self.depths[at] >= depth)
        self.hits += int(np.count_nonzero(hit))
        return hit, self.values[at[hit]]

    def store(self, boards: np.ndarray, depth: int, values: np.ndarray) -> None:
        if len(boards) <= self.STORE_LAYER:
            self._pending.append((boards, np.full(len(boards), depth, np.int8), values))

    def commit(self) -> None:
        """Merge what the last search stored; for a board stored twice the deeper value wins
        (the newer on equal depth); the oldest entries go past the limit."""
        if not self._pending:
            return
        parts = self._pending[::-1] + [(self.keys, self.depths, self.values)]  # newest first
        self._pending = []
        keys, depths, values = (np.concatenate([p[i] for p in parts]) for i in range(3))
        keys, depths, values = keys[:self.limit], depths[:self.limit], values[:self.limit]
        order = np.lexsort((-depths.astype(np.int16), keys))  # by board, then deepest first (stable: newest)
        keys, depths, values = keys[order], depths[order], values[order]
        first = np.ones(len(keys), bool)
        first[1:] = keys[1:] != keys[:-1]
        self.keys, self.depths, self.values = keys[first], depths[first], values[first]


class OutOfTime(Exception):
    """A search pass reached its deadline; the last pass that finished answers."""


class _Deadline:
    """A search's deadline on its clock (none until one is set), and the cost of a position measured so far:
    work about to start that would not end by the deadline is not started."""

    def __init__(self):
        self.clock, self.at = time.perf_counter, float("inf")
        self.per_position = 0.0  # seconds; 0 until a pass has been timed
        self.layers: dict[int, int] = {}  # boards that entered each layer (by depth left) in the last pass

    def count_layer(self, depth: int, boards: int) -> None:
        self.layers[depth] = self.layers.get(depth, 0) + boards

    def branching(self) -> float | None:
        """How many boards the deepest chance layer of the last pass had for each one of the layer above:
        what one more layer multiplies the work by (None if the pass had fewer than two layers)."""
        if self.layers.get(2, 0) and self.layers.get(1, 0):
            return self.layers[1] / self.layers[2]
        return None

    def check(self, positions: int = 0) -> None:
        # a margin on the estimate: a large layer costs more a position than the passes it was measured on
        if self.clock() + SAFETY * positions * self.per_position > self.at:
            raise OutOfTime


class BitSearch(_Deadline):
    """Expectimax over uint64 4x4 boards. chance_values(boards, probabilities, depth) -> values.

    With `learned` (a function of uint64 afterstates -> the points expected from there on, e.g. an n-tuple
    network's value) the leaves are valued by it, a player node is the best of its moves' points gained plus
    the value after them, and a lost board is worth 0 (no more points). Without, the heuristic (evaluate64)
    values the leaves, merges count only through it, and a lost board is worth game_over_value(4)."""

    def __init__(self, p_four: float, min_probability: float, cache: ValueCache | None = None, learned=None):
        super().__init__()
        self.p_four = p_four
        self.min_probability = min_probability
        self.cache = cache
        self.positions = 0
        self.evaluate = learned or evaluate64
        self.counts_gains = learned is not None
        self.lost = 0.0 if learned is not None else game_over_value(4)

    def chance_values(self, boards: np.ndarray, probs: np.ndarray, depth: int) -> np.ndarray:
        """Expected value of uint64 boards the computer is about to place a tile on."""
        self.check(len(boards))  # before each layer: a pass that would end past its deadline stops here
        self.positions += len(boards)
        self.count_layer(depth, len(boards))
        if depth == 0 or len(boards) == 0:
            return self.evaluate(boards)
        unique, inverse, u_prob = _dedupe64(boards, probs)
        values = np.empty(len(unique))
        leaf = u_prob < self.min_probability
        if leaf.any():  # (a small search often has none: an empty evaluation is still a dozen numpy calls)
            values[leaf] = self.evaluate(unique[leaf])
        expand = np.flatnonzero(~leaf)
        if self.cache is not None and depth >= 2 and expand.size:
            hit, known = self.cache.lookup(unique[expand], depth)
            values[expand[hit]] = known
            expand = expand[~hit]
        if expand.size and depth == 1:
            # the next layer is all leaves, valued in place: placed, moved and valued a few thousand boards
            # at a time, so their temporaries stay in cache
            spawns = 2 if 0 < self.p_four < 1 else 1
            self.check(4 * spawns * int(np.bitwise_count(board64.empty_mask(unique[expand])).sum()))
            step = max(1, LEAF_CHUNK // (8 * spawns))  # boards placed on at a time (8 empty cells, typically)
            for start in range(0, expand.size, step):
                if start:
                    self.check()  # a layer that runs longer than predicted stops at the deadline
                part = expand[start:start + step]
                kids, parent, p_kid = board64.spawn_children(unique[part], self.p_four)
                values[part] = np.bincount(parent, weights=p_kid * self._player_values(kids), minlength=part.size)
        elif expand.size:
            kids, parent, p_kid = board64.spawn_children(unique[expand], self.p_four)
            best = self._player_values(kids, u_prob[expand][parent] * p_kid, depth - 1)
            values[expand] = np.bincount(parent, weights=p_kid * best, minlength=expand.size)
            if self.cache is not None and depth >= 2:
                self.cache.store(unique[expand], depth, values[expand])
        return values[inverse]

    def _player_values(self, kids: np.ndarray, kid_prob: np.ndarray | None = None, depth: int = 0) -> np.ndarray:
        """The value of each board the player is to move on: the best of its legal moves (the board after
        it evaluated when `depth` is 0, else searched `depth` more chance layers), the lost value if none."""
        if depth == 0 and not self.counts_gains:  # the heuristic: straight from the lines, no moved boards
            best, legal = evaluate_moves64(kids)
            self.positions += int(np.count_nonzero(legal))
        else:
            codes = board64.lines(kids)
            moved = board64.move_all(kids, codes)  # 4 x K
            legal = moved != kids
            best = np.full((4, len(kids)), -np.inf)
            if depth == 0:  # (the learnt evaluation: the heuristic took the branch above)
                self.positions += int(np.count_nonzero(legal))
                best[legal] = _valued_once(self.evaluate, moved[legal])
            else:  # (boolean masks, not index pairs: the same order, fewer passes)
                best[legal] = self.chance_values(moved[legal], np.broadcast_to(kid_prob, moved.shape)[legal], depth)
            if self.counts_gains:
                best += board64.all_gains(codes)
        best = np.maximum(np.maximum(best[0], best[1]), np.maximum(best[2], best[3]))
        best[best == -np.inf] = self.lost
        return best

    def root(self, board: np.ndarray, depth: int) -> dict[int, float]:
        """{direction: value} of the legal moves of one 4x4 exponent board, searched `depth` chance layers."""
        x = board64.pack(board[None])
        codes = board64.lines(x)
        moved = board64.move_all(x, codes)[:, 0]
        dirs = np.flatnonzero(moved != x[0])
        if dirs.size == 0:
            return {}
        values = self.chance_values(moved[dirs], np.ones(dirs.size), depth)
        if self.counts_gains:
            values = values + board64.all_gains(codes)[dirs, 0]
        return {int(d): float(v) for d, v in zip(dirs, values)}


class ArraySearch(_Deadline):
    """Expectimax over N x s x s exponent boards, for every size. Same interface as BitSearch."""

    def __init__(self, p_four: float, min_probability: float):
        super().__init__()
        self.p_four = p_four
        self.min_probability = min_probability
        self.positions = 0

    def chance_values(self, boards: np.ndarray, probs: np.ndarray, depth: int) -> np.ndarray:
        """Expected value of boards the computer is about to place a tile on."""
        self.check(len(boards))
        self.positions += len(boards)
        self.count_layer(depth, len(boards))
        if depth == 0 or len(boards) == 0:
            return evaluate(boards)
        unique, inverse = _dedupe(boards)
        u_prob = np.zeros(len(unique))
        np.maximum.at(u_prob, inverse, probs)
        values = np.empty(len(unique))
        leaf = u_prob < self.min_probability
        values[leaf] = evaluate(unique[leaf])
        expand = np.flatnonzero(~leaf)
        if expand.size:
            kids, parent, p_kid = spawn_children(unique[expand], self.p_four)
            after, _, legal = move_all(kids)
            k_idx, d_idx = np.nonzero(legal)
            next_vals = self.chance_values(after[k_idx, d_idx], u_prob[expand][parent[k_idx]] * p_kid[k_idx],
                                           depth - 1)
            best = np.full(len(kids), -np.inf)  # a player node: the best of its legal moves
            np.maximum.at(best, k_idx, next_vals)
            best[best == -np.inf] = game_over_value(kids.shape[1])  # none: the game is over
            values[expand] = np.bincount(parent, weights=p_kid * best, minlength=expand.size)
        return values[inverse]

    def root(self, board: np.ndarray, depth: int) -> dict[int, float]:
        after, _, legal = move_all(board[None])
        dirs = np.flatnonzero(legal[0])
        if dirs.size == 0:
            return {}
        values = self.chance_values(after[0, dirs], np.ones(dirs.size), depth)
        return {int(d): float(v) for d, v in zip(dirs, values)}


def array_depth(board: np.ndarray, max_depth: int) -> int:
    """Chance layers for the array path: deeper as the board fills (fewer branches, more danger),
    and never more than about NODE_BUDGET leaves (4 moves x E spawns per layer) on big boards."""
    empties = int((board == 0).sum())
    if empties > board.size // 3:
        depth = 2
    elif empties > 3:
        depth = 3
    else:
        depth = 4
    affordable = max(1, int(np.log(NODE_BUDGET) / np.log(max(2, 4 * empties))))
    return min(depth, affordable, max_depth)


@register("expectimax", ("2048",),
          "strong expectimax: heuristic evaluation, depth by distinct tiles and time, uint64 boards", order=10,
          process=True,
          about="Expectimax searched deep and valued by a heuristic of the best known 2048 players: empty "
                "cells, monotone rows and columns, merges ready. It looks further ahead while the board holds "
                "many different tiles, skips placements too unlikely to matter, and deepens until its time "
                "per move is spent (4x4 boards as 64-bit numbers).",
          params=("strong_max_depth", "strong_min_probability", "time_budget_ms", "spawn_four_probability"))
class StrongExpectimax:
    """Expectimax on a heuristic evaluation; act / explain as Expectimax3. See the module docstring."""

    name = "expectimax"
    evaluation: str | None = None  # "heuristic" or "ntuple"; None: [2048] strong_evaluation decides

    def __init__(self, rules, settings):
        self.rules = rules
        table = settings.game2048
        self.evaluation = type(self).evaluation or table.strong_evaluation
        self.learned = None
        if self.evaluation == "ntuple":
            net, _, _ = best_network(rules.spawn_four_probability, settings.data_dir, table.ntuple_tuples)
            self.learned = net.value
        self.max_depth = table.strong_max_depth
        self.min_probability = table.strong_min_probability
        self.budget = table.time_budget_ms / 1000.0
        self.clock = budget_clock(settings)
        self.cache = ValueCache()
        self._figures: dict = {}
        self.per_position = 50e-9  # seconds a position costs this search here: measured as it plays
        self.commit_seconds = 0.0  # what merging a decision's values into the cache takes: measured too
        # the tables a search reads, built now rather than inside the first move's budget
        size = rules.size
        warm = np.zeros((1, size, size), np.uint8)
        warm[0, 0, 0] = 1
        self.searcher(warm[0]).root(warm[0], 1)

    def depth_for(self, board: np.ndarray) -> int:
        """The deepest search this board deserves (before the time budget): on 4x4 boards
        max(3, distinct tiles - 2) chance layers; otherwise by empty cells. At most strong_max_depth."""
        if board.shape == (4, 4):
            distinct = len(np.unique(board[board > 0]))
            return min(self.max_depth, max(3, distinct - 2))
        return array_depth(board, self.max_depth)

    def searcher(self, board: np.ndarray):
        """The search that fits this board: BitSearch for 4x4 boards that pack, else ArraySearch."""
        p4 = self.rules.spawn_four_probability
        if self.learned is not None:  # the network reads 64-bit boards (a second 32768 is held as one)
            if board.shape != (4, 4):
                raise ValueError(only_4x4(self.name, board.shape[0]))
            return BitSearch(p4, self.min_probability, self.cache, self.learned)
        if board64.fits(board):
            return BitSearch(p4, self.min_probability, self.cache)
        return ArraySearch(p4, self.min_probability)

    def explain(self, state) -> dict[int, float]:
        """{direction: expected heuristic value of the board after it}, from the deepest pass that finished
        in the time budget: depth 1, 2, ... up to depth_for(board). A pass is not started when its predicted
        cost (the last pass's time times the branching it measured between its two deepest layers) would not
        fit what is left, and a layer that would not end by the deadline stops the pass running it: the
        last finished pass answers. Depth 1 always runs."""
        clock = self.clock
        start = clock()
        deadline = start + self.budget - self.commit_seconds  # the cache's merge comes after the search
        board = state.board
        target = self.depth_for(board)
        search = self.searcher(board)
        search.clock, search.per_position = clock, self.per_position
        values, depth, dropped = {}, 0, False
        hits_before = self.cache.hits
        previous = 0  # positions the last pass searched (before the first: the root's moves)
        for d in range(1, target + 1):
            before = search.positions
            search.layers = {}
            t0 = clock()
            try:
                found = search.root(board, d)
            except OutOfTime:
                dropped = True
                break
            values, depth = found, d
            if not values:
                break
            took = clock() - t0
            searched = max(1, search.positions - before)
            if searched >= MEASURED_PASS:  # small passes are mostly fixed costs: not a per-position rate
                self.per_position += MEASURE_WEIGHT * (took / searched - self.per_position)
                search.per_position = self.per_position
            # one more layer multiplies the work by the branching this pass measured between its last two
            # layers (without two layers: by how much this pass outgrew the last, or the root's moves)
            growth = search.branching() or searched / (previous or len(values))
            previous = searched
            search.at = deadline  # from depth 2 on
            if clock() + took * growth > deadline:
                break
        t0 = clock()
        self.cache.commit()
        self.commit_seconds += MEASURE_WEIGHT * (clock() - t0 - self.commit_seconds)
        self._figures = {"depth": depth, "target depth": target, "positions": search.positions,
                         "cache hits": self.cache.hits - hits_before,
                         "path": "uint64" if isinstance(search, BitSearch) else "array"}
        if dropped:
            self._figures["pass stopped"] = f"depth {depth + 1} at the deadline"
        return values

    def figures(self) -> dict:
        """Of the last decision: chance layers searched (and wanted), positions evaluated, cache hits."""
        return dict(self._figures)

    def act(self, state, rng=None) -> int:
        return best_action(self.explain(state))

    @classmethod
    def cannot_play(cls, rules) -> str | None:
        if cls.evaluation == "ntuple" and rules.size != 4:
            return only_4x4(cls.name, rules.size)
        return None

    def value_legend(self, mover: str) -> str:
        if self.learned is not None:
            return ("The numbers: the points each move is expected to score from here on, searched several "
                    "tile placements deep, the leaves valued by the learnt n-tuple network.")
        return ("The numbers: the expected heuristic value (empty cells, monotone rows, merges) of the board "
                "after each move, searched several tile placements deep.")


@register("expectimax-ntuple", ("2048",),
          "strong expectimax with the learnt n-tuple network as its evaluation", order=12, process=True,
          about="The strong expectimax search, its leaves valued by the ntuple agent's learnt network (the "
                "points expected from a board on) instead of the hand-tuned heuristic, and the points merges "
                "gain along the way counted. Compare it with expectimax by Tab at the same time a move.",
          params=("strong_max_depth", "strong_min_probability", "time_budget_ms", "spawn_four_probability"))
class LearnedExpectimax(StrongExpectimax):
    """StrongExpectimax valued by the n-tuple network (as [2048] strong_evaluation = "ntuple")."""

    name = "expectimax-ntuple"
    evaluation = "ntuple"
