"""Frame times with each screen's strongest agent playing at zero delay (issue 9's smoothness target).

    python benchmarks/bench_frames.py [--seconds 20] [--rounds 1] [--game GAME ...] [--all-agents]
    python benchmarks/bench_frames.py --arena [--game dots] [--seconds 20] [--rounds 2]

Drives the real App headless (SDL dummy driver) at the settings' frame rate,
the agent in control (a new game starts half a second after one ends), and
prints per screen the frame interval (flip to flip: what a player sees)
median, p99 and max; the frame's own work (events, update, draw, flip; the
pacer's wait left out) in wall time and in the main thread's CPU time (wall
minus CPU is time the thread could not run: the GIL, or the hypervisor); and
how many moves the agent made.
Target: interval p99 under 20 ms on every screen.

Two baselines run first, in the same run: a plain `time.sleep` loop at the
same rate (how late this machine wakes a sleeper; on a virtual machine often
by several milliseconds, which alone breaks the target) and the arcade's
FramePacer with empty frames. On a virtual machine the hypervisor also takes
CPU time away ("steal", printed at the end), which delays frames no code can
protect; the frame's own work (well under the period) shows the headroom.
"""
from __future__ import annotations

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import _common  # noqa: F401,E402
import numpy as np  # noqa: E402
import pygame  # noqa: E402

from arcade import agent_process  # noqa: E402
from arcade.app import App  # noqa: E402
from arcade.pacing import FramePacer  # noqa: E402
from arcade.screens import open_game  # noqa: E402
from arcade.screens.launcher import LauncherScreen  # noqa: E402
from arcade.settings import load_settings  # noqa: E402

STRONGEST = {"2048": "expectimax", "tictactoe": "minimax", "dots": "solver", "match3": "q-rollouts",
             "blackjack": "value-iteration"}
TARGET_P99_MS = 20.0
NEXT_GAME_KEY = {"2048": pygame.K_r, "tictactoe": pygame.K_r, "dots": pygame.K_r, "match3": pygame.K_r,
                 "blackjack": pygame.K_SPACE}


def row(label: str, intervals, work=None, extra: str = "") -> str:
    f = np.asarray(intervals)
    p99 = np.percentile(f, 99)
    text = f"  {label:<36} frames {f.size:5d}  interval median {np.median(f):5.1f}  p99 {p99:5.1f}  max {f.max():6.1f} ms"
    if work is not None:
        w, c = np.asarray(work[0]), np.asarray(work[1])
        text += (f" | work median {np.median(w):4.1f}  p99 {np.percentile(w, 99):5.1f}  max {w.max():5.1f} ms"
                 f" (CPU p99 {np.percentile(c, 99):4.1f}  max {c.max():5.1f})")
    return text + extra + ("" if work is None else ("  ok" if p99 < TARGET_P99_MS else "  OVER"))


def cpu_steal_percent(before=None):
    """Share of CPU time the hypervisor took from this VM since `before` (Linux /proc/stat; None elsewhere)."""
    try:
        fields = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    if before is None:
        return fields
    delta = [a - b for a, b in zip(fields, before, strict=True)]
    return 100.0 * delta[7] / max(1, sum(delta))


def plain_sleep_loop(seconds: float, fps: int) -> list[float]:
    out, last, deadline = [], time.perf_counter(), time.perf_counter()
    end = last + seconds
    while last < end:
        deadline += 1 / fps
        time.sleep(max(0.0, deadline - time.perf_counter()))
        now = time.perf_counter()
        out.append((now - last) * 1000)
        last = now
    return out


def pacer_loop(seconds: float, fps: int) -> list[float]:
    pacer, out = FramePacer(fps), []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        out.append(pacer.wait())
    return out[1:]


def game_over(game: str, screen) -> bool:
    state = {"2048": lambda: screen.game.state, "blackjack": lambda: screen.round}.get(game, lambda: screen.state)()
    return screen.rules.is_terminal(state)


