"""One game in progress: its rules, state, undo history, seed and generator, and who played each move.

Screens draw a session and map input to its actions; they keep no copy of the
state. Everything that happens to the game goes through `play`, `undo` and
`restart`, and whoever needs to see each new state (an agent that learns while
it plays, a sound, a statistics record) subscribes with `listen`. A session is
saved as JSON (`snapshot`) and continued from it (`GameSession.restore`), so a
game left on screen resumes where it was; the whole undo history is kept.
No pygame here: the headless player and the environments can drive it too.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np


def encode_state(rules, state) -> Any:
    """A state as JSON-able data: the rules' own codec where they have one, else their text form."""
    encode = getattr(rules, "encode_state", None)
    return encode(state) if encode is not None else rules.format_state(state)


def decode_state(rules, data) -> Any:
    """The inverse of encode_state; ValueError / KeyError / TypeError if `data` does not fit these rules."""
    decode = getattr(rules, "decode_state", None)
    if decode is not None:
        return decode(data)
    if not isinstance(data, str):
        raise TypeError(f"a saved {rules.game_id} state is text, not {type(data).__name__}")
    return rules.parse_state(data)


class GameSession:
    """A game in progress. In: rules and a seed (all chance is drawn from a Generator of that seed).

    state: the current state; history: the states before each move (undo pops them); movers: who
    played each move ("you" or an agent's name)."""

    def __init__(self, rules, seed: int, state=None, rng: np.random.Generator | None = None):
        """rng: a Generator to draw chance from instead of one of `seed` (an environment's np_random)."""
        self.rules = rules
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed) if rng is None else rng
        self.state = rules.new_state(self.rng) if state is None else state
        self.history: list = []
        self.movers: list[str] = []
        self.details = None  # what the last move did, where the rules tell (match-3's clearing steps)
        self._listeners: list[Callable[[Any], None]] = []

    # --- what the game is ----------------------------------------------------
    @property
    def over(self) -> bool:
        return self.rules.is_terminal(self.state)

    @property
    def to_move(self) -> int:
        return self.rules.to_move(self.state)

    @property
    def moves(self) -> int:
        return len(self.history)

    def legal_actions(self):
        return self.rules.legal_actions(self.state)

    def outcome(self) -> dict:
        return self.rules.outcome(self.state)

    def played_by(self, who: str) -> int:
        """How many moves of this game `who` played."""
        return self.movers.count(who)

    # --- what happens to it -------------------------------------------------
    def listen(self, listener: Callable[[Any], None]) -> None:
        """Call listener(state) with each state a move leads to (after any chance)."""
        self._listeners.append(listener)

    def play(self, action, by: str = "you", checked: bool = False) -> bool:
        """Play a legal action (and the chance that follows); False, changing nothing, if it is not legal.
        checked: the caller has checked that it is legal (an environment's mask): no second check."""
        if not checked and (self.over or action not in self.legal_actions()):
            return False
        self.history.append(self.state)
        self.movers.append(by)
        detailed = getattr(self.rules, "step_with_details", None)
        if detailed is not None:
            self.state, self.details = detailed(self.state, action, self.rng)
        else:
            self.state = self.rules.step(self.state, action, self.rng)
        for listener in self._listeners:
            listener(self.state)
        return True

    def undo(self) -> bool:
        """Back one move, chance included; False at the start of the game."""
        if not self.history:
            return False
        self.state = self.history.pop()
        self.movers.pop()
        return True

    def restart(self, seed: int | None = None, rules=None) -> None:
        """A new game (same seed unless given; new rules, e.g. another board size, if given)."""
        if rules is not None:
            self.rules = rules
        if seed is not None:
            self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.state = self.rules.new_state(self.rng)
        self.history, self.movers = [], []

    def next_game(self) -> None:
        """A new game drawn from the same running generator (the next round at a card table)."""
        self.state = self.rules.new_state(self.rng)
        self.history, self.movers = [], []

    def show(self, state) -> None:
        """Put `state` on the board as it is, with no history (environments render through this)."""
        self.state, self.history, self.movers = state, [], []

    # --- kept across runs ----------------------------------------------------
    def snapshot(self) -> dict:
        """The whole game as JSON-able data: state, every earlier state, movers, seed, generator."""
        return {"seed": self.seed, "state": encode_state(self.rules, self.state),
                "history": [encode_state(self.rules, s) for s in self.history], "movers": list(self.movers),
                "rng": self.rng.bit_generator.state}

    @classmethod
    def restore(cls, rules, data: dict) -> "GameSession":
        """The session of a snapshot; ValueError / KeyError / TypeError if it does not fit these rules."""
        session = cls(rules, int(data["seed"]), state=decode_state(rules, data["state"]))
        session.history = [decode_state(rules, s) for s in data["history"]]
        session.movers = [str(m) for m in data.get("movers", ["you"] * len(session.history))]
        if len(session.movers) != len(session.history):
            raise ValueError("the saved movers do not match the saved moves")
        session.rng.bit_generator.state = data["rng"]
        return session
