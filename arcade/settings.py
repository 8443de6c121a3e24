"""Reads and validates settings.toml into frozen dataclasses.

One dataclass per TOML table; each field carries its allowed range in its
metadata, so adding a setting is adding a field. An agent's parameters are the
dataclass it declares (agents.base.register): its table is [GAME.NAME] for one
game, or [agents.NAME] for every game it plays (a game's own wins). A wrong type, an out-of-range
value or a TOML syntax error is one line naming the file, the key, what was
found and what is allowed: a warning when the arcade loads its settings (that
setting keeps its default and the arcade starts), a SettingsError when parsed
strictly. Unknown keys are warnings. A missing file means the defaults.
"""
from __future__ import annotations

import dataclasses
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from agents.base import ANY_GAME as ANY, all_specs, find as find_agent  # (ANY: an [agents.NAME] table's scope)
from arcade.foundation.storage import ARCADE_SETTINGS, HOME
from arcade.games import GAMES, game_info
from arcade.foundation.setting_fields import course_value, one_of, ranged  # noqa: F401  (the fields' helpers, used here too)


DEFAULT_SETTINGS = ARCADE_SETTINGS if ARCADE_SETTINGS.is_file() else HOME / "settings.toml"


class SettingsError(Exception):
    """A settings problem the user can fix; the message is one line."""


@dataclass(frozen=True)
class WindowSettings:
    width: int = ranged(640, 7680, 1024)
    height: int = ranged(480, 4320, 720)
    fps: int = ranged(10, 240, 60)
    fullscreen: bool = False


@dataclass(frozen=True)
class AgentSettings:
    delay_ms: int = ranged(0, 5000, 200)  # pause between agent moves, so a person can watch
    # every timed agent's time a move, unless its own table sets its time_budget_ms (agents.base.time_budget)
    time_budget_ms: int = ranged(1, 60_000, 1000)
    # how every timed agent counts its time a move: "wall" (what a person waits), "cpu" (the time the search's
    # own thread ran: a loaded machine does not make it shallower; what benchmarks should use), or "none" (no
    # clock: each agent stops on its counted work alone, simulations, positions or depth; a seed then gives
    # the same moves however loaded the machine, as the environments promise)
    budget_clock: str = one_of(("wall", "cpu", "none"), "wall")


@dataclass(frozen=True)
class AudioSettings:
    volume: float = ranged(0.0, 1.0, 0.5)  # sound effects' loudness; 0 is silence (m mutes them live)


@dataclass(frozen=True)
class SeedSettings:
    game: int = ranged(-1, 2**63 - 1, -1)  # -1: a fresh seed for every game (shown in the HUD)
    agent: int = ranged(-1, 2**63 - 1, 1)


@dataclass(frozen=True)
class DataSettings:
    # relative: to the folder of the settings file that names it; not named: the arcade's own data folder
    folder: str = field(default="data", metadata={"check": "folder"})


def folder_problem(text: str) -> str | None:
    """Why a folder name cannot be used for the data folder (one line), or None."""
    if not text.strip():
        return "it is empty"
    if "\0" in text:
        return "it contains a NUL character"
    try:
        path = Path(text).expanduser()
    except RuntimeError as exc:  # ~user that does not exist
        return f"{exc}"
    if len(str(path).encode()) > 4000 or any(len(part.encode()) > 255 for part in path.parts):
        return "it is longer than a file system allows (255 bytes a name, 4000 in all)"
    return None


# The arcade's own tables; each game's table comes from the game catalogue (arcade.games.GAMES).
_SHELL_TABLES: dict[str, type] = {
    "window": WindowSettings,
    "agents": AgentSettings,
    "audio": AudioSettings,
    "seeds": SeedSettings,
    "data": DataSettings,
}


def _catalogue():
    return GAMES


def tables() -> dict[str, tuple[str, type | None]]:
    """TOML table name -> (attribute on Settings, dataclass), the shell's tables then each game's (a game with
    no settings of its own has None: its table holds only its agents' tables)."""
    out: dict[str, tuple[str, type | None]] = {name: (name, cls) for name, cls in _SHELL_TABLES.items()}
    out.update({g.table: (g.attr, g.settings) for g in _catalogue()})
    return out


def every_table() -> dict[str, type]:
    """Every table settings.toml may hold that has keys, by its name as written ("2048.expectimax"): the
    shell's, each game's, and each agent's parameters ([agents.NAME] for an agent of every game, else
    [GAME.NAME] on each game it plays)."""
    out = {name: cls for name, (_, cls) in tables().items() if cls is not None}
    for spec in all_specs():
        if spec.params is not None:
            for table in ["agents"] if ANY in spec.games else [game_info(g).table for g in spec.games]:
                out[f"{table}.{spec.name}"] = spec.params
    return out


