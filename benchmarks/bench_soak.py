"""The arcade left running: every screen in turn, its strongest agent playing and, where one of the game's agents
trains, a training beside it, for a set time; does anything grow, slow down or outlive it?

    python benchmarks/bench_soak.py                        # 30 minutes (the figures in docs/benchmarks.md)
    python benchmarks/bench_soak.py --minutes 2 --screen-seconds 15 --every 10     # a short look
    python benchmarks/bench_soak.py --long-2048 30000      # first: a 2048 game of 30,000 moves, its undo history

One App for the whole run (as a person's session is), the window at 1024x720: the SDL dummy driver where there is
no display, a real (virtual) display where DISPLAY is set. Each screen plays `--screen-seconds` with its first
agent in Tab at 0 ms delay (a new game half a second after one ends) and `t` training where an agent of the game
trains (stopped, and so saved, as the screen closes); the data folder is a temporary one. Every `--every` seconds a
line: the arcade's resident memory (its own and its worker processes'), threads, worker processes, open files and
the frame interval p99 since the line before. At the end the arcade quits as on Esc, and every process it started
must be gone within 30 s.

Targets (issue 66): resident memory, threads and worker processes at the end (on the launcher) within 10% of,
and no more than, after the first round of screens (the agent process stays for the next screen, as it does
when a person plays), frame p99 under 20 ms, no agent error, no process left.
--long-2048 N first plays N moves (or to the game's end) on a 7x7 2048 screen through the session, as an agent
would, and compares frame p99 and memory with that history against a fresh game.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "x11" if os.environ.get("DISPLAY") else "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import _common  # noqa: F401,E402
import numpy as np  # noqa: E402
from bench_frames import plain_sleep_loop  # noqa: E402
import pygame  # noqa: E402

from agents import Trains, agents_for  # noqa: E402
from arcade import agent_process  # noqa: E402
from arcade.app import App  # noqa: E402
from arcade.games import GAMES, make_rules  # noqa: E402
from arcade.screens import open_game  # noqa: E402
from arcade.screens.launcher import LauncherScreen  # noqa: E402
from arcade.settings import load_settings  # noqa: E402

TARGET_P99_MS = 20.0
MEMORY_GROWTH = 0.10


# --- what the arcade holds, read from /proc ----------------------------------------------------------------

def descendants(pid: int | None = None) -> list[int]:
    """Every living process started (directly or not) by `pid` (this one by default)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] != "Z":  # (a zombie is gone but for its exit status)
                parents[int(entry)] = int(fields[1])
    found, frontier = [], [pid or os.getpid()]
    while frontier:
        p = frontier.pop()
        children = [c for c, parent in parents.items() if parent == p]
        found += children
        frontier += children
    return found


