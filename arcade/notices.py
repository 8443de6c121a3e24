"""One-line notices for the user (a corrupt file set aside, an unknown setting).

Each notice is printed to stderr once and kept so the window can show it too.
"""
from __future__ import annotations

import sys
from collections import deque

_recent: deque[str] = deque(maxlen=20)
_count = 0


def notice(message: str) -> None:
    global _count
    _recent.append(message)
    _count += 1
    print(f"arcade: {message}", file=sys.stderr)


def recent() -> list[str]:
    return list(_recent)


def count() -> int:
    """How many notices were given so far (the window shows each new one once)."""
    return _count


def clear() -> None:
    _recent.clear()
