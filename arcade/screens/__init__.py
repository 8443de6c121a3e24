"""The launcher, the shared GameScreen, and the door to each game's view folder.

A game's declaration names its view (a package, e.g. arcade/screens/dots/) holding `screen.SCREEN`, its
board painter `painter.paint(surface, area, rules, state, history)` and, optionally, its launcher sketch
`sketch.sketch(surface, rect)` (`sketch.WIDE`: drawn across the card). Shared code reaches a game's view
only through these functions, by the game's id: it never names a game.
"""
from __future__ import annotations

import importlib

import pygame

from arcade.games import game_info


def _view_part(game_id: str, part: str, needed: bool = True):
    """The module `part` of the game's view; None for a missing optional one (an import error inside it, or a
    view that is not there at all, still raises)."""
    name = f"{game_info(game_id).view}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if needed or exc.name != name:
            raise
        return None


def open_game(app, game_id: str, agent: str | None = None, seed: int | None = None, given: tuple[str, ...] = (),
              welcome: bool = False):
    """The screen of a game (its view's `screen.SCREEN`; a missing one is an import error). The choices kept
    from its last visit are taken back, except the agent when `agent` is given and the rules parameters named
    in `given` (the command line's variant wins over the kept one). welcome: a person opens it (the launcher,
    `main.py play`): its first visit shows the how-to-play card."""
    screen = _view_part(game_id, "screen").SCREEN(app, agent=agent, seed=seed)
    if app is not None and hasattr(screen, "kept"):
        screen.kept.restore_choices(agent_given=agent is not None, given=given)
        if welcome and screen.kept.first_visit():
            screen.welcome = screen.welcome_lines()
    return screen


def paint_state(surface, area: pygame.Rect, game_id: str, rules, state, history=()) -> None:
    """The board of any game's `state` in `area`, by its view's painter: what an environment's frame and a
    training game beside a learning curve show. `history`: the game's states before it (a session's), from
    which a painter reads what the state alone does not say (who drew each dots line, the cards in hand)."""
    _view_part(game_id, "painter").paint(surface, area, rules, state, history)


def sketch_is_wide(game_id: str) -> bool:
    sketch = _view_part(game_id, "sketch", needed=False)
    return bool(getattr(sketch, "WIDE", False))


def draw_sketch(game_id: str, surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The game's launcher sketch clipped to `rect`; its title's letter for a game that brings none."""
    from arcade.ui import previews

    clip = surface.get_clip()
    surface.set_clip(rect)
    sketch = _view_part(game_id, "sketch", needed=False)
    if sketch is None:
        previews.draw_generic(surface, rect, game_info(game_id).title)
    else:
        sketch.sketch(surface, rect)
    surface.set_clip(clip)
