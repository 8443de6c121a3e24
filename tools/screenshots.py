"""Takes the README screenshots from real screens: `python tools/screenshots.py [--out FOLDER]` (default
data/screenshots; `make screenshots` writes the README's, in docs/).

Runs the real App (under Xvfb, a desktop, or SDL's dummy driver), drives it
with posted events, and saves PNGs with pygame.image.save.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from arcade.app import App  # noqa: E402
from arcade.games import GAMES  # noqa: E402
from arcade.screens import open_game  # noqa: E402
from arcade.screens.launcher import LauncherScreen  # noqa: E402
from arcade.settings import DataSettings, load_settings  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# keys pressed before a game's screenshot, to show what the screen can do (v: the agent's values)
SHOW_KEYS = {"2048": [pygame.K_v],
             "tictactoe": [pygame.K_r, pygame.K_5, pygame.K_v],
             "dots": [pygame.K_2, pygame.K_SPACE, pygame.K_RIGHT, pygame.K_SPACE, pygame.K_DOWN, pygame.K_SPACE,
                      pygame.K_DOWN, pygame.K_SPACE, pygame.K_RIGHT, pygame.K_SPACE, pygame.K_v],
             "match3": [pygame.K_v],
             "blackjack": [pygame.K_2, pygame.K_t]}  # its values are on from the start


def press(app: App, k: int, unicode: str = "", mod: int = 0) -> None:
    """A key pressed and released (a key held down is not pressed again: the app skips its repeats)."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=unicode, scancode=0))
    run_frames(app, 0.15)


def settle(app: App, screen, seconds: float = 30.0) -> None:
    """Until the values of the state on screen have come (or a deadline) and the toasts have faded."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and app.running:
        state = screen.shown_state()
        done = not screen.values.on or state is None or screen.values.current(state) is not None
        strip = getattr(screen, "strip", True) is not None
        if done and strip and not screen.toast:
            break
        run_frames(app, 0.1)
    run_frames(app, 0.3)


def run_frames(app: App, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and app.running:
        app.tick()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "data" / "screenshots"), help="where the pictures go "
                    "(the README's are in docs: --out docs)")
    ap.add_argument("--agent-seconds", type=float, default=4.0, help="how long each game's agent plays first")
    ap.add_argument("--size", default="1024x720", help="window size, e.g. 640x480 (the smallest allowed)")
    ap.add_argument("--no-extras", action="store_true", help="only the launcher and the five games")
    args = ap.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # a fresh data folder: the pictures show this run's games, not whatever was played here before
    scratch = tempfile.mkdtemp(prefix="arcade-shots-")
    settings = dataclasses.replace(load_settings(ROOT / "settings.toml"), data=DataSettings(folder=scratch))
    app = App(settings, size=(width, height))
    app.push(LauncherScreen(app))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode=""))
    run_frames(app, 0.3)
    pygame.image.save(app.surface, out / "launcher.png")
    print(out / "launcher.png")
    for game in GAMES:
        screen = open_game(app, game.id, seed=7)
        app.push(screen)
        screen.controller.delay_ms = 0
        screen.controller.set_enabled(True)
        run_frames(app, args.agent_seconds)
        screen.controller.set_enabled(False)  # let the last move's animation settle
        for k in SHOW_KEYS.get(game.id, []):  # one key every few frames, so the other side can answer
            press(app, k)
        settle(app, screen)
        save(app, out / f"{game.id}.png")
        app.pop()
    if not args.no_extras:
        extras(app, out)
    app.close()
    return 0


def save(app: App, path: Path) -> None:
    pygame.image.save(app.surface, path)
    print(path)


def press_shift(app: App, k: int, unicode: str = "") -> None:
    press(app, k, unicode, pygame.KMOD_LSHIFT)


def wait_until(app: App, done, seconds: float) -> None:
    """Frames until `done()` or a wall-clock deadline, then a few more to draw what came."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and app.running and not done():
        run_frames(app, 0.1)
    run_frames(app, 0.5)