# (scope: a game id or ANY, agent name, ((parameter, value), ...)), in the order read; later entries win
AgentTables = tuple[tuple[str, str, tuple[tuple[str, Any], ...]], ...]


@dataclass(frozen=True, init=False)
class Settings:
    """All settings: the shell's tables as fields, each game's table by its attribute (settings.match3), and
    the agents' tables (agent_params).

    Settings(**tables) takes any table by attribute name; a game's table not given has its defaults.
    """

    window: WindowSettings
    agents: AgentSettings
    audio: AudioSettings
    seeds: SeedSettings
    data: DataSettings
    games: tuple[tuple[str, Any], ...]  # (game id, its settings table), in catalogue order
    agent_tables: AgentTables  # what settings.toml sets of agents' parameters ([GAME.NAME], [agents.NAME])
    source: str  # where these came from, for messages
    base_dir: str  # the folder a relative data folder is resolved against (the arcade's by default)
    warnings: tuple[str, ...]

    def __init__(self, window: WindowSettings = WindowSettings(), agents: AgentSettings = AgentSettings(),
                 seeds: SeedSettings = SeedSettings(), data: DataSettings = DataSettings(),
                 audio: AudioSettings = AudioSettings(), games: tuple = (), agent_tables: AgentTables = (),
                 source: str = "defaults", base_dir: str = str(HOME), warnings: tuple[str, ...] = (),
                 **game_tables):
        by_id = dict(games)
        for g in _catalogue():
            if g.attr in game_tables:
                by_id[g.id] = game_tables.pop(g.attr)
        if game_tables:
            raise TypeError(f"unknown settings table(s): {', '.join(game_tables)}")
        for name, value in (("window", window), ("agents", agents), ("audio", audio), ("seeds", seeds), ("data", data),
                            ("games", tuple(by_id.items())), ("agent_tables", tuple(agent_tables)),
                            ("source", source), ("base_dir", base_dir), ("warnings", tuple(warnings))):
            object.__setattr__(self, name, value)

    def for_game(self, game_id: str):
        """The parameter table of one game (its settings dataclass, by the game's id); its defaults if not set."""
        for gid, table in self.games:
            if gid == game_id:
                return table
        from arcade.games import game_info

        cls = game_info(game_id).settings
        return cls() if cls is not None else None

    def agent_params(self, game_id: str, name: str):
        """The parameters of agent `name` playing `game_id` (an instance of the dataclass it declares): its
        defaults, under [agents.NAME], under [GAME.NAME]. None for an agent that declares none; UnknownAgent
        for a name the game has not."""
        cls = find_agent(game_id, name).params
        if cls is None:
            return None
        values: dict[str, Any] = {}
        for scope in (ANY, game_id):
            for where, agent, items in self.agent_tables:
                if where == scope and agent == name:
                    values.update(items)
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in known})

    def with_agent(self, name: str, game: str = ANY, **changes) -> "Settings":
        """A copy with some parameters of agent `name` set: on `game`, or on every game it plays. TypeError
        naming a parameter the agent has not."""
        known = {f.name for cls in _agent_classes(game, name) for f in dataclasses.fields(cls)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise TypeError(f"agent '{name}' has no parameter {', '.join(unknown)} (it has: {', '.join(sorted(known))})")
        return dataclasses.replace(self, agent_tables=self.agent_tables + ((game, name, tuple(changes.items())),))

    def __getattr__(self, name: str):
        if name.startswith("__") or "games" not in self.__dict__:  # pickling and half-built objects
            raise AttributeError(name)
        for g in _catalogue():
            if g.attr == name:
                return self.for_game(g.id)
        raise AttributeError(f"Settings has no table '{name}'")

    def with_table(self, attr: str, **changes) -> "Settings":
        """A copy with some fields of one table (by its attribute on Settings) changed."""
        return dataclasses.replace(self, **{attr: dataclasses.replace(getattr(self, attr), **changes)})

    @property
    def data_dir(self) -> Path:
        folder = Path(self.data.folder).expanduser()
        return folder if folder.is_absolute() else Path(self.base_dir) / folder


_TYPE_NAMES = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}


def _describe_allowed(f: dataclasses.Field, typ: type) -> str:
    meta = f.metadata
    if "choices" in meta:
        return "one of " + ", ".join(f'"{c}"' if isinstance(c, str) else str(c) for c in meta["choices"])
    text = _TYPE_NAMES[typ]
    if "min" in meta:
        text += f" from {meta['min']} to {meta['max']}"
    return text


