"""The course's match-3 agent: Q-learning from SARSA-sampled rollouts at every turn.

At each turn, from the current state (board, turns left), NSARSA episodes run
to the end of the game. In an episode, a state already visited while sampling
gets an epsilon-greedy move over Q; a state not seen before gets a random
legal move. After each episode every sampled step (S, A, R, S') updates
    Q(S, A) <- (1 - eta) Q(S, A) + eta (R + gamma max_a Q(S', a))
with max_a Q(S', a) = 0 at the end of the game (and for actions never tried,
whose Q is 0). Then the agent plays argmax_a Q(current, a). The rollouts draw
refills from the agent's own generator, never the game's: the agent does not
see the future gems. Q persists over the turns of one game.
"""
from __future__ import annotations

import numpy as np

from agents.base import register
from arcade.games.match3 import Match3State


@register("q-rollouts", ("match3",), "the course's Q-learning from 25 epsilon-greedy rollouts per turn (SARSA sampling)",
          order=20, process=True,
          about="Each turn it plays many games from here to the end in its head (SARSA rollouts, exploring "
                "with probability epsilon), updates Q(s, a) <- (1 - eta) Q + eta (r + gamma max Q(s', .)) "
                "after each, then swaps by the largest Q at the root.",
          params=("epsilon", "step_size", "discount", "rollouts"))
class QRollouts:
    """The course's algorithm with [match3] epsilon, step_size, discount and rollouts. act(state, rng)
    runs the rollouts from `state` (refills from `rng`) and returns argmax Q; explain gives Q at the root."""

    name = "q-rollouts"

    def __init__(self, rules, settings):
        t = settings.match3
        self.rules = rules
        self.epsilon, self.eta, self.gamma, self.rollouts = t.epsilon, t.step_size, t.discount, t.rollouts
        self.Q: dict[tuple[bytes, int], dict[tuple, float]] = {}
        self._last_turns_left = None
        self.simulated_moves = 0
        self._figures: dict = {}

    def _v(self, state: Match3State) -> float:
        if state.turns_left <= 0:
            return 0.0
        q = self.Q.get(state.key())
        return max(0.0, max(q.values())) if q else 0.0  # untried actions have Q = 0; rewards are >= 0

    def _choose(self, state: Match3State, visited: set, rng) -> tuple:
        swaps = state.swaps()
        key = state.key()
        if key in visited and rng.random() >= self.epsilon:
            q = self.Q.get(key, {})
            values = np.array([q.get(tuple(sw), 0.0) for sw in swaps.tolist()])
            return tuple(swaps[int(np.argmax(values))].tolist())
        return tuple(swaps[int(rng.integers(len(swaps)))].tolist())

    def learn(self, state: Match3State, rng) -> None:
        """Run the rollouts from `state` and update Q."""
        last = self._last_turns_left
        if last is not None and (state.turns_left > last[0] or (state.turns_left == last[0] and state.key() != last[1])):
            self.Q.clear()  # a new game: nothing learnt about the old one applies
        self._last_turns_left = (state.turns_left, state.key())
        visited: set = set()
        moves_before = self.simulated_moves
        for _ in range(self.rollouts):
            episode = []
            s = state
            while not self.rules.is_terminal(s):
                a = self._choose(s, visited, rng)
                visited.add(s.key())
                nxt = self.rules.step(s, a, rng)
                episode.append((s, a, nxt.score - s.score, nxt))
                s = nxt
            self.simulated_moves += len(episode)
            for s, a, r, s2 in episode:
                q = self.Q.setdefault(s.key(), {})
                q[a] = (1 - self.eta) * q.get(a, 0.0) + self.eta * (r + self.gamma * self._v(s2))
        self._figures = {"rollouts": self.rollouts, "moves simulated": self.simulated_moves - moves_before}

    def figures(self) -> dict:
        """Of the last decision: rollouts run from the root and moves simulated in them."""
        return dict(self._figures)

    def explain(self, state: Match3State) -> dict[tuple, float]:
        """{swap: Q(current, swap)} for every legal swap. If nothing was learnt from this state yet (a
        person asking before moving), the rollouts run first, with a Generator seeded from the state, so
        asking twice gives the same answer."""
        if state.key() not in self.Q and state.turns_left > 0 and len(state.swaps()):
            self.learn(state, np.random.default_rng(list(state.board.tobytes()) + [state.turns_left]))
        q = self.Q.get(state.key(), {})
        return {tuple(sw): q.get(tuple(sw), 0.0) for sw in state.swaps().tolist()}

    def value_legend(self, mover: str) -> str:
        return (f"Q at the root after {self.rollouts} rollouts: the discounted points (gamma {self.gamma:g}) "
                "the agent expects from each swap.")

    def act(self, state: Match3State, rng) -> tuple:
        if not len(state.swaps()):
            raise ValueError("no legal swap in this state")
        self.learn(state, rng)
        values = self.explain(state)
        return max(values, key=values.get)
