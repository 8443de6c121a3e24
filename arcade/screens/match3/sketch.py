"""A small drawn picture of match-3 for its launcher card (no game state, just a sketch): the game's own gems,
each colour in its own shape, as the board draws them."""
from __future__ import annotations

from arcade.screens.match3.painter import draw_gem
from arcade.ui.geometry import grid

PATTERN = ("01230", "12301", "22041", "30412", "04120")


def sketch(surface, rect) -> None:
    cell, ox, oy = grid(rect, len(PATTERN), len(PATTERN[0]))
    for r, row in enumerate(PATTERN):
        for c, ch in enumerate(row):
            # a gap that scales with the cell: a fixed 3 px left nothing of a 9 px cell (the 640x480 launcher)
            draw_gem(surface, int(ch), (ox + c * cell + cell // 2, oy + r * cell + cell // 2), cell * 0.42)
