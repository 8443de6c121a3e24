"""Peeking blackjack, the course's MDP: Take, Peek or Quit against a deck of known make-up.

A state is an `MDPState` (total in hand, index of the peeked card or None, counts
of each card value left), with the counts None once the game is over; it is a
NamedTuple, so the course's positional `(total, peeked, counts)` still works. Taking draws a card
(the peeked one for certain, else each value with its share of the deck); going
over the threshold busts (reward 0); quitting, or taking the last card without
busting, pays the hand's total. Peeking costs `peek_cost` and cannot be done
twice in a row. The arcade plays one round as one game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from arcade.games.base import is_whole_number, no_options
from arcade.foundation.setting_fields import one_of
from arcade.games.declare import GameInfo, GameType, declare


@dataclass(frozen=True)
class BlackjackSettings:
    preset: str = one_of(("small", "large", "standard", "peeking"), "small")


TAKE, PEEK, QUIT = "Take", "Peek", "Quit"
ACTIONS = (TAKE, PEEK, QUIT)


class MDPState(NamedTuple):
    total: int  # the hand's total
    peeked: int | None  # index (into card_values) of the card peeked at, or None
    counts: tuple[int, ...] | None  # cards left of each value; None once the round is over

    @property
    def over(self) -> bool:
        return self.counts is None


MAX_THRESHOLD = 1000


def mdp_parameter_problem(card_values, multiplicity, threshold, peek_cost) -> str | None:
    """Why these cannot be a peeking-blackjack deck and rules (one line), or None: card values are
    positive integers (at least one), the multiplicity and the threshold positive integers (the threshold
    at most MAX_THRESHOLD), the peek cost an integer of at least 0."""
    try:
        values = list(card_values)
    except TypeError:
        return f"card_values must be a sequence of positive integers, got {card_values!r}"
    if not values or not all(is_whole_number(v) and v > 0 for v in values):
        return f"card_values must be one or more positive integers, got {card_values!r}"
    for name, value, least in (("multiplicity", multiplicity, 1), ("threshold", threshold, 1),
                               ("peek_cost", peek_cost, 0)):
        if not is_whole_number(value) or value < least:
            return f"{name} must be an integer of at least {least}, got {value!r}"
    if threshold > MAX_THRESHOLD:
        return f"threshold must be at most {MAX_THRESHOLD} (every total up to it is a state to solve), got {threshold!r}"
    return None


class BlackjackMDP:
    def __init__(self, card_values, multiplicity: int, threshold: int, peek_cost: int):
        self.card_values = list(card_values)
        self.multiplicity = multiplicity
        self.threshold = threshold
        self.peek_cost = peek_cost
        self._succ: dict = {}  # (state, action) -> transitions: learners ask for the same ones over and over

    def __getstate__(self):
        """Pickled (to a training or agent process) without the transitions cache: it is only a cache, it
        can be large, and another thread may be filling it while the rules are sent (a pickle of a dict that
        grows under it fails: "dictionary changed size during iteration")."""
        return {k: v for k, v in self.__dict__.items() if k != "_succ"}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._succ = {}

    def __repr__(self):
        return (f"BlackjackMDP({self.card_values}, multiplicity={self.multiplicity}, threshold={self.threshold}, "
                f"peek_cost={self.peek_cost})")

    def start_state(self):
        return MDPState(0, None, (self.multiplicity,) * len(self.card_values))

    def actions(self, state) -> list[str]:
        return list(ACTIONS)

    def discount(self) -> float:
        return 1

    def succ_and_prob_reward(self, state, action) -> list[tuple]:
        """The transitions [(next state, probability, reward)] (the list is shared: do not change it)."""
        key = (state, action)
        cached = self._succ.get(key)
        if cached is None:
            cached = self._succ[key] = self._transitions(state, action)
        return cached

    def _transitions(self, state, action) -> list[tuple]:
        total, peeked, counts = state
        if counts is None:
            return []
        if action == QUIT:
            return [(MDPState(total, None, None), 1, total)]
        if action == PEEK:
            if peeked is not None:
                return []
            n = sum(counts)
            return [(MDPState(total, i, counts), c / n, -self.peek_cost) for i, c in enumerate(counts) if c > 0]
        if action != TAKE:
            raise ValueError(f"unknown action {action!r}; use one of {', '.join(ACTIONS)}")
        n = sum(counts)
        out = []
        for i in self.drawable(state):
            p = 1 if peeked is not None else counts[i] / n
            new_total = total + self.card_values[i]
            if new_total > self.threshold:
                out.append((MDPState(new_total, None, None), p, 0))
                continue
            left = counts[:i] + (counts[i] - 1,) + counts[i + 1:]
            if sum(left) == 0:
                out.append((MDPState(new_total, None, None), p, new_total))
            else:
                out.append((MDPState(new_total, None, left), p, 0))
        return out

    @staticmethod
    def drawable(state) -> list[int]:
        """Indices of the cards a Take can draw, in the order of its transitions."""
        _, peeked, counts = state
        return [peeked] if peeked is not None else [i for i, c in enumerate(counts) if c > 0]

    def compute_states(self) -> list:
        from arcade.games.mdp import compute_states

        return compute_states(self)


# The course's MDPs
def small_mdp() -> BlackjackMDP:
    """The course's smallMDP, also the 'original' MDP of its policy-transfer experiment."""
    return BlackjackMDP([1, 5], 2, 10, 1)


