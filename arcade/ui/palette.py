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

TILE_2048 = {
    0: (58, 62, 77), 2: (238, 228, 218), 4: (237, 224, 200), 8: (242, 177, 121), 16: (245, 149, 99),
    32: (246, 124, 95), 64: (246, 94, 59), 128: (237, 207, 114), 256: (237, 204, 97),
    512: (237, 200, 80), 1024: (237, 197, 63), 2048: (237, 194, 46),
}
TILE_2048_BIG = (60, 58, 50)  # 4096 and above
GEMS = ((235, 80, 90), (90, 200, 110), (80, 140, 240), (245, 200, 70), (180, 100, 230),
        (240, 140, 60), (70, 210, 210), (230, 230, 230))
GEM_NAMES = ("red", "green", "blue", "yellow", "purple", "orange", "cyan", "white")


VALUE_SCALE = ((72, 40, 120), (33, 145, 140), (253, 231, 37))  # worst, middle, best (no red or blue: seats use them)


def value_colour(t: float) -> tuple[int, int, int]:
    """A colour for a value scaled to [0, 1] (0 worst, 1 best), on a scale readable in grayscale too."""
    t = min(max(t, 0.0), 1.0)
    lo, hi, u = (VALUE_SCALE[0], VALUE_SCALE[1], t * 2) if t < 0.5 else (VALUE_SCALE[1], VALUE_SCALE[2], t * 2 - 1)
    return tuple(int(a + (b - a) * u) for a, b in zip(lo, hi, strict=True))


def tile_colours(value: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(background, text) colour of a 2048 tile."""
    bg = TILE_2048.get(value, TILE_2048_BIG)
    fg = (119, 110, 101) if value in (2, 4) else (249, 246, 242)
    return bg, fg
