"""The rules protocol every game follows, shaped after OpenSpiel's State API.

States are small values (ints, tuples, frozen dataclasses or read-only numpy
arrays) and are never mutated: `step` returns a new state. Randomness (a tile
spawn, a card, a refill) happens only inside `step`, from the Generator passed
in, so a seed replays a game. Agents and screens use only this surface; the
headless CLI drives games through it too. `tests/test_conformance.py` checks
every game of the catalogue against it with random playouts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Hashable, Protocol, Sequence, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from arcade.games.declare import GameInfo

Action = Hashable
State = Any


class Rules(Protocol):
    """What a game's rules object offers (built by its module's `make_rules(settings, **overrides)`).

    game_id: the catalogue id. players: 1 or 2. seat_names: one name per seat ("X", "O").
    has_chance: whether chance follows moves (a tile, a card, a refill); rules without it are deterministic.
    Where the outcomes can be listed, the rules are also `ListsChance`.
    """

    game_id: str
    players: int
    seat_names: tuple[str, ...]
    has_chance: bool

    def new_state(self, rng) -> State:
        """The start of a game (chance at the start, if any, drawn from `rng`)."""

    def legal_actions(self, state: State) -> Sequence[Action]:
        """The actions of the side to move: not empty until the game ends, empty once it has ended."""

    def step(self, state: State, action: Action, rng) -> State:
        """A new state: a legal action applied and whatever chance follows it; `state` is unchanged."""

    def is_terminal(self, state: State) -> bool: ...

    def to_move(self, state: State) -> int:
        """The seat (0 or 1) whose decision it is; always 0 in one-player games."""

    def outcome(self, state: State) -> dict:
        """Figures of a finished game, by the number of players.

        One player: 'score' (a number). Two players: 'scores' (one number per seat) and 'winner'
        (the winning seat, or None for a draw). Games may add figures of their own.
        """

    def info(self) -> GameInfo:
        """What searches need to know of this variant (arcade.games.declare.GameInfo)."""

    def parse_state(self, text: str, **options) -> State:
        """The state in the CLI's text format; raises ValueError with a one-line reason."""

    def format_state(self, state: State) -> str:
        """The CLI's text form of a state: parse_state(format_state(s)) gives s back, up to the parts it
        does not carry (dots scores). Figures beside the board follow it as name=N (a 2048 score, match-3
        turns left: arcade.games.base.state_fields)."""

    def format_action(self, action: Action) -> str: ...


@runtime_checkable
class ListsChance(Protocol):
    """Rules whose chance outcomes can be listed (2048's tile placements, blackjack's cards)."""

    def chance_outcomes(self, state: State, action: Action) -> list[tuple[State, float]]:
        """Every state `action` may lead to from `state`, with its probability (they sum to 1).
        `step(state, action, rng)` draws one of exactly these, with these probabilities."""


def has_chance(rules) -> bool:
    """Whether chance follows the moves of these rules (False where the rules do not say)."""
    return bool(getattr(rules, "has_chance", False))


@runtime_checkable
class Summarizes(Protocol):
    """Rules that add their own figures to a bench summary (2048: the largest tile reached)."""

    def summarize(self, outcomes: list[dict]) -> dict:
        """Extra summary entries from the outcomes of many games."""

    def format_summary(self, summary: dict) -> list[str]:
        """Lines for the text report, from the summary that summarize() added to."""


@runtime_checkable
class FitsState(Protocol):
    """Rules of a game whose states carry their own variant (a dots board's size)."""

    def for_state(self, state) -> "Rules":
        """The rules of the variant `state` belongs to."""


def seat_score(rules, outcome: dict, seat: int = 0) -> float:
    """The score of `seat` in a finished game's outcome (see Rules.outcome)."""
    return outcome["scores"][seat] if rules.players == 2 else outcome["score"]


def state_fields(text: str, game_id: str, fields: dict[str, tuple[int, int]]) -> tuple[str, dict[str, int]]:
    """A state's text split into its board and the `name=N` fields written after it (`... score=120`):
    (the board's text, {name: N}). fields: the names the game's states take, with their ranges. ValueError,
    one line naming the fix, for a field it does not take or a value out of range."""
    words = text.split()
    found: dict[str, int] = {}
    while words and "=" in words[-1]:
        name, _, value = words.pop().partition("=")
        if name not in fields:
            takes = ", ".join(f"{n}=N" for n in fields) or "no fields after the board"
            raise ValueError(f"'{name}={value}' is not part of a {game_id} state (it takes {takes})")
        lo, hi = fields[name]
        if not (value.isascii() and value.isdigit()) or not lo <= int(value) <= hi:
            raise ValueError(f"{name} must be a whole number from {lo:,} to {hi:,}, got '{value}'")
        found[name] = int(value)
    return " ".join(words), found


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


def is_whole_number(x) -> bool:
    """Whether `x` is an integer a caller can mean (Python's or numpy's), not a bool, a float or a string."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def is_real_number(x) -> bool:
    """Whether `x` is a finite real number (int or float, Python's or numpy's), not a bool or a NaN."""
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) and bool(np.isfinite(x))
