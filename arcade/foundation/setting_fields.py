"""What a setting field is: its allowed range or choices, and the course's value where the course gives one.

The settings dataclasses use these; they live next to their game's rules (arcade/games/*.py) or, for the
arcade's own tables, in arcade/settings.py, which reads and checks settings.toml against them.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from dataclasses import field


def ranged(lo, hi, default, course=None, trains_only: bool = False):
    """A setting field with an allowed range [lo, hi] (checked when settings.toml is read).

    course: the course's own value of this parameter, where it gives one (the agent panel marks it).
    trains_only: only training reads it (an agent plays from what it learnt): see trains_only_fields."""
    meta = {"min": lo, "max": hi}
    if course is not None:
        meta["course"] = course
    if trains_only:
        meta["trains_only"] = True
    return field(default=default, metadata=meta)


def own_time_budget(default: int = 0):
    """A timed agent's time_budget_ms parameter: milliseconds a move, 0 for the one [agents] time_budget_ms
    every timed agent shares (agents.base.time_budget reads it)."""
    return ranged(0, 60_000, default)


def trains_only_fields(table) -> set[str]:
    """The settings of a table (a dataclass) that only training reads: a logged run of games does not depend
    on them, so adding or changing one leaves the run's log continuable."""
    return {f.name for f in dataclasses.fields(table) if f.metadata.get("trains_only")}


def describe_fields(table, names=None) -> list[str]:
    """'rows 1..5 (default 2)' for each field of a settings dataclass (or those `names`): its range or
    choices, its default, and the course's value where the course gives one."""
    out = []
    for f in dataclasses.fields(table):
        if names is not None and f.name not in names:
            continue
        meta = f.metadata
        allowed = "|".join(map(str, meta["choices"])) if "choices" in meta else f"{meta['min']}..{meta['max']}"
        course = f", the course's {meta['course']}" if "course" in meta else ""
        out.append(f"{f.name} {allowed} (default {f.default}{course})")
    return out


def course_value(table, name: str):
    """The course's value of setting `name` of a settings table (a dataclass), or None if it has none."""
    for f in dataclasses.fields(table):
        if f.name == name:
            return f.metadata.get("course")
    return None


def check_in_range(table, name: str, value, what: str | None = None) -> None:
    """ValueError naming the allowed range when `value` is outside setting `name`'s range in `table`
    (a settings dataclass): one place for a parameter's limits, whoever passes it (settings.toml or an
    environment's argument)."""
    f = next(f for f in dataclasses.fields(table) if f.name == name)
    lo, hi = f.metadata["min"], f.metadata["max"]
    integer = isinstance(lo, int) and isinstance(hi, int)  # an integer field takes integers only (not 4.0)
    kinds = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    if isinstance(value, bool) or not isinstance(value, kinds) or not lo <= value <= hi:
        kind = "an integer" if integer else "a number"
        raise ValueError(f"{what or name} must be {kind} from {lo} to {hi}, got {value!r}")


def one_of(choices, default, trains_only: bool = False):
    """A setting field that takes one of `choices` (trains_only: as ranged's)."""
    meta = {"choices": tuple(choices)}
    if trains_only:
        meta["trains_only"] = True
    return field(default=default, metadata=meta)
