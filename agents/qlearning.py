"""Q-learning with linear function approximation (the course's Problem 3), written for any MDP: the algorithm
and the tabular feature extractor (blackjack's features and agents: agents/blackjack_q.py).

Q(s, a) = w . phi(s, a), with the weights in a dict. get_action is
epsilon-greedy; incorporate_feedback makes the standard Q-learning update
    w <- w - eta (Q(s, a) - (r + gamma max_a' Q(s', a'))) phi(s, a)
with eta = 1 / sqrt(number of actions chosen), and max_a' Q(s', a') = 0 when s'
is an end state.
"""
from __future__ import annotations

import math

import numpy as np

from arcade.games.mdp import Uniforms


def identity_feature_extractor(state, action):
    """One indicator feature per (state, action): tabular Q-learning."""
    return [((state, action), 1)]


class QLearningAlgorithm:
    """The course's QLearningAlgorithm: actions(state) -> list, discount, feature_extractor(state, action)
    -> [(feature, value)], epsilon, a Generator for exploring, and is_end(state)."""

    def __init__(self, actions, discount: float, feature_extractor, epsilon: float = 0.2,
                 rng: np.random.Generator | None = None, is_end=lambda state: False):
        self.actions = actions
        self.discount = discount
        self.feature_extractor = feature_extractor
        self.epsilon = epsilon
        self.is_end = is_end
        self.weights: dict = {}
        self.num_iters = 0
        self.updates = 0
        self._chosen = None  # (state, actions, their Q) of the last greedy choice, reused by the update
        self._rng = None
        self.use_rng(rng if rng is not None else np.random.default_rng())

    def use_rng(self, rng: np.random.Generator) -> None:
        """Explore with draws from `rng` from now on (a no-op if it is the Generator in use)."""
        if rng is not self._rng:
            self._rng = rng
            self._uniform = Uniforms(rng)

    def get_q(self, state, action) -> float:
        """Q(state, action) = w . phi(state, action)."""
        w = self.weights
        q = 0.0
        for f, v in self.feature_extractor(state, action):  # a plain loop: this is the hot path
            q += w.get(f, 0.0) * v
        return q

    def q_values(self, state, actions) -> list[float]:
        """Q of each action in one loop (the hot path of learning: no per-action method calls)."""
        w, fe = self.weights, self.feature_extractor
        out = []
        for a in actions:
            q = 0.0
            for f, v in fe(state, a):
                q += w.get(f, 0.0) * v
            out.append(q)
        return out

    def get_action(self, state):
        """Epsilon-greedy: a random action with probability epsilon, else the first best."""
        self.num_iters += 1
        actions = self.actions(state)
        if self._uniform() < self.epsilon:
            self._chosen = None
            return actions[min(int(self._uniform() * len(actions)), len(actions) - 1)]
        qs = self.q_values(state, actions)
        self._chosen = (state, actions, qs)
        return actions[qs.index(max(qs))]  # the first of equal values

    def incorporate_feedback(self, state, action, reward, new_state) -> None:
        """The Q-learning update for one observed step (new_state None: nothing happened)."""
        if new_state is None:  # the action did nothing (no successor): nothing to learn
            return
        v_next = 0.0 if self.is_end(new_state) else max(self.q_values(new_state, self.actions(new_state)))
        chosen = self._chosen
        self._chosen = None
        if chosen is not None and chosen[0] == state:  # the weights have not changed since get_action
            prediction = chosen[2][chosen[1].index(action)]
        else:
            prediction = self.get_q(state, action)
        error = prediction - (reward + self.discount * v_next)
        step = 1.0 / math.sqrt(max(1, self.num_iters))  # the course's step size 1/sqrt(iterations)
        w = self.weights
        for f, v in self.feature_extractor(state, action):
            w[f] = w.get(f, 0.0) - step * error * v
        self.updates += 1
