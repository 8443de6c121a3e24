"""Reads and validates settings.toml into frozen dataclasses.

One dataclass per TOML table; each field carries its allowed range in its
metadata, so adding a setting is adding a field. A wrong type, an out-of-range
value or a TOML syntax error is one line naming the file, the key, what was
found and what is allowed: a warning when the arcade loads its settings (that
setting keeps its default and the arcade starts), a SettingsError when parsed
strictly. Unknown keys are warnings. A missing file means the defaults.
"""
from __future__ import annotations

import dataclasses
import os
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from arcade.games import GAMES
from arcade.setting_fields import course_value, one_of, ranged  # noqa: F401  (the fields' helpers, used here too)


ARCADE_SETTINGS = Path(__file__).resolve().parent.parent / "settings.toml"  # a checkout's own settings file


def _user_folder() -> Path:
    """Where an arcade installed without a checkout keeps its settings and data: the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "agents-arcade"


# the folder a settings file naming no data folder keeps its `data` in: a checkout's own (beside settings.toml),
# else the user's (an installed arcade never writes into site-packages)
HOME = ARCADE_SETTINGS.parent if ARCADE_SETTINGS.is_file() else _user_folder()
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


@dataclass(frozen=True)
class AudioSettings:
    volume: float = ranged(0.0, 1.0, 0.5)  # sound effects' loudness; 0 is silence (m mutes them live)


@dataclass(frozen=True)
class SeedSettings:
    game: int = ranged(-1, 2**63 - 1, -1)  # -1: a fresh seed for every game (shown in the HUD)
    agent: int = ranged(-1, 2**63 - 1, 1)


@dataclass(frozen=True)
class SearchSettings:
    """The search algorithms written once for every game (agents/mcts.py, agents/expectiminimax.py)."""

    mcts_simulations: int = ranged(1, 1_000_000, 1000)
    mcts_exploration: float = ranged(0.0, 10.0, 2.0)  # UCT's c on results in [-1, 1] (OpenSpiel's default)
    mcts_batch: int = ranged(1, 256, 8)  # simulations whose playouts run as one batch (1: one at a time)
    rollout_moves: int = ranged(1, 1_000_000, 10_000)  # a random playout stops after this many moves
    max_depth: int = ranged(1, 12, 4)  # expectiminimax deepens up to this many decisions
    chance_samples: int = ranged(1, 256, 4)  # where chance outcomes cannot be listed, this many are drawn
    time_budget_ms: int = ranged(1, 60_000, 1000)  # both stop when this time a move is spent
    # how every timed search counts its time a move: "wall" (what a person waits), or "cpu" (the time the
    # search's own thread ran: a loaded machine does not make it shallower; what benchmarks should use)
    budget_clock: str = one_of(("wall", "cpu"), "wall")


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
    "search": SearchSettings,
}


def _catalogue():
    return GAMES


def tables() -> dict[str, tuple[str, type]]:
    """TOML table name -> (attribute on Settings, dataclass), the shell's tables then each game's."""
    out = {name: (name, cls) for name, cls in _SHELL_TABLES.items()}
    out.update({g.table: (g.attr, g.settings) for g in _catalogue() if g.settings is not None})
    return out


@dataclass(frozen=True, init=False)
class Settings:
    """All settings: the shell's tables as fields, each game's table by its attribute (settings.match3).

    Settings(**tables) takes any table by attribute name; a game's table not given has its defaults.
    """

    window: WindowSettings
    agents: AgentSettings
    audio: AudioSettings
    seeds: SeedSettings
    data: DataSettings
    search: SearchSettings
    games: tuple[tuple[str, Any], ...]  # (game id, its settings table), in catalogue order
    source: str  # where these came from, for messages
    base_dir: str  # the folder a relative data folder is resolved against (the arcade's by default)
    warnings: tuple[str, ...]

    def __init__(self, window: WindowSettings = WindowSettings(), agents: AgentSettings = AgentSettings(),
                 seeds: SeedSettings = SeedSettings(), data: DataSettings = DataSettings(),
                 audio: AudioSettings = AudioSettings(), search: SearchSettings = SearchSettings(),
                 games: tuple = (), source: str = "defaults", base_dir: str = str(HOME),
                 warnings: tuple[str, ...] = (),
                 **game_tables):
        by_id = dict(games)
        for g in _catalogue():
            if g.attr in game_tables:
                by_id[g.id] = game_tables.pop(g.attr)
        if game_tables:
            raise TypeError(f"unknown settings table(s): {', '.join(game_tables)}")
        for name, value in (("window", window), ("agents", agents), ("audio", audio), ("seeds", seeds), ("data", data),
                            ("search", search),
                            ("games", tuple(by_id.items())), ("source", source), ("base_dir", base_dir),
                            ("warnings", tuple(warnings))):
            object.__setattr__(self, name, value)

    def for_game(self, game_id: str):
        """The parameter table of one game (its settings dataclass, by the game's id); its defaults if not set."""
        for gid, table in self.games:
            if gid == game_id:
                return table
        from arcade.games import game_info

        cls = game_info(game_id).settings
        return cls() if cls is not None else None

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

def _build_table(name: str, table: str, cls: type, raw: Any, warnings: list[str], strict: bool):
    if not isinstance(raw, dict):
        problem = f"{name}: [{table}] should be a table of settings, found {_toml_repr(raw)}"
        if strict:
            raise SettingsError(problem)
        warnings.append(f"{problem}; using its defaults")
        return cls()
    fields = {f.name: f for f in dataclasses.fields(cls)}
    defaults = cls()
    values = {}
    for key, value in raw.items():
        if key not in fields:
            warnings.append(
                f"{name}: unknown key [{table}] {key} ignored (known: {', '.join(fields)})"
            )
            continue
        f = fields[key]
        try:
            values[key] = _check_value(name, table, f, value, _PY_TYPES[f.type])
        except SettingsError as exc:
            if strict:
                raise
            warnings.append(f"{exc}; using the default {_toml_repr(getattr(defaults, key))}")
    return cls(**values)


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
    warnings: list[str] = []
    parts = {}
    known = tables()
    for table, value in raw.items():
        if table not in known:
            warnings.append(
                f"{name}: unknown table [{table}] ignored (known: {', '.join(known)})"
            )
            continue
        attr, cls = known[table]
        parts[attr] = _build_table(name, table, cls, value, warnings, strict)
    names_folder = isinstance(raw.get("data"), dict) and "folder" in raw["data"]
    # a file that names no data folder uses the arcade's: one in docs/training/ must not grow a data/ there
    return Settings(**parts, source=name, base_dir=base_dir if names_folder else str(HOME),
                    warnings=tuple(warnings))


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
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _unusable_file(f"{path}: cannot be read ({exc}); fix its permissions or delete it",
                              str(path), base_dir, strict)
    return parse_settings(text, name=str(path), base_dir=base_dir, strict=strict)
