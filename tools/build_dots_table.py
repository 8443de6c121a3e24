"""Builds the 3x3 dots solver table the arcade ships (assets/dots_solver_3x3.npz) with the project's own
retrograde solver, so 3x3 opens at once instead of solving 16 million states on a player's machine.

    .venv/bin/python tools/build_dots_table.py        # about 15 s on an idle 2-core machine; 2.8 MB
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.dots_solver import FORMAT_VERSION, SHIPPED, retrograde  # noqa: E402
from arcade.progress import Progress  # noqa: E402
from arcade.foundation.storage import save_npz  # noqa: E402


def main() -> int:
    t0 = time.perf_counter()
    bar = Progress(24, "retrograde layers of 3x3")
    margin = retrograde(3, 3, progress=bar.update)
    bar.close()
    if not save_npz(SHIPPED, FORMAT_VERSION, margin=margin):
        return 1
    print(f"{SHIPPED}: {SHIPPED.stat().st_size / 1e6:.1f} MB, value of the empty board {int(margin[0]):+d}, "
          f"{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
