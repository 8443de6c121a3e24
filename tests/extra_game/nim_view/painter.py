"""Nim's board: the stones left in a row (the screen, the environments and the training view draw it)."""
from __future__ import annotations

import pygame

from arcade.ui import palette


def paint(surface, area: pygame.Rect, rules, state, history=()) -> None:
    step = min(40, max(4, (area.w - 40) // max(rules.heap, 1)))
    for k in range(state.stones):
        pygame.draw.circle(surface, palette.ACCENT, (area.x + 20 + k * step, area.centery), max(2, step * 3 // 8))
