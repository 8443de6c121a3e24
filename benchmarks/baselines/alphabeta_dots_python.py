"""The dots alpha-beta as it was before its search was compiled (issue 41): the same search (transposition
table, chain analysis, iterative deepening, exact endgames) in plain Python on agents/engines/dots/board.Position.
Kept, unregistered, as the baseline benchmarks/bench_dots_alphabeta.py measures the compiled one against
(positions a second, and a match), and as the plain implementation the tests check the compiled one against.
Not offered in the arcade.
"""
from __future__ import annotations

import math
import time

from agents.base import Deadline, OutOfTime, budget_clock, time_budget
from agents.engines.dots.board import Position, geometry, loony_value, simple_loony
from arcade.games.dots import line_symmetries, map_lines

EXACT, LOWER, UPPER = 0, 1, 2
INF = 10**6
CHECK_EVERY = 512  # nodes between clock checks
TABLE_LIMIT = 400_000  # positions kept between moves (about 60 MB); past it the table starts afresh
PARITY_WEIGHT = 2  # a horizon's value: + for the side that should draw the last safe line, - for the other



def table_cut(entry: tuple, depth: int, alpha: int, beta: int) -> int | None:
    """The value a transposition-table entry (depth, flag, value, best line) settles for a search of `depth`
    in (alpha, beta): searched deep enough, and exact or a bound outside the window; else None."""
    e_depth, flag, e_value, _ = entry
    if e_depth < depth:
        return None
    if flag == EXACT or (flag == LOWER and e_value >= beta) or (flag == UPPER and e_value <= alpha):
        return e_value
    return None


