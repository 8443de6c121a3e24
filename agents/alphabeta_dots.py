"""alpha-beta: iterative deepening negamax on the box margin, for dots boards of every size, compiled.

The value of a position is the margin of boxes the player to move can force over the boxes still open
(the solver's measure), so drawing line a that completes g boxes is worth g + V(after) (the same player
moves again) or -V(after). On top of plain alpha-beta:
- a transposition table keyed by the line bits, storing a bound (exact, lower, upper), the depth it holds
  for and the best line, which is searched first next time; it is kept from move to move;
- move ordering: the table's line, captures, lines that give nothing away (centre first), then the rest by
  how few boxes they hand over;
- chain analysis (as agents/engines/dots/board.py): boxes that are safe to take are taken without branching, and at
  the end of a run only "take it" and "double-deal" are searched; once every open box has two sides drawn
  and all chains are 3+ and loops 4+, Berlekamp's recursion gives the exact value without search;
- exact play when few lines are left: a depth that covers every free line is a full solve.
The recursion is compiled (agents/engines/dots/search_kernels.py, numba, on line bit sets); this module drives it: the root
(lines its own symmetries map onto each other share one search), iterative deepening, and the clock. A move
stops deepening when the next depth is not expected to fit in its time a move, or, when its position_budget
is set ([dots.alpha-beta]), in that many positions: then its moves do not depend on the machine or its load
(what an environment's opponent needs: the same seed, the same game). A depth is searched in slices of at
most SLICE seconds of positions, the clock read between them (the compiled code cannot read it), and a
slice cut short costs little: what it finished is in the table.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from agents.engines import compiled
from agents.base import (Deadline, Decision, OutOfTime, budget_clock, declare_warm_up, register, time_budget,
                         STRONGEST)
from agents.engines.dots.board import board_arrays, geometry
from arcade.games.dots import line_symmetries, map_lines
from arcade.foundation.setting_fields import own_time_budget, ranged

TABLE_BITS = 21  # transposition-table entries: 2^21 (about 38 MB; pages are given as they are first written)
MEMO_BITS = 16  # loony values remembered by component multiset
SLICE = 0.05  # seconds of positions a slice of a depth may take before the clock is read again
PER_POSITION = 1e-6  # seconds a position is first assumed to cost; measured as the agent plays
MEASURED_SLICE = 5_000  # positions a slice needs before its time per position is measured from it
PARITY_WEIGHT = 2  # a horizon's value: + for the side that should draw the last safe line, - for the other


def kernels():
    """agents/engines/dots/search_kernels.py (imported at first use: numba loads with it)."""
    from agents.engines.dots import search_kernels

    return search_kernels


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False  # (one compiled signature: the network's arrays are read-only too)
    return a


class Search:
    """One board's compiled search and its transposition table, which survives from move to move.

    root_values(lines, depth, every) -> ({free line: value}, best line), or OutOfTime when the cap on
    positions (set by the caller in `cap`) stopped it; `nodes` counts positions over the search's life."""

    def __init__(self, rows: int, cols: int, network=None):
        """network: the kernels' arguments of an n-tuple network (agents/dots_ntuple.Network.args()) that
        values the positions where the search stops; None: the parity of the safe lines left."""
        geo = self.geo = geometry(rows, cols)
        self.arrays = (*board_arrays(rows, cols), _read_only(np.array(geo.centre_first, np.int64)))
        size = 1 << TABLE_BITS
        self.table = (np.zeros(size, np.int64), np.zeros(size, np.int8), np.zeros(size, np.int8),
                      np.zeros(size, np.float64), np.zeros(size, np.int8))
        n, b = geo.n_lines, geo.n_boxes
        self.scratch = (np.zeros((n + 1, n), np.int64), np.zeros(b + 1, np.int64), np.zeros(b, np.int64),
                        np.zeros(b + 1, np.int64), np.zeros(b + 1, np.int64), np.zeros(n, np.int64),
                        np.full(1 << MEMO_BITS, -1, np.int64), np.zeros(1 << MEMO_BITS, np.int64))
        self.sides = np.zeros(b, np.int64)
        self.moves = np.zeros(n, np.int64)
        self.stats = np.zeros(5, np.int64)
        self.network = network
        self.symmetries = line_symmetries(rows, cols)
        self.nodes = 0
        self.cap = math.inf  # positions the next root_values may visit

    @property
    def filled(self) -> int:
        """Entries of the transposition table in use."""
        return int(self.stats[kernels().FILLED])

    def _moves(self, lines: int, every: bool) -> list[int]:
        k = kernels()
        keys, bests = self.table[0], self.table[4]
        slot = int(k._slot(np.int64(lines), keys.size))
        first = int(bests[slot]) if keys[slot] == lines + 1 else -1
        n = k.root_moves(np.int64(lines), first, every, self.arrays, self.scratch, self.sides, self.moves)
        return [int(m) for m in self.moves[:n]]

    def exact_value(self, lines: int, cap: int) -> float | None:
        """The exact value of `lines` for the player to move (searched to the last line), or None when that
        takes more than `cap` positions (what it finished stays in the table)."""
        k, stats = kernels(), self.stats
        stats[k.NODES], stats[k.STOPPED], stats[k.CAP] = 0, 0, cap
        v = k.position_value(np.int64(lines), self.geo.n_lines, self.arrays, self.table, stats, self.scratch,
                             self.sides, self.network)
        self.nodes += int(stats[k.NODES])
        return None if stats[k.STOPPED] else float(v)

    def line_value(self, lines: int, line: int, depth: int, lo: float) -> float:
        """What drawing `line` is worth to its player, searched `depth` more lines; exact above lo."""
        k, stats = kernels(), self.stats
        stats[k.NODES], stats[k.STOPPED] = 0, 0
        stats[k.CAP] = min(self.cap, np.iinfo(np.int64).max)
        v = k.line_value(np.int64(lines), line, depth, float(lo), self.arrays, self.table, stats, self.scratch,
                         self.sides, self.network)
        self.nodes += int(stats[k.NODES])
        self.cap -= int(stats[k.NODES])
        if stats[k.STOPPED]:
            raise OutOfTime
        return float(v)

    def root_values(self, lines: int, depth: int, every: bool) -> tuple[dict[int, float], int]:
        """({line: value after drawing it}, the best line) at `depth`. every=False: alpha-beta across
        the root (only the best line's value is exact, the others are upper bounds; where a box can be taken
        only the capture choices); every=True: each free line's value exact."""
        moves = self._moves(lines, every)
        # lines the position's own symmetries map onto each other have one value: search the first of each
        own = [perm for perm in self.symmetries if map_lines(lines, perm) == lines]
        same_as: dict[int, int] = {}
        for line in moves:
            if line not in same_as:
                for perm in own:
                    same_as.setdefault(perm[line], line)
        out, alpha, best = {}, -math.inf, moves[0]
        for line in moves:
            if same_as.get(line, line) != line:
                out[line] = out[same_as[line]]
                continue
            v = self.line_value(lines, line, depth - 1, -kernels().INF if every or alpha == -math.inf else alpha)
            out[line] = v
            if v > alpha:
                alpha, best = v, line
        return out, best