def _check_value(name: str, table: str, f: dataclasses.Field, value: Any, typ: type) -> Any:
    ok_type = (
        (typ is bool and isinstance(value, bool))
        or (typ is int and isinstance(value, int) and not isinstance(value, bool))
        or (typ is float and isinstance(value, (int, float)) and not isinstance(value, bool))
        or (typ is str and isinstance(value, str))
    )
    meta = f.metadata
    ok = ok_type
    if ok and "min" in meta:
        ok = meta["min"] <= value <= meta["max"]
    if ok and "choices" in meta:
        ok = value in meta["choices"]
    if ok and meta.get("check") == "folder":
        problem = folder_problem(value)
        if problem:
            raise SettingsError(f"{name}: [{table}] {f.name} = {_toml_repr(value[:60])}: {problem}")
    if not ok:
        raise SettingsError(
            f"{name}: [{table}] {f.name} = {_toml_repr(value)}: expected {_describe_allowed(f, typ)}"
        )
    return float(value) if typ is float else value


def _toml_repr(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "a table"
    return repr(value)


_PY_TYPES = {"int": int, "float": float, "bool": bool, "str": str}


def _table_values(name: str, table: str, cls: type, raw: dict, warnings: list[str], strict: bool,
                  subtables: str = "") -> dict[str, Any]:
    """The checked values `raw` gives fields of `cls` (its keys that are not sub-tables); each unknown key and
    (unless strict) each wrong value one warning. subtables: what this table's own [table.NAME] tables are."""
    fields = {f.name: f for f in dataclasses.fields(cls)} if cls is not None else {}
    defaults = cls() if cls is not None else None
    values = {}
    for key, value in raw.items():
        if key not in fields:
            known = ", ".join(fields) or "no keys of its own"
            warnings.append(f"{name}: unknown key [{table}] {key} ignored (known: {known}{subtables})")
            continue
        f = fields[key]
        try:
            values[key] = _check_value(name, table, f, value, _PY_TYPES[f.type])
        except SettingsError as exc:
            if strict:
                raise
            warnings.append(f"{exc}; using the default {_toml_repr(getattr(defaults, key))}")
    return values


def _not_a_table(name: str, table: str, raw: Any, warnings: list[str], strict: bool) -> bool:
    if isinstance(raw, dict):
        return False
    problem = f"{name}: [{table}] should be a table of settings, found {_toml_repr(raw)}"
    if strict:
        raise SettingsError(problem)
    warnings.append(f"{problem}; using its defaults")
    return True


def _agent_classes(scope: str, agent: str) -> list[type]:
    """The parameter dataclasses an agent table [scope.agent] sets: of the agent of that name playing that game,
    or (scope ANY) of every agent of that name."""
    return [s.params for s in all_specs() if s.name == agent and s.params is not None
            and (scope == ANY or s.plays(scope))]


def _agent_table(name: str, scope: str, agent: str, raw: dict, warnings: list[str], strict: bool):
    """One [GAME.NAME] or [agents.NAME] table checked: (scope, agent, values), or None (said) if no agent of
    that name with parameters plays there."""
    table = f"{'agents' if scope == ANY else game_info(scope).table}.{agent}"
    classes = _agent_classes(scope, agent)
    if not classes:
        have = sorted({s.name for s in all_specs() if s.params is not None and (scope == ANY or s.plays(scope))})
        warnings.append(f"{name}: [{table}] ignored: no agent '{agent}' with parameters there "
                        f"(known: {', '.join(have)})")
        return None
    owner: dict[str, type] = {}  # each key checked by the first class declaring it
    for cls in classes:  # (an [agents.NAME] table may meet agents of that name on several games)
        for f in dataclasses.fields(cls):
            owner.setdefault(f.name, cls)
    values = {}
    for cls in dict.fromkeys(classes):
        mine = {k: v for k, v in raw.items() if owner.get(k) is cls}
        values.update(_table_values(name, table, cls, mine, warnings, strict))
    for key in raw:
        if key not in owner:
            warnings.append(f"{name}: unknown key [{table}] {key} ignored (known: {', '.join(owner)})")
    return scope, agent, tuple(values.items())


class _Reading:
    """What parse_settings gathers while it walks the file's tables."""

    def __init__(self, name: str, strict: bool):
        self.name, self.strict = name, strict
        self.warnings: list[str] = []
        self.parts: dict[str, Any] = {}
        self.agents: list = []
        self.explicit_agents: set[str] = set()  # the [agents] keys the file sets itself

    def agent_tables_of(self, scope: str, raw: dict) -> dict:
        """raw without its sub-tables, each of which is read as the table of an agent on `scope`."""
        keys = {}
        for key, value in raw.items():
            if isinstance(value, dict):
                found = _agent_table(self.name, scope, key, value, self.warnings, self.strict)
                if found is not None:
                    self.agents.append(found)
            else:
                keys[key] = value
        return keys

    def game_table(self, game, raw: dict) -> None:
        keys = self.agent_tables_of(game.id, raw)
        values = _table_values(self.name, game.table, game.settings, keys, self.warnings, self.strict,
                               "; and its agents' tables [" + game.table + ".NAME]")
        if game.settings is not None:
            self.parts[game.attr] = game.settings(**values)

    def shell_table(self, table: str, cls: type, raw: dict) -> None:
        if table == "agents":
            raw = self.agent_tables_of(ANY, raw)
            self.explicit_agents = set(raw)
        values = _table_values(self.name, table, cls, raw, self.warnings, self.strict,
                               "; and agents' tables [agents.NAME]" if table == "agents" else "")
        self.parts[table] = cls(**values)

    def read(self, table: str, raw: Any) -> None:
        if _not_a_table(self.name, table, raw, self.warnings, self.strict):
            return
        if table in _SHELL_TABLES:
            self.shell_table(table, _SHELL_TABLES[table], raw)
        else:
            game = next((g for g in _catalogue() if g.table == table), None)
            if game is None:
                known = ", ".join(tables())
                self.warnings.append(f"{self.name}: unknown table [{table}] ignored (known: {known})")
            else:
                self.game_table(game, raw)

    def settings(self, source: str, base_dir: str) -> Settings:
        return Settings(**self.parts, agent_tables=tuple(self.agents), source=source,
                        base_dir=base_dir, warnings=tuple(self.warnings))


def _unusable_file(problem: str, source: str, base_dir: str, strict: bool) -> Settings:
    """A settings file that cannot be used at all: strict raises; otherwise the defaults, with one warning."""
    if strict:
        raise SettingsError(problem) from None
    return Settings(source=source, base_dir=base_dir, warnings=(f"{problem} (using the defaults now)",))


def parse_settings(text: str, name: str = "settings.toml", base_dir: str = ".", strict: bool = True) -> Settings:
    """Validate TOML text into Settings.

    strict: the first problem raises SettingsError (one line). Otherwise every problem becomes one
    warning line and the setting keeps its default, so the arcade still starts.
    """
    try:
        raw = tomllib.loads(text)
    except RecursionError:
        return _unusable_file(f"{name}: nested too deep to read; fix it or delete the file to use the defaults",
                              name, base_dir, strict)
    except tomllib.TOMLDecodeError as exc:
        return _unusable_file(f"{name}: TOML syntax error: {exc}; fix that line or delete the file to use the defaults",
                              name, base_dir, strict)
    reading = _Reading(name, strict)
    for table, value in raw.items():
        reading.read(table, value)
    names_folder = isinstance(raw.get("data"), dict) and "folder" in raw["data"]
    # a file that names no data folder uses the arcade's: one in docs/training/ must not grow a data/ there
    return reading.settings(name, base_dir if names_folder else str(HOME))


def load_settings(path: str | Path, strict: bool = False) -> Settings:
    """Read settings from a file; a missing file gives the defaults.

    Not strict by default: a wrong value is a warning and keeps its default (the arcade starts).
    """
    path = Path(path)
    try:
        base_dir = str(path.resolve().parent)
        exists = path.exists()
        kind = path.stat().st_mode if exists else 0
    except (OSError, RuntimeError) as exc:  # a symlink loop, a name too long, ...
        return _unusable_file(f"{path}: cannot be used ({exc}); give a settings file that can be read",
                              str(path), str(Path.cwd()), strict)
    if not exists:
        return Settings(source=f"{path} (missing: defaults)")
    if not stat.S_ISREG(kind):  # reading a FIFO would wait forever, a device would never end
        return _unusable_file(f"{path}: not a regular file (a folder, FIFO or device); give a settings file",
                              str(path), base_dir, strict)
    try:
        if kind and path.stat().st_size > 1_000_000:
            return _unusable_file(f"{path}: over 1 MB, which no settings file is; give the right file",
                                  str(path), base_dir, strict)
        text = path.read_text(encoding="utf-8-sig")  # an editor's byte-order mark is not a syntax error
    except (OSError, UnicodeDecodeError) as exc:
        return _unusable_file(f"{path}: cannot be read ({exc}); fix its permissions or delete it",
                              str(path), base_dir, strict)
    return parse_settings(text, name=str(path), base_dir=base_dir, strict=strict)
