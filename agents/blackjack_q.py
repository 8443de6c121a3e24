"""Blackjack's Q-learning (the course's Problem 3 on its BlackjackMDP): the course's feature extractor, a fixed
policy played as an RL algorithm, and the agents q-learning and fixed-threshold, on agents/qlearning.py's
algorithm.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.base import register, COURSE
from agents.qlearning import QLearningAlgorithm, identity_feature_extractor  # noqa: F401  (the course's names)
from agents.value_iteration import ValueIterationParams, policy_value, solved
from arcade.games.blackjack import ACTIONS, GAME, QUIT, BlackjackMDP
from arcade.games.mdp import simulate
from arcade.foundation.setting_fields import ranged
from arcade.foundation.storage import load_json, save_json, set_aside


def blackjack_feature_extractor(state, action):
    """The three families of the course: the total with the action; which card values are
    left (present or not) with the action; how many of each value are left, keyed by index, with the action."""
    total, _, counts = state
    features = [((action, total), 1)]
    if counts is not None:
        features.append(((action, tuple(1 if c > 0 else 0 for c in counts)), 1))
        features.extend(((action, i, c), 1) for i, c in enumerate(counts))
    return features


def blackjack_is_end(state) -> bool:
    return state[2] is None


class FixedRLAlgorithm:
    """Plays a fixed policy; states the policy never saw get `default` (and are counted)."""

    def __init__(self, pi: dict, default=QUIT):
        self.pi = pi
        self.default = default
        self.unseen = 0

    def get_action(self, state):
        action = self.pi.get(state)
        if action is None:
            self.unseen += 1
            return self.default
        return action

    def incorporate_feedback(self, state, action, reward, new_state) -> None:
        pass


FORMAT_VERSION = 1  # of a saved q-learning table (JSON: the deck, the weights, the step counters)
CHECKPOINTS = 30  # points of a training's learning curve


def _lists(value):
    """A feature key as JSON keeps it: tuples as lists, all the way down."""
    return [_lists(v) for v in value] if isinstance(value, tuple) else value


def _tuples(value):
    """A JSON feature key (lists) back as the tuples the feature extractor makes."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def deck_of(mdp) -> dict:
    """What a table learnt on a deck is only good for: the deck's cards, copies, threshold and peek cost."""
    return {"card_values": list(mdp.card_values), "multiplicity": mdp.multiplicity, "threshold": mdp.threshold,
            "peek_cost": mdp.peek_cost}


@dataclass(frozen=True)
class QLearningParams:
    """settings.toml's [blackjack.q-learning]."""

    epsilon: float = ranged(0.0, 1.0, 0.2, course=0.2)  # the course's explorationProb
    trials: int = ranged(1, 10_000_000, 30_000, course=30_000, trains_only=True)  # rounds of one training run


@register("q-learning", ("blackjack",), "Q-learning with the blackjack features; learns while it plays, and "
          "trains on its deck", order=20,
          about="Q(s, a) is a weighted sum of features of the hand and the deck. Each step moves the weights "
                "toward reward + the best Q of the next state (step size 1/sqrt(steps)), exploring with "
                "probability epsilon. Training plays many rounds of this deck.",
          params=QLearningParams, group=COURSE,
          title="Q-learning (the course's)")
