"""One-line notices for the user (a corrupt file set aside, an unknown setting).

Each notice is printed to stderr once and kept so the window can show it too.
"""
from __future__ import annotations

import sys
from collections import deque
from contextlib import contextmanager

_recent: deque[str] = deque(maxlen=20)
_count = 0


_held: list[list[str]] = []  # while held(): notices kept for the caller to say in its own words


def notice(message: str) -> None:
    global _count
    if _held:
        _held[-1].append(message)
        return
    _recent.append(message)
    _count += 1
    print(f"arcade: {message}", file=sys.stderr)


@contextmanager
def held():
    """Notices given inside the block are not printed but collected in the list it yields (a caller that
    says one line of its own with them: a training stopped by a save that failed)."""
    said: list[str] = []
    _held.append(said)
    try:
        yield said
    finally:
        _held.pop()


def recent() -> list[str]:
    return list(_recent)


def count() -> int:
    """How many notices were given so far (the window shows each new one once)."""
    return _count


def clear() -> None:
    _recent.clear()
