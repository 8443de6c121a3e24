"""Match-3's gem colours and their names, for its painter, its screen and its launcher sketch."""
from __future__ import annotations

GEMS = ((235, 80, 90), (90, 200, 110), (80, 140, 240), (245, 200, 70), (180, 100, 230),
        (240, 140, 60), (70, 210, 210), (230, 230, 230))
GEM_NAMES = ("red", "green", "blue", "yellow", "purple", "orange", "cyan", "white")