class Search:
    """One board's search state: the transposition table survives from move to move."""

    def __init__(self, rows: int, cols: int, horizon=None):
        """horizon(lines) -> the value of a position where the search stops (the player to move's expected
        margin over the open boxes); None: the parity of the safe lines left (PARITY_WEIGHT)."""
        self.horizon = horizon
        self.geo = geometry(rows, cols)
        self.symmetries = line_symmetries(rows, cols)
        self.table: dict[int, tuple[int, int, int, int]] = {}  # lines -> (depth, flag, value, best line)
        self.nodes = 0
        self.deadline = Deadline(time.perf_counter, math.inf)
        self.node_limit = float("inf")  # positions a move may visit (a budget in positions, not time)

    def _ordered(self, pos: Position, free: list[int], first: int) -> list[int]:
        geo, sides = pos.geo, pos.sides
        captures, safe, risky = [], [], []
        for line in free:
            boxes = geo.line_boxes[line]
            most = max(sides[b] for b in boxes)
            if most == 3:
                captures.append(line)
            elif most < 2:
                safe.append(line)
            else:
                risky.append((sum(1 for b in boxes if sides[b] == 2), line))
        safe.sort(key=geo.centre_rank.__getitem__)
        risky.sort()
        moves = captures + safe + [line for _, line in risky]
        if first >= 0 and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def value(self, pos: Position, depth: int, alpha: int, beta: int) -> int:
        """Negamax value (margin for the player to move over the open boxes), searched `depth` more
        non-forced lines; outside (alpha, beta) only a bound."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and (self.nodes > self.node_limit or self.deadline.passed()):
            raise OutOfTime
        lines = pos.lines
        free = pos.free_lines()
        if not free:
            return 0
        depth = min(depth, len(free))  # a depth past the last line is a full solve: one table entry
        entry = self.table.get(lines)
        first = -1
        if entry is not None:
            known = table_cut(entry, depth, alpha, beta)
            if known is not None:
                return known
            first = entry[3]
        forced = pos.capture_choices()
        if forced is None:
            components = pos.loony_components()
            if components is not None and simple_loony(*components):
                v = loony_value(*components)
                self.table[lines] = (len(free), EXACT, v, -1)
                return v
            if depth <= 0:  # the horizon: who is likely to run out of safe lines first (the long-chain fight)
                if self.horizon is not None:
                    return self.horizon(lines)
                return PARITY_WEIGHT if pos.safe_run() % 2 else -PARITY_WEIGHT
            moves = self._ordered(pos, free, first)
            child_depth = depth - 1
        else:
            moves = forced if first not in forced else [first] + [m for m in forced if m != first]
            child_depth = depth  # taking boxes is not a choice worth a ply
        best, best_line, a0 = -INF, moves[0], alpha
        for line in moves:
            g = pos.draw(line)
            try:
                if g:
                    v = g + self.value(pos, child_depth, alpha - g, beta - g)
                else:
                    v = -self.value(pos, child_depth, -beta, -alpha)
            finally:
                pos.undo(line)
            if v > best:
                best, best_line = v, line
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = UPPER if best <= a0 else (LOWER if best >= beta else EXACT)
        self.table[lines] = (depth, flag, best, best_line)
        return best

    def root_values(self, lines: int, depth: int, every: bool) -> tuple[dict[int, int], int]:
        """({line: value after drawing it}, the best line) at `depth`. every=False: alpha-beta across
        the root (only the best line's value is exact, the others are upper bounds); every=True:
        each value exact."""
        pos = Position(self.geo, lines)
        free = pos.free_lines()
        forced = pos.capture_choices()
        entry = self.table.get(lines)
        moves = self._ordered(pos, free, entry[3] if entry else -1)
        if forced is not None and not every:
            moves = forced
        # lines the position's own symmetries map onto each other have one value: search the first of each
        own = [perm for perm in self.symmetries if map_lines(lines, perm) == lines]
        same_as: dict[int, int] = {}
        for line in moves:
            if line not in same_as:
                for perm in own:
                    same_as.setdefault(perm[line], line)
        out, alpha, best = {}, -INF, moves[0]
        for line in moves:
            if same_as.get(line, line) != line:
                out[line] = out[same_as[line]]
                continue
            g = pos.draw(line)
            try:
                lo = -INF if every else alpha
                if g:
                    v = g + self.value(pos, depth - 1, lo - g, INF)
                else:
                    v = -self.value(pos, depth - 1, -INF, -lo)
            finally:
                pos.undo(line)
            out[line] = v
            if v > alpha:
                alpha, best = v, line
        return out, best


class PythonAlphaBeta:
    """Timed iterative deepening alpha-beta; explain gives every free line's margin at the depth reached."""

    name = "alpha-beta"  # (its settings: [dots.alpha-beta], as the compiled one's)

    def __init__(self, rules, settings):
        self.rules = rules
        p = settings.agent_params(rules.game_id, self.name)  # (a subclass registered apart reads its own table)
        self.budget = time_budget(settings, p)
        self.positions = p.position_budget  # 0: the time budget decides
        self.clock = budget_clock(settings)
        self._searches: dict[tuple[int, int], Search] = {}
        self._figures: dict = {}

    def _search(self, state) -> Search:
        key = (state.rows, state.cols)
        if key not in self._searches:
            self._searches[key] = Search(*key, horizon=self.horizon(*key))
        return self._searches[key]

    def horizon(self, rows: int, cols: int):
        """The value of a position where the search stops, for a board (None: the parity of safe lines)."""
        return None

    def _deepen(self, state, every: bool) -> dict[int, float]:
        search = self._search(state)
        clock = self.clock
        counted = self.positions > 0
        # a deeper pass still running at the deadline (or past the positions) is dropped
        deadline = search.deadline = Deadline(clock, math.inf if counted else self.budget)
        search.node_limit = self.positions if counted else float("inf")
        search.nodes = 0
        n_free = search.geo.n_lines - state.lines.bit_count()
        values, best, depth, last = {}, -1, 0, 0.0
        if len(search.table) > TABLE_LIMIT:
            search.table.clear()
        for d in range(1, n_free + 1):
            t0, n0 = clock(), search.nodes
            try:
                values, best = search.root_values(state.lines, d, every)
            except OutOfTime:
                break
            depth = d
            took = search.nodes - n0 if counted else clock() - t0  # this depth's cost, in positions or seconds
            growth = took / last if last > (20 if counted else 0.002) else 3.0
            last = took
            spent = search.nodes if counted else deadline.elapsed()
            if spent + took * max(growth, 1.5) > (self.positions if counted else self.budget):
                break
        self._figures = {"depth": depth, "exact": "yes" if depth >= n_free else "no", "positions": search.nodes,
                         "table": len(search.table)}
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

    def figures(self) -> dict:
        """Of the last decision: depth reached, whether that was a full solve, positions, table size."""
        return dict(self._figures)

    def value_legend(self, mover: str) -> str:
        return (f"The numbers: the box margin {mover} can force after that line, as far as alpha-beta looks "
                f"ahead (beyond: +-{PARITY_WEIGHT} for who draws the last safe line).")
