"""The strong 2048 expectimax ("extra credit"): deep search with a heuristic or a learnt evaluation.

The heuristic is the kind the strongest 2048 players use: per row and column, a bonus for empty cells and
for equal neighbours (merge potential), penalties for non-monotonic lines and for large tiles (weights
after nneonneo's well-known 2048 AI). The sum over all rows and columns scores a board; every line of 4
cells is scored once into a 65,536-entry table.

The search is compiled (agents/engines/twenty48/kernels.py): depth-first expectimax on uint64 4x4 boards with the row
tables, a transposition table per decision, and the probability cut-off (a placement path less likely
than its min_probability is evaluated, not expanded). The depth follows the strongest players:
max(3, distinct tiles - 2) chance layers, at most its max_depth, reached by iterative deepening
within the time budget a move: the next depth starts when its predicted cost (the last depth's positions
times the growth measured between the last two, at the positions a second measured as it plays) is at
most START_SHARE times what is left, and a started depth that would run past the deadline stops at a cap
on its positions, the last completed depth answering. That is the "budget" pace, the window's default; its
`pace` parameter also offers "c++" (one pass at the C++ reference program's own rule, max(3, distinct tiles
- 2), uncapped, no clock: the tree that program searches, so strength is compared like for like), "c++-1"
(that rule less one layer: the learnt evaluation costs about ten times the heuristic's a position, so at
one layer less its game costs about the heuristic's CPU) and "depth" (one pass at max_depth). Boards other than 4x4 are played by expectimax-3 or expectiminimax.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from agents.engines import compiled
from agents.base import (Deadline, Decision, best_action, budget_clock, declare_warm_up, no_clock, register, time_budget,
                         STRONGEST)
from agents.expectimax import placement_text
from agents.search_tree import edge, node
from agents.ntuple import best_network
from agents.engines.twenty48 import board64
from arcade.games.twenty48 import State2048
from arcade.foundation.setting_fields import one_of, own_time_budget, ranged

LOST_PENALTY = 200000.0
MONOTONICITY_POWER = 4.0
MONOTONICITY_WEIGHT = 47.0
SUM_POWER = 3.5
SUM_WEIGHT = 11.0
MERGES_WEIGHT = 700.0
EMPTY_WEIGHT = 270.0
PER_POSITION = 25e-9  # seconds a position is first assumed to cost; measured as the agent plays
MEASURE_WEIGHT = 0.3  # the weight of the newest measurement in the running estimate of that cost
MEASURED_PASS = 20_000  # positions a pass needs before its time per position is measured from it
FIRST_GROWTH = 6.0  # what one more depth multiplies the positions by, before two depths have been measured
SLACK = 1.0  # a started depth stops at the positions this share of the time left allows
# the next depth starts when its predicted cost is at most this share of the time left: the prediction (the
# growth between the last two depths) overestimates more often than not, so a depth predicted at up to twice
# the time left finishes in most cases (benchmarks/bench_budgets.py measures the choice: docs/benchmarks.md)
START_SHARE = 2.0


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
def game_over_value(size: int = 4) -> float:
    """The value of a board with no legal move: below the evaluation of every live board of this size.

    A line's score is at least LOST_PENALTY - MONOTONICITY_WEIGHT (s-1) E^4 - SUM_WEIGHT s E^3.5 for
    exponents up to E (the empty and merge terms only add), E = s*s + 1 the largest an s x s board can
    hold, and a board scores 2s lines. (A lost board worth 0, as in the C++ program, ranks it above the
    live boards whose evaluation has gone negative: late boards with large tiles.)"""
    e = float(size * size + 1)
    line_floor = (LOST_PENALTY - MONOTONICITY_WEIGHT * (size - 1) * e**MONOTONICITY_POWER
                  - SUM_WEIGHT * size * e**SUM_POWER)
    return 2 * size * line_floor - 1.0


@functools.lru_cache(maxsize=1)
def line_table() -> np.ndarray:
    """The heuristic of every 4-cell line by its code (cell k is hex digit k), float32."""
    codes = np.arange(1 << 16, dtype=np.int64)
    lines = ((codes[:, None] >> (4 * np.arange(4))) & 15).astype(np.uint8)
    return line_scores(lines).astype(np.float32)


@functools.lru_cache(maxsize=1)
def score_tables() -> np.ndarray:
    """What the compiled search scores lines by: 3 x 65,536 float32, each line's heuristic, and the heuristic
    of the line slid toward its start and toward its end (the lines a move slid, read by their old codes)."""
    rows = board64.row_tables()
    line = line_table()
    scores = np.stack([line, line[rows.left.astype(np.intp)], line[rows.right.astype(np.intp)]])
    scores.flags.writeable = False
    return scores


def heuristic_values(boards: np.ndarray) -> np.ndarray:
    """The heuristic of each uint64 board (float64), as the compiled search values its leaves."""
    from agents.engines.twenty48 import kernels as k

    scores = score_tables()
    return np.array([k.heuristic(np.uint64(x), scores) for x in np.asarray(boards, dtype=np.uint64).ravel()])


class Search:
    """The compiled expectimax of one agent: its evaluation (the heuristic, or an n-tuple network: then the
    points a move gains count and a lost board is worth 0) and its transposition table.

    root(board, depth, cap) -> {direction: value} of the legal moves of a 4x4 exponent board, searched
    `depth` chance layers, or None when it stopped at `cap` positions; `positions` and `hits` are the last
    search's (positions counted as the C++ program counts them: every move tried at a player node)."""

    def __init__(self, p_four: float, min_probability: float, network=None, data_dir=None):
        from agents.engines.twenty48 import kernels as k

        self.kernels = k
        self.scores = score_tables()
        self.moves, self.gains = board64.move_tables()
        if network is None:
            lost, stage, late = game_over_value(4), 0, 0
            self.weights = self.runs = self.scratch = None  # (the heuristic's search is compiled apart)
        else:
            lost = 0.0
            weights, self.runs, stage, late = network.kernel_spec()
            self.weights = weights.view()  # (read-only here, a network in training too: one compiled search,
            self.weights.flags.writeable = False  # not one for read-only and one for writable weights)
            self.scratch = (np.empty((4, self.runs.shape[0] * 8), np.int64), np.empty(4, np.uint64),
                            np.empty(4, np.int64))
        self.conf = np.zeros(5)
        self.conf[[k.P_FOUR, k.MIN_PROB, k.LOST, k.STAGE_SIZE, k.LATE_EXPONENT]] = (
            p_four, min_probability, lost, stage, late)
        self.table = np.zeros(4 << k.TT_BITS, dtype=np.uint64)  # (pages are given as they are first written)
        self.stats = np.zeros(5, dtype=np.int64)
        self.out = np.empty(4)
        self.positions = self.hits = 0

    def root(self, board, depth: int, cap: int | None = None) -> dict[int, float] | None:
        k, stats = self.kernels, self.stats
        x = np.uint64(board) if np.ndim(board) == 0 else board64.pack(np.asarray(board))
        generation = stats[k.GENERATION] + 1  # a new decision: every entry of the table is stale
        stats[:] = 0
        stats[k.GENERATION], stats[k.CAP] = generation, cap if cap is not None else np.iinfo(np.int64).max
        k.search(x, int(depth), self.conf, self.scores, self.moves, self.gains, self.weights, self.runs,
                 self.table, stats, self.out, *(self.scratch or (None, None, None)))
        self.positions, self.hits = int(stats[k.POSITIONS]), int(stats[k.HITS])
        if stats[k.STOPPED]:
            return None
        return {d: float(v) for d, v in enumerate(self.out) if v != -np.inf}