def _status(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def sample() -> dict:
    """Resident memory (MB) of this process and of its workers, its threads, workers and open files."""
    me, workers = os.getpid(), descendants()
    return {"rss_mb": _status(me, "VmRSS") / 1024, "workers_rss_mb": sum(_status(p, "VmRSS") for p in workers) / 1024,
            "threads": _status(me, "Threads"), "workers": len(workers), "open_files": len(os.listdir("/proc/self/fd"))}


def p99(intervals: list[float]) -> float:
    return float(np.percentile(intervals, 99)) if intervals else float("nan")


# --- driving the screens ------------------------------------------------------------------------------------

class Soak:
    """One App, the screens in turn, a line every `every` seconds."""

    def __init__(self, settings, every: float):
        self.app = App(settings, size=(1024, 720))
        self.app.push(LauncherScreen(self.app))
        self.app.tick()
        self.every = every
        self.intervals: list[float] = []  # since the last line
        self.all_intervals: list[float] = []
        self.next_line = time.perf_counter() + every
        self.start = time.perf_counter()
        self.errors: list[str] = []
        self.samples: list[dict] = []

    def frames(self, seconds: float, screen=None, game: str | None = None) -> None:
        """Tick the window for `seconds` (a new game half a second after one ends), a line when one is due."""
        last = time.perf_counter()
        end, over = last + seconds, 0
        while last < end:
            if screen is not None:
                over = over + 1 if game_over(game, screen) else 0
                if over == 30:
                    key = pygame.K_SPACE if game == "blackjack" else pygame.K_r
                    for kind in (pygame.KEYDOWN, pygame.KEYUP):
                        pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode=""))
            self.app.tick()
            now = time.perf_counter()
            if screen is not None:  # (the launcher with nothing moving sleeps until a key: no frame is late)
                self.intervals.append((now - last) * 1000)
            last = now
            if now >= self.next_line:
                self.line(game or "launcher")

    def line(self, where: str) -> None:
        s = sample()
        s.update(minute=(time.perf_counter() - self.start) / 60, p99=p99(self.intervals), where=where)
        self.samples.append(s)
        self.all_intervals += self.intervals
        self.intervals = []
        self.next_line = time.perf_counter() + self.every
        print(f"  {s['minute']:5.1f} min  {where:<10} memory {s['rss_mb']:6.0f} MB (+ workers {s['workers_rss_mb']:5.0f})"
              f"  threads {s['threads']:3d}  workers {s['workers']:2d}  open files {s['open_files']:3d}"
              f"  frame p99 {s['p99']:5.1f} ms", flush=True)

    def screen(self, game: str, seconds: float) -> None:
        """One screen: its first agent plays, a training beside it where the game trains; then back."""
        agent = agents_for(game)[0].name
        screen = open_game(self.app, game, agent=agent, seed=1)
        self.app.push(screen)
        screen.controller.delay_ms = 0
        trains = any(s.can(Trains) for s in screen.controller.specs)
        if trains:
            screen.trainer.toggle_training()
        self.frames(seconds, screen, game)
        status = screen.controller.status()
        if "error" in status.lower():
            self.errors.append(f"{game}: {status}")
        if trains and screen.trainer.running:
            screen.trainer.toggle_training()  # stop: it saves
            self.frames(1.0)
        self.app.pop()
        self.frames(0.5)

    def quit(self) -> None:
        """Esc as a person quits: the window closes, the agent process and any training end."""
        self.app.close()
        agent_process.shutdown()


def game_over(game: str, screen) -> bool:
    state = {"2048": lambda: screen.game.state, "blackjack": lambda: screen.round}.get(game, lambda: screen.state)()
    return screen.rules.is_terminal(state)


def long_2048(settings, moves: int, seconds: float) -> None:
    """Frame p99 and memory with a fresh 7x7 game, then with `moves` moves of history, the agent playing on."""
    app = App(settings, size=(1024, 720))
    app.push(LauncherScreen(app))
    screen = open_game(app, "2048", agent="greedy", seed=1)
    app.push(screen)
    screen.new_game(7)
    screen.controller.delay_ms = 0
    rules, order = make_rules("2048", settings, size=7), (1, 2, 3, 0)

    def measure(label: str) -> None:
        intervals, last = [], time.perf_counter()
        end = last + seconds
        while last < end:
            app.tick()
            now = time.perf_counter()
            intervals.append((now - last) * 1000)
            last = now
        print(f"  {label:<34} memory {sample()['rss_mb']:6.0f} MB  frame p99 {p99(intervals):5.1f} ms  "
              f"max {max(intervals):6.1f} ms  ({len(intervals)} frames)", flush=True)

    measure("a fresh 7x7 game")
    t0 = time.perf_counter()
    played = 0
    while played < moves and not screen.game.over:
        legal = rules.legal_actions(screen.game.state)
        screen.game.play(next(d for d in order if d in legal), "greedy")  # the corner habit: lasts long
        played += 1
    print(f"  played {played} moves through the session in {time.perf_counter() - t0:.0f} s"
          + (" (the game ended there)" if screen.game.over else ""))
    measure(f"with {len(screen.game.history)} moves of history")
    for _ in range(3):
        screen.undo()
    measure("after three undos")
    app.close()
    agent_process.shutdown()


