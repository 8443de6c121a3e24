"""Worker processes, started one way and spoken to one way.

Started: a clean interpreter (spawn: no pygame, threads or locks inherited), ending with the process that
started it (even when that one is killed with -9), at a lower priority where asked (`start`). The agent
process, a training's process and the game runner's workers all start through here.

Spoken to: a worker tells its parent how it goes by messages on a channel (a multiprocessing queue), each a
(kind, value) pair: "progress" (task, done, total, detail) from an agent's long work (agents.base.
report_progress), and what a job reports of itself ("progress" episodes done, "curve", "watch", "result" for
a training). `post` sends one, `take` reads what has arrived without waiting. The runner's games and the
agent process's decisions come back as the results of their pools' calls. No pygame here."""
from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import sys


def context():
    """The multiprocessing context every worker is started from."""
    return multiprocessing.get_context("spawn")


def end_with_parent(parent: int) -> None:
    """On Linux, ask the kernel to stop this process (SIGTERM) when `parent` ends, so no orphan keeps a core
    busy; if the parent is already gone (it died before the request took hold), end now. Elsewhere the
    pools' own clean-up is all there is."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(0)


def post(channel, kind: str, value, wait: bool = True) -> bool:
    """Send the message (kind, value) on `channel`; wait=False drops it when the channel is full (a progress
    line that a newer one will replace). False when it was dropped or the channel is gone."""
    try:
        if wait:
            channel.put((kind, value))
        else:
            channel.put_nowait((kind, value))
        return True
    except (queue.Full, OSError, ValueError):
        return False


def take(channel) -> list[tuple[str, object]]:
    """Every message (kind, value) waiting on `channel`, in the order sent; never waits."""
    out = []
    while channel is not None:
        try:
            out.append(channel.get_nowait())
        except (queue.Empty, OSError, ValueError, EOFError):
            break
    return out


def start(parent: int | None = None, channel=None, priority: bool = True, background: bool = False) -> None:
    """What a worker does first: end with `parent` (its pid), give way to the window's frames (priority: a
    little, for the screen's own agent; background: entirely, for work beside the game such as an arena), and
    send the progress of its agents' long work on `channel` as "progress" messages (a full channel drops one)."""
    # (a process started while its parent held SIGTERM back, as the window does while it starts one, inherits
    # that: the signal that ends it with its parent must reach it)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    if parent is not None:
        end_with_parent(parent)
    if background:
        run_in_background()
    elif priority:
        lower_priority()
    if channel is not None:
        from agents.engines.progress import set_progress_sink

        set_progress_sink(lambda task, done, total, detail: post(
            channel, "progress", (task, float(done), float(total), detail, working_for), wait=False))


working_for: str | None = None  # in a worker: the agent whose call runs now (its progress says so), if any


def run_in_background() -> None:
    """Run only on CPU time nothing else wants: Linux's idle scheduling class (a waking frame loop takes the
    core at once), elsewhere the lowest priority there is."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        lower_priority(19)


def lower_priority(steps: int = 5) -> None:
    """Give way to the window's frames on a contended core (where the platform lets us)."""
    try:
        os.nice(steps)
    except (AttributeError, OSError):
        pass
