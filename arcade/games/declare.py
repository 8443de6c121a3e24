"""How a game declares itself, and the one way a variant of a game is named. RULES ONLY: no pygame.

A rules module ends by declaring its game, as OpenSpiel's games end with `register_game`:

    GAME = declare(GameType(id="nim", title="Nim", blurb="...", players=2, seat_names=("first", "second"),
                            has_chance=False, settings=NimSettings, parameters=("heap",), rules_class=NimRules))

The declaration is the one place these facts are written: the rules class reads its id, players, seat
names and chance from it (`declare` sets them on the class), the catalogue (`arcade.games`) is the list of
declarations, and a variant's parameters are checked against the ranges of the game's settings fields of
the same names (`arcade.foundation.setting_fields`), so a limit is written once.

A variant is named one way wherever a game is named (the CLI, run logs):

    parse_variant("nim(heap=21)")  -> ("nim", {"heap": 21})
    format_variant("nim", {"heap": 21}) -> "nim(heap=21)"
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from arcade.foundation.setting_fields import check_in_range, describe_fields


@dataclass(frozen=True)
class GameType:
    """One game: what it is and which of its settings are rules parameters.

    id: the CLI name and the key of everything per game. title / blurb: the launcher card. players: 1 or 2.
    seat_names: one per seat ("X", "O"). has_chance: chance follows moves (a tile, a card, a refill).
    settings: the dataclass of its settings table (its defaults are the defaults). parameters: the fields of
    that table a variant may set (the rules' own parameters; the rest are agents' and the view's).
    rules_class: the class of its rules objects. rules: the module path of its rules (default: where
    rules_class is defined); its view declares itself (arcade.screens.declare_view). table: its table's name
    in settings.toml (default: id); attr: the attribute on Settings (default: id). unit: what its plays are
    called where they are counted (the statistics view's column and its empty line). how_to: the aim of the
    game in plain words (the first visit's card; its blurb where it has none). milestones: the marks an
    arena counts the share of games reaching, (label, outcome key, value), e.g. 2048's tiles. order: its
    place in the launcher and every list of games (lower first).
    """

    id: str
    title: str
    blurb: str
    players: int
    seat_names: tuple[str, ...] = ("player",)
    has_chance: bool = False
    settings: type | None = None
    parameters: tuple[str, ...] = ()
    rules_class: type | None = None
    rules: str = ""
    table: str = ""
    attr: str = ""
    unit: str = "games"  # what one play of it is called where it is counted ("rounds" at a card table)
    how_to: str = ""  # one or two plain sentences: the aim of the game, for the card a first visit shows
    # what a one-player game's results are counted by beside the score: (label, outcome key, at least this)
    milestones: tuple[tuple[str, str, float], ...] = ()
    order: int = 50  # its place in the launcher (lower first)

    def __post_init__(self):
        if len(self.seat_names) != self.players:
            raise ValueError(f"game '{self.id}': {self.players} players but seat names {self.seat_names}")
        module = self.rules_class.__module__ if self.rules_class is not None else f"arcade.games.{self.id}"
        for name, default in (("rules", module), ("table", self.id), ("attr", self.id)):
            if not getattr(self, name):
                object.__setattr__(self, name, default)
        known = {f.name for f in dataclasses.fields(self.settings)} if self.settings is not None else set()
        unknown = [p for p in self.parameters if p not in known]
        if unknown:
            raise ValueError(f"game '{self.id}': parameters {unknown} are not fields of its settings table")


@dataclass(frozen=True)
class GameInfo:
    """What searches need to know of one variant of a game, as OpenSpiel's GameInfo: its rules' `info()`.

    actions: how many distinct actions there are (a move is one of them). max_length: moves in the longest
    game (None: no bound is declared). utility: (lowest, highest) final result of a seat, as
    agents.game_search.terminal_returns gives it (two players: -1 and 1; one player: its score's bounds), or
    None for a score with no bound, which a search scales by the scores it sees."""

    actions: int
    max_length: int | None
    utility: tuple[float, float] | None


def declare(game: GameType) -> GameType:
    """The game's declaration, with its rules class reading id, players, seat names and chance from it."""
    if game.rules_class is not None:
        for name, value in (("game", game), ("game_id", game.id), ("players", game.players),
                            ("seat_names", game.seat_names), ("has_chance", game.has_chance)):
            setattr(game.rules_class, name, value)
    return game


# --- variants ------------------------------------------------------------------------------------------
_VARIANT = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*(?:\((.*)\))?\s*$", re.S)


class VariantError(ValueError):
    """A variant that names no game, a parameter the game has not, or a value out of its range."""


def split_variant(text: str) -> tuple[str, dict[str, str]]:
    """'nim(heap=21)' -> ('nim', {'heap': '21'}): the names, values still text."""
    match = _VARIANT.match(text or "")
    if not match:
        raise VariantError(f"'{text}' is not a game: give its id, with rules parameters if any: "
                           "id(name=value,...)")
    game_id, inside = match.group(1), match.group(2)
    params: dict[str, str] = {}
    if inside is None or not inside.strip():
        return game_id, params
    for part in inside.split(","):
        name, eq, value = part.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise VariantError(f"'{text}': rules parameters are name=value, separated by commas: "
                               "id(name=value,...)")
        if name.strip() in params:
            raise VariantError(f"'{text}': {name.strip()} is given twice")
        params[name.strip()] = value.strip().strip("'\"")
    return game_id, params


def checked_parameters(game: GameType, params: dict) -> dict:
    """`params` (values as text or numbers) as the typed values the game takes; VariantError naming the
    parameter and its allowed values for one it has not, or a value out of range."""
    fields = {f.name: f for f in dataclasses.fields(game.settings)} if game.settings is not None else {}
    out = {}
    for name, value in params.items():
        if name not in game.parameters:
            takes = f"its parameters: {', '.join(game.parameters)}" if game.parameters else "it takes none"
            raise VariantError(f"{game.id} has no parameter '{name}'; {takes}")
        out[name] = _typed(game, fields[name], value)
    return {name: out[name] for name in game.parameters if name in out}  # the declared order: one text each


def _typed(game: GameType, f: dataclasses.Field, value):
    where = f"{game.id}: {f.name}"
    choices = f.metadata.get("choices")
    if choices is not None:
        match = [c for c in choices if str(c) == str(value)]
        if not match:
            raise VariantError(f"{where} takes one of {', '.join(map(str, choices))}; got {value!r}")
        return match[0]
    kind = type(f.default)
    if isinstance(value, str):
        try:
            value = int(value) if kind is int else float(value)
        except ValueError:
            what = "an integer" if kind is int else "a number"
            raise VariantError(f"{where} takes {what}; got {value!r}") from None
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    try:
        check_in_range(game.settings, f.name, value, what=where)
    except ValueError as exc:
        raise VariantError(str(exc)) from None
    return value


def describe_parameters(game: GameType) -> list[str]:
    """'rows 1..5 (default 2)' for each rules parameter: its range or choices, and its default."""
    return describe_fields(game.settings, game.parameters) if game.parameters else []


def value_text(value) -> str:
    """A parameter's value as a variant writes it (0.1, not 0.1000; 4, not 4.0)."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def format_variant(game_id: str, params: dict) -> str:
    """The text of a variant: 'nim' or 'nim(heap=21)' (checked_parameters puts them in one order)."""
    if not params:
        return game_id
    return f"{game_id}({','.join(f'{k}={value_text(v)}' for k, v in params.items())})"
