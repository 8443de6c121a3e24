"""The catalogue of games: the list of their declarations, and the loader of their rules. RULES ONLY.

Each game declares itself at the end of its rules module (`GAME = declare(GameType(...))`, see
`arcade.games.declare`): id, title, players and seats, chance, its settings table and which of its fields
are rules parameters, its view. Everything that lists games reads this list: the launcher's cards and
number keys, the settings tables, the CLI's choices, the conformance tests. `tests/test_catalogue.py`
imports every game's rules and view, so a misspelt path fails there, loudly, not on a player's screen.

Adding a game: its rules module here ending in its declaration (found by looking: every module of this
package with a GAME), and its view (or `add_game(GAME)` from outside the arcade, as tests/extra_game's Nim
does). The launcher's order is the declarations' `order`.
"""
from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from arcade.games.declare import (GameType, VariantError, checked_parameters, format_variant, split_variant,
                                  value_text)

LAYER = "rules"  # over the foundation only (tests/test_layers.py)


def _declared() -> list[GameType]:
    """The GAME of every module in this package that declares one, in their order."""
    found = []
    for mod in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if not mod.ispkg:
            game = getattr(importlib.import_module(f"{__name__}.{mod.name}"), "GAME", None)
            if isinstance(game, GameType):
                found.append(game)
    return sorted(found, key=lambda g: (g.order, g.id))


GAMES: list[GameType] = _declared()


class UnknownGame(ValueError):
    pass


def add_game(info: GameType) -> None:
    """Put a game in the catalogue (after the arcade's own); its id must be new."""
    if any(g.id == info.id for g in GAMES):
        raise ValueError(f"a game with id '{info.id}' is already in the catalogue")
    GAMES.append(info)


def remove_game(game_id: str) -> None:
    """Take a game out of the catalogue (tests that add one clean up with this)."""
    GAMES[:] = [g for g in GAMES if g.id != game_id]


def game_ids() -> tuple[str, ...]:
    return tuple(g.id for g in GAMES)


def game_info(game_id: str) -> GameType:
    for g in GAMES:
        if g.id == game_id:
            return g
    raise UnknownGame(f"unknown game '{game_id}'; choose one of: {', '.join(game_ids())}")


def rules_module(game_id: str):
    """The rules module of a game (an import error if the catalogue names one that does not exist)."""
    return importlib.import_module(game_info(game_id).rules)


def make_rules(game_id: str, settings, **params):
    """The rules object of a game: its settings table's rules parameters, with `params` (a variant's, e.g.
    rows=4, cols=4) in their place. UnknownGame for an id not in the catalogue, VariantError for a
    parameter the game has not or a value out of its range."""
    info = game_info(game_id)
    params = {k: v for k, v in params.items() if v is not None}  # None: the settings' value
    if params:
        settings = settings.with_table(info.attr, **checked_parameters(info, params))
    return rules_module(game_id).make_rules(settings)


def parse_variant(text: str) -> tuple[str, dict]:
    """'nim(heap=21)' -> ('nim', {'heap': 21}), checked against the game's declaration
    (UnknownGame, VariantError: one line naming the problem)."""
    game_id, params = split_variant(text)
    return game_id, checked_parameters(game_info(game_id), params)


def settings_variant(game_id: str, settings) -> str:
    """The variant the settings play: the game with every rules parameter, e.g. 'nim(heap=10)'."""
    info = game_info(game_id)
    table = settings.for_game(game_id)
    return format_variant(game_id, {name: getattr(table, name) for name in info.parameters})


def variant_label(game_id: str, variant: str | None) -> str:
    """How a run names its game in a report: the id when it plays the game's defaults, else the variant."""
    return game_id if variant_slug(game_id, variant) == game_id else variant


def variant_slug(game_id: str, variant: str | None) -> str:
    """A file-name form of a variant naming only what differs from the game's defaults: 'dots-rows4-cols4',
    the bare id for the defaults (a label that is no variant, e.g. '3x3-won-openings', is appended as it is)."""
    if not variant:
        return game_id
    try:
        _, params = parse_variant(variant)
    except (UnknownGame, VariantError):
        return f"{game_id}-{variant}"
    table = game_info(game_id).settings
    defaults = table() if table is not None else None  # (a game without parameters: a variant names none)
    changed = [f"{k}{value_text(v)}" for k, v in params.items() if getattr(defaults, k, None) != v]
    return "-".join([game_id, *changed])


__all__ = ["GAMES", "GameType", "UnknownGame", "VariantError", "add_game", "format_variant", "game_ids",
           "game_info", "make_rules", "parse_variant", "remove_game", "rules_module", "settings_variant",
           "variant_label", "variant_slug"]
