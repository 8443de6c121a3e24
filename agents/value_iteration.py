"""Value iteration over every reachable state of an MDP, as numpy sweeps.

The states are enumerated once from the start; every (state, action) with
successors becomes a row of flat transition arrays. A sweep is then one gather
and two reductions: Q = sum p (r + gamma V(s')) per (state, action), V = max
per state, until no value moves more than the tolerance. An action with no
successors (a second Peek) is not an option; end states are worth 0.
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

import numpy as np

from agents.base import best_action, register, COURSE
from agents.search_tree import edge, node
from arcade.foundation.setting_fields import ranged


class ValueIteration:
    """The course's value iteration. After solve(): V {state: value}, Q {state: {action: value}},
    pi {state: best action}, states (all reachable), sweeps and seconds of the solve."""

    def solve(self, mdp, epsilon: float = 1e-4, max_sweeps: int = 100_000):
        """Solve `mdp` (start_state, actions, discount, succ_and_prob_reward) until no value moves more
        than `epsilon`; fills V, Q, pi, states, sweeps, seconds and returns self."""
        t0 = time.perf_counter()
        states, sa_state, sa_action, rows, nxt, prob, reward = _enumerate(mdp)
        n, n_sa = len(states), len(sa_state)
        gamma = mdp.discount()
        V = np.zeros(n)
        starts = np.flatnonzero(np.r_[True, sa_state[1:] != sa_state[:-1]]) if n_sa else np.array([], int)
        owners = sa_state[starts] if n_sa else np.array([], int)
        self.sweeps = 0
        for self.sweeps in range(1, max_sweeps + 1):
            q = np.bincount(rows, weights=prob * (reward + gamma * V[nxt]), minlength=n_sa)
            new = np.zeros(n)
            if n_sa:
                new[owners] = np.maximum.reduceat(q, starts)
            delta = np.abs(new - V).max() if n else 0.0
            V = new
            if delta < epsilon:
                break
        q = np.bincount(rows, weights=prob * (reward + gamma * V[nxt]), minlength=n_sa)
        self.seconds = time.perf_counter() - t0
        self.states = states
        self.V = {s: float(v) for s, v in zip(states, V, strict=True)}
        self.Q = {}
        for k in range(n_sa):
            self.Q.setdefault(states[sa_state[k]], {})[sa_action[k]] = float(q[k])
        self.pi = {s: max(qs, key=qs.get) for s, qs in self.Q.items()}
        return self


def _enumerate(mdp):
    """Reachable states and the flat transition arrays, in one breadth-first pass."""
    start = mdp.start_state()
    index = {start: 0}
    states = [start]
    queue = deque([start])
    sa_state, sa_action, rows, nxt, prob, reward = [], [], [], [], [], []
    while queue:
        s = queue.popleft()
        i = index[s]
        for a in mdp.actions(s):
            transitions = mdp.succ_and_prob_reward(s, a)
            if not transitions:
                continue
            k = len(sa_state)
            sa_state.append(i)
            sa_action.append(a)
            for t, p, r in transitions:
                j = index.get(t)
                if j is None:
                    j = index[t] = len(states)
                    states.append(t)
                    queue.append(t)
                rows.append(k)
                nxt.append(j)
                prob.append(p)
                reward.append(r)
    return (states, np.array(sa_state, dtype=np.intp), sa_action, np.array(rows, dtype=np.intp),
            np.array(nxt, dtype=np.intp), np.array(prob, dtype=float), np.array(reward, dtype=float))


def policy_value(mdp, choose, tolerance: float = 1e-9, max_sweeps: int = 100_000) -> float:
    """The exact expected (discounted) reward from the start of `mdp` under the policy choose(state, actions)
    -> action (iterative policy evaluation over every reachable state): how good a learnt policy is,
    measured against value iteration's optimum with no sampling noise."""
    states, sa_state, sa_action, rows, nxt, prob, reward = _enumerate(mdp)
    n = len(states)
    chosen = np.zeros(len(sa_state), dtype=bool)
    first = 0
    while first < len(sa_state):  # the state-action rows of one state are consecutive
        last = first
        while last + 1 < len(sa_state) and sa_state[last + 1] == sa_state[first]:
            last += 1
        actions = sa_action[first:last + 1]
        chosen[first + actions.index(choose(states[sa_state[first]], actions))] = True
        first = last + 1
    picked = chosen[rows]
    owner, gain, to, gamma = sa_state[rows[picked]], (prob * reward)[picked], nxt[picked], mdp.discount()
    weight = prob[picked]
    V = np.zeros(n)
    for _ in range(max_sweeps):
        new = np.bincount(owner, weights=gain + gamma * weight * V[to], minlength=n)
        if np.abs(new - V).max() < tolerance:
            return float(new[0])
        V = new
    return float(V[0])


_SOLVED: dict[tuple, ValueIteration] = {}  # a deck's rules and the tolerance -> its solution, in this process


def solved(mdp, tolerance: float) -> ValueIteration:
    """Value iteration's solution of `mdp` (a deck: its card values, multiplicity, threshold and peek cost),
    solved once a process for each deck and tolerance: a player switching decks back and forth (or an
    agent rebuilt for new rules) does not solve the same MDP again. Read only."""
    key = (tuple(mdp.card_values), mdp.multiplicity, mdp.threshold, mdp.peek_cost, float(tolerance))
    if key not in _SOLVED:
        _SOLVED[key] = ValueIteration().solve(mdp, tolerance)
    return _SOLVED[key]