PACES = ("budget", "c++", "c++-1", "depth")


@dataclass(frozen=True)
class StrongParams:
    """settings.toml's [2048.expectimax-ntuple]; [2048.expectimax] adds its evaluation."""

    max_depth: int = ranged(1, 12, 8)  # deepest search, in chance layers
    min_probability: float = ranged(0.0, 1.0, 0.0001)  # chance branches less likely than this are not expanded
    time_budget_ms: int = own_time_budget(100)  # it deepens until the next depth would not fit in this
    # budget: deepen within time_budget_ms (the window's default, a person watches it play); c++: one pass at
    # the C++ reference program's depth rule, max(3, distinct tiles - 2), uncapped and with no clock (the tree
    # that program searches); c++-1: that rule less one chance layer (for an evaluation that costs ten times
    # the heuristic's a position, so a game costs about the heuristic's CPU); depth: one pass at max_depth
    pace: str = one_of(PACES, "budget")


# where the previous round's [2048] table kept them


@dataclass(frozen=True)
class ExpectimaxParams(StrongParams):
    evaluation: str = one_of(("heuristic", "ntuple"), "heuristic")  # what values its leaves


@register("expectimax", ("2048",),
          "strong expectimax: heuristic evaluation, depth by distinct tiles and time, compiled", order=10,
          process=True,
          about="Expectimax searched deep and valued by a heuristic of the best known 2048 players: empty "
                "cells, monotone rows and columns, merges ready. It looks further ahead while the board holds "
                "many different tiles, skips placements too unlikely to matter, and deepens until its time "
                "per move is spent (compiled, on 4x4 boards as 64-bit numbers).",
          params=ExpectimaxParams, group=STRONGEST,
          title="Expectimax search (strong)")