class QLearningAgent:
    """Q-learning on the blackjack features ([blackjack.q-learning] epsilon): online while it plays, and offline
    (`y`, its `trials` rounds) on the deck of its rules, saved per deck in the data folder and loaded from
    there when it is made."""

    name = "q-learning"

    def __init__(self, rules, settings):
        self.rules = rules
        self.epsilon = settings.agent_params(rules.game_id, "q-learning").epsilon
        self.ql = QLearningAlgorithm(rules.mdp.actions, rules.mdp.discount(), blackjack_feature_extractor,
                                     self.epsilon, is_end=blackjack_is_end)
        self.learning = True
        self._last = None  # (mdp state, action, reward so far) of the move being learnt from
        self.tolerance = settings.agent_params(rules.game_id, "value-iteration").tolerance  # the optimum's
        self._optimum: float | None = None
        self.data_dir = Path(settings.data_dir)
        self.source = "untrained (it learns as it plays, and from training)"
        self.run = (0, 0)  # (rounds of its last training run, rounds of it done): a stopped run resumes
        if self.default_path().exists():
            self.load(self.default_path())

    # --- training (Trains) -----------------------------------------------------------------------------
    @classmethod
    def default_episodes(cls, settings, game: str) -> int:
        return settings.agent_params(GAME.id, "q-learning").trials

    def default_path(self) -> Path:
        """The table of this deck in the data folder (one per deck: a table is only good for its own)."""
        return self.data_dir / f"q_learning_blackjack_{self.rules.preset}.json"

    def resumed_at(self, episodes: int) -> int:
        """The rounds done of a stopped run of `episodes` rounds whose checkpoint is the table it plays (train
        goes on from there); 0 where it starts afresh."""
        return self.run[1] if self.run[0] == episodes and 0 < self.run[1] < episodes else 0

    def optimum(self) -> float:
        """Value iteration's expected return from the start of this deck (solved once per deck)."""
        if self._optimum is None:
            mdp = self.rules.mdp
            self._optimum = solved(mdp, self.tolerance).V[mdp.start_state()]
        return self._optimum

    def greedy_return(self) -> float:
        """The exact expected return of playing greedily on the weights so far (no exploration)."""
        def greedy(state, actions):
            qs = self.ql.q_values(state, actions)
            return actions[qs.index(max(qs))]
        return policy_value(self.rules.mdp, greedy)

    def train(self, episodes: int, rng: np.random.Generator, progress=None, from_scratch: bool = False,
              stop=None, checkpoint=None, watch=None, jobs: int = 1) -> None:
        """Q-learning over `episodes` rounds of this deck (exploring with epsilon, the course's simulate); at
        about CHECKPOINTS points checkpoint(done, figures) with the greedy policy's exact expected return as
        a share of the optimum's. A set `stop` ends it after the current stretch.
        A run of N rounds resumes where a saved unfinished run of N rounds stopped (its checkpoint: the same
        command goes on), counting from there."""
        done = 0 if from_scratch else self.resumed_at(episodes)  # (a stopped run of as many goes on from there)
        if from_scratch:
            self.ql = QLearningAlgorithm(self.rules.mdp.actions, self.rules.mdp.discount(),
                                         blackjack_feature_extractor, self.epsilon, is_end=blackjack_is_end)
        self.ql.epsilon = self.epsilon
        self.ql.use_rng(rng)
        every = max(100, episodes // CHECKPOINTS)
        self.run = (episodes, done)
        if progress and done:
            progress(done)
        while done < episodes and not (stop is not None and stop.is_set()):
            stretch = min(every, episodes - done)
            simulate(self.rules.mdp, self.ql, stretch, rng=rng)
            done += stretch
            self.run = (episodes, done)
            if progress:
                progress(done)
            if checkpoint is not None:
                value, best = self.greedy_return(), self.optimum()
                checkpoint(done, {"share of the optimum's return": max(0.0, value / best) if best > 0 else value})
        self.ql.epsilon = self.epsilon if self.learning else 0.0
        self.source = f"trained {done:,} rounds (unsaved)"

    def save(self, path: Path | None = None) -> bool:
        path = Path(path) if path else self.default_path()
        ok = save_json(path, {"format": FORMAT_VERSION, "deck": deck_of(self.rules.mdp),
                              "weights": [[_lists(k), v] for k, v in self.ql.weights.items()],
                              "num_iters": self.ql.num_iters, "updates": self.ql.updates,
                              "run": list(self.run)})
        if ok:
            self.source = f"trained ({path.name})"
        return ok

    def load(self, path: Path) -> bool:
        """The weights of a table saved for this deck; False (said) if missing, damaged or of another deck."""
        data = load_json(path, {})
        if not data:
            return False
        try:
            if data.get("format") != FORMAT_VERSION or data["deck"] != deck_of(self.rules.mdp):
                raise ValueError("a table of another deck or format")
            weights = {_tuples(k): float(v) for k, v in data["weights"]}
            num_iters, updates = int(data["num_iters"]), int(data["updates"])
            run = data.get("run", [0, 0])
            run = (int(run[0]), int(run[1])) if isinstance(run, list) and len(run) == 2 else (0, 0)
        except (KeyError, TypeError, ValueError) as exc:
            set_aside(Path(path), f"not a q-learning table of this deck ({exc})", "it learns from scratch")
            return False
        self.ql.weights, self.ql.num_iters, self.ql.updates = weights, num_iters, updates
        self.run = run
        self.source = f"trained ({Path(path).name})"
        return True

    def set_learning(self, on: bool) -> None:
        self.learning = on
        self.ql.epsilon = self.epsilon if on else 0.0
        self._last = None

    def is_learning(self) -> bool:
        return self.learning

    def figures(self) -> dict:
        """Its updates and weights so far, and the optimum it learns toward: value iteration's V of the start
        (solved once per deck), so a learning curve can be drawn against it."""
        return {"updates": self.ql.updates, "weights": len(self.ql.weights), "optimum": self.optimum()}

    def explain(self, state) -> dict[str, float]:
        """{action: Q(s, a) = w . phi(s, a)} with the weights learnt so far."""
        return {a: self.ql.get_q(state.mdp_state, a) for a in self.rules.legal_actions(state)}

    def tree(self, state, rng=None) -> dict:
        """Q(s, a) of each action over the transitions (p, s', r) behind it, as the course's MDP gives them: a
        chance node an action, worth the learnt Q(s, a) (explain's), each transition a leaf worth r + gamma
        max Q(s', a') (0 once the round is over). The node's "backup" is the transitions' probability-weighted
        sum and "td error" how far the learnt Q is from it (what learning moves it by): an estimate, so not the
        mean of its leaves."""
        from agents.search_tree import edge, node
        from agents.value_iteration import state_words

        q = self.explain(state)
        mdp, gamma = self.rules.mdp, self.rules.mdp.discount()
        moves = []
        for action, value in q.items():
            leaves = []
            rounds = self.rules.chance_outcomes(state, action)  # (the same transitions as round states: drawn)
            for (nxt, p, reward), (after, _) in zip(mdp.succ_and_prob_reward(state.mdp_state, action), rounds,
                                                    strict=True):
                later = 0.0 if nxt.counts is None else max(self.ql.get_q(nxt, a) for a in mdp.actions(nxt))
                leaves.append(edge(node("leaf", reward + gamma * later, reward=float(reward)),
                                   outcome=state_words(nxt), p=float(p), state=after))
            backup = sum(e["p"] * e["node"]["value"] for e in leaves)
            moves.append(edge(node("chance", value, leaves, backup=float(backup), estimate="learnt Q",
                                   **{"td error": float(backup - value)}), action=action))
        return node("max", max(q.values(), default=0.0), moves) if moves else node("leaf", 0.0)

    def value_legend(self, mover: str) -> str:
        return "Q: the learnt estimate (w . features) of the round's reward after each action."

    def describe(self) -> list[str]:
        return [f"table: {self.source}", f"q-learning: learning {'on' if self.learning else 'off'} (l)",
                f"epsilon {self.ql.epsilon:g}, {self.ql.updates} updates",
                f"{len(self.ql.weights)} weights"]

    def act(self, state, rng) -> str:
        """Epsilon-greedy over Q (exploring with `rng`); remembers the step to learn from in observe()."""
        self.ql.use_rng(rng)
        legal = self.rules.legal_actions(state)
        action = self.ql.get_action(state.mdp_state)
        if action not in legal:  # exploration may pick a second Peek: take the best legal action
            action = max(legal, key=lambda a: self.ql.get_q(state.mdp_state, a))
        self._last = (state.mdp_state, action, state.reward) if self.learning else None
        return action

    def observe(self, state) -> None:
        """Learn from the move just made, now that its outcome `state` is known."""
        if self._last is not None and self.learning:
            s, a, before = self._last
            self.ql.incorporate_feedback(s, a, state.reward - before, state.mdp_state)
        self._last = None


@register("fixed-threshold", ("blackjack",),
          "the optimal policy of the same deck with the threshold 5 lower (the course's transfer experiment)", order=30,
          about="The course's transfer experiment: it solves the same deck with a threshold 5 lower by value "
                "iteration and plays that policy here. It stops taking cards too early for this table.",
          params=ValueIterationParams, group=COURSE, title="Fixed threshold")
class FixedThresholdAgent:
    """The course's transfer experiment: pi* of the same deck with a threshold 5 lower, played here."""

    name = "fixed-threshold"

    def __init__(self, rules, settings):
        self.rules = rules
        mdp = rules.mdp
        self.solved_threshold = max(1, mdp.threshold - 5)
        other = BlackjackMDP(mdp.card_values, mdp.multiplicity, self.solved_threshold, mdp.peek_cost)
        self.solution = solved(other, settings.agent_params(rules.game_id, "fixed-threshold").tolerance)
        self.fixed = FixedRLAlgorithm(self.solution.pi)

    def describe(self) -> list[str]:
        sol = self.solution
        return [f"policy solved for threshold {self.solved_threshold}: {len(sol.states)} states, {sol.sweeps} sweeps",
                f"(the table's is {self.rules.mdp.threshold})", f"unseen states met: {self.fixed.unseen}"]

    def act(self, state, rng=None) -> str:
        action = self.fixed.get_action(state.mdp_state)
        return action if action in self.rules.legal_actions(state) else QUIT


__all__ = ["ACTIONS", "QLearningAlgorithm", "FixedRLAlgorithm", "identity_feature_extractor", "blackjack_is_end",
           "blackjack_feature_extractor"]
