"""The rules protocol every game follows, shaped after OpenSpiel's State API.

States are small values (ints, tuples, frozen dataclasses or read-only numpy
arrays) and are never mutated: `step` returns a new state. Randomness (a tile
spawn, a card, a refill) happens only inside `step`, from the Generator passed
in, so a seed replays a game. Agents and screens use only this surface; the
headless CLI drives games through it too.
"""
from __future__ import annotations

from typing import Any, Hashable, Protocol, Sequence

Action = Hashable
State = Any


class Rules(Protocol):
    game_id: str
    players: int  # 1 or 2

    def new_state(self, rng) -> State: ...
    def legal_actions(self, state: State) -> Sequence[Action]: ...
    def step(self, state: State, action: Action, rng) -> State:
        """Apply a legal action and whatever chance follows it."""
    def is_terminal(self, state: State) -> bool: ...
    def to_move(self, state: State) -> int:
        """The seat (0 or 1) whose decision it is; always 0 in one-player games."""
    def outcome(self, state: State) -> dict:
        """Figures of a finished game: 'score' always; 'winner' (seat or None) in two-player games."""
    def parse_state(self, text: str, **options) -> State:
        """The state in the CLI's text format; raises ValueError with a one-line reason."""
    def format_action(self, action: Action) -> str: ...


def no_options(game_id: str, options: dict) -> None:
    """parse_state options a game does not take: one clear ValueError."""
    if options:
        names = ", ".join("--" + k.replace("_", "-") for k in options)
        raise ValueError(f"option {names} does not apply to {game_id}")


def read_only(array, dtype):
    """A private, read-only copy: states are values, and nothing may change them in place."""
    import numpy as np

    out = np.array(array, dtype=dtype)
    out.flags.writeable = False
    return out
