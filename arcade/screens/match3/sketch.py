"""A small drawn picture of match-3 for its launcher card (no game state, just a sketch)."""
from __future__ import annotations

import pygame

from arcade.ui import palette
from arcade.ui.geometry import grid

def sketch(surface, rect):
    pattern = ["01230", "12301", "22041", "30412", "04120"]
    cell, ox, oy = grid(rect, 5, 5)
    for r, row in enumerate(pattern):
        for c, ch in enumerate(row):
            colour = palette.GEMS[int(ch)]
            centre = (ox + c * cell + cell // 2, oy + r * cell + cell // 2)
            pygame.draw.circle(surface, colour, centre, cell // 2 - 3)
            pygame.draw.circle(surface, (255, 255, 255), (centre[0] - cell // 8, centre[1] - cell // 8),
                               max(2, cell // 10))
