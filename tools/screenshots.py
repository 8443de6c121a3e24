"""Takes the README screenshots from real screens: `python tools/screenshots.py [--out docs]`.

Runs the real App (under Xvfb, a desktop, or SDL's dummy driver), drives it
with posted events, and saves PNGs with pygame.image.save.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from arcade.app import App  # noqa: E402
from arcade.games import GAMES, is_playable  # noqa: E402
from arcade.screens import open_game  # noqa: E402
from arcade.screens.launcher import LauncherScreen  # noqa: E402
from arcade.settings import load_settings  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# keys pressed before a game's screenshot, to show what the screen can do
SHOW_KEYS = {"tictactoe": [pygame.K_r, pygame.K_5, pygame.K_v],
             "dots": [pygame.K_2, pygame.K_SPACE, pygame.K_RIGHT, pygame.K_SPACE, pygame.K_DOWN, pygame.K_SPACE,
                      pygame.K_DOWN, pygame.K_SPACE, pygame.K_RIGHT, pygame.K_SPACE],
             "blackjack": [pygame.K_4, pygame.K_t, pygame.K_p]}


def run_frames(app: App, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and app.running:
        app.tick()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--agent-seconds", type=float, default=4.0, help="how long each game's agent plays first")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    settings = load_settings(ROOT / "settings.toml")
    app = App(settings, size=(1024, 720))
    app.push(LauncherScreen(app))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode=""))
    run_frames(app, 0.3)
    pygame.image.save(app.surface, out / "launcher.png")
    print(out / "launcher.png")
    for game in GAMES:
        if not is_playable(game.id):
            continue
        screen = open_game(app, game.id, seed=7)
        app.push(screen)
        screen.controller.delay_ms = 0
        screen.controller.set_enabled(True)
        run_frames(app, args.agent_seconds)
        screen.controller.set_enabled(False)  # let the last move's animation settle
        for k in SHOW_KEYS.get(game.id, []):  # one key every few frames, so the other side can answer
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
            run_frames(app, 0.15)
        run_frames(app, 0.4)
        for _ in range(80):  # until the keys' messages have faded
            if not getattr(screen, "toast", None):
                break
            run_frames(app, 0.1)
        path = out / f"{game.id}.png"
        pygame.image.save(app.surface, path)
        print(path)
        app.pop()
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
