"""A small drawn picture of tic-tac-toe for its launcher card (no game state, just a sketch)."""
from __future__ import annotations

import pygame

from arcade.ui import palette
from arcade.ui.geometry import grid

def sketch(surface, rect):
    board = ["XO.", ".X.", "O.X"]
    cell, ox, oy = grid(rect, 3, 3, pad=8)
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
