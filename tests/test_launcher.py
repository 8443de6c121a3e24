"""The launcher and the shell frame, driven headless by posted events."""
import pygame
import pytest

from arcade.games import GAMES
from arcade.screens.launcher import LauncherScreen, card_rects
from arcade.screens.overlays import KeyHelp
from tests.helpers import click, key, ticks


def test_launcher_draws_five_cards(app):
    ticks(app, 2)
    rects = card_rects(app.surface.get_size())
    assert len(rects) == 5 and len(GAMES) == 5
    assert all(app.surface.get_rect().contains(r) for r in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    # each card has a drawn preview: many distinct colours inside it
    for r in rects:
        sub = pygame.surfarray.array3d(app.surface.subsurface(r))
        assert len({tuple(px) for px in sub[::7, ::7].reshape(-1, 3)}) > 5


@pytest.mark.parametrize("index", range(5))
def test_open_each_card_by_keys_and_escape_back(app, index):
    for _ in range(index):
        key(app, pygame.K_RIGHT)
    assert app.top.selected == index
    key(app, pygame.K_RETURN, frames=2)
    assert len(app.stack) == 2
    assert app.top.info.id == GAMES[index].id and app.top.welcome  # a first visit: the how-to-play card
    key(app, pygame.K_ESCAPE)
    assert len(app.stack) == 2 and app.top.welcome is None  # Esc closes the card only
    key(app, pygame.K_ESCAPE)
    assert len(app.stack) == 1 and isinstance(app.top, LauncherScreen) and app.running


@pytest.mark.parametrize("index", range(5))
def test_open_each_card_by_mouse_click(app, index):
    ticks(app)
    rect = card_rects(app.surface.get_size())[index]
    click(app, rect.center, frames=2)
    assert len(app.stack) == 2
    assert getattr(app.top, "info", None) is not None and app.top.info.id == GAMES[index].id


def test_arrow_keys_move_selection_within_bounds(app):
    key(app, pygame.K_LEFT)
    assert app.top.selected == 4
    key(app, pygame.K_UP)
    assert app.top.selected == 1
    key(app, pygame.K_DOWN)
    assert app.top.selected == 4


def test_escape_on_launcher_quits(app):
    key(app, pygame.K_ESCAPE)
    assert not app.running


def test_window_close_quits(app):
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    ticks(app)
    assert not app.running


def test_help_overlay_closes_with_escape_without_leaving(app):
    key(app, pygame.K_RETURN, frames=2)
    key(app, pygame.K_h)
    assert isinstance(app.top, KeyHelp)
    key(app, pygame.K_ESCAPE)  # closes the help, does not leave
    assert not isinstance(app.top, KeyHelp) and len(app.stack) == 2


def test_up_on_the_top_row_and_down_on_the_bottom_row_stay(app):
    """Issue 25 #20: Up on the top row moved to the previous card."""
    key(app, pygame.K_RIGHT)
    assert app.top.selected == 1
    key(app, pygame.K_UP)
    assert app.top.selected == 1
    key(app, pygame.K_DOWN)
    assert app.top.selected == 4
    key(app, pygame.K_DOWN)
    assert app.top.selected == 4
    key(app, pygame.K_RIGHT)  # wraps to the first card
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    assert app.top.selected == 2
    key(app, pygame.K_DOWN)  # from the third card of the top row: the last card below
    assert app.top.selected == 4


def test_the_match3_card_shows_the_games_own_gem_shapes():
    """Issue 42 #13: the card drew round gems of every colour; the board gives each colour its own shape."""
    from arcade.screens.match3.painter import GEM_SHAPES
    from arcade.screens.match3.sketch import PATTERN, sketch
    from arcade.screens.match3 import colours
    from arcade.ui.geometry import grid

    surface = pygame.Surface((250, 250))
    rect = surface.get_rect()
    sketch(surface, rect)
    cell, ox, oy = grid(rect, len(PATTERN), len(PATTERN[0]))
    r, c = next((r, c) for r, row in enumerate(PATTERN) for c, ch in enumerate(row) if GEM_SHAPES[int(ch)] == "square")
    centre = (ox + c * cell + cell // 2, oy + r * cell + cell // 2)
    corner = (round(centre[0] + (cell / 2 - 3) * 0.75), round(centre[1] + (cell / 2 - 3) * 0.75))  # not in a circle
    assert tuple(surface.get_at(corner))[:3] == colours.GEMS[int(PATTERN[r][c])]


@pytest.mark.parametrize("side", [30, 46, 120])
@pytest.mark.parametrize("game_id", [g.id for g in GAMES])
def test_every_launcher_picture_is_drawn_even_as_small_as_the_640x480_window_makes_it(game_id, side):
    """The match-3 card's picture was blank at 640x480 (its gems' radius went to nothing at a 9 px cell)."""
    from arcade.screens import draw_sketch, sketch_is_wide

    pygame.font.init()
    rect = pygame.Rect(0, 0, side * 3 if sketch_is_wide(game_id) else side, side)  # as the launcher sizes it
    surface = pygame.Surface(rect.size)
    surface.fill((1, 2, 3))
    draw_sketch(game_id, surface, rect)
    drawn = (pygame.surfarray.array3d(surface) != (1, 2, 3)).any(axis=2).mean()
    assert drawn > 0.04, f"{game_id}'s picture at {side} px: {drawn:.1%} of it drawn"


@pytest.mark.parametrize("size", [(640, 480), (1024, 720), (1600, 900)])
def test_a_notice_stands_in_the_key_line_never_over_a_card_and_then_gives_the_line_back(settings, size):
    """Issue 61 #12: the launcher's "saved to ..." box was drawn over the cards' agent counts."""
    from arcade.foundation import notices
    from arcade.app import App
    from arcade.screens.launcher import NOTICE_MS
    from arcade.ui import palette

    app = App(settings, size=size)
    try:
        launcher = LauncherScreen(app)
        notices.notice("ntuple trained 13,132 games; what it learnt is saved and plays now (a long line that "
                       "has to wrap at the smallest window, to see that two lines stay clear of the cards too)")
        surface = pygame.Surface(size)
        surface.fill((1, 2, 3))
        launcher.draw(surface)
        assert launcher.shown_notice(pygame.time.get_ticks()) is not None
        lowest = max(r.bottom for r in card_rects(size))
        bar_top = next(y for y in range(size[1]) if tuple(surface.get_at((2, y)))[:3] != palette.BACKGROUND)
        assert bar_top >= lowest, (bar_top, lowest)
        assert launcher.shown_notice(pygame.time.get_ticks() + NOTICE_MS + 1) is None
    finally:
        app.close()
