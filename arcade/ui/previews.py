"""The launcher card's picture of a game that brings no sketch of its own: its title's first letter on a tile.
(Each game's own sketch lives in its view folder, arcade/screens/<game>/sketch.py.)"""
from __future__ import annotations

import pygame

from arcade.ui import palette, text


def draw_generic(surface, rect: pygame.Rect, title: str) -> None:
    side = min(rect.w, rect.h) - 8
    tile = pygame.Rect(0, 0, side, side)
    tile.center = rect.center
    pygame.draw.rect(surface, palette.PANEL_HI, tile, border_radius=12)
    pygame.draw.rect(surface, palette.ACCENT, tile, 3, border_radius=12)
    text.draw(surface, title[:1].upper(), tile.center, max(16, side // 2), palette.ACCENT, anchor="center", bold=True)
