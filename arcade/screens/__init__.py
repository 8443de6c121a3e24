"""One pygame screen per game plus the launcher. `open_game` picks a game's screen."""
from __future__ import annotations

import importlib

from arcade.games import game_info


def open_game(app, game_id: str, agent: str | None = None, seed: int | None = None):
    """The screen of a game, or a 'not playable yet' screen while its issue has not landed."""
    info = game_info(game_id)
    try:
        module = importlib.import_module(info.screen)
    except ModuleNotFoundError as exc:
        if exc.name != info.screen:
            raise
        from arcade.screens.coming_soon import ComingSoonScreen

        return ComingSoonScreen(app, game_id)
    return module.SCREEN(app, agent=agent, seed=seed)
