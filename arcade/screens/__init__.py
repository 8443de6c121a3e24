"""One pygame screen per game plus the launcher. `open_game` picks a game's screen."""
from __future__ import annotations

import importlib

from arcade.games import game_info


def open_game(app, game_id: str, agent: str | None = None, seed: int | None = None, given: tuple[str, ...] = ()):
    """The screen of a game (its catalogue entry names the module; a missing one is an import error). The
    choices kept from its last visit are taken back, except the agent when `agent` is given and the screen's
    own choices named in `given` (e.g. "board": the command line's --board wins over the kept board)."""
    module = importlib.import_module(game_info(game_id).view)
    screen = module.SCREEN(app, agent=agent, seed=seed)
    if app is not None and hasattr(screen, "restore_choices"):
        screen.restore_choices(agent_given=agent is not None, given=given)
    return screen