def drive(settings, game: str, agent: str, seconds: float, values: bool = False, train: bool = False,
          arena: bool = False):
    """Frame intervals, (work wall, work CPU) and the agent's move count for one screen and agent;
    values: with the value view on (`v`), as a student watching would; train: while `Shift+t` trains the
    game's trainer from scratch in the background (its curve and training game drawn); arena: while an arena
    of the game's first three agents (100 games a pairing, every core) plays beside the game (Shift+a, Enter,
    then a key closes its view)."""
    app = App(settings, size=(1024, 720))
    app.push(LauncherScreen(app))
    screen = open_game(app, game, agent=agent, seed=1)
    app.push(screen)
    screen.controller.delay_ms = 0
    screen.values.on = values
    waits = []
    pacer_wait = app.pacer.wait

    def timed_wait():
        t, c = time.perf_counter(), time.thread_time()
        dt = pacer_wait()
        waits.append((time.perf_counter() - t, time.thread_time() - c))
        return dt

    app.pacer.wait = timed_wait
    intervals, work, cpu = [], [], []
    app.tick()  # the first frame builds fonts and previews
    if train:
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=pygame.K_t, mod=pygame.KMOD_SHIFT, unicode="T"))
    if arena:
        from arcade.screens.arena_view import GAMES, open_arena

        open_arena(screen)
        view = app.top
        view.chosen, view.games = set(range(min(3, len(view.choices)))), len(GAMES) - 1
        view.start()
        app.pop()  # its view closes; the arena plays on beside the game
    last, last_cpu = time.perf_counter(), time.thread_time()
    end = last + seconds
    over_frames = 0
    while last < end:
        over_frames = over_frames + 1 if game_over(game, screen) else 0
        if over_frames == 30:  # half a second on the final position, then the next game
            for kind in (pygame.KEYDOWN, pygame.KEYUP):  # a press and its release (a held r restarts once)
                pygame.event.post(pygame.event.Event(kind, key=NEXT_GAME_KEY[game], mod=0, unicode=""))
        app.tick()
        now, now_cpu = time.perf_counter(), time.thread_time()
        intervals.append((now - last) * 1000)
        work.append((now - last - waits[-1][0]) * 1000)
        cpu.append((now_cpu - last_cpu - waits[-1][1]) * 1000)
        last, last_cpu = now, now_cpu
    moves = screen.controller.decisions
    app.close()
    return intervals, (work, cpu), moves


def idle_cpu(settings, seconds: float) -> None:
    """CPU used by the real frame loop with nothing moving: the launcher and each screen with no agent playing
    (target: under 3% of one core), measured as process CPU time over wall time."""
    print(f"== idle CPU, {seconds:.0f} s each, nothing moving (target < 3% of one core)")
    for game in [None, *STRONGEST]:
        app = App(settings, size=(1024, 720))
        app.push(LauncherScreen(app))
        if game:
            app.push(open_game(app, game, seed=1))
        for _ in range(30):  # the first frames build fonts and tables; then it settles
            app.tick()
        end = time.perf_counter() + seconds
        t0, c0 = time.perf_counter(), time.process_time()
        while time.perf_counter() < end:
            app.tick()
        share = (time.process_time() - c0) / (time.perf_counter() - t0) * 100
        print(f"  {game or 'launcher':<12} {share:5.1f}% of a core  ({app.frames} frames)"
              f"  {'ok' if share < 3 else 'OVER'}")
        app.close()


def main():
    ap = _common.Parser()
    ap.add_argument("--seconds", type=float, default=20.0, help="per screen and round (default 20)")
    ap.add_argument("--rounds", type=int, default=1, help="repeat everything; figures pool the rounds")
    ap.add_argument("--game", action="append", help="only these games (default: all)")
    ap.add_argument("--values", action="store_true", help="with every screen's value view on (v)")
    ap.add_argument("--idle-seconds", type=float, default=10.0, help="idle CPU per screen (0: skip)")
    ap.add_argument("--training", action="store_true",
                    help="each --game (default 2048) with its strongest agent playing, alternately without and "
                         "with a training (Shift+t) of the game's learner running")
    ap.add_argument("--arena", action="store_true", help="without and with an arena playing beside the game "
                    "(Shift+a), alternated")
    ap.add_argument("--all-agents", action="store_true",
                    help="every agent of each game in turn instead of the strongest (one round)")
    args = ap.parse_args()
    if args.all_agents:
        return every_agent(args)
    if args.training:
        return while_training(args)
    if args.arena:
        return while_arena(args)
    settings = load_settings(_common.ROOT / "settings.toml")
    if args.idle_seconds > 0:
        idle_cpu(settings, args.idle_seconds)
    fps = settings.window.fps
    games = [g for g in STRONGEST if not args.game or g in args.game]
    print(f"== frame times, {args.seconds:.0f} s per screen x {args.rounds} round(s), strongest agent at 0 ms "
          f"delay, {fps} fps, values {'on' if args.values else 'off'} (target: interval p99 < {TARGET_P99_MS:.0f} ms)")
    base_s = min(args.seconds, 10)
    pooled = {key: ([], ([], []), 0) for key in ["sleep", "pacer", *games]}
    steal_start = cpu_steal_percent()
    for r in range(args.rounds):
        runs = {"sleep": (plain_sleep_loop(base_s, fps), None, 0), "pacer": (pacer_loop(base_s, fps), None, 0)}
        for game in games:
            runs[game] = drive(settings, game, STRONGEST[game], args.seconds, args.values)
        if args.rounds > 1:
            print(f"-- round {r + 1}")
        for key, (intervals, work, moves) in runs.items():
            iv, (wk, cp), mv = pooled[key]
            pooled[key] = (iv + intervals, (wk + work[0], cp + work[1]) if work else (wk, cp), mv + moves)
            if args.rounds > 1:
                print(describe(key, intervals, work, moves), flush=True)
    if args.rounds > 1:
        print(f"-- all {args.rounds} rounds pooled")
    for key, (intervals, work, moves) in pooled.items():
        print(describe(key, intervals, work if work[0] else None, moves))
    if steal_start is not None:
        print(f"  CPU time taken by the hypervisor (steal) during the run: {cpu_steal_percent(steal_start):.1f}%  "
              f"(a stolen slice delays a frame whatever the code does)")
    agent_process.shutdown()


