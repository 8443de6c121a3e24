"""The kernels made ready beside the window as it opens (`make run` and the installed `arcade` alike):
`python -m agents.warm_kernels --quiet` in a session of its own at low priority, on every core, a line in the
terminal every few seconds while a first start compiles, nothing when they load from numba's cache; stopped
when the window closes (numba writes its cache by rename: a stop loses no file).

Linux schedules a session as a group of its own (autogroup), in which nice counts only against the group's
own processes: the group is given the same low priority, or the compiling takes half of each core from the
window whatever its nice.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys

from arcade.invocation import CHECKOUT


def _lower_priority() -> None:  # (in the child, before it runs Python)
    try:
        with open("/proc/self/autogroup", "w") as group:
            group.write("10")
    except OSError:
        pass
    os.nice(10)


def start() -> subprocess.Popen | None:
    """Start the warm-up; None where it cannot start, or where ARCADE_KERNELS_WARMED says whoever started the
    arcade warmed them already (the test suite: make test does first). The window opens all the same: a first
    move compiles what it needs, with a bar."""
    if os.environ.get("ARCADE_KERNELS_WARMED"):
        return None
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(CHECKOUT), env.get("PYTHONPATH", "")) if p)
    try:
        return subprocess.Popen([sys.executable, "-m", "agents.warm_kernels", "--quiet"], env=env,
                                start_new_session=True, preexec_fn=_lower_priority, stdin=subprocess.DEVNULL)
    except OSError:
        return None


def stop(process: subprocess.Popen | None) -> None:
    """Stop the warm-up and every process it started (its session), if it still runs."""
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        pass
    process.wait()
