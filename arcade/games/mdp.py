"""A small generic MDP toolkit: the MDP protocol, state enumeration, the course's noise transform, simulate.

An MDP has start_state(), actions(state), succ_and_prob_reward(state, action)
-> [(next_state, probability, reward)] ([] where the action does nothing) and
discount(). `simulate` runs an RL algorithm (get_action / incorporate_feedback)
through an MDP with an explicit Generator, as the course's util.simulate.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Protocol

import numpy as np


class MDP(Protocol):
    def start_state(self) -> Any: ...
    def actions(self, state) -> list: ...
    def succ_and_prob_reward(self, state, action) -> list[tuple[Any, float, float]]: ...
    def discount(self) -> float: ...


def compute_states(mdp) -> list:
    """Every state reachable from the start (breadth first, start first)."""
    start = mdp.start_state()
    seen = {start}
    order = [start]
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for action in mdp.actions(state):
            for nxt, _, _ in mdp.succ_and_prob_reward(state, action):
                if nxt not in seen:
                    seen.add(nxt)
                    order.append(nxt)
                    queue.append(nxt)
    return order


class NoisyMDP:
    """The course's Problem 1 transform: half the time, jump uniformly among the reachable successors.

    T'(s, a, s') = 1/2 T(s, a, s') + 1/2 * 1 / |{s'': T(s, a, s'') > 0}|, rewards unchanged.
    """

    def __init__(self, mdp):
        self.mdp = mdp

    def start_state(self):
        return self.mdp.start_state()

    def actions(self, state):
        return self.mdp.actions(state)

    def discount(self):
        return self.mdp.discount()

    def succ_and_prob_reward(self, state, action):
        transitions = self.mdp.succ_and_prob_reward(state, action)
        k = len(transitions)
        return [(s, 0.5 * p + 0.5 / k, r) for s, p, r in transitions]


class Uniforms:
    """Uniform draws from a Generator, taken a block at a time (a numpy call per draw costs more than the draw)."""

    def __init__(self, rng: np.random.Generator, block: int = 8192):
        self.rng, self.block = rng, block
        self.buffer, self.i = rng.random(block).tolist(), 0

    def __call__(self) -> float:
        if self.i == self.block:
            self.buffer, self.i = self.rng.random(self.block).tolist(), 0
        self.i += 1
        return self.buffer[self.i - 1]


def sample_transition(transitions: list, u: float):
    """The transition a uniform draw u selects, by cumulative probability."""
    acc = 0.0
    for t in transitions:
        acc += t[1]
        if u < acc:
            return t
    return transitions[-1]


def simulate(mdp, rl, num_trials: int = 10, max_iterations: int = 1000, rng: np.random.Generator | None = None,
             progress=None) -> list[float]:
    """Run `num_trials` episodes of `rl` in `mdp`; returns the total (discounted) reward of each."""
    uniform = Uniforms(rng if rng is not None else np.random.default_rng())
    get_action, feedback, succ = rl.get_action, rl.incorporate_feedback, mdp.succ_and_prob_reward
    totals = []
    for trial in range(num_trials):
        state = mdp.start_state()
        total, weight = 0.0, 1.0
        for _ in range(max_iterations):
            action = get_action(state)
            transitions = succ(state, action)
            if not transitions:
                feedback(state, action, 0, None)
                break
            nxt, _, reward = sample_transition(transitions, uniform()) if len(transitions) > 1 else transitions[0]
            feedback(state, action, reward, nxt)
            total += weight * reward
            weight *= mdp.discount()
            state = nxt
        totals.append(total)
        if progress and (trial + 1) % 1000 == 0:
            progress(trial + 1)
    return totals
