"""The arcade's colours, in one place."""
from __future__ import annotations

BACKGROUND = (22, 24, 31)
PANEL = (36, 39, 50)
PANEL_HI = (52, 57, 73)
BORDER = (70, 76, 96)
TEXT = (236, 237, 242)
MUTED = (150, 156, 174)
ACCENT = (255, 186, 80)
GOOD = (110, 205, 130)
BAD = (240, 96, 96)
INFO = (110, 170, 255)
OVERLAY = (10, 11, 15, 215)
SEAT_COLOURS = ((90, 160, 255), (255, 110, 110))  # seat 0 / seat 1
