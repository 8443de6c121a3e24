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

How the rollouts run (the batched engine, arcade.games.match3_batch): the only
state the episodes share is the root (after a swap the refills make every board
new), so the root steps run one episode after another, each choosing by Q(root)
as updated by the episodes before it, exactly as in the course; the rest of all
episodes, from their second turn on, run together as one batch of boards with
random legal moves, and their steps update Q afterwards in episode order. That
is the course's procedure exactly when no state after the root repeats (within
the turn, or from Q of earlier turns): then every deeper state is new (a random
move), and the value of every next state is 0 when the step before it is
updated. The batch checks this after running; if some state did repeat (tiny
boards, few colours, or refills that repeat, as a test's do), it discards the
batch and runs the turn step by step, from a copy of the Generator taken before.
What differs then is only which random numbers are drawn, not the algorithm.
On the 9x9 board with 5 colours no state after the root has ever repeated in
the benchmark's games; it measures both ways side by side (benchmarks/bench_match3.py).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from agents.base import Decision, register, COURSE
from agents.search_tree import one_ply
from arcade.games import match3_batch as mb
from arcade.games.match3 import Match3State, all_swaps
from arcade.foundation.setting_fields import ranged


@dataclass(frozen=True)
class QRolloutsParams:
    """settings.toml's [match3.q-rollouts]: the course's EPSILON, STEP_SIZE (eta), DISCOUNT (gamma), NSARSA."""

    epsilon: float = ranged(0.0, 1.0, 0.2, course=0.2)
    step_size: float = ranged(0.0, 1.0, 0.2, course=0.2)
    discount: float = ranged(0.0, 1.0, 0.5, course=0.5)
    rollouts: int = ranged(1, 10_000, 25, course=25)


@register("q-rollouts", ("match3",), "the course's Q-learning from 25 epsilon-greedy rollouts per turn (SARSA sampling)",
          order=20, process=True,
          about="Each turn it plays many games from here to the end in its head (SARSA rollouts, exploring "
                "with probability epsilon), updates Q(s, a) <- (1 - eta) Q + eta (r + gamma max Q(s', .)) "
                "after each, then swaps by the largest Q at the root.",
          params=QRolloutsParams,
          group=COURSE,
          title="Q-learning from rollouts (the course's)")
class QRollouts:
    """The course's algorithm with its epsilon, step_size, discount and rollouts. act(state, rng)
    runs the rollouts from `state` (refills from `rng`) and returns argmax Q; explain gives Q at the root."""

    name = "q-rollouts"

    def __init__(self, rules, settings):
        t = settings.agent_params(rules.game_id, "q-rollouts")
        self.rules = rules
        self.epsilon, self.eta, self.gamma, self.rollouts = t.epsilon, t.step_size, t.discount, t.rollouts
        self.Q: dict[tuple[bytes, int], dict[tuple, float]] = {}
        self._last_turns_left = None
        self.simulated_moves = 0
        self._figures: dict = {}

    def _v(self, key) -> float:
        if key[1] <= 0:
            return 0.0
        q = self.Q.get(key)
        return max(0.0, max(q.values())) if q else 0.0  # untried actions have Q = 0; rewards are >= 0

    def _update(self, key, action: tuple, reward: float, next_key) -> None:
        q = self.Q.setdefault(key, {})
        q[action] = (1 - self.eta) * q.get(action, 0.0) + self.eta * (reward + self.gamma * self._v(next_key))

    def learn(self, state: Match3State, rng) -> None:
        """Run the rollouts from `state` and update Q."""
        last = self._last_turns_left
        if last is not None and (state.turns_left > last[0] or (state.turns_left == last[0] and state.key() != last[1])):
            self.Q.clear()  # a new game: nothing learnt about the old one applies
        self._last_turns_left = (state.turns_left, state.key())
        moves_before = self.simulated_moves
        pristine = copy.deepcopy(rng)  # if the batch finds a repeated state, the plain way starts from here
        if not self._batched(state, rng):
            self._sequential(state, pristine)
        self._figures = {"rollouts": self.rollouts, "moves simulated": self.simulated_moves - moves_before}

    def _sequential(self, state: Match3State, rng) -> None:
        """The course's procedure step by step: one episode after another, each to the end of the game."""
        visited: set = set()
        for _ in range(self.rollouts):
            episode = []
            s = state
            while not self.rules.is_terminal(s):
                swaps = s.swaps()
                key = s.key()
                if key in visited and rng.random() >= self.epsilon:
                    q = self.Q.get(key, {})
                    values = np.array([q.get(tuple(sw), 0.0) for sw in swaps.tolist()])
                    a = tuple(swaps[int(np.argmax(values))].tolist())
                else:
                    a = tuple(swaps[int(rng.integers(len(swaps)))].tolist())
                visited.add(key)
                nxt = self.rules.step(s, a, rng)
                episode.append((key, a, nxt.score - s.score, nxt.key()))
                s = nxt
            self.simulated_moves += len(episode)
            for key, a, r, next_key in episode:
                self._update(key, a, r, next_key)

    def _batched(self, state: Match3State, rng, prefix: int = 2) -> bool:
        """The same rollouts on the batched engine. The first `prefix` turns of each episode run one
        episode after another, exactly as in the course (a state seen before in this turn gets the
        epsilon-greedy move, and Q of the states they pass through is updated before the next episode:
        a swap that clears few gems often meets the same refills twice, so the second turn does repeat);
        the rest of every episode, where the boards are all new, runs for all episodes together with
        random moves, and updates Q afterwards. If a state there does repeat after all, nothing is changed
        and False says to run the turn step by step."""
        size, colours = state.board.shape[0], state.colours
        sw_all = all_swaps(size)
        index = {tuple(s): i for i, s in enumerate(sw_all.tolist())}
        refill = mb.RngRefill(rng, colours)
        touched: dict = {}  # Q rows the sequential part changed: written to self.Q only if the batch holds

        def q_row(key) -> dict:
            if key not in touched:
                touched[key] = dict(self.Q.get(key, {}))
            return touched[key]

        def value(key) -> float:
            row = touched.get(key, self.Q.get(key))
            return max(0.0, max(row.values())) if row and key[1] > 0 else 0.0

        visited: set = set()
        tails, heads = [], []  # per episode: the board and turns left where the batch takes over
        for _ in range(self.rollouts):
            board, left, key = state.board[None], state.turns_left, state.key()
            steps = []
            for _ in range(min(prefix, state.turns_left)):
                swaps = sw_all[mb.legal_mask(board)[0]]
                if key in visited and rng.random() >= self.epsilon:
                    row = touched.get(key, self.Q.get(key, {}))
                    a = tuple(swaps[int(np.argmax([row.get(tuple(x), 0.0) for x in swaps.tolist()]))].tolist())
                else:
                    a = tuple(swaps[int(rng.integers(len(swaps)))].tolist())
                visited.add(key)
                board, points = mb.play(board, np.array([index[a]]), refill)
                left -= 1
                mb.settle(board, left, rng)
                next_key = (board[0].tobytes(), left)
                steps.append((key, a, float(points[0]), next_key))
                key = next_key
            for k, a, r, nk in steps:  # the episode's own updates, in order, before the next episode starts
                row = q_row(k)
                row[a] = (1 - self.eta) * row.get(a, 0.0) + self.eta * (r + self.gamma * value(nk))
            heads.append(steps)
            tails.append((board[0], left))
        left = tails[0][1]
        deep, boards = [], np.stack([b for b, _ in tails])
        mask = mb.legal_mask(boards)
        while left > 0:
            choice = mb.random_legal(mask, rng)
            after, points = mb.play(boards, choice, refill)
            left -= 1
            mask = mb.settle(after, left, rng)
            deep.append((boards, choice, points, after, left))
            boards = after
        starts = [(b.tobytes(), lf) for b, lf in tails]
        keys = [(b.tobytes(), lf) for _, _, _, after, lf in deep for b in after]
        if deep and (len(set(keys)) != len(keys) or any(k in self.Q or k in visited or k in touched for k in keys)
                     or any(k in visited for k in starts) or len(set(starts)) != len(starts)):
            return False  # a state the batch treats as new is not: the episodes are not independent
        self.Q.update(touched)
        self.simulated_moves += sum(len(h) for h in heads) + len(deep) * len(tails)
        for e in range(len(tails)):
            for before, choice, pts, after, lf in deep:
                self._update((before[e].tobytes(), lf + 1), tuple(sw_all[choice[e]].tolist()), float(pts[e]),
                             (after[e].tobytes(), lf))
        return True

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

    def tree(self, state: Match3State, rng=None) -> dict:
        """Its one ply (agents/search_tree.one_ply): each swap a leaf worth Q(s, swap), explain's."""
        return one_ply(self.explain(state), learnt=f"Q after {self.rollouts} rollouts (gamma {self.gamma:g})")

    def value_legend(self, mover: str) -> str:
        return (f"Q at the root after {self.rollouts} rollouts: the discounted points (gamma {self.gamma:g}) "
                "the agent expects from each swap.")

    def act(self, state: Match3State, rng) -> tuple:
        return self.decide(state, rng).action

    def decide(self, state: Match3State, rng, tree: bool = False) -> Decision:
        """The rollouts from `state` on `rng` (learning Q), then Q at the root: the best swap played."""
        if not len(state.swaps()):
            raise ValueError("no legal swap in this state")
        self.learn(state, rng)
        values = self.explain(state)
        return Decision(max(values, key=values.get), values, self.tree(state) if tree else None)
