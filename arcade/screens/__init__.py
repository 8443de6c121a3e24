"""The launcher, the shared GameScreen, and the door to each game's view folder.

A game's view is a package of its own (e.g. arcade/screens/dots/) that declares itself for its game as it is
imported (`declare_view(GAME.id, __name__)` in its __init__; the packages here are found by looking, a view
from elsewhere is declared by importing it), holding `screen.SCREEN`, its board painter `painter.paint(surface,
area, rules, state, history)` and, optionally, its launcher sketch `sketch.sketch(surface, rect)`
(`sketch.WIDE`: drawn across the card). Shared code reaches a game's view only through these functions, by
the game's id: it never names a game, and the rules name no view.
"""
from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pygame

_VIEWS: dict[str, str] = {}  # game id -> its view's package
_found = False


def declare_view(game_id: str, package: str) -> None:
    """Register `package` (dotted) as the view of the game (a second declaration replaces the first)."""
    _VIEWS[game_id] = package


def view_package(game_id: str) -> str:
    """The package of the game's view; ModuleNotFoundError naming the game where none is declared."""
    global _found
    if game_id not in _VIEWS and not _found:
        for mod in pkgutil.iter_modules([str(Path(__file__).parent)]):
            if mod.ispkg:
                importlib.import_module(f"{__name__}.{mod.name}")
        _found = True
    if game_id not in _VIEWS:
        raise ModuleNotFoundError(f"no view is declared for the game '{game_id}' (its view package's __init__ "
                                  "declares it: declare_view(GAME.id, __name__))", name=f"{game_id} view")
    return _VIEWS[game_id]


def _view_part(game_id: str, part: str, needed: bool = True):
    """The module `part` of the game's view; None for a missing optional one (an import error inside it, or a
    view that is not there at all, still raises)."""
    name = f"{view_package(game_id)}.{part}"
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
    from arcade.games import game_info
    from arcade.ui import previews

    clip = surface.get_clip()
    surface.set_clip(rect)
    sketch = _view_part(game_id, "sketch", needed=False)
    if sketch is None:
        previews.draw_generic(surface, rect, game_info(game_id).title)
    else:
        sketch.sketch(surface, rect)
    surface.set_clip(clip)
