"""How soon the strong 2048 agent moves after a player hands it the game: the window's first agent move.

    python benchmarks/bench_first_move.py [--rounds 5] [--cold] [--game blackjack] [--against REV] [--pieces]

Each round starts the arcade in a fresh process (headless, SDL's dummy drivers) as `python main.py` does
(its agent process started at once, loading the kernels), opens the 2048 screen at once, presses `e` (the
strongest agent) and Enter, and measures the wall-clock time from Enter to the first move
made on the board: the agent process started, the agent built (its kernels loaded from numba's cache), the
move decided. With --cold, numba's cache is first pointed at an
empty folder, so the kernels are compiled inside that time (as for a user who starts `python main.py`
without `make run`, which compiles them first); the compile step `make run` runs is timed too.
Printed: the median and range over the rounds (targets: 2 s with compiling, 0.5 s from the cache).
With --against REV, the rounds with Enter at once alternate with the same rounds of the code of git
revision REV (a temporary worktree, its kernels compiled first; `--before-window no` for a revision whose
arcade started its agent process after its window opened), and the ratio of each pair is printed.
With --pieces, only the way of a fresh process to its first decision, piece by piece (what bounds the
first move from below).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import _common  # noqa: E402
from _common import ROOT

CHILD = """
import json, os, sys, time
os.environ["SDL_VIDEODRIVER"] = "dummy"; os.environ["SDL_AUDIODRIVER"] = "dummy"
sys.path.insert(0, sys.argv[1])
import pygame
from arcade.settings import Settings
from arcade import agent_process

settings = Settings().with_table("data", folder=sys.argv[2]).with_table("game2048", spawn_four_probability=0.1)
started = time.monotonic()
before_window = sys.argv[5] == "yes"
if before_window:
    agent_process.start_early(settings)  # (where the arcade does: after pygame, before its screens and window)
from arcade.app import App
from arcade.screens import open_game
from arcade.screens.launcher import LauncherScreen
app = App(settings, size=(1024, 720))
app.push(LauncherScreen(app))
if not before_window:
    agent_process.start_early(settings)
dwell_until = time.monotonic() + float(sys.argv[3])  # a player on the launcher for a moment
while time.monotonic() < dwell_until:
    app.tick(16.0)
    pygame.time.wait(5)

def key(k):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
    app.tick(16.0)

def until(condition, seconds=300):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not condition():
        app.tick(16.0)
        pygame.time.wait(1)
    return condition()

if sys.argv[4] == "2048":
    screen = open_game(app, "2048", seed=11)
    app.push(screen)
    app.tick(16.0)
    key(pygame.K_e)
else:  # blackjack, the large deck, mcts chosen (cold: not built yet) with its values and policy strip on
    screen = open_game(app, "blackjack", seed=11)
    app.push(screen)
    app.tick(16.0)
    screen.set_preset("large")
    screen.controller.select("mcts")
    if not screen.values.on:
        key(pygame.K_v)
    app.tick(16.0)
