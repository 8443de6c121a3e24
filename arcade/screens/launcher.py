"""The launcher: a card per game of the catalogue; arrows + Enter, a number key or a click opens one."""
from __future__ import annotations

import pygame

from agents import agents_for
from arcade.games import GAMES
from arcade.foundation.notices import count, recent
from arcade.screens import open_game
from arcade.screens.shell_keys import ENTER_KEYS
from arcade.screens.stacked import Screen
from arcade.screens import draw_sketch, sketch_is_wide
from arcade.ui import hud, palette, text

COLUMNS = 3


NOTICE_MS = 8000  # a notice stands in the key line this long


def card_rects(size: tuple[int, int], n: int | None = None) -> list[pygame.Rect]:
    """Card positions for a window size (n cards, default one per game): rows of three, the last row centred."""
    n = len(GAMES) if n is None else n
    w, h = size
    top, bottom, gap = 110, 50, 20
    rows = (n + COLUMNS - 1) // COLUMNS
    card_w = min(440, (w - gap * (COLUMNS + 1)) // COLUMNS)
    card_h = min(400, (h - top - bottom - gap * (rows - 1)) // rows)
    rects = []
    for i in range(n):
        row, col = divmod(i, COLUMNS)
        in_row = min(COLUMNS, n - row * COLUMNS)
        row_w = in_row * card_w + (in_row - 1) * gap
        x = (w - row_w) // 2 + col * (card_w + gap)
        y = top + row * (card_h + gap)
        rects.append(pygame.Rect(x, y, card_w, card_h))
    return rects


class LauncherScreen(Screen):
    def __init__(self, app):
        self.app = app
        self.selected = 0
        self._mouse_at = None
        self.agent_counts = {g.id: len(agents_for(g.id)) for g in GAMES}  # the catalogue is read once, here
        self._notice: tuple[str, int] | None = None  # the newest notice and when it was first drawn (ticks)
        self._notices_seen = 0

    def open_selected(self) -> None:
        self.app.push(open_game(self.app, GAMES[self.selected].id, welcome=True))

    def _card_at(self, pos) -> int | None:
        for i, rect in enumerate(card_rects(self.app.surface.get_size())):
            if rect.collidepoint(pos):
                return i
        return None

    def handle_event(self, event) -> bool:
        n = len(GAMES)
        if event.type == pygame.KEYDOWN:
            moves = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_UP: -COLUMNS, pygame.K_DOWN: COLUMNS}
            if event.key in moves:
                target = self.selected + moves[event.key]
                if event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                    target %= n
                elif target < 0 or target // COLUMNS > (n - 1) // COLUMNS:
                    return True  # no row above (or below): stay, rather than slide to another card of this row
                self.selected = min(target, n - 1)
                return True
            if event.key in ENTER_KEYS or event.key == pygame.K_SPACE:
                self.open_selected()
                return True
            if pygame.K_1 <= event.key <= pygame.K_9 and event.key - pygame.K_1 < n:
                self.selected = event.key - pygame.K_1
                self.open_selected()
                return True
        elif event.type == pygame.MOUSEMOTION:
            # only a mouse that really moved picks a card: a resting one (or a motion event the window system
            # repeats after a key) must not undo what the arrow keys chose
            if event.pos != self._mouse_at:
                self._mouse_at = event.pos
                hit = self._card_at(event.pos)
                if hit is not None:
                    self.selected = hit
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hit = self._card_at(event.pos)
            if hit is not None:
                self.selected = hit
                self.open_selected()
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(palette.BACKGROUND)
        w, h = surface.get_size()
        text.draw(surface, "ARCADE", (w // 2, 22), 64, palette.ACCENT, anchor="midtop", bold=True)
        text.draw(surface, "play by hand, or press Enter in a game to watch an AI agent play",
                  (w // 2, 74), 24, palette.MUTED, anchor="midtop")
        for i, (game, rect) in enumerate(zip(GAMES, card_rects((w, h)), strict=True)):
            self._draw_card(surface, rect, game, i == self.selected)
        note = self.shown_notice(pygame.time.get_ticks())
        if note is not None:  # in the key line's place, never over a card
            hud.draw_toast(surface, note, palette.BAD)
            return
        keys = f"1-{min(len(GAMES), 9)}" if len(GAMES) > 1 else "1"
        text.draw(surface, f"arrows: choose   Enter or click: open   {keys}: open   F11: full screen   Esc: quit",
                  (w // 2, h - 14), 22, palette.MUTED, anchor="midbottom", max_width=w - 24)

    def shown_notice(self, now: int) -> str | None:
        """The newest notice for NOTICE_MS after it first shows (it then gives the line back to the keys)."""
        if count() != self._notices_seen and recent():
            self._notices_seen = count()
            self._notice = (recent()[-1], now)
        if self._notice is not None and now - self._notice[1] <= NOTICE_MS:
            return self._notice[0]
        return None

    def _draw_card(self, surface, rect: pygame.Rect, game, selected: bool) -> None:
        pygame.draw.rect(surface, palette.PANEL_HI if selected else palette.PANEL, rect, border_radius=14)
        pygame.draw.rect(surface, palette.ACCENT if selected else palette.BORDER, rect, 3 if selected else 1,
                         border_radius=14)
        compact = rect.h < 240  # small windows: a smaller picture and blurb, the whole blurb still there
        pic_h = rect.h - (104 if compact else 120)
        pic = pygame.Rect(rect.x + 18, rect.y + 14, rect.w - 36, pic_h)
        side = min(pic.w, pic.h)
        wide = sketch_is_wide(game.id)
        pic = pygame.Rect(pic.x if wide else pic.centerx - side // 2, pic.y, pic.w if wide else side, side)
        draw_sketch(game.id, surface, pic)
        y = rect.bottom - (86 if compact else 100)
        text.draw(surface, game.title, (rect.x + 16, y), 32 if not compact else 26, palette.TEXT, bold=True,
                  max_width=rect.w - 32, min_size=20)
        size, step = (15, 13) if compact else (19, 16)
        for k, line in enumerate(text.wrap(game.blurb, size, rect.w - 32, max_lines=2)):
            text.draw(surface, line, (rect.x + 16, y + (24 if compact else 28) + step * k), size, palette.MUTED)
        tag, colour = f"{self.agent_counts[game.id]} agents", palette.GOOD
        text.draw(surface, tag, (rect.x + 16, y + (54 if compact else 70)), 17 if compact else 19, colour)
