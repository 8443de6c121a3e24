"""Shared layout arithmetic of the drawn boards, sketches and overlays: where a square board or a grid of cells
goes, and how much an overlay grows with the window."""
from __future__ import annotations

import pygame


def top_square(area: pygame.Rect) -> pygame.Rect:
    """The largest square in `area`, centred across it and at its top."""
    side = min(area.w, area.h)
    return pygame.Rect(area.centerx - side // 2, area.y, side, side)


def grid(rect: pygame.Rect, n_rows: int, n_cols: int, pad: int = 4) -> tuple[int, int, int]:
    """(cell size, x, y of the first cell) of square cells filling `rect`, centred."""
    cell = min((rect.w - pad) // n_cols, (rect.h - pad) // n_rows)
    ox = rect.x + (rect.w - cell * n_cols) // 2
    oy = rect.y + (rect.h - cell * n_rows) // 2
    return cell, ox, oy


def overlay_scale(surface: pygame.Surface) -> float:
    """How much an overlay's box and type grow with the window: 1 up to 1024x720, up to 1.5 in larger windows
    (at 1600x900 a 900 px tree view and 18 px rows left half the window empty)."""
    w, h = surface.get_size()
    return max(1.0, min(1.5, w / 1024, h / 720))