class StrongExpectimax:
    """Expectimax on a heuristic evaluation; act / explain as Expectimax3. See the module docstring."""

    name = "expectimax"
    evaluation: str | None = None  # "heuristic" or "ntuple"; None: its parameter `evaluation` decides

    def __init__(self, rules, settings):
        self.rules = rules
        p = settings.agent_params(rules.game_id, self.name)
        self.evaluation = type(self).evaluation or p.evaluation
        self.data_dir = settings.data_dir
        self.tuple_set = settings.agent_params(rules.game_id, "ntuple").tuples  # the network the learner trains
        self.max_depth = p.max_depth
        self.min_probability = p.min_probability
        self.budget = time_budget(settings, p)
        self.pace = p.pace
        self.clock = budget_clock(settings)
        self._figures: dict = {}
        self.per_position = PER_POSITION  # seconds a position costs this search here: measured as it plays
        self.search = self._make_search()

    def _make_search(self) -> Search:
        """The compiled search with this agent's evaluation, compiled (or loaded from numba's cache) now, with
        progress shown, rather than inside the first move's budget."""
        network = None
        if self.evaluation == "ntuple":
            network = best_network(self.rules.spawn_four_probability, self.data_dir, self.tuple_set)[0]
        search = Search(self.rules.spawn_four_probability, self.min_probability, network, self.data_dir)
        warm = np.zeros((4, 4), np.uint8)
        warm[0, :2] = 1
        compiled.warm([lambda: search.root(warm, 2)])
        return search

    def __getstate__(self):
        """Pickled without the search (its 64 MB table and the compiled module): a copy makes its own."""
        state = dict(self.__dict__)
        del state["search"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.search = self._make_search()

    @classmethod
    def cannot_play(cls, rules) -> str | None:
        return None if rules.size == 4 else cls.only_4x4(rules.size)

    @classmethod
    def only_4x4(cls, size: int) -> str:
        return (f"{cls.name} plays 4x4 boards only (its compiled search packs a board in 64 bits); this board is "
                f"{size}x{size}: expectimax-3 or expectiminimax play it")

    def depth_for(self, board: np.ndarray) -> int:
        """The deepest search this board deserves (before the time budget): at the budget's pace max(3,
        distinct tiles - 2) chance layers, at most max_depth; at the C++ program's pace the same rule uncapped
        (as that program has it), at "c++-1" one layer less; at a fixed depth max_depth."""
        if self.pace == "depth":
            return self.max_depth
        rule = max(3, len(np.unique(board[board > 0])) - 2)
        return {"c++": rule, "c++-1": rule - 1}.get(self.pace, min(self.max_depth, rule))

    def pace_words(self) -> str:
        """How this agent paces its search, as the panel says it."""
        return {"budget": f"{self.budget * 1000:.0f} ms a move, deepening",
                "c++": "the C++ program's depth rule, one pass, no clock",
                "c++-1": "the C++ program's depth rule less one, one pass, no clock",
                "depth": f"depth {self.max_depth}, one pass, no clock"}[self.pace]

    def explain(self, state) -> dict[int, float]:
        """{direction: value of the move}, from the deepest pass that finished in the time budget: depth 1,
        2, ... up to depth_for(board). A pass starts only when its predicted cost is at most START_SHARE times
        what is left; a started pass stops at the positions the rest of the budget allows, and the last
        finished pass answers. Depth 1 always runs."""
        board = state.board
        if board.shape != (4, 4):
            raise ValueError(self.only_4x4(board.shape[0]))
        if self.pace != "budget" or self.clock is no_clock:  # no clock: the one pass at its depth rule
            return self._one_pass(board)
        clock = self.clock
        deadline = Deadline(clock, self.budget)
        target = self.depth_for(board)
        values, depth, stopped = {}, 0, False
        searched: list[int] = []  # positions of each finished pass
        total = hits = 0
        for d in range(1, target + 1):
            cap = None
            if d > 1:
                growth = searched[-1] / searched[-2] if len(searched) > 1 and searched[-2] > 100 else FIRST_GROWTH
                left = deadline.left()
                if searched[-1] * growth * self.per_position > START_SHARE * left:
                    break
                cap = int(SLACK * left / self.per_position)
            t0 = clock()
            found = self.search.root(board, d, cap)
            took = clock() - t0
            total, hits = total + self.search.positions, hits + self.search.hits
            if found is None:
                stopped = True
                break
            values, depth = found, d
            if not values:
                break
            if self.search.positions >= MEASURED_PASS:  # small passes are mostly fixed costs
                self.per_position += MEASURE_WEIGHT * (took / self.search.positions - self.per_position)
            searched.append(max(1, self.search.positions))
        self._figures = {"depth": depth, "target depth": target, "positions": total, "cache hits": hits}
        if stopped:
            self._figures["pass stopped"] = f"depth {depth + 1} at the deadline"
        return values

    def _one_pass(self, board: np.ndarray) -> dict[int, float]:
        """The values of one whole pass at depth_for(board), however long it takes (the paces with no clock)."""
        depth = self.depth_for(board)
        values = self.search.root(board, depth)
        self._figures = {"pace": self.pace_words(), "depth": depth, "positions": self.search.positions,
                         "cache hits": self.search.hits}  # (the budget's pace, the default, is not said)
        return values

    TREE_PLACEMENTS = 3  # placements shown under each move (the likeliest), the principal line's always

    def tree(self, state, rng=None) -> dict:
        """The tree of a decision (agents/search_tree.py): the root's moves with explain's values (the same
        search), under each the likeliest TREE_PLACEMENTS placements of the computer's tile ("more": how many
        others), under each placement its replies valued by the compiled search run again from that board one
        layer shallower; the principal line (best move, likeliest tile, best reply, ...) is followed to the
        depth searched. Figures: depth, positions, cache hits of the decision; the placements cut by the
        probability cut-off are not searched below (min_probability)."""
        return self._tree_of(state, self.explain(state))

    def _tree_of(self, state, values: dict) -> dict:
        board = np.asarray(state.board)
        figures = self.figures()
        depth = int(figures.get("depth", 1))
        if not values:
            return node("leaf", game_over_value(4) if self.evaluation != "ntuple" else 0.0, **figures)
        best = best_action(values)
        moves = [edge(self._chance_tree(board, d, v, depth, on_line=d == best), action=d) for d, v in values.items()]
        return node("max", max(values.values()), moves, **{k: v for k, v in figures.items() if k != "pace"})

    def _chance_tree(self, board: np.ndarray, move: int, value: float, depth: int, on_line: bool) -> dict:
        """The chance node after `move` on `board`, worth `value` (its search's), with its likeliest
        placements below (depth: the chance layers its search looked at from here)."""
        after = board64.unpack(board64.move_all(board64.pack(board[None]))[move])[0]
        kids, _, probs = board64.spawn_children(board64.pack(after[None]), self.rules.spawn_four_probability)
        order = sorted(range(len(kids)), key=lambda k: -probs[k])  # (stable: reading order among equals)
        shown = order[:self.TREE_PLACEMENTS] if depth > 1 else []
        outcomes = []
        for rank, k in enumerate(shown):
            kid = board64.unpack(kids[k:k + 1])[0]
            outcomes.append(edge(self._reply_tree(kid, depth - 1, on_line and rank == 0),
                                 outcome=placement_text(after, kid), p=float(probs[k]), state=State2048(kid, 0)))
        more = len(kids) - len(shown)
        return node("chance", value, outcomes, **({"more": more} if more else {}))

    def _reply_tree(self, board: np.ndarray, depth: int, on_line: bool) -> dict:
        """The player's node on `board` with `depth` chance layers left: each reply worth what the compiled
        search finds from this board (searched again here, so its cut-offs and table start afresh)."""
        values = self.search.root(board, depth)
        if not values:
            return node("leaf", game_over_value(4) if self.evaluation != "ntuple" else 0.0, lost=True)
        best = best_action(values)
        replies = [edge(self._chance_tree(board, d, v, depth if on_line and d == best else 1, on_line and d == best),
                        action=d) for d, v in values.items()]  # (off the line: the chance node, its placements counted)
        return node("max", max(values.values()), replies, searched="again from here")

    def figures(self) -> dict:
        """Of the last decision: chance layers searched (and wanted), positions, cache hits (the panel adds
        its time)."""
        return dict(self._figures)

    def act(self, state, rng=None) -> int:
        return best_action(self.explain(state))

    def decide(self, state, rng, tree: bool = False) -> Decision:
        """One timed search: its values, the best of them played, and (asked for) its tree around them."""
        values = self.explain(state)
        return Decision(best_action(values), values, self._tree_of(state, values) if tree else None)

    def value_legend(self, mover: str) -> str:
        if self.evaluation == "ntuple":
            return ("The numbers: the points each move is expected to score from here on, searched several "
                    "tile placements deep, the leaves valued by the learnt n-tuple network.")
        return ("The numbers: the expected heuristic value (empty cells, monotone rows, merges) of the board "
                "after each move, searched several tile placements deep.")


@register("expectimax-ntuple", ("2048",),
          "strong expectimax with the learnt n-tuple network as its evaluation", order=12, process=True,
          about="The strong expectimax search, its leaves valued by the ntuple agent's learnt network (the "
                "points expected from a board on) instead of the hand-tuned heuristic, and the points merges "
                "gain along the way counted. Compare it with expectimax by Tab at the same time a move.",
          params=StrongParams, group=STRONGEST, title="Expectimax + learnt network")
class LearnedExpectimax(StrongExpectimax):
    """StrongExpectimax valued by the n-tuple network (as [2048.expectimax] evaluation = "ntuple")."""

    name = "expectimax-ntuple"
    evaluation = "ntuple"


def _warm_up(first_move: bool) -> list:
    """The search's kernels, with the heuristic and with a network (its weights always read-only to the search)
    first, what a first move needs; then a network being learnt's values and the heuristic alone."""
    from agents.engines.twenty48 import kernels
    from agents.ntuple_net import NTupleNetwork

    board = np.zeros((4, 4), np.uint8)
    board[0, :2] = 1
    read_only = NTupleNetwork("3x4")
    read_only.weights.flags.writeable = False
    steps = [lambda: Search(0.1, 1e-4).root(board, 2), lambda: Search(0.1, 1e-4, read_only).root(board, 2),
             lambda: read_only.value(np.zeros(1, np.uint64))]
    if not first_move:
        net = NTupleNetwork("3x4")
        steps += [lambda: net.value(np.zeros(1, np.uint64)),
                  lambda: net.features(np.zeros(1, np.uint64)),
                  lambda: kernels.heuristic(np.uint64(0), np.zeros((3, 1 << 16), np.float32))]
    return steps


declare_warm_up("2048", _warm_up, order=10)