def lab(app: App, out: Path) -> None:
    """The lab's views: 2048's search tree and parameter editor, a finished dots game replayed with the
    agent's values, a tic-tac-toe arena filling in."""
    screen = open_game(app, "2048", seed=7)
    app.push(screen)
    screen.controller.select("expectimax")
    screen.controller.delay_ms = 0
    screen.controller.set_enabled(True)  # a few moves first: the opening's four moves are worth the same
    run_frames(app, 3.0)
    screen.controller.set_enabled(False)
    if not screen.values.on:
        press(app, pygame.K_v)
    settle(app, screen)
    press_shift(app, pygame.K_v, "V")
    wait_until(app, lambda: getattr(app.top, "tree", None) is not None, 60)
    save(app, out / "tree_view.png")
    press(app, pygame.K_ESCAPE)
    press_shift(app, pygame.K_i, "I")
    press(app, pygame.K_RIGHT)  # a value changed here
    save(app, out / "parameters.png")
    press(app, pygame.K_u)  # (undone: the screenshot's change is not kept)
    press(app, pygame.K_ESCAPE)
    app.pop()
    board = open_game(app, "dots", seed=7)  # a 2x2 game played to its end by two agents, then replayed
    app.push(board)
    press(app, pygame.K_2)
    board.controller.delay_ms = board.opponent.delay_ms = 0
    board.controller.set_enabled(True)
    wait_until(app, lambda: board.over, 60)
    board.controller.set_enabled(False)
    press_shift(app, pygame.K_k, "K")
    press(app, pygame.K_RETURN)
    for _ in range(4):
        press(app, pygame.K_RIGHT)
    press(app, pygame.K_v)
    wait_until(app, lambda: False, 3)
    save(app, out / "replay.png")
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_ESCAPE)
    app.pop()
    grid = open_game(app, "tictactoe", seed=7)
    app.push(grid)
    press_shift(app, pygame.K_a, "A")
    for k in (pygame.K_DOWN, pygame.K_DOWN, pygame.K_SPACE, pygame.K_DOWN, pygame.K_DOWN, pygame.K_SPACE):
        press(app, k)  # mcts and random join the first two
    press(app, pygame.K_RETURN)
    wait_until(app, lambda: False, 15)
    save(app, out / "arena.png")
    press(app, pygame.K_ESCAPE)
    app.pop()


def alphazero(app: App, out: Path) -> None:
    """AlphaZero's search tree on dots 3x3 (each move's prior and its network's value beside the search's mean)
    and tic-tac-toe's alphazero learning from nothing (its loss, then its results against the references)."""
    board = open_game(app, "dots", seed=7)
    app.push(board)
    press(app, pygame.K_3)
    board.controller.select("alphazero")
    board.controller.delay_ms = board.opponent.delay_ms = 0
    board.controller.set_enabled(True)
    run_frames(app, 1.5)  # a few lines in: the priors differ
    board.controller.set_enabled(False)
    settle(app, board)
    press_shift(app, pygame.K_v, "V")
    wait_until(app, lambda: getattr(app.top, "tree", None) is not None, 60)
    save(app, out / "alphazero_tree.png")
    press(app, pygame.K_ESCAPE)
    app.pop()
    screen = open_game(app, "tictactoe", seed=7)
    app.push(screen)
    screen.controller.select("alphazero")
    press_shift(app, pygame.K_t, "T")  # from nothing
    wait_until(app, lambda: not screen.trainer.running, 240)
    settle(app, screen, 5)
    save(app, out / "alphazero_training.png")
    app.pop()


def extras(app: App, out: Path) -> None:
    """The statistics view, a learning curve while tic-tac-toe trains, the agent panel, dots on 5x5, the lab's
    views and AlphaZero's."""
    lab(app, out)
    alphazero(app, out)
    table = open_game(app, "blackjack", seed=7)
    app.push(table)
    press(app, pygame.K_2)  # the course's large deck: rewards spread out
    table.controller.delay_ms = 0
    table.controller.set_enabled(True)
    run_frames(app, 8.0)  # rounds played by value iteration, each counted
    table.controller.set_enabled(False)
    press(app, pygame.K_k)
    settle(app, table, 5)
    save(app, out / "statistics.png")
    app.pop()
    screen = open_game(app, "tictactoe", seed=7)
    app.push(screen)
    screen.controller.select("td-value")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=pygame.KMOD_LSHIFT, unicode="T",
                                         scancode=0))  # train from scratch, and watch the curve climb
    run_frames(app, 12.0)
    settle(app, screen, 5)
    save(app, out / "learning_curve.png")
    press(app, pygame.K_t)  # stop the training
    end = time.perf_counter() + 30
    while screen.trainer.running and time.perf_counter() < end:
        run_frames(app, 0.2)
    press(app, pygame.K_i)
    settle(app, screen, 5)
    save(app, out / "agent_panel.png")
    app.pop()
    board = open_game(app, "dots", seed=7)  # 5x5: alpha-beta plays a while against mcts, then shows its values
    app.push(board)
    press(app, pygame.K_5)
    board.controller.select("alpha-beta")
    board.opponent.select("mcts")
    board.controller.delay_ms = board.opponent.delay_ms = 0
    board.controller.set_enabled(True)
    run_frames(app, 5.0)
    board.controller.set_enabled(False)
    if not board.values.on:  # the screen keeps its choices: v may be on from the shot of the 2x2 board
        press(app, pygame.K_v)
    settle(app, board, 30)
    save(app, out / "dots_5x5.png")
    app.pop()


if __name__ == "__main__":
    sys.exit(main())
