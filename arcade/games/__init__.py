"""The catalogue of games and the loader of their rules. RULES ONLY below here: no pygame.

A game's rules live in `arcade/games/<module>.py` and expose `make_rules(settings)`
returning an object that follows `arcade.games.base.Rules`. A game whose module
does not exist yet is listed (the launcher shows its card) but not playable.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class GameInfo:
    id: str  # the CLI name
    title: str
    blurb: str  # one line for the launcher card
    module: str  # arcade.games.<module>
    players: int


GAMES: tuple[GameInfo, ...] = (
    GameInfo("2048", "2048", "Slide and merge tiles; expectimax looks ahead.", "twenty48", 1),
    GameInfo("tictactoe", "Tic-Tac-Toe", "Three in a row; a TD agent learns by self-play.", "tictactoe", 2),
    GameInfo("dots", "Dots and Boxes", "Close boxes, move again; policy iteration.", "dots", 2),
    GameInfo("match3", "Match-3", "Swap gems into lines; Q-learning from rollouts.", "match3", 1),
    GameInfo("blackjack", "Blackjack", "Take, peek or quit; value iteration solves it.", "blackjack", 1),
)
GAME_IDS: tuple[str, ...] = tuple(g.id for g in GAMES)


class UnknownGame(ValueError):
    pass


class NotPlayableYet(ValueError):
    pass


def game_info(game_id: str) -> GameInfo:
    for g in GAMES:
        if g.id == game_id:
            return g
    raise UnknownGame(f"unknown game '{game_id}'; choose one of: {', '.join(GAME_IDS)}")


def rules_module(game_id: str):
    """The rules module of a game, or None while the game is not built yet."""
    info = game_info(game_id)
    try:
        return importlib.import_module(f"arcade.games.{info.module}")
    except ModuleNotFoundError as exc:
        if exc.name == f"arcade.games.{info.module}":
            return None
        raise


def is_playable(game_id: str) -> bool:
    return rules_module(game_id) is not None


def make_rules(game_id: str, settings, **overrides):
    """Build the rules object of a game from settings; NotPlayableYet if it has none."""
    module = rules_module(game_id)
    if module is None:
        raise NotPlayableYet(f"{game_info(game_id).title} is not playable yet (it arrives with its own issue)")
    return module.make_rules(settings, **overrides)