def large_mdp() -> BlackjackMDP:
    return BlackjackMDP([1, 3, 5, 8, 10], 3, 40, 1)


def new_threshold_mdp() -> BlackjackMDP:
    return BlackjackMDP([1, 5], 2, 15, 1)


def peeking_mdp() -> BlackjackMDP:
    """Threshold 20, peek cost 1, and a deck that makes peeking the best move in >= 10% of states:
    a card worth more than the threshold busts any hand, so knowing whether it comes next pays."""
    return BlackjackMDP([2, 3, 4, 21], 2, 20, 1)


def standard_mdp() -> BlackjackMDP:
    """Standard-like: one suit (ace to nine, and four cards worth 10), threshold 21."""
    return BlackjackMDP([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], 1, 21, 1)


PRESETS = {"small": ("the course's smallMDP", small_mdp), "large": ("the course's largeMDP", large_mdp),
           "standard": ("standard-like: one suit, 10s four times", standard_mdp),
           "peeking": ("the peeking deck", peeking_mdp)}


class CounterexampleMDP:
    """Problem 1: adding the course's noise raises the optimal value of the start state.

    From the start one action reaches a dull end (reward 0) with probability 0.9 and a rich end
    (reward 100) with probability 0.1: V = 10. With the noise, the rich end has 0.5 * 0.1 + 0.5 / 2 = 0.3:
    V = 30. Noise is not always bad: it can move probability toward better outcomes.
    """

    def start_state(self):
        return "start"

    def actions(self, state):
        return ["go"] if state == "start" else []

    def discount(self):
        return 1

    def succ_and_prob_reward(self, state, action):
        if state != "start":
            return []
        return [("dull", 0.9, 0), ("rich", 0.1, 100)]


def counterexample_mdp() -> CounterexampleMDP:
    return CounterexampleMDP()


# --- the arcade's view: one round is one game -----------------------------------------------
@dataclass(frozen=True)
class RoundState:
    """One round: the MDP state, the reward collected so far, the deck as last seen, the last card drawn."""

    mdp_state: MDPState
    reward: float = 0.0  # collected so far this round
    deck: tuple[int, ...] = ()  # cards left of each value, also once the round is over
    drawn: int | None = None  # index of the card the last Take drew, if the last action was a Take

    @property
    def over(self) -> bool:
        return self.mdp_state.counts is None


