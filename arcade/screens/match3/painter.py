"""The match-3 board drawn from its state alone: pure functions of (surface, rect, state), no screen,
no agent, no files. The screen draws its board with these (adding what is its own: animations, the cursor,
values), and the environments and the training view draw a frame with `paint`."""
from __future__ import annotations

import numpy as np
import pygame

from arcade.screens.match3 import colours
from arcade.ui import palette
from arcade.ui.geometry import top_square


GEM_SHAPES = ("circle", "square", "diamond", "triangle", "hexagon", "star", "down", "ring")


def _regular(n: int, turn: float, radius: float = 1.0):
    return tuple((radius * np.cos(turn + 2 * np.pi * k / n), radius * np.sin(turn + 2 * np.pi * k / n))
                 for k in range(n))


GEM_POLYGONS = {  # unit shapes around the gem's centre
    "square": ((-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)),
    "diamond": _regular(4, -np.pi / 2),
    "triangle": _regular(3, -np.pi / 2, 1.1),
    "hexagon": _regular(6, 0.0),
    "star": tuple(p for k in range(5) for p in (_regular(5, -np.pi / 2)[k], _regular(5, -np.pi / 2 + np.pi / 5, 0.45)[k])),
    "down": _regular(3, np.pi / 2, 1.1),
}


def draw_gem(surface, colour_index: int, centre, radius: float, alpha: float = 1.0) -> None:
    """One gem: its colour and its own shape (colour-blind players tell them apart), a highlight."""
    if colour_index < 0 or radius <= 1:
        return
    colour = colours.GEMS[colour_index % len(colours.GEMS)]
    if alpha < 1:
        colour = tuple(int(v * alpha + b * (1 - alpha)) for v, b in zip(colour, palette.PANEL, strict=True))
    shape = GEM_SHAPES[colour_index % len(GEM_SHAPES)]  # each colour its own shape: colour-blind players
    x, y = centre
    if shape == "circle":
        pygame.draw.circle(surface, colour, centre, radius)
    elif shape == "ring":
        pygame.draw.circle(surface, colour, centre, radius, max(3, int(radius * 0.4)))
    else:
        points = [(x + radius * dx, y + radius * dy) for dx, dy in GEM_POLYGONS[shape]]
        pygame.draw.polygon(surface, colour, points)
    pygame.draw.circle(surface, (255, 255, 255), (x - radius / 3, y - radius / 3), max(2, radius / 5))



def draw_match3(surface, area: pygame.Rect, board: np.ndarray) -> tuple[int, int, int]:
    """A match-3 board at rest, as large as fits at the left of `area`; returns (x, y, cell) of its grid."""
    s = board.shape[0]
    cell = min((area.h - 10) // s, area.w // s)
    ox, oy = area.x + 20, area.y + (area.h - cell * s) // 2
    pygame.draw.rect(surface, palette.PANEL, (ox - 6, oy - 6, cell * s + 12, cell * s + 12), border_radius=10)
    for r in range(s):
        for c in range(s):
            draw_gem(surface, int(board[r, c]), (ox + (c + 0.5) * cell, oy + (r + 0.5) * cell), cell * 0.4)
    return ox, oy, cell


def paint(surface, area: pygame.Rect, rules, state, history=()) -> None:
    """The board of `state` in `area` (square, centred at its top): an environment's frame, a training game."""
    square = top_square(area)
    draw_match3(surface, pygame.Rect(square.x - 20, square.y, square.w, square.h), state.board)
