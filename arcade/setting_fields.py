"""What a setting field is: its allowed range or choices, and the course's value where the course gives one.

The settings dataclasses use these; they live next to their game's rules (arcade/games/*.py) or, for the
arcade's own tables, in arcade/settings.py, which reads and checks settings.toml against them.
"""
from __future__ import annotations

import dataclasses
from dataclasses import field


def ranged(lo, hi, default, course=None):
    """A setting field with an allowed range [lo, hi] (checked when settings.toml is read).

    course: the course's own value of this parameter, where it gives one (the agent panel marks it)."""
    meta = {"min": lo, "max": hi}
    if course is not None:
        meta["course"] = course
    return field(default=default, metadata=meta)


def course_value(table, name: str):
    """The course's value of setting `name` of a settings table (a dataclass), or None if it has none."""
    for f in dataclasses.fields(table):
        if f.name == name:
            return f.metadata.get("course")
    return None


def one_of(choices, default):
    """A setting field that takes one of `choices`."""
    return field(default=default, metadata={"choices": tuple(choices)})
