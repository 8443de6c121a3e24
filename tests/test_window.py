"""The window: resizing and F11 full screen; every screen lays itself out again for the new size."""
import numpy as np
import pygame
import pytest

from arcade.foundation import notices
from arcade.games import GAMES
from arcade.screens import open_game
from arcade.screens.launcher import card_rects
from arcade.ui import hud, palette
from tests.helpers import key, resize

PLAYABLE = [g.id for g in GAMES]
SIZES = [(640, 480), (1600, 900), (900, 1000), (1280, 800)]


def content_extent(surface, area: pygame.Rect) -> tuple[float, float]:
    """How much of `area` (as fractions of its width and height) the drawn content spans."""
    pixels = pygame.surfarray.pixels3d(surface)[area.left:area.right, area.top:area.bottom]
    drawn = (pixels != np.array(palette.BACKGROUND, dtype=pixels.dtype)).any(axis=2)
    xs, ys = np.nonzero(drawn.any(axis=1))[0], np.nonzero(drawn.any(axis=0))[0]
    del pixels
    if not xs.size:
        return 0.0, 0.0
    return (xs[-1] - xs[0] + 1) / area.w, (ys[-1] - ys[0] + 1) / area.h


@pytest.mark.parametrize("game_id", ["launcher", *PLAYABLE])
def test_every_screen_fills_each_new_window_size(app, game_id):
    if game_id != "launcher":
        app.push(open_game(app, game_id, seed=2))
    drawn_px = {}
    for size in SIZES:
        resize(app, size)
        assert app.surface.get_size() == size
        if game_id == "launcher":  # its title and key line span the window anyway: measure the cards
            cards = card_rects(size)
            area = cards[0].unionall(cards[1:])
            assert app.surface.get_rect().contains(area)
            across, down = area.w / size[0], area.h / (size[1] - 160)
            drawn_px[size] = area.w * area.h
        else:
            board = hud.board_rect(app.surface)
            across, down = content_extent(app.surface, board)
            drawn_px[size] = across * board.w * down * board.h
        # laid out for the new size: the content reaches across (or down) most of the space it has
        assert max(across, down) > 0.75, (size, across, down)
    # and it grows with the window, which a layout kept from an earlier size would not
    assert drawn_px[(640, 480)] < drawn_px[(1280, 800)] < drawn_px[(1600, 900)], drawn_px


def test_f11_goes_full_screen_and_back_to_the_window_size(app):
    app.push(open_game(app, "2048", seed=2))
    resize(app, (900, 700))
    key(app, pygame.K_F11, frames=2)
    assert app.surface.get_flags() & pygame.FULLSCREEN
    full = app.surface.get_size()
    assert full == pygame.display.get_desktop_sizes()[0]
    assert max(content_extent(app.surface, hud.board_rect(app.surface))) > 0.85
    key(app, pygame.K_F11, frames=2)
    assert not app.surface.get_flags() & pygame.FULLSCREEN and app.surface.get_size() == (900, 700)


def test_f11_refused_by_the_platform_is_one_notice(app, monkeypatch):
    def refuse(*args, **kwargs):
        raise pygame.error("That operation is not supported")

    monkeypatch.setattr(pygame.display, "set_mode", refuse)
    screen = open_game(app, "tictactoe", seed=2)
    app.push(screen)
    before = notices.count()
    key(app, pygame.K_F11, frames=2)
    assert notices.count() == before + 1 and "full screen is not available" in notices.recent()[-1]
    assert screen.toast and "full screen" in screen.toast[0]  # shown on the game screen too
    assert app.running and app.surface.get_size() == (1024, 720)


def test_the_frame_after_the_last_busy_one_is_drawn_before_the_window_sleeps(app):
    """Issue 25 #2: work that ends off the frame loop (a table built in the agent process) leaves its bar on
    screen if the window sleeps before drawing the frame without it."""
    import time

    from arcade.screens.stacked import Screen

    class Work(Screen):
        """Busy (a red bar) until a moment passes, by the clock, not by its own updates."""

        def __init__(self):
            self.until = time.monotonic() + 0.1

        def busy(self):
            return time.monotonic() < self.until

        def draw(self, surface):
            surface.fill((200, 30, 30) if self.busy() else (30, 30, 200))

    app.push(Work())
    while app.top.busy():
        app.tick()  # the real loop: drawn while busy
    app.tick()  # the work has ended: this frame is drawn, then the window may sleep
    app.tick()
    assert tuple(app.surface.get_at((5, 5)))[:3] == (30, 30, 200)


def test_the_hud_halves_do_not_overlap_at_640(app):
    """The status line (left) and the agent line (right) share rows: each keeps to its half at 640."""
    import pygame as pg

    from arcade.ui import hud

    surface = pg.Surface((640, 480))
    surface.fill((0, 0, 0))
    info = hud.HudInfo(title="Match-3", status="score 3430   turns left 42   best 3430", control="monte-carlo",
                       agent_state="waiting (last 116 ms)", agent_name="monte-carlo", delay_ms=0, help_line="h: help")
    hud.draw_frame(surface, info)
    pixels = pg.surfarray.array3d(surface).transpose(1, 0, 2).astype(int)
    band = pixels[36:52]  # the rows both lines touch
    ink = [x for x in range(640) if (abs(band[:, x] - band[0, 5]).sum(axis=1) > 60).any()]
    left = [x for x in ink if x < 320]
    right = [x for x in ink if x >= 320]
    assert left and right
    assert max(left) < 640 // 2 - 4 and min(right) > 640 // 2 + 4
