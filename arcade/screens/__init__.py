"""One pygame screen per game plus the launcher. `open_game` picks a game's screen."""
from __future__ import annotations

import importlib

from arcade.games import game_info


def open_game(app, game_id: str, agent: str | None = None, seed: int | None = None):
    """The screen of a game (its catalogue entry names the module; a missing one is an import error)."""
    module = importlib.import_module(game_info(game_id).screen)
    screen = module.SCREEN(app, agent=agent, seed=seed)
    if app is not None and hasattr(screen, "restore_choices"):
        screen.restore_choices(agent_given=agent is not None)
    return screen