COUNTED_POSITIONS = 20_000  # positions a move where there is no clock and no position_budget


@dataclass(frozen=True)
class AlphaBetaParams:
    time_budget_ms: int = own_time_budget()
    position_budget: int = ranged(0, 100_000_000, 0)  # positions a move instead of time (0: the time decides)


@register("alpha-beta", ("dots",),
          "iterative deepening alpha-beta on the box margin: transposition table, chain analysis, timed, compiled",
          order=20, process=True,
          about="It looks ahead move by move, both sides playing their best, and scores the box margin. "
                "Safe boxes are taken at once; at the end of a chain it weighs taking all against handing the "
                "last two back to keep control; when only long chains and loops are left it counts them. It "
                "remembers positions and deepens until its time is up.",
          params=AlphaBetaParams, group=STRONGEST,
          title="Alpha-beta search (strong)")
class AlphaBetaDots:
    """Timed iterative deepening alpha-beta; explain gives every free line's margin at the depth reached."""

    name = "alpha-beta"

    @classmethod
    def unused_params(cls, rules, values) -> dict[str, str]:
        """The time a move where a position budget counts its work instead."""
        return {"time_budget_ms": "position_budget is set: positions decide, not time"} if values.position_budget else {}

    def __init__(self, rules, settings):
        self.rules = rules
        p = settings.agent_params(rules.game_id, self.name)  # (a subclass registered apart reads its own table)
        self.budget = time_budget(settings, p)
        # 0: the time budget decides; with no clock (budget_clock "none") COUNTED_POSITIONS do
        self.positions = p.position_budget or (COUNTED_POSITIONS if settings.agents.budget_clock == "none" else 0)
        self.clock = budget_clock(settings)
        self.per_position = PER_POSITION  # seconds a position costs here: measured as it plays
        self._searches: dict[tuple[int, int], Search] = {}
        self._figures: dict = {}
        compiled.warm([lambda: self._search(rules.new_state()).root_values(0, 1, True)])  # not in a timed move

    def __getstate__(self):
        """Pickled without its searches (their tables are tens of MB): a copy makes its own."""
        state = dict(self.__dict__)
        state["_searches"] = {}
        return state

    def _search(self, state) -> Search:
        key = (state.rows, state.cols)
        if key not in self._searches:
            self._searches[key] = Search(*key, network=self.network(*key))
        return self._searches[key]

    def network(self, rows: int, cols: int):
        """The kernels' arguments of a network that values the positions where the search stops, for a board
        (None: the parity of the safe lines left)."""
        return None

    def _pass(self, search: Search, lines: int, depth: int, every: bool, deadline: Deadline, left_positions):
        """One depth searched to the end in slices, the clock read between them: (values, best), or None when
        the time or the positions (left_positions() when counted, else None) ran out first."""
        clock = self.clock
        while True:
            counted = left_positions is not None
            search.cap = left_positions() if counted else max(1_000, int(min(SLICE, deadline.left()) / self.per_position))
            t0, n0 = clock(), search.nodes
            try:
                return search.root_values(lines, depth, every)
            except OutOfTime:
                if counted or deadline.passed():
                    return None
            finally:
                n = search.nodes - n0
                if n >= MEASURED_SLICE:
                    self.per_position += 0.3 * ((clock() - t0) / n - self.per_position)

    def _deepen(self, state, every: bool) -> dict[int, float]:
        search = self._search(state)
        clock = self.clock
        counted = self.positions > 0
        # a deeper pass still running at the deadline (or past the positions) is dropped
        deadline = Deadline(clock, math.inf if counted else self.budget)
        start = search.nodes
        left = (lambda: self.positions - (search.nodes - start)) if counted else None
        n_free = search.geo.n_lines - state.lines.bit_count()
        values, best, depth, last = {}, -1, 0, 0.0
        for d in range(1, n_free + 1):
            t0, n0 = clock(), search.nodes
            found = self._pass(search, state.lines, d, every, deadline, left)
            if found is None:
                break
            (values, best), depth = found, d
            took = search.nodes - n0 if counted else clock() - t0  # this depth's cost, in positions or seconds
            growth = took / last if last > (20 if counted else 0.002) else 3.0
            last = took
            spent = search.nodes - start if counted else deadline.elapsed()
            if spent + took * max(growth, 1.5) > (self.positions if counted else self.budget):
                break
        self._figures = {"depth": depth, "exact": "yes" if depth >= n_free else "no", "positions": search.nodes - start,
                         "table": search.filled}
        if not values:  # not even depth 1 finished: any line, valued as unknown
            values = {line: 0 for line in range(search.geo.n_lines) if not (state.lines >> line) & 1}
            best = min(values)
        self._best = best
        return {a: float(v) for a, v in values.items()}

    def explain(self, state) -> dict[int, float]:
        """{free line: the box margin the mover can force over the open boxes after drawing it}, from
        the deepest search that finished in the time budget (exact once it reaches the last line)."""
        return self._deepen(state, every=True)

    def act(self, state, rng=None) -> int:
        self._deepen(state, every=False)  # only the best line's value is exact: take that line
        return self._best

    def decide(self, state, rng, tree: bool = False) -> Decision:
        """One search of every line (explain's): the line it plays is the best of those values, and the tree is
        that search's. (Asked for values, it searches every line with a full window: at the same budget it may
        reach a shallower depth than act, which needs only the best line exact.)"""
        values = self._deepen(state, every=True)
        return Decision(self._best, values, self._tree_of(state, values) if tree else None)

    def tree(self, state, rng=None) -> dict:
        """The tree of a decision (agents/search_tree.py): the root's lines with explain's values (the box margin
        the mover can force after each, at the depth reached); the principal variation followed to that depth,
        each position on it searched again from there to the depth left (its table kept, so its values may be
        deeper than its parent's estimate: "searched" says so), the other lines' positions counted, not shown.
        Values are the root mover's margin: boxes taken on the way plus the margin forced from there."""
        return self._tree_of(state, self.explain(state))

    def _tree_of(self, state, values: dict) -> dict:
        figures = self.figures()
        root = _line_tree(self._search(state), self.rules, state, values, state.mover, 0, int(figures["depth"]))
        root.update(figures)
        return root

    def figures(self) -> dict:
        """Of the last decision: depth reached, whether that was a full solve, positions, table entries in use."""
        return dict(self._figures)

    def value_legend(self, mover: str) -> str:
        return (f"The numbers: the box margin {mover} can force after that line, as far as alpha-beta looks "
                f"ahead (beyond: +-{PARITY_WEIGHT} for who draws the last safe line).")


