"""Frame times with each screen's strongest agent playing at zero delay (issue 9's smoothness target).

    python benchmarks/bench_frames.py [--seconds 20] [--game GAME ...]

Drives the real App headless (SDL dummy driver) at the settings' frame rate,
the agent in control, and prints the frame time median, p99 and max per screen.
Target: p99 under 20 ms on every screen.
"""
from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import _common  # noqa: F401,E402
import numpy as np  # noqa: E402

from arcade.app import App  # noqa: E402
from arcade.screens import open_game  # noqa: E402
from arcade.screens.launcher import LauncherScreen  # noqa: E402
from arcade.settings import load_settings  # noqa: E402

STRONGEST = {"2048": "expectimax", "tictactoe": "minimax", "dots": "solver", "match3": "q-rollouts",
             "blackjack": "value-iteration"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--game", action="append", help="only these games (default: all)")
    args = ap.parse_args()
    settings = load_settings(_common.ROOT / "settings.toml")
    print(f"== frame times, {args.seconds:.0f} s per screen, strongest agent at 0 ms delay, "
          f"{settings.window.fps} fps cap")
    for game, agent in STRONGEST.items():
        if args.game and game not in args.game:
            continue
        app = App(settings, size=(1024, 720))
        app.push(LauncherScreen(app))
        screen = open_game(app, game, agent=agent, seed=1)
        app.push(screen)
        screen.controller.delay_ms = 0
        frames = []
        end = time.perf_counter() + args.seconds
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            app.tick()
            frames.append((time.perf_counter() - t0) * 1000)
        app.close()
        # a frame includes the clock's wait for the frame rate; what matters is how late frames come
        f = np.array(frames[5:])
        verdict = "ok" if np.percentile(f, 99) < 20 else "OVER"
        print(f"  {game:<10} {agent:<16} frames {f.size:5d}  median {np.median(f):5.1f} ms  "
              f"p99 {np.percentile(f, 99):6.1f} ms  max {f.max():6.1f} ms  {verdict}")


if __name__ == "__main__":
    main()
