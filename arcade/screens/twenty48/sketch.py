"""A small drawn picture of 2048 for its launcher card (no game state, just a sketch)."""
from __future__ import annotations

import pygame

from arcade.screens.twenty48 import colours
from arcade.ui import text
from arcade.ui.geometry import grid

def sketch(surface, rect):
    board = [[2, 4, 8, 0], [0, 16, 32, 2], [64, 128, 0, 4], [256, 512, 1024, 2048]]
    cell, ox, oy = grid(rect, 4, 4)
    for r, row in enumerate(board):
        for c, v in enumerate(row):
            cr = pygame.Rect(ox + c * cell + 2, oy + r * cell + 2, cell - 4, cell - 4)
            bg, colour = colours.tile_colours(v)
            pygame.draw.rect(surface, bg, cr, border_radius=max(2, cell // 10))
            size = cell // (2 + len(str(v)) // 2)
            if v and size >= 10:  # a small card: colours only, numbers too small to read would be noise
                text.draw(surface, str(v), cr.center, size, colour, anchor="center", bold=True,
                          max_width=cr.w - 2)