def _line_tree(search: Search, rules, state, values: dict, root_mover: int, taken: int, depth: int) -> dict:
    """The node of `state` whose lines are worth `values` to its mover; the root's mover has taken `taken` boxes
    more than the other so far; `depth`: the lines the search looked ahead from here."""
    from agents.search_tree import edge, node
    from arcade.games.dots import line_gains

    sign = 1 if state.mover == root_mover else -1
    if not values:
        return node("leaf", taken)
    gains, best = line_gains(state), max(values, key=values.get)
    edges = []
    for line, v in values.items():
        value = taken + sign * v
        after = rules.step(state, line, None)
        left = after.board.n_lines - after.lines.bit_count()
        if line == best and depth > 1 and left:
            below = search.root_values(after.lines, depth - 1, True)[0]
            child = _line_tree(search, rules, after, below, root_mover, taken + sign * gains[line], depth - 1)
            child["searched"] = "again from here"
        else:
            child = node("max" if after.mover == root_mover else "min", value, more=left) if left else node("leaf", value)
        child["value"] = float(value)
        edges.append(edge(child, action=line))
    return node("max" if sign > 0 else "min", taken + sign * values[best], edges)


def _warm_up(first_move: bool) -> list:
    """The search's kernels, alone and with a network valuing its horizon."""
    from agents.dots_ntuple import Network

    return [lambda: Search(2, 2).root_values(0, 2, True),
            lambda: Search(2, 2, Network(2, 2).args()).root_values(0, 2, True)]


declare_warm_up("dots", _warm_up, order=20)
