"""A small drawn picture of dots and boxes for its launcher card (no game state, just a sketch)."""
from __future__ import annotations

import pygame

from arcade.ui import palette
from arcade.ui.geometry import grid

def sketch(surface, rect):
    cell, ox, oy = grid(rect, 3, 3, pad=16)
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