t0 = time.monotonic()
key(pygame.K_RETURN)
moved = until(lambda: len(screen.session.history) >= 1)
first_move = time.monotonic() - t0
agent_process.shutdown()
app.close()
print(json.dumps({"first_move": first_move if moved else None, "window": t0 - started}))
"""


def one_round(cache: str | None, dwell: float, game: str = "2048", tree: Path = ROOT,
              before_window: bool = True) -> float | None:
    """Seconds from Enter to the first move in a fresh arcade process running the code in `tree`."""
    env = dict(os.environ)
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    with tempfile.TemporaryDirectory() as data:
        out = subprocess.run([sys.executable, "-c", CHILD, str(tree), data, str(dwell), game,
                              "yes" if before_window else "no"], env=env, capture_output=True, text=True,
                             timeout=600)
    if out.returncode:
        sys.exit(f"the arcade's round failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])["first_move"]


def main() -> None:
    ap = _common.Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cold", action="store_true", help="also: each round with an empty numba cache")
    ap.add_argument("--dwell", type=float, default=2.0, help="seconds on the launcher before the 2048 screen")
    ap.add_argument("--game", choices=("2048", "blackjack"), default="2048",
                    help="blackjack: mcts on the large deck, chosen and handed the game at once (target 1 s)")
    ap.add_argument("--against", metavar="REV", help="also: Enter at once with the code of git revision REV, "
                    "alternated round by round")
    ap.add_argument("--before-window", choices=("yes", "no"), default="no",
                    help="whether REV's arcade starts its agent process before its window (default: no)")
    ap.add_argument("--pieces", action="store_true", help="only: a fresh process's way to its first 2048 "
                    "decision, piece by piece (imports, tables, numba's set-up, the kernel's load)")
    args = ap.parse_args()
    if args.pieces:
        pieces(args.rounds)
        return
    if args.against:
        against(args.against, args.rounds, args.before_window == "yes")
        return
    if args.game == "blackjack":
        times = [one_round(None, args.dwell, "blackjack") for _ in range(args.rounds)]
        print(f"== blackjack, the large deck: mcts (not built yet, its values and policy strip on) handed the game, "
              f"Enter to its first move, {args.rounds} rounds, a fresh arcade process each, wall clock: median "
              f"{np.median(times):.2f} s ({min(times):.2f}-{max(times):.2f}); target 1 s")
        return
    print(f"== the strong 2048 agent's first move in the window, Enter to the first move on the board, "
          f"{args.rounds} rounds, a fresh arcade process each (headless), wall clock")
    for dwell in sorted({0.0, args.dwell}):
        warm = [one_round(None, dwell) for _ in range(args.rounds)]
        print(f"  kernels from the cache, {dwell:g} s on the launcher, Enter at once on the 2048 screen: median "
              f"{np.median(warm):.2f} s ({min(warm):.2f}-{max(warm):.2f}); target 0.5 s")
    if args.cold:
        cold, compile_step = [], []
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory() as cache:
                cold.append(one_round(cache, args.dwell))
            with tempfile.TemporaryDirectory() as cache:
                t = subprocess.run([sys.executable, "-m", "agents.warm_kernels"], cwd=ROOT, capture_output=True,
                                   text=True, env={**os.environ, "NUMBA_CACHE_DIR": cache}, check=True)
                compile_step.append(float(t.stdout.split("(")[-1].split(" s")[0]))
        print(f"  kernels compiled inside that time (an empty cache, {args.dwell:g} s on the launcher): median {np.median(cold):.2f} s "
              f"({min(cold):.2f}-{max(cold):.2f}); target 2 s")
        print(f"  `make run`'s compile step (python -m agents.warm_kernels, every kernel, an empty cache): median "
              f"{np.median(compile_step):.1f} s ({min(compile_step):.1f}-{max(compile_step):.1f})")


PIECES = """
import sys, time
sys.path.insert(0, sys.argv[1])
marks = [time.perf_counter()]
import numpy as np
marks.append(time.perf_counter())
import numba
marks.append(time.perf_counter())
from agents import expectimax_strong
from agents.engines import compiled
from agents.engines.twenty48 import board64
marks.append(time.perf_counter())
from agents.engines.twenty48 import kernels  # noqa: F401  (numba loads with them)
marks.append(time.perf_counter())
expectimax_strong.score_tables(); board64.move_tables()
marks.append(time.perf_counter())
search = expectimax_strong.Search(0.1, 1e-4)
board = np.zeros((4, 4), np.uint8); board[0, :2] = 1
search.root(board, 2)
marks.append(time.perf_counter())
search.root(board, 3)
marks.append(time.perf_counter())
print(" ".join(str(b - a) for a, b in zip(marks, marks[1:])))
"""
PIECE_NAMES = ("import numpy", "import numba", "the search's modules", "the kernels' module (cache placed)",
               "the search's tables (numpy)", "the first call: numba's set-up and the kernel from its cache",
               "a decision at depth 3")


def pieces(rounds: int) -> None:
    """What a fresh process spends before its first 2048 decision, piece by piece (the floor of the first
    move: the agent process does these in this order)."""
    rows = []
    for _ in range(rounds):
        out = subprocess.run([sys.executable, "-c", PIECES, str(ROOT)], capture_output=True, text=True, timeout=600)
        if out.returncode:
            sys.exit(f"a fresh process's way to its first decision failed:\n{out.stderr[-2000:]}")
        rows.append([float(x) for x in out.stdout.split()])
    times = np.array(rows)
    print(f"== a fresh process to its first 2048 decision (kernels from the cache), piece by piece, {rounds} "
          f"processes, wall clock")
    for name, column in zip(PIECE_NAMES, times.T, strict=True):
        print(f"  {name}: median {np.median(column):.3f} s ({column.min():.3f}-{column.max():.3f})")
    total = times.sum(axis=1)
    print(f"  in all: median {np.median(total):.3f} s ({total.min():.3f}-{total.max():.3f})")


def against(rev: str, rounds: int, before_window: bool) -> None:
    now, then = [], []
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "then"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(old), rev], cwd=ROOT, check=True)
        try:
            subprocess.run([sys.executable, "-m", "agents.warm_kernels"], cwd=old, check=True, capture_output=True)
            for r in range(rounds):  # alternated, so a noisy spell hits both
                for which in ((now, then) if r % 2 == 0 else (then, now)):
                    which.append(one_round(None, 0.0) if which is now else one_round(None, 0.0, "2048", old,
                                                                                       before_window))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    ratio = np.array(now) / np.array(then)
    print(f"== the strong 2048 agent's first move, Enter at once on a fresh arcade (kernels from the cache), "
          f"{rounds} rounds alternated with {rev}, wall clock")
    print(f"  this code: median {np.median(now):.2f} s ({min(now):.2f}-{max(now):.2f}); target 0.5 s")
    print(f"  {rev}: median {np.median(then):.2f} s ({min(then):.2f}-{max(then):.2f})")
    print(f"  this / {rev}: x{np.median(ratio):.2f} ({ratio.min():.2f}-{ratio.max():.2f})")


if __name__ == "__main__":
    _common.run(main)
