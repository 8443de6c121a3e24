"""expectiminimax: depth-limited search for every game of the catalogue, written once on the Rules contract.

A decision node takes the move best for the seat to move (each node's value is a tuple, one number per
seat: with two players zero-sum this is minimax; with one it is the max of expectimax). After a move,
chance is averaged: over every outcome with its probability where the rules list them
(`ListsChance`: 2048's tiles, blackjack's cards), else over its chance_samples outcomes drawn from
the Generator (match-3's refills). At the depth limit a state is worth its `leaf_values`
(agents/game_search.py: the score so far; two players, the margin squashed below any decided result).
It deepens one decision at a time up to its max_depth while its time a move lasts
([agents.expectiminimax], or a game's [GAME.expectiminimax]); a
pass cut by the deadline is dropped and the last complete depth answers.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass

from agents.base import ANY_GAME, Deadline, Decision, OutOfTime, best_action, budget_clock, register, time_budget, ANY_GAME_SEARCH
from agents.game_search import decision_rng, leaf_values, terminal_returns
from agents.search_tree import edge, node
from arcade.games.base import ListsChance, has_chance
from arcade.foundation.setting_fields import own_time_budget, ranged


@dataclass(frozen=True)
class ExpectiminimaxParams:
    max_depth: int = ranged(1, 12, 4)  # it deepens up to this many decisions
    chance_samples: int = ranged(1, 256, 4)  # where chance outcomes cannot be listed, this many are drawn
    time_budget_ms: int = own_time_budget()


@register("expectiminimax", ANY_GAME, "depth-limited search: max for the mover, expectation over chance, "
          "written once for every game", order=45, process=True,
          about="It looks a few moves ahead: every move of the side to move, every answer, and where chance "
                "follows a move, every outcome weighed by its probability (or a few drawn at random where "
                "they are too many). At its horizon a position is worth its score so far. It deepens while "
                "its time lasts. One algorithm for every game, knowing only the rules.",
          params=ExpectiminimaxParams,
          group=ANY_GAME_SEARCH,
          title="Depth-limited lookahead")
class Expectiminimax:
    """Iterative deepening over decisions; explain gives each move's value for the side to move."""

    name = "expectiminimax"

    @classmethod
    def unused_params(cls, rules, values) -> dict[str, str]:
        """chance_samples where nothing is sampled: a game without chance, or one that lists its outcomes."""
        if not has_chance(rules):
            return {"chance_samples": "this game has no chance"}
        if isinstance(rules, ListsChance):
            return {"chance_samples": "this game lists its chance outcomes: each is weighed by its probability"}
        return {}

    def __init__(self, rules, settings):
        self.rules = rules
        p = settings.agent_params(rules.game_id, "expectiminimax")
        self.max_depth = p.max_depth
        self.samples = p.chance_samples
        self.budget = time_budget(settings, p)
        self.clock = budget_clock(settings)
        self.lists = isinstance(rules, ListsChance)
        self.chance = has_chance(rules)
        self._figures: dict = {}

    def _after(self, state, action, depth: int, rng, deadline: Deadline) -> tuple[float, ...]:
        """The value of playing `action` in `state` (chance averaged), searching `depth` more decisions."""
        rules = self.rules
        if not self.chance:
            return self._value(rules.step(state, action, rng), depth, rng, deadline)
        if self.lists:
            outcomes = rules.chance_outcomes(state, action)
        else:
            outcomes = [(rules.step(state, action, rng), 1.0 / self.samples) for _ in range(self.samples)]
        total = None
        for nxt, p in outcomes:
            v = self._value(nxt, depth, rng, deadline)
            total = [p * x for x in v] if total is None else [t + p * x for t, x in zip(total, v, strict=True)]
        return tuple(total)

    def _value(self, state, depth: int, rng, deadline: Deadline) -> tuple[float, ...]:
        rules = self.rules
        self._positions += 1
        if rules.is_terminal(state):
            return terminal_returns(rules, state)
        if depth == 0:
            return leaf_values(rules, state)
        deadline.check()
        seat = rules.to_move(state)
        best = None
        for a in rules.legal_actions(state):
            v = self._after(state, a, depth - 1, rng, deadline)
            if best is None or v[seat] > best[seat]:
                best = v
        return best

    def _root(self, state, depth: int, rng, deadline: Deadline) -> dict:
        seat = self.rules.to_move(state)
        return {a: self._after(state, a, depth - 1, rng, deadline)[seat] for a in self.rules.legal_actions(state)}

    def explain(self, state, rng=None) -> dict:
        """{move: its value for the side to move at the deepest depth completed in the time budget}."""
        rng = decision_rng(rng, self.rules, state)
        deadline, unlimited = Deadline(self.clock, self.budget), Deadline(self.clock, math.inf)
        self._positions = 0
        values, reached = None, 0
        for depth in range(1, self.max_depth + 1):
            try:
                values, reached = self._root(state, depth, rng, deadline if values is not None else unlimited), depth
            except OutOfTime:
                break
            if deadline.passed():
                break
        self._figures = {"depth": reached, "positions": self._positions}
        return values

    def act(self, state, rng=None):
        return best_action(self.explain(state, rng), rng)

    def decide(self, state, rng, tree: bool = False) -> Decision:
        """One timed search: its values, the best of them played (ties by `rng`), and (asked for) the tree of
        that search written out at the depth it reached, from the same draws."""
        rng = decision_rng(rng, self.rules, state)
        start = copy.deepcopy(rng)
        values = self.explain(state, rng)
        return Decision(best_action(values, rng), values, self._tree_at(state, start) if tree else None)

    # --- the tree the view shows: the same search, written out node by node (never during a decision) ------
    def tree(self, state, rng=None) -> dict:
        """The search behind explain(state, rng) at the depth it reached: every move, every answer (a min node
        where the other seat moves), every chance outcome with its probability (sampled ones each 1/samples),
        down to the leaves, each worth its value for the side to move here. The same draws as explain's, so
        the root's children are explain's values exactly."""
        rng = decision_rng(rng, self.rules, state)
        start = copy.deepcopy(rng)
        self.explain(state, rng)
        return self._tree_at(state, start)

    def _tree_at(self, state, start) -> dict:
        """The last search's tree (its depth and positions in the figures), written out from `start`, a copy of
        the Generator that search began with."""
        reached = self._figures["depth"]
        unlimited = Deadline(self.clock, math.inf)
        for depth in range(1, reached):  # the shallower passes draw what they drew before the last one
            self._root(state, depth, start, unlimited)
        seat = self.rules.to_move(state)
        kids = [edge(self._after_node(state, a, reached - 1, start, seat), action=a)
                for a in self.rules.legal_actions(state)]
        if not kids:
            return node("leaf", terminal_returns(self.rules, state)[seat] if self.rules.is_terminal(state) else 0.0)
        return node("max", max(e["node"]["value"] for e in kids), kids, depth=reached,
                    positions=self._figures["positions"])

    def _after_node(self, state, action, depth: int, rng, seat: int) -> dict:
        rules = self.rules
        if not self.chance:
            return self._value_node(rules.step(state, action, rng), depth, rng, seat)
        if self.lists:
            outcomes = rules.chance_outcomes(state, action)
        else:
            outcomes = [(rules.step(state, action, rng), 1.0 / self.samples) for _ in range(self.samples)]
        kids = [edge(self._value_node(nxt, depth, rng, seat), outcome=self._outcome_text(nxt, k, len(outcomes)),
                     p=p, state=nxt) for k, (nxt, p) in enumerate(outcomes)]
        return node("chance", sum(e["p"] * e["node"]["value"] for e in kids), kids,
                    **({} if self.lists else {"sampled": len(outcomes)}))

    def _outcome_text(self, state, k: int, n: int) -> str:
        """What chance drew, in the game's own state notation where that is short (a blackjack round), else
        its place in the list (the tree view draws the board)."""
        try:
            text = self.rules.format_state(state)
        except ValueError:  # (a state with no text form: a finished blackjack round)
            text = ""
        return text if 0 < len(text) <= 24 else f"outcome {k + 1} of {n}"

    def _value_node(self, state, depth: int, rng, seat: int) -> dict:
        rules = self.rules
        if rules.is_terminal(state):
            return node("leaf", terminal_returns(rules, state)[seat], ended=True)
        if depth == 0:
            return node("leaf", leaf_values(rules, state)[seat])
        mover = rules.to_move(state)
        kids = [edge(self._after_node(state, a, depth - 1, rng, seat), action=a) for a in rules.legal_actions(state)]
        pick = max if mover == seat else min
        return node("max" if mover == seat else "min", pick(e["node"]["value"] for e in kids), kids)

    def figures(self) -> dict:
        return dict(self._figures)

    def value_legend(self, mover: str) -> str:
        if self.rules.players == 2:
            return (f"The numbers: expectiminimax's value of the move for {mover} as far as it looked ahead "
                    "(+1 a forced win, -1 a forced loss; in between, the box or point margin it sees).")
        return ("The numbers: expectiminimax's expected score after the move, as far as it looked ahead "
                "(chance averaged).")