def while_training(args) -> None:
    """Each game's screen (2048 unless --game says) with its strongest agent playing, without and with
    Shift+t training the game's learner from scratch, alternated over the rounds."""
    without_and_with(args, "2048", "a training running", "target: p99 as without",
                     ("without training", "while training"), "train")


def while_arena(args) -> None:
    """Each game's screen (dots unless --game says) with its strongest agent playing, without and with an
    arena playing beside it on every core, alternated over the rounds (each with a fresh data folder, so the
    arena plays its games rather than reading them from an earlier round's logs)."""
    without_and_with(args, "dots", "an arena beside it (every core but one)", f"target: p99 < {TARGET_P99_MS:.0f} ms",
                     ("without an arena", "while an arena plays"), "arena", fresh_data=True)


def without_and_with(args, default_game: str, what: str, target: str, keys: tuple[str, str], option: str,
                     fresh_data: bool = False) -> None:
    """Each game's screen with its strongest agent playing, without and with `what` beside it (drive's
    `option` off, then on), alternated over the rounds; each round's rows, then the rounds pooled. fresh_data:
    each drive with a data folder of its own."""
    import contextlib
    import tempfile

    base = load_settings(_common.ROOT / "settings.toml")
    for game in args.game or [default_game]:
        print(f"== frame times on {game} ({STRONGEST[game]} playing at 0 ms delay), {args.seconds:.0f} s each, "
              f"{args.rounds} round(s) alternated: without and with {what} ({target})")
        pooled = {key: ([], ([], []), 0) for key in keys}
        for _ in range(args.rounds):
            for key, on in zip(keys, (False, True), strict=True):
                with tempfile.TemporaryDirectory() if fresh_data else contextlib.nullcontext() as folder:
                    settings = base.with_table("data", folder=folder) if folder else base
                    intervals, work, moves = drive(settings, game, STRONGEST[game], args.seconds, **{option: on})
                iv, (wk, cp), mv = pooled[key]
                pooled[key] = (iv + intervals, (wk + work[0], cp + work[1]), mv + moves)
                print(row(key, intervals, work, f" | {moves} moves"), flush=True)
        print("-- pooled")
        for key, (intervals, work, moves) in pooled.items():
            print(row(key, intervals, work, f" | {moves} moves"))
    agent_process.shutdown()


def every_agent(args) -> None:
    from agents import agents_for

    settings = load_settings(_common.ROOT / "settings.toml")
    print(f"== frame times, {args.seconds:.0f} s per agent, every agent at 0 ms delay "
          f"(target: interval p99 < {TARGET_P99_MS:.0f} ms)")
    print(row("baseline: pacer, empty frames", pacer_loop(min(args.seconds, 10), settings.window.fps)))
    for game in STRONGEST:
        if args.game and game not in args.game:
            continue
        for spec in agents_for(game):
            intervals, work, moves = drive(settings, game, spec.name, args.seconds)
            where = "process" if spec.process else "thread"
            print(row(f"{game} / {spec.name} ({where})", intervals, work, f" | {moves} moves"), flush=True)
    agent_process.shutdown()


def describe(key: str, intervals, work, moves) -> str:
    if key == "sleep":
        return row("baseline: plain sleep loop", intervals)
    if key == "pacer":
        return row("baseline: pacer, empty frames", intervals)
    return row(f"{key} / {STRONGEST[key]}", intervals, work, f" | {moves} moves")


if __name__ == "__main__":
    _common.run(main)
