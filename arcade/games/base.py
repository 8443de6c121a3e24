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
