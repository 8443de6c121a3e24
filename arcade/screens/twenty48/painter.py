"""The 2048 board drawn from its state alone: pure functions of (surface, rect, state), no screen,
no agent, no files. The screen draws its board with these (adding what is its own: animations, the cursor,
values), and the environments and the training view draw a frame with `paint`."""
from __future__ import annotations

import numpy as np
import pygame

from arcade.screens.twenty48 import colours
from arcade.ui import text
from arcade.ui.geometry import top_square


def grid_2048(board: pygame.Rect, size: int) -> tuple[int, float]:
    """The gap between tiles and a tile's side for a board of `size` cells drawn in `board`."""
    gap = max(4, board.w // (size * 12))
    return gap, (board.w - gap * (size + 1)) / size


def cell_rect_2048(board: pygame.Rect, gap: int, cell: float, r: float, c: float) -> pygame.Rect:
    return pygame.Rect(round(board.x + gap + c * (cell + gap)), round(board.y + gap + r * (cell + gap)),
                       round(cell), round(cell))


def draw_tile(surface, rect: pygame.Rect, value: int, grayscale: bool = False) -> None:
    """One 2048 tile (0: an empty cell) with its number sized to fit."""
    bg, fg = colours.tile_colours(value)
    if grayscale:  # in gray, light numbers on light tiles fade: the text follows the tile's lightness
        lightness = 0.299 * bg[0] + 0.587 * bg[1] + 0.114 * bg[2]
        fg = (40, 40, 40) if lightness > 150 else (250, 250, 250)
    pygame.draw.rect(surface, bg, rect, border_radius=max(3, rect.w // 14))
    if value:
        digits = len(str(value))
        size = int(rect.h * (0.55 if digits <= 2 else 0.45 if digits == 3 else 0.36 if digits == 4 else 0.3))
        text.draw(surface, str(value), rect.center, size, fg, anchor="center", bold=True)


def draw_2048(surface, board: pygame.Rect, values: np.ndarray | None, size: int, grayscale: bool = False) -> None:
    """The board, its empty cells, and the tiles of `values` (tile values, size x size; None: cells only)."""
    gap, cell = grid_2048(board, size)
    pygame.draw.rect(surface, (45, 48, 60), board, border_radius=10)
    for r in range(size):
        for c in range(size):
            draw_tile(surface, cell_rect_2048(board, gap, cell, r, c), 0, grayscale)
    if values is None:
        return
    for r in range(size):
        for c in range(size):
            if values[r, c]:
                draw_tile(surface, cell_rect_2048(board, gap, cell, r, c), int(values[r, c]), grayscale)


def paint(surface, area: pygame.Rect, rules, state, history=()) -> None:
    """The board of `state` in `area` (square, centred at its top): an environment's frame, a training game.
    Its size is the state's own: a training game is 4x4 whatever board the screen shows."""
    values = state.values()
    draw_2048(surface, top_square(area), values, values.shape[0])
