"""Worker processes end with the process that started them (arcade/workers.py)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_a_worker_whose_parent_is_already_gone_ends_at_once():
    """The race the agent process checked and the runner's workers did not: the parent died before the
    request to follow it took hold. Here the 'parent' named is not this process's: it ends at once."""
    code = ("import os, sys; from arcade import workers; workers.end_with_parent(os.getppid() + 999999); "
            "print('still running')")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "still running" not in done.stdout
    code = "import os; from arcade import workers; workers.end_with_parent(os.getppid()); print('still running')"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "still running" in done.stdout  # its real parent is alive: it goes on


def _report_in_a_worker(channel):
    """Runs in a spawned worker: started the one way, an agent's long work reports, then the job's own."""
    from agents.engines.progress import report_progress
    from arcade import workers

    workers.start(None, channel, priority=False)
    report_progress("building a table", 3, 10, "layer 3")
    workers.post(channel, "result", (True, "done"))


def test_a_worker_speaks_to_its_parent_in_one_kind_of_message():
    """(kind, value) messages: an agent's progress inside any worker arrives as "progress", the job's own
    messages after it, in order; take never waits, and a full channel drops a progress line, not the worker."""
    import time

    from arcade import workers

    ctx = workers.context()
    channel = ctx.Queue()
    process = ctx.Process(target=_report_in_a_worker, args=(channel,))
    process.start()
    process.join(120)
    got, deadline = [], time.monotonic() + 30
    while len(got) < 2 and time.monotonic() < deadline:
        got += workers.take(channel)
        time.sleep(0.01)
    assert got == [("progress", ("building a table", 3.0, 10.0, "layer 3", None)), ("result", (True, "done"))]
    assert workers.take(channel) == [] and process.exitcode == 0
    full = ctx.Queue(maxsize=1)
    assert workers.post(full, "progress", 1, wait=False)
    assert not workers.post(full, "progress", 2, wait=False)  # dropped, said by the False
    deadline = time.monotonic() + 30
    while not (got := workers.take(full)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert got == [("progress", 1)]


@pytest.mark.skipif(not os.access("/proc/self/autogroup", os.W_OK), reason="Linux's autogroup scheduling only")
def test_the_windows_kernel_warmup_runs_in_a_session_whose_group_gives_way_to_the_window(monkeypatch):
    """The window (make run, the installed arcade) compiles kernels in a session of its own beside it. Linux
    schedules a session as one group, inside which nice alone counts: the group itself must be niced, or it
    takes half of each core from the window whatever its processes' nice (frames stalled to 63 ms beside two
    such sessions). Stopping it ends its session's processes."""
    from arcade import kernel_warmup

    monkeypatch.delenv("ARCADE_KERNELS_WARMED", raising=False)  # (the suite's own: make test warmed them)
    real = subprocess.Popen
    probe = "cat /proc/self/autogroup; nice; sleep 60"
    monkeypatch.setattr(kernel_warmup.subprocess, "Popen",
                        lambda args, **kw: real(["sh", "-c", probe], stdout=subprocess.PIPE, text=True, **kw))
    process = kernel_warmup.start()
    group, own = process.stdout.readline(), process.stdout.readline()
    assert os.getsid(process.pid) == process.pid  # (a session of its own)
    kernel_warmup.stop(process)
    assert process.returncode == -9
    assert group.strip().endswith("nice 10") and own.strip() == "10", (group, own)
