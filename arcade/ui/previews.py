"""Small drawn pictures of each game for the launcher cards (no game state, just a sketch)."""
from __future__ import annotations

import pygame

from arcade.ui import palette, text

def _grid(rect: pygame.Rect, n_rows: int, n_cols: int, pad: int = 4):
    cell = min((rect.w - pad) // n_cols, (rect.h - pad) // n_rows)
    ox = rect.x + (rect.w - cell * n_cols) // 2
    oy = rect.y + (rect.h - cell * n_rows) // 2
    return cell, ox, oy


def preview_2048(surface, rect):
    board = [[2, 4, 8, 0], [0, 16, 32, 2], [64, 128, 0, 4], [256, 512, 1024, 2048]]
    cell, ox, oy = _grid(rect, 4, 4)
    for r, row in enumerate(board):
        for c, v in enumerate(row):
            cr = pygame.Rect(ox + c * cell + 2, oy + r * cell + 2, cell - 4, cell - 4)
            bg, colour = palette.tile_colours(v)
            pygame.draw.rect(surface, bg, cr, border_radius=max(2, cell // 10))
            size = cell // (2 + len(str(v)) // 2)
            if v and size >= 10:  # a small card: colours only, numbers too small to read would be noise
                text.draw(surface, str(v), cr.center, size, colour, anchor="center", bold=True,
                          max_width=cr.w - 2)


def preview_tictactoe(surface, rect):
    board = ["XO.", ".X.", "O.X"]
    cell, ox, oy = _grid(rect, 3, 3, pad=8)
    w = max(2, cell // 12)  # strokes follow the size, so a small card's sketch does not run together
    for i in (1, 2):
        pygame.draw.line(surface, palette.MUTED, (ox + i * cell, oy), (ox + i * cell, oy + 3 * cell), max(1, w - 1))
        pygame.draw.line(surface, palette.MUTED, (ox, oy + i * cell), (ox + 3 * cell, oy + i * cell), max(1, w - 1))
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            cx, cy, m = ox + c * cell + cell // 2, oy + r * cell + cell // 2, cell // 3
            if ch == "X":
                pygame.draw.line(surface, palette.SEAT_COLOURS[0], (cx - m, cy - m), (cx + m, cy + m), w + 1)
                pygame.draw.line(surface, palette.SEAT_COLOURS[0], (cx - m, cy + m), (cx + m, cy - m), w + 1)
            elif ch == "O":
                pygame.draw.circle(surface, palette.SEAT_COLOURS[1], (cx, cy), m, w + 1)
    pygame.draw.line(surface, palette.ACCENT, (ox + cell // 4, oy + cell // 4),
                     (ox + 3 * cell - cell // 4, oy + 3 * cell - cell // 4), w)


def preview_dots(surface, rect):
    cell, ox, oy = _grid(rect, 3, 3, pad=16)
    ox, oy = ox + cell // 2, oy + cell // 2
    drawn = [((0, 0), (0, 1), 0), ((0, 0), (1, 0), 0), ((1, 0), (1, 1), 0), ((0, 1), (1, 1), 0),
             ((0, 1), (0, 2), 1), ((1, 2), (2, 2), 1), ((2, 0), (2, 1), 1)]
    pygame.draw.rect(surface, (*palette.SEAT_COLOURS[0][:3],), (ox + 3, oy + 3, cell - 5, cell - 5))
    w = max(2, cell // 10)
    for (r1, c1), (r2, c2), seat in drawn:
        pygame.draw.line(surface, palette.SEAT_COLOURS[seat], (ox + c1 * cell, oy + r1 * cell),
                         (ox + c2 * cell, oy + r2 * cell), w)
    for r in range(3):
        for c in range(3):
            pygame.draw.circle(surface, palette.TEXT, (ox + c * cell, oy + r * cell), w)


def preview_match3(surface, rect):
    pattern = ["01230", "12301", "22041", "30412", "04120"]
    cell, ox, oy = _grid(rect, 5, 5)
    for r, row in enumerate(pattern):
        for c, ch in enumerate(row):
            colour = palette.GEMS[int(ch)]
            centre = (ox + c * cell + cell // 2, oy + r * cell + cell // 2)
            pygame.draw.circle(surface, colour, centre, cell // 2 - 3)
            pygame.draw.circle(surface, (255, 255, 255), (centre[0] - cell // 8, centre[1] - cell // 8),
                               max(2, cell // 10))


def preview_blackjack(surface, rect):
    pygame.draw.rect(surface, (24, 110, 64), rect, border_radius=10)
    ch = min(int(rect.w // 5 * 1.4), rect.h - 24)  # as tall as the picture allows, cards keep their shape
    cw = max(8, int(ch / 1.4))
    for i, value in enumerate((5, 10, 3)):
        card = pygame.Rect(rect.x + 16 + i * (cw // 2 + 10), rect.centery - ch // 2 + (i - 1) * 4, cw, ch)
        pygame.draw.rect(surface, (250, 250, 245), card, border_radius=6)
        pygame.draw.rect(surface, (40, 40, 40), card, 2, border_radius=6)
        text.draw(surface, str(value), (card.x + 4, card.y + 3), max(10, min(24, ch // 4)), (30, 30, 30), bold=True)
    deck = pygame.Rect(rect.right - cw - 18, rect.centery - ch // 2, cw, ch)
    for k in range(3, -1, -1):
        pygame.draw.rect(surface, (150, 40, 50), deck.move(k * 3, -k * 3), border_radius=6)
        pygame.draw.rect(surface, (240, 230, 230), deck.move(k * 3, -k * 3), 2, border_radius=6)


PREVIEWS = {
    "2048": preview_2048, "tictactoe": preview_tictactoe, "dots": preview_dots,
    "match3": preview_match3, "blackjack": preview_blackjack,
}


WIDE = {"blackjack"}  # previews drawn across the card's whole width


def preview_generic(surface, rect, game_id: str):
    """A game without a sketch of its own: its title's first letter on a tile."""
    from arcade.games import game_info

    side = min(rect.w, rect.h) - 8
    tile = pygame.Rect(0, 0, side, side)
    tile.center = rect.center
    pygame.draw.rect(surface, palette.PANEL_HI, tile, border_radius=12)
    pygame.draw.rect(surface, palette.ACCENT, tile, 3, border_radius=12)
    text.draw(surface, game_info(game_id).title[:1].upper(), tile.center, max(16, side // 2), palette.ACCENT,
              anchor="center", bold=True)


def is_wide(game_id: str) -> bool:
    return game_id in WIDE


def draw_preview(game_id: str, surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The game's sketch clipped to `rect`; a generic one for a game that has none here."""
    clip = surface.get_clip()
    surface.set_clip(rect)
    draw = PREVIEWS.get(game_id)
    if draw is None:
        preview_generic(surface, rect, game_id)
    else:
        draw(surface, rect)
    surface.set_clip(clip)
