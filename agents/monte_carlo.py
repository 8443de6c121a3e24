"""Flat Monte Carlo for match-3: every legal swap tried in many short futures, the best mean wins.

For each legal swap, N rollouts: the swap's own turn, then `depth` turns of
greedy-cascade (the largest turn score it can see), played by a compiled loop
(agents/engines/match3/kernels.greedy_rollouts, tested equal to the batched engine of
arcade.games.match3_batch rollout by rollout). Rollout j of
every candidate draws its new gems from the same tape (common random numbers):
the candidates are compared on the same futures, so far fewer rollouts tell
them apart. The value of a swap is the mean points of its rollouts; batches of
N more rollouts run while its time a move lasts ([match3.monte-carlo]). With leaf = "td-value" a rollout
also scores the board it ends on: td-value's learnt worth of that board (the discounted points its next
turns can expect), so a future cut short after `depth` turns still counts what it leaves.
The agent's randomness (the tapes) comes from the Generator it is given; it
never sees the game's own future gems.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.engines.match3 import playouts as playout_match3
from agents.search_tree import one_ply
from agents.base import Deadline, Decision, best_action, budget_clock, no_clock, register, time_budget, STRONGEST
from arcade.games import match3_batch as mb
from arcade.games.match3 import Match3State
from arcade.foundation.setting_fields import one_of, own_time_budget, ranged

EXPLAIN_BATCHES = 4  # asked for its values of a state it has not decided in: this many batches, not a time
TAPE_TURNS = 4  # new gems a tape holds, in full boards per turn played (it wraps around if a cascade is longer)


@dataclass(frozen=True)
class MonteCarloParams:
    rollouts: int = ranged(1, 10_000, 16)  # rollouts per candidate swap in one batch (a decision runs one at least)
    depth: int = ranged(0, 50, 2)  # greedy-cascade turns played after the candidate swap
    time_budget_ms: int = own_time_budget(300)  # more batches while this time lasts
    leaf: str = one_of(("none", "td-value"), "none")  # what a rollout adds for the board it ends on


@register("monte-carlo", ("match3",), "flat Monte Carlo: each swap followed by greedy-cascade futures, same gems for all",
          order=10, process=True,
          about="For every legal swap it plays many short futures: the swap, then a few turns of greedy-cascade, "
                "with random new gems. Every swap meets the same futures (common random numbers), so the "
                "comparison is fair with few samples. It plays the swap with the best mean points, thinking "
                "as long as its time budget allows.",
          params=MonteCarloParams,
          group=STRONGEST,
          title="Monte Carlo rollouts")
class MonteCarlo:
    """act(state, rng) -> the swap of best mean points over rollouts; explain gives those means."""

    name = "monte-carlo"

    def __init__(self, rules, settings):
        p = settings.agent_params(rules.game_id, "monte-carlo")
        self.rules = rules
        self.rollouts, self.depth, self.budget = p.rollouts, p.depth, time_budget(settings, p)
        self.leaf = None
        if p.leaf == "td-value":
            from agents.match3_td import Match3TD

            self.leaf = Match3TD(rules, settings)
        self.clock = budget_clock(settings)
        playout_match3.warm()  # (compiled or loaded now, not in the first decision)
        self._last: tuple | None = None  # (state key, {swap: mean}) of the last decision
        self._figures: dict = {}

    def sample(self, state: Match3State, rng: np.random.Generator, n: int) -> np.ndarray:
        """Total points of n rollouts of every legal swap: an A x n array (A = legal swaps, in order)."""
        size, colours = state.board.shape[0], state.colours
        legal = np.flatnonzero(mb.legal_mask(state.board[None])[0])
        a = len(legal)
        tapes = rng.integers(0, colours, size=(n, TAPE_TURNS * (self.depth + 1) * size * size), dtype=np.int8)
        totals = np.empty((a, n), dtype=np.int64)
        finals = np.empty((a, n, size, size), dtype=np.int8)
        playout_match3.greedy_rollouts(np.array(state.board, dtype=np.int8), legal.astype(np.int64),
                                       tapes, self.depth, state.turns_left, rng, totals, finals)
        left = state.turns_left - 1 - min(self.depth, state.turns_left - 1)
        if self.leaf is not None and left > 0:
            boards = finals.reshape(a * n, size, size)
            return totals + self.leaf.board_worth(boards, left, mb.settle(boards, left, rng)).reshape(a, n)
        return totals.astype(np.float64)

    def values(self, state: Match3State, rng: np.random.Generator, batches: int | None = None) -> dict[tuple, float]:
        """{swap: mean points} over as many batches of rollouts as the time budget allows (one at least), or
        over exactly `batches` batches (then the same Generator gives the same values on any machine). With no
        clock (budget_clock "none") one batch, as if the budget allowed no more."""
        if batches is None and self.clock is no_clock:
            batches = 1
        deadline = Deadline(self.clock, self.budget)
        sums, count = None, 0
        while True:
            t0 = deadline.elapsed()
            totals = self.sample(state, rng, self.rollouts)
            sums = totals.sum(axis=1) if sums is None else sums + totals.sum(axis=1)
            count += self.rollouts
            if batches is not None:
                if count >= batches * self.rollouts:
                    break
            elif deadline.left() < deadline.elapsed() - t0:  # another batch would run past the budget
                break
        swaps = state.swaps().tolist()
        self._figures = {"batches": count // self.rollouts, "rollouts a batch": self.rollouts,
                         "rollouts per swap": count, "depth": self.depth, "swaps": len(swaps)}
        return {tuple(sw): float(s / count) for sw, s in zip(swaps, sums, strict=True)}

    def figures(self) -> dict:
        """Of the last decision: batches of `rollouts` run (one at least, more while its time lasts), rollouts per
        swap in all, greedy turns after the swap, swaps compared."""
        return dict(self._figures)

    def explain(self, state: Match3State) -> dict[tuple, float]:
        """{swap: mean points of its rollouts}: the last decision's, if it was about this state, else
        EXPLAIN_BATCHES batches of rollouts with a Generator seeded from the state (asking twice, or on
        another machine, gives the same answer; the decision itself runs on a time budget)."""
        if self._last is not None and self._last[0] == state.key():
            return dict(self._last[1])
        return self.values(state, np.random.default_rng(list(state.board.tobytes()) + [state.turns_left]),
                           batches=EXPLAIN_BATCHES)

    def tree(self, state: Match3State, rng=None) -> dict:
        """Its one ply (agents/search_tree.one_ply): each swap a leaf worth explain's mean points over its
        rollouts, with how many rollouts and how deep they went."""
        values = self.explain(state)
        rollouts = self._figures.get("rollouts per swap") if self._last and self._last[0] == state.key() else None
        return one_ply(values, meaning="mean points of its rollouts", depth=self.depth,
                       **({"rollouts": rollouts} if rollouts else {}))

    def value_legend(self, mover: str) -> str:
        leaf = ", then td-value's learnt worth of the board left" if self.leaf is not None else ""
        return (f"The numbers: the mean points of each swap over its rollouts (the swap, then {self.depth} "
                f"greedy-cascade turns{leaf}), every swap meeting the same new gems.")

    def act(self, state: Match3State, rng) -> tuple:
        return self.decide(state, rng).action

    def decide(self, state: Match3State, rng, tree: bool = False) -> Decision:
        """One timed run of batches: each swap's mean points, the best played, and its one-ply tree."""
        if not len(state.swaps()):
            raise ValueError("no legal swap in this state")
        values = self.values(state, rng)
        self._last = (state.key(), values)
        return Decision(best_action(values), values, self.tree(state) if tree else None)
