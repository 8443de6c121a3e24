"""Worker processes end with the process that started them (arcade/workers.py)."""
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
