"""Draws a learning curve written by `python main.py train ... --curve CSV` as a PNG, with the arcade's own
chart (the one `t` draws on a screen): `python tools/curve_picture.py CSV PNG [--title TEXT]`."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from arcade.training import read_curve_file  # noqa: E402
from arcade.ui import palette, panels, text  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--title", default="ntuple learning 2048 from nothing (standard rules)")
    args = ap.parse_args()
    points = read_curve_file(args.csv)
    if not points:
        print(f"{args.csv}: no curve points", file=sys.stderr)
        return 2
    pygame.font.init()
    surface = pygame.Surface((960, 420))
    surface.fill(palette.PANEL)
    text.draw(surface, args.title, (16, 10), 24, palette.ACCENT, bold=True, max_width=928)
    panels.draw_curve(surface, pygame.Rect(16, 48, 928, 356), points)
    pygame.image.save(surface, args.png)
    print(f"wrote {args.png} ({len(points)} points, up to {points[-1][0]:,} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