def parse_state_text(text: str, mdp: BlackjackMDP) -> tuple:
    """'TOTAL|PEEKED|C1,C2,...' (PEEKED an index or '-') -> an MDP state of that deck."""
    parts = text.strip().split("|")
    if len(parts) != 3:
        raise ValueError(f"'{text}' is not TOTAL|PEEKED|COUNTS, e.g. 6|-|2,1 (PEEKED: a card index or -)")
    try:
        total = int(parts[0])
        peeked = None if parts[1].strip() in ("-", "") else int(parts[1])
        counts = tuple(int(c) for c in parts[2].split(","))
    except ValueError:
        raise ValueError(f"'{text}' has a part that is not a whole number") from None
    if len(counts) != len(mdp.card_values):
        raise ValueError(f"the deck has {len(mdp.card_values)} card values {mdp.card_values}, got {len(counts)} counts")
    if any(c < 0 or c > mdp.multiplicity for c in counts) or sum(counts) == 0:
        raise ValueError(f"counts must be 0 to {mdp.multiplicity} and not all 0")
    if peeked is not None and not (0 <= peeked < len(counts) and counts[peeked] > 0):
        raise ValueError(f"peeked index {peeked} is not a card left in the deck")
    if not 0 <= total <= mdp.threshold:
        raise ValueError(f"total must be 0 to the threshold {mdp.threshold}")
    return MDPState(total, peeked, counts)


def format_state_text(state) -> str:
    """The inverse of parse_state_text: an MDP state (not over) as 'TOTAL|PEEKED|C1,C2,...'."""
    total, peeked, counts = state
    if counts is None:
        raise ValueError("a finished round has no text form (its deck is gone)")
    return f"{total}|{'-' if peeked is None else peeked}|{','.join(map(str, counts))}"


def hand(rules, states) -> list[int]:
    """The values of the cards in hand, read off the round's states in order (the session's history and its
    state): each Take's card. A state alone holds the hand's total, not its cards."""
    return [rules.mdp.card_values[s.drawn] for s in list(states)[1:] if s.drawn is not None]