@dataclass(frozen=True)
class ValueIterationParams:
    tolerance: float = ranged(0.0, 1.0, 1e-4)  # sweeps stop when no value moves more than this


@register("value-iteration", ("blackjack",), "the optimal policy of the MDP, solved by value iteration", order=10,
          about="Value iteration: sweep over every state of the MDP, setting V(s) to the best expected reward "
                "plus V of what follows, until nothing moves more than the tolerance. The policy then takes "
                "the action of largest Q(s, a). It is the optimum the learners are measured against.",
          params=ValueIterationParams, group=COURSE,
          title="Value iteration (optimal)")
class ValueIterationAgent:
    """Plays pi* of the table's MDP, solved once when built (tolerance: [blackjack.value-iteration])."""

    name = "value-iteration"

    def __init__(self, rules, settings):
        self.rules = rules
        self.mdp = rules.mdp
        self.tolerance = settings.agent_params(rules.game_id, "value-iteration").tolerance
        self.solution = solved(self.mdp, self.tolerance)
        self._extra: dict = {}  # Q of states off the start's reach, solved on demand

    def explain(self, state) -> dict[str, float]:
        """{action: Q*(s, a)}, the expected reward of the round with optimal play after it. A state the
        game cannot reach from its start (e.g. any hand total with the full deck, as the policy strip asks)
        is solved on demand: all hand totals with that deck at once, then kept."""
        s = state.mdp_state
        if s not in self.solution.Q and s.counts is not None:
            if s not in self._extra:
                starts = [type(s)(t, None, s.counts) for t in range(self.mdp.threshold + 1)]
                self._extra.update(ValueIteration().solve(_Starts(self.mdp, starts + [s]), self.tolerance).Q)
            return {a: q for a, q in self._extra.get(s, {}).items()}
        return dict(self.solution.Q.get(s, {}))

    def value_legend(self, mover: str) -> str:
        return "Q: the expected reward of the round from here, playing optimally afterwards."

    def describe(self) -> list[str]:
        sol = self.solution
        # what it is, not what the screen shows: "Q(s, a) shown" stood there with v off
        return ["value iteration: the optimal Q(s,a)", f"{len(sol.states)} states, {sol.sweeps} sweeps",
                f"solved in {sol.seconds * 1000:.0f} ms"]

    def tree(self, state, rng=None) -> dict:
        """Q*(s, a) of each action over the transitions (p, s', r) behind it: a chance node an action, worth
        Q*(s, a) as explain gives it, each transition a leaf worth r + V*(s') (V* = the best Q* there; 0 once
        the round is over), so the chance node is their probability-weighted sum within the solve's tolerance."""
        q = self.explain(state)
        s = state.mdp_state
        moves = []
        for action, value in q.items():
            rounds = self.rules.chance_outcomes(state, action)  # (the same transitions as round states: drawn)
            outcomes = [edge(node("leaf", reward + self._value(nxt), reward=float(reward)),
                             outcome=state_words(nxt), p=float(p), state=after)
                        for (nxt, p, reward), (after, _) in zip(self.mdp.succ_and_prob_reward(s, action), rounds,
                                                                strict=True)]
            moves.append(edge(node("chance", value, outcomes), action=action))
        return node("max", max(q.values(), default=0.0), moves) if moves else node("leaf", 0.0)

    def _value(self, s) -> float:
        """V*(s): its best Q* (solved with the start's states, or on demand by explain); 0 once it is over."""
        if s.counts is None:
            return 0.0
        q = self.solution.Q.get(s) or self._extra.get(s) or {}
        return max(q.values(), default=0.0)

    def act(self, state, rng=None) -> str:
        """pi*(s); a state the game cannot reach from its start is solved on demand (see explain)."""
        return self.solution.pi.get(state.mdp_state) or best_action(self.explain(state))


def state_words(s) -> str:
    """A blackjack state in words: 'total 6, peeked card 2, deck left 1/2' (cards left of each value), or
    'the round ends at total 6'."""
    if s.counts is None:
        return f"the round ends at total {s.total}"
    peek = "" if s.peeked is None else f", peeked card {s.peeked + 1}"
    return f"total {s.total}{peek}, deck left {'/'.join(map(str, s.counts))}"


class _Starts:
    """An MDP that starts by moving to one of `starts` (uniformly, reward 0), then is `mdp`: solving it
    solves every state reachable from any of them in one value iteration."""

    START = ("start of", "several states")

    def __init__(self, mdp, starts):
        self.mdp, self.starts = mdp, list(dict.fromkeys(starts))

    def start_state(self):
        return self.START

    def actions(self, state):
        return ["go"] if state == self.START else self.mdp.actions(state)

    def discount(self):
        return self.mdp.discount()

    def succ_and_prob_reward(self, state, action):
        if state == self.START:
            return [(s, 1 / len(self.starts), 0) for s in self.starts]
        return self.mdp.succ_and_prob_reward(state, action)
