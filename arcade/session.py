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

from arcade.games.base import is_whole_number


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
        # the generator as the game's first state was drawn, and each move's action and the generator before it:
        # undo rewinds chance too, so the moves played from `start_rng` give this game exactly (record()). Only a
        # session drawing from a generator of its own keeps them (an environment's steps pay nothing for it)
        self._replayable = rng is None
        self.start_rng = self.rng.bit_generator.state if state is None and self._replayable else None
        self.state = rules.new_state(self.rng) if state is None else state
        self.history: list = []
        self.movers: list[str] = []
        self.actions: list = []
        self._rng_before: list = []
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
        self.actions.append(action)
        self._rng_before.append(self.rng.bit_generator.state if self.start_rng is not None else None)
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
        self.actions.pop()
        before = self._rng_before.pop()
        if before is None:  # (a move made before the game was resumed: its chance cannot be drawn again)
            self.start_rng = None
        else:
            self.rng.bit_generator.state = before
        return True

    def restart(self, seed: int | None = None, rules=None) -> None:
        """A new game (same seed unless given; new rules, e.g. another board size, if given)."""
        if rules is not None:
            self.rules = rules
        if seed is not None:
            self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self._new_game()

    def next_game(self) -> None:
        """A new game drawn from the same running generator (the next round at a card table)."""
        self._new_game()

    def _new_game(self) -> None:
        self.start_rng = self.rng.bit_generator.state if self._replayable else None
        self.state = self.rules.new_state(self.rng)
        self.history, self.movers, self.actions, self._rng_before = [], [], [], []

    def show(self, state) -> None:
        """Put `state` on the board as it is, with no history (environments render through this)."""
        self.state, self.history, self.movers, self.actions, self._rng_before = state, [], [], [], []
        self.start_rng = None  # (not drawn from a generator here: not replayable)

    # --- kept across runs ----------------------------------------------------
    def snapshot(self) -> dict:
        """The whole game as JSON-able data: state, every earlier state, movers, seed, generator."""
        return {"seed": self.seed, "state": encode_state(self.rules, self.state),
                "history": [encode_state(self.rules, s) for s in self.history], "movers": list(self.movers),
                "rng": self.rng.bit_generator.state, "start_rng": self.start_rng, "actions": json_actions(self.actions)}

    @classmethod
    def restore(cls, rules, data: dict) -> "GameSession":
        """The session of a snapshot; ValueError / KeyError / TypeError if it does not fit these rules."""
        session = cls(rules, int(data["seed"]), state=decode_state(rules, data["state"]))
        session.history = [decode_state(rules, s) for s in data["history"]]
        session.movers = [str(m) for m in data.get("movers", ["you"] * len(session.history))]
        if len(session.movers) != len(session.history):
            raise ValueError("the saved movers do not match the saved moves")
        session.rng.bit_generator.state = data["rng"]
        actions = data.get("actions")  # (a game kept before moves were: not replayable)
        if data.get("start_rng") is not None and actions is not None and len(actions) == len(session.history):
            session.start_rng, session.actions = data["start_rng"], [as_action(a) for a in actions]
        else:
            session.actions = [None] * len(session.history)
        session._rng_before = [None] * len(session.history)  # (not kept: undo past here cannot draw again)
        return session

    def record(self) -> dict | None:
        """The game as a replay needs it (the generator at its start, every move and who played it, how it
        ended), JSON-able; None where it cannot be replayed (shown from a state, or undone past a resume)."""
        if self.start_rng is None or any(a is None for a in self.actions):
            return None
        return {"seed": self.seed, "start_rng": self.start_rng, "actions": json_actions(self.actions),
                "movers": list(self.movers),
                "outcome": self.outcome() if self.over else None, "moves": self.moves}

    @classmethod
    def replayed(cls, rules, record: dict, to: int | None = None) -> "GameSession":
        """The session of a record() after its first `to` moves (all by default); ValueError in one line where
        a move is not legal (the record is of other rules)."""
        actions = record["actions"][:to]
        seed = record.get("seed", 0)  # (the seed it was dealt from, the HUD's; a record of before: 0)
        seed = int(seed) if is_whole_number(seed) else 0
        session = cls(rules, seed, state=rules.new_state(np.random.default_rng(0)))  # (replaced below)
        try:
            session.rng.bit_generator.state = record["start_rng"]
        except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as exc:
            raise ValueError(f"the record's generator state cannot be restored ({type(exc).__name__}: "
                             f"{str(exc)[:80]})") from None
        session._new_game()
        movers = record.get("movers", [])
        for k, logged in enumerate(actions):
            try:  # (checked: the rules' step refuses an illegal move itself; asking legal_actions first doubled
                # the cost of a move, and a 10,000-move 2048 game opens within a second this way)
                session.play(as_action(logged), by=movers[k] if k < len(movers) else "?", checked=True)
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise ValueError(f"move {k + 1} ({logged!r}) is not legal in the replayed position: the record is "
                                 f"of other rules ({exc})") from None
        return session


def as_action(value):
    """A kept move as the rules' own value: JSON's lists back to tuples (a match-3 swap), others as they are."""
    return tuple(as_action(v) for v in value) if isinstance(value, list) else value


def json_actions(actions: list) -> list:
    """Moves as JSON keeps them (numpy integers as ints, tuples as lists)."""
    def plain(a):
        if isinstance(a, (tuple, list)):
            return [plain(v) for v in a]
        return a.item() if hasattr(a, "item") else a
    return [plain(a) for a in actions]
