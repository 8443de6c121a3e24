"""Worker processes, started one way: a clean interpreter (spawn: no pygame, threads or locks inherited),
ending with the process that started it (even when that one is killed with -9), at a lower priority where
asked. The agent process, a training's process and the game runner's workers all start through here.
No pygame here."""
from __future__ import annotations

import multiprocessing
import os
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


def lower_priority(steps: int = 5) -> None:
    """Give way to the window's frames on a contended core (where the platform lets us)."""
    try:
        os.nice(steps)
    except (AttributeError, OSError):
        pass
