"""The agents' parameters a person changed on screen (Shift+i), kept per game and agent in the data folder
(params.json), never in the shipped settings.toml.

A game screen plays with them; the command line reads them only when asked (`--kept`), so a headless run is
the same on every machine unless it says otherwise. Every function takes the settings *without* the kept
values (settings.toml's: the base they change): a value equal to the base's is no change, so it is never kept
and never offered as a second agent. A kept value that no longer fits (an agent or parameter gone, a value out
of its range after an update, an entry of the wrong JSON shape) is left out and said in one line, not an
error. No pygame.
"""
from __future__ import annotations

import dataclasses

from agents import UnknownAgent, find
from arcade.foundation.notices import notice
from arcade.foundation.setting_fields import check_in_range
from arcade.foundation.storage import PerGame

FILE = "params.json"
_said: set[tuple] = set()  # the dropped values already said in this process (each once, not every frame)


def _file(settings) -> PerGame:
    return PerGame(settings.data_dir, FILE)


def _entry(settings, game_id: str) -> dict:
    """The game's entry of the file as {agent: {parameter: value}}, whatever shape the file holds."""
    entry = _file(settings).get(game_id)
    if entry is None:
        return {}
    if not isinstance(entry, dict):
        _say(settings, (game_id,), f"its {game_id} entry is not a table of agents; left out")
        return {}
    out = {}
    for agent, values in entry.items():
        if isinstance(values, dict):
            out[agent] = values
        else:
            _say(settings, (game_id, agent), f"{game_id} {agent}: not a table of parameters; left out")
    return out


def _say(settings, key: tuple, what: str) -> None:
    key = (str(_file(settings).path),) + key
    if key not in _said:
        _said.add(key)
        notice(f"{_file(settings).path}: {what}")


def kept(base, game_id: str) -> dict[str, dict]:
    """{agent: {parameter: value}} kept for the game: the values that fit and differ from `base`'s (the
    settings without kept values). Those that no longer fit are said once and left out."""
    out = {}
    for agent, values in _entry(base, game_id).items():
        fitting = {}
        for name, v in values.items():
            why = problem(game_id, agent, name, v)
            if why is not None:
                _say(base, (game_id, agent, name), f"{game_id} {agent} {name} = {v!r} left out ({why})")
            elif not _is_base(base, game_id, agent, name, v):
                fitting[name] = v
        if fitting:
            out[agent] = fitting
    return out


def _is_base(base, game_id: str, agent: str, name: str, value) -> bool:
    return getattr(base.agent_params(game_id, agent), name) == value


def with_kept(base, game_id: str):
    """`base` with the game's kept parameters set on it, for that game only."""
    for agent, values in kept(base, game_id).items():
        base = base.with_agent(agent, game=game_id, **values)
    return base


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


def keep(base, game_id: str, agent: str, name: str, value) -> None:
    """Keep `value` for the parameter (ValueError with one line where it does not fit); None, or the base's
    own value, forgets it (settings.toml's value plays again: no change is kept). `base`: the settings without
    kept values."""
    if value is not None and (why := problem(game_id, agent, name, value)) is not None:
        raise ValueError(why)
    if value is not None and _is_base(base, game_id, agent, name, value):
        value = None
    game = _entry(base, game_id)
    values = dict(game.get(agent, {}))
    if value is None:
        values.pop(name, None)
    else:
        values[name] = value
    if values:
        game[agent] = values
    else:
        game.pop(agent, None)
    _file(base).put(game_id, game or None)
