"""A plain text progress bar on stderr (redrawn in place on a terminal; in a file or pipe a line per 10% and
at least one a minute)."""
from __future__ import annotations

import sys
import time


class Progress:
    LOG_EVERY_S = 60.0  # written to a file or pipe: a line each tenth of the way, and at least this often

    def __init__(self, total: int, label: str, stream=None, width: int = 30):
        self.total = max(1, total)
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.perf_counter()
        self.done = 0
        self._last_decile = -1
        self._last_line = self.start
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def update(self, done: int, extra: str = "") -> None:
        self.done = done
        frac = min(1.0, done / self.total)
        elapsed = time.perf_counter() - self.start
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        bar = "#" * int(frac * self.width) + "." * (self.width - int(frac * self.width))
        line = f"{self.label} [{bar}] {done}/{self.total}  {elapsed:6.1f}s  eta {eta:5.1f}s {extra}"
        if self._tty:
            self.stream.write("\r" + line)
            self.stream.flush()
        elif int(frac * 10) != self._last_decile or elapsed + self.start - self._last_line >= self.LOG_EVERY_S:
            self._last_decile = int(frac * 10)
            self._last_line = self.start + elapsed
            self.stream.write(line + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self._tty:
            self.stream.write("\n")
        self.stream.flush()


class TaskBars:
    """A progress sink (agents.engines.progress.set_progress_sink) for the CLI: a Progress bar per long task on stderr."""

    QUIET_S = 0.5  # a task done sooner than this shows nothing

    def __init__(self, stream=None):
        self.stream = stream
        self.task: str | None = None
        self.started = 0.0
        self.bar: Progress | None = None

    def __call__(self, task: str, done: float, total: float, detail: str = "") -> None:
        if task != self.task:
            self.close()
            self.task, self.started = task, time.perf_counter()
        if self.bar is None and done < total and time.perf_counter() - self.started > self.QUIET_S:
            self.bar = Progress(int(total), task, stream=self.stream)
        if self.bar is not None:
            self.bar.update(int(done), detail)
        if done >= total:
            self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        self.task, self.bar = None, None


def ms_text(v: float) -> str:
    """A time in milliseconds as a person reads it: '84 ms', '2.4 ms', '0.13 ms' (a fast agent is not '0 ms')."""
    return f"{v:.0f} ms" if v >= 10 else f"{v:.2g} ms"
