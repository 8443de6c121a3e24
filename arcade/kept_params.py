"""The agents' parameters a person changed on screen (Shift+i), kept per game and agent in the data folder
(params.json), never in the shipped settings.toml.

A game screen plays with them; the command line reads them only when asked (`--kept`), so a headless run is
the same on every machine unless it says otherwise. A kept value that no longer fits (an agent or parameter
gone, a value out of its range after an update) is left out, not an error. No pygame here.
"""
from __future__ import annotations

import dataclasses

from agents import UnknownAgent, find
from arcade.setting_fields import check_in_range
from arcade.storage import PerGame

FILE = "params.json"


def _file(settings) -> PerGame:
    return PerGame(settings.data_dir, FILE)


def kept(settings, game_id: str) -> dict[str, dict]:
    """{agent: {parameter: value}} kept for the game (the values that still fit)."""
    out = {}
    for agent, values in (_file(settings).get(game_id) or {}).items():
        fitting = {name: v for name, v in values.items() if problem(game_id, agent, name, v) is None}
        if fitting:
            out[agent] = fitting
    return out


def with_kept(settings, game_id: str):
    """`settings` with the game's kept parameters set on it, for that game only."""
    for agent, values in kept(settings, game_id).items():
        settings = settings.with_agent(agent, game=game_id, **values)
    return settings


def problem(game_id: str, agent: str, name: str, value) -> str | None:
    """Why `value` cannot be agent's parameter `name` on the game (one line naming the allowed values), or None."""
    try:
        table = find(game_id, agent).params
    except UnknownAgent as exc:
        return str(exc)
    fields = {f.name: f for f in dataclasses.fields(table)} if table is not None else {}
    if name not in fields:
        return f"{agent} has no parameter {name}"
    choices = fields[name].metadata.get("choices")
    if choices is not None:
        return None if value in choices else f"{name} must be one of {', '.join(map(str, choices))}, got {value!r}"
    try:
        check_in_range(table, name, value)
    except ValueError as exc:
        return str(exc)
    return None


def keep(settings, game_id: str, agent: str, name: str, value) -> None:
    """Keep `value` for the parameter (ValueError with one line where it does not fit); None forgets it (the
    settings' own value plays again)."""
    if value is not None and (why := problem(game_id, agent, name, value)) is not None:
        raise ValueError(why)
    store = _file(settings)
    game = dict(store.get(game_id) or {})
    values = dict(game.get(agent, {}))
    if value is None:
        values.pop(name, None)
    else:
        values[name] = value
    if values:
        game[agent] = values
    else:
        game.pop(agent, None)
    store.put(game_id, game or None)
