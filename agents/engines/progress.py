"""Long work says how far it is (a kernel compiling, a table being built, a training): `report_progress` in the
work, `set_progress_sink` once a process by its host (the agent process's queue, the CLI's stderr bar). Below
the agents and the engines alike, so both report without importing upward."""
from __future__ import annotations

from typing import Callable

_progress_sink: Callable[[str, float, float, str], None] | None = None


def set_progress_sink(sink: Callable[[str, float, float, str], None] | None) -> None:
    """Where report_progress goes in this process (the agent process's queue, the CLI's stderr bar)."""
    global _progress_sink
    _progress_sink = sink


def report_progress(task: str, done: float, total: float, detail: str = "") -> None:
    """Long work inside an agent (building a table) says how far it is: `done` of `total` units of `task`,
    and where it is (`detail`, e.g. "layer 5 of 24"). The host shows it: a bar on the screen, a line on the
    CLI's stderr. A no-op where nobody listens."""
    if _progress_sink is not None:
        _progress_sink(task, done, total, detail)
