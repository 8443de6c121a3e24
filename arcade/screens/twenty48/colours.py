"""2048's tile colours (the classic game's), for its painter and its launcher sketch."""
from __future__ import annotations

TILES = {
    0: (58, 62, 77), 2: (238, 228, 218), 4: (237, 224, 200), 8: (242, 177, 121), 16: (245, 149, 99),
    32: (246, 124, 95), 64: (246, 94, 59), 128: (237, 207, 114), 256: (237, 204, 97),
    512: (237, 200, 80), 1024: (237, 197, 63), 2048: (237, 194, 46),
}
BIG = (60, 58, 50)  # 4096 and above


def tile_colours(value: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(background, text) colour of a tile of this value."""
    bg = TILES.get(value, BIG)
    fg = (119, 110, 101) if value in (2, 4) else (249, 246, 242)
    return bg, fg
