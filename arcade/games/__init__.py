"""The catalogue of games and the loader of their rules. RULES ONLY below here: no pygame.

One `GameInfo` entry per game drives everything that lists games: the launcher's
cards and number keys, its previews, the settings tables, the CLI's choices and
the conformance tests. A game's rules live in the module `GameInfo.rules`
(default `arcade.games.<id>`), which exposes `make_rules(settings, **overrides)`
returning an object that follows `arcade.games.base.Rules`; its screen lives in
`GameInfo.screen` and exposes `SCREEN`. Every entry must name modules that exist:
`tests/test_catalogue.py` imports both of every entry, so a misspelt path fails
there, loudly, not on a player's screen.

Adding a game: its rules module, its screen module, and one `add_game(GameInfo(...))`
(or an entry in `GAMES` below for the arcade's own games).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from arcade.games.blackjack import BlackjackSettings
from arcade.games.dots import DotsSettings
from arcade.games.match3 import Match3Settings
from arcade.games.tictactoe import TicTacToeSettings
from arcade.games.twenty48 import Game2048Settings


@dataclass(frozen=True)
class GameInfo:
    """One game of the catalogue.

    id: the CLI name and the key of everything per game. title / blurb: the launcher card.
    rules / screen: module paths. players: 1 or 2. settings: the dataclass of its settings table
    (its defaults are the defaults); table: that table's name in settings.toml (default: id);
    attr: the attribute on Settings (default: id).
    """

    id: str
    title: str
    blurb: str
    players: int
    settings: type | None = None
    rules: str = ""
    screen: str = ""
    table: str = ""
    attr: str = ""

    def __post_init__(self):
        for name, default in (("rules", f"arcade.games.{self.id}"), ("screen", f"arcade.screens.{self.id}_screen"),
                              ("table", self.id), ("attr", self.id)):
            if not getattr(self, name):
                object.__setattr__(self, name, default)


GAMES: list[GameInfo] = [
    GameInfo("2048", "2048", "Slide and merge tiles; expectimax looks ahead.", 1, Game2048Settings,
             rules="arcade.games.twenty48", screen="arcade.screens.twenty48_screen", attr="game2048"),
    GameInfo("tictactoe", "Tic-Tac-Toe", "Three in a row; a TD agent learns by self-play.", 2, TicTacToeSettings),
    GameInfo("dots", "Dots and Boxes", "Close boxes, move again; policy iteration.", 2, DotsSettings),
    GameInfo("match3", "Match-3", "Swap gems into lines; Q-learning from rollouts.", 1, Match3Settings),
    GameInfo("blackjack", "Blackjack", "Take, peek or quit; value iteration solves it.", 1, BlackjackSettings),
]


class UnknownGame(ValueError):
    pass


def add_game(info: GameInfo) -> None:
    """Put a game in the catalogue (after the arcade's own); its id must be new."""
    if any(g.id == info.id for g in GAMES):
        raise ValueError(f"a game with id '{info.id}' is already in the catalogue")
    GAMES.append(info)


def remove_game(game_id: str) -> None:
    """Take a game out of the catalogue (tests that add one clean up with this)."""
    GAMES[:] = [g for g in GAMES if g.id != game_id]


def game_ids() -> tuple[str, ...]:
    return tuple(g.id for g in GAMES)


def game_info(game_id: str) -> GameInfo:
    for g in GAMES:
        if g.id == game_id:
            return g
    raise UnknownGame(f"unknown game '{game_id}'; choose one of: {', '.join(game_ids())}")


def rules_module(game_id: str):
    """The rules module of a game (an import error if the catalogue names one that does not exist)."""
    return importlib.import_module(game_info(game_id).rules)


def make_rules(game_id: str, settings, **overrides):
    """Build the rules object of a game from settings (UnknownGame for an id not in the catalogue)."""
    return rules_module(game_id).make_rules(settings, **overrides)
