"""The arcade's shared colours (a game's own, its tiles or gems, are in its view folder's colours module)."""
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
VIOLET = (190, 140, 255)  # (a chart's fifth and sixth lines)
TEAL = (80, 205, 200)
OVERLAY = (10, 11, 15, 215)
SEAT_COLOURS = ((90, 160, 255), (255, 110, 110))  # seat 0 / seat 1

VALUE_SCALE = ((72, 40, 120), (33, 145, 140), (253, 231, 37))  # worst, middle, best (no red or blue: seats use them)


def value_colour(t: float) -> tuple[int, int, int]:
    """A colour for a value scaled to [0, 1] (0 worst, 1 best), on a scale readable in grayscale too."""
    t = min(max(t, 0.0), 1.0)
    lo, hi, u = (VALUE_SCALE[0], VALUE_SCALE[1], t * 2) if t < 0.5 else (VALUE_SCALE[1], VALUE_SCALE[2], t * 2 - 1)
    return tuple(int(a + (b - a) * u) for a, b in zip(lo, hi, strict=True))