class BlackjackRules:
    """A round of the MDP as an arcade game (one player; the score is the round's reward)."""

    def __init__(self, mdp: BlackjackMDP, preset: str = "small"):
        self.mdp = mdp
        self.preset = preset

    def new_state(self, rng=None) -> RoundState:
        start = self.mdp.start_state()
        return RoundState(start, deck=start.counts)

    def info(self) -> GameInfo:
        """Take, peek, quit; every take draws a card, a peek comes before a take at most: 2 n + 1 actions for n
        cards. The reward: at most the threshold (quit or the last card under it), at least a peek a card."""
        mdp = self.mdp
        cards = len(mdp.card_values) * mdp.multiplicity
        return GameInfo(len(ACTIONS), 2 * cards + 1, (-float(mdp.peek_cost * cards), float(mdp.threshold)))

    def legal_actions(self, state: RoundState) -> list[str]:
        return [a for a in ACTIONS if self.mdp.succ_and_prob_reward(state.mdp_state, a)]

    def transitions(self, state: RoundState, action: str):
        return self.mdp.succ_and_prob_reward(state.mdp_state, action)

    def chance_outcomes(self, state: RoundState, action: str) -> list[tuple[RoundState, float]]:
        """Every round state the action may lead to (a card drawn or shown), with its probability."""
        options = self.transitions(state, action)
        if not options:
            raise ValueError(f"{action} is not possible here")
        drawable = self.mdp.drawable(state.mdp_state) if action == TAKE else None
        out = []
        for i, (nxt, p, reward) in enumerate(options):
            drawn = drawable[i] if drawable is not None else None
            deck = state.deck if drawn is None else state.deck[:drawn] + (state.deck[drawn] - 1,) + state.deck[drawn + 1:]
            out.append((RoundState(nxt, state.reward + reward, deck, drawn), float(p)))
        return out

    def step(self, state: RoundState, action: str, rng: np.random.Generator) -> RoundState:
        """One of chance_outcomes(state, action), drawn with its probability."""
        outcomes = self.chance_outcomes(state, action)
        if len(outcomes) == 1:
            return outcomes[0][0]
        probs = np.array([p for _, p in outcomes], dtype=float)
        return outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0]

    def is_terminal(self, state: RoundState) -> bool:
        return state.over

    def to_move(self, state) -> int:
        return 0

    def outcome(self, state: RoundState) -> dict:
        return {"score": state.reward, "total": state.mdp_state.total}

    def parse_state(self, text: str, **options) -> RoundState:
        no_options("blackjack", options)
        mdp_state = parse_state_text(text, self.mdp)
        return RoundState(mdp_state, deck=mdp_state.counts)

    def format_state(self, state: RoundState) -> str:
        return format_state_text(state.mdp_state)

    def format_action(self, action) -> str:
        return str(action)

    def encode_state(self, state: RoundState) -> dict:
        """A round's state as JSON-able data, whole: the text form holds the hand's total, peek and deck only
        (a round kept and played on came back with no reward so far and no cards in hand)."""
        total, peeked, counts = state.mdp_state
        return {"total": int(total), "peeked": peeked, "counts": None if counts is None else list(counts),
                "reward": float(state.reward), "deck": list(state.deck), "drawn": state.drawn}

    def decode_state(self, data) -> RoundState:
        """The inverse of encode_state (a text of an earlier version: parse_state's form); ValueError / KeyError
        / TypeError where it does not fit this deck."""
        if isinstance(data, str):
            return self.parse_state(data)
        n, most = len(self.mdp.card_values), self.mdp.multiplicity
        deck = tuple(int(c) for c in data["deck"])
        drawn = None if data["drawn"] is None else int(data["drawn"])
        reward = float(data["reward"])
        if len(deck) != n or any(not 0 <= c <= most for c in deck) or (drawn is not None and not 0 <= drawn < n) \
                or not np.isfinite(reward):
            raise ValueError(f"a saved blackjack round that does not fit this deck ({n} card values)")
        if data["counts"] is None:
            total = int(data["total"])
            if not 0 <= total:
                raise ValueError("a saved finished round with a negative total")
            mdp_state = MDPState(total, None, None)
        else:
            peeked = "-" if data["peeked"] is None else int(data["peeked"])
            counts = ",".join(str(int(c)) for c in data["counts"])
            mdp_state = parse_state_text(f"{int(data['total'])}|{peeked}|{counts}", self.mdp)
        return RoundState(mdp_state, reward, deck, drawn)

    def observation(self, state: RoundState) -> dict:
        """What a learner sees of a round (the Gymnasium environment's observation): the hand's total, the
        peeked card's index (the number of card values when none) and the cards left of each value."""
        total, peeked, _ = state.mdp_state
        n = len(self.mdp.card_values)
        return {"total": int(total), "peeked": n if peeked is None else int(peeked),
                "deck": np.array(state.deck, dtype=np.int64)}


def make_rules(settings) -> BlackjackRules:
    """The rules of settings.toml's [blackjack] table: its preset's deck."""
    name = settings.blackjack.preset
    return BlackjackRules(PRESETS[name][1](), name)


HOW_TO = ("Take cards from a deck whose make-up you see, peek at the next one for a small cost, or quit and "
          "collect your total. Go over the threshold and the round pays nothing.")  # the first visit's card
GAME = declare(GameType(id="blackjack", title="Blackjack",
                        how_to=HOW_TO, blurb="Take, peek or quit; value iteration solves it.",
               players=1, seat_names=("player",), has_chance=True,  # the card a Take draws, the card a Peek shows
               settings=BlackjackSettings, parameters=("preset",), rules_class=BlackjackRules,
               unit="rounds", order=50))