def marked(token: str) -> list[int]:
    """The living processes whose environment holds SOAK_TOKEN=token: the soak's arcade and all it started,
    found even when an orphan was handed to init."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                if f"{TOKEN}={token}".encode() in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                    found.append(int(entry))
            except OSError:
                continue
    return found


def left_after(command: list[str]) -> tuple[int, list[int]]:
    """Run the soak in a process of its own, marked; its exit code and the processes of it still there 30 s
    after it ended."""
    import subprocess
    import sys
    import uuid

    token = uuid.uuid4().hex
    code = subprocess.call([sys.executable, *command], env=dict(os.environ, **{TOKEN: token}))
    deadline = time.monotonic() + 30
    while marked(token) and time.monotonic() < deadline:
        time.sleep(0.2)
    return code, marked(token)


TOKEN = "ARCADE_SOAK_TOKEN"


def main():
    ap = _common.Parser()
    ap.add_argument("--minutes", type=float, default=30.0, help="how long the screens take turns (default 30)")
    ap.add_argument("--screen-seconds", type=float, default=60.0, help="each screen's turn (default 60)")
    ap.add_argument("--every", type=float, default=60.0, help="seconds between two lines (default 60)")
    ap.add_argument("--game", action="append", help="only these screens (default: all five)")
    ap.add_argument("--long-2048", type=int, default=0, metavar="MOVES", help="first, the long 2048 game")
    ap.add_argument("--in-process", action="store_true", help="(the soak itself, in the process the first one starts)")
    args = ap.parse_args()
    if min(args.minutes, args.screen_seconds, args.every) <= 0:
        ap.error("--minutes, --screen-seconds and --every must be more than 0")
    if not args.in_process:  # the arcade in a process of its own, so that what outlives it can be seen
        import sys

        code, left = left_after([__file__, *sys.argv[1:], "--in-process"])
        print(f"  {'MISS' if left else 'ok  '} no process of the arcade left 30 s after it quit "
              f"({', '.join(map(str, left)) or 'none'})")
        return code or (1 if left else 0)
    with tempfile.TemporaryDirectory(prefix="arcade-soak-") as data:
        settings = load_settings(_common.ROOT / "settings.toml")
        settings = settings.with_table("data", folder=data)
        if args.long_2048:
            print(f"== a 2048 game of up to {args.long_2048} moves on 7x7, its whole undo history kept")
            long_2048(settings, args.long_2048, 10.0)
        return soak(settings, args)


def soak(settings, args) -> int:
    games = [g.id for g in GAMES if not args.game or g.id in args.game]
    if not games:
        raise SystemExit(f"--game: none of {args.game} is a game here ({', '.join(g.id for g in GAMES)})")
    print(f"== soak: {args.minutes:g} min, each screen {args.screen_seconds:g} s in turn ({', '.join(games)}), "
          f"its first agent playing at 0 ms and training where it trains; a line every {args.every:g} s")
    floor = p99(plain_sleep_loop(min(10.0, args.minutes * 6), settings.window.fps))
    print(f"  this machine's floor: a plain sleep loop at {settings.window.fps} fps wakes with p99 {floor:.1f} ms "
          f"(no frame can be steadier than that here)")
    run = Soak(settings, args.every)
    run.frames(1.0)
    before = sample()  # the arcade open on its launcher
    end = run.start + args.minutes * 60
    rounds, after_first = 0, None
    while time.perf_counter() < end or rounds == 0:
        for game in games:
            run.screen(game, min(args.screen_seconds, max(1.0, end - time.perf_counter())))
        rounds += 1
        if after_first is None:
            run.frames(2.0)  # on the launcher, as at the end
            after_first = sample()
    run.frames(2.0)  # back on the launcher: the last screen's workers and threads wind down
    run.line("launcher")
    last = sample()
    run.quit()
    growth = last["rss_mb"] / after_first["rss_mb"] - 1
    frames = p99(run.all_intervals)
    checks = {
        f"memory at the end within {MEMORY_GROWTH:.0%} of after the first round ({after_first['rss_mb']:.0f} -> "
        f"{last['rss_mb']:.0f} MB, {growth:+.1%})": abs(growth) <= MEMORY_GROWTH,
        f"threads and workers on the launcher at the end as after the first round (threads "
        f"{after_first['threads']} -> {last['threads']}, workers {after_first['workers']} -> {last['workers']}; "
        f"before any screen {before['threads']} and {before['workers']})":
            last["threads"] <= after_first["threads"] and last["workers"] <= after_first["workers"],
        f"frame interval p99 under {TARGET_P99_MS:.0f} ms ({frames:.1f} ms over {len(run.all_intervals)} frames; "
        f"the sleep loop's {floor:.1f})": frames < TARGET_P99_MS,
        f"no agent error ({'; '.join(run.errors) or 'none'})": not run.errors,
    }
    print(f"-- {rounds} round(s) of {len(games)} screens")
    for label, ok in checks.items():
        print(f"  {'ok  ' if ok else 'MISS'} {label}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    _common.run(main)
