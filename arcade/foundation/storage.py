"""Saved data on disk: atomic writes, versioned .npz tables, small JSON records.

Every write goes to a temp file in the same folder and is renamed over the
target, so a crash mid-write never leaves a half file. A file that cannot be
read back (truncated, garbage, wrong format version) is reported in one line
and renamed aside to `<name>.corrupt`, never silently overwritten.
"""
from __future__ import annotations

import io
import json
import os
import stat
import struct
import tempfile
import tokenize
import zipfile
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from arcade.foundation.notices import notice

FORMAT_KEY = "__format_version__"


def _assets_folder() -> Path:
    """The tables and networks that ship with the arcade: `assets/` at the top of the checkout, which the wheel
    maps into the installed package as arcade/assets/ (pyproject's package-dir), so both find the same files."""
    arcade = Path(__file__).resolve().parent.parent  # (the arcade package: this module is in arcade/foundation)
    installed = arcade / "assets"
    return installed if installed.is_dir() else arcade.parent / "assets"


ASSETS = _assets_folder()

ARCADE_SETTINGS = Path(__file__).resolve().parents[2] / "settings.toml"  # a checkout's own settings file


def _user_folder() -> Path:
    """Where an arcade installed without a checkout keeps its settings and data: the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "agents-arcade"


# the folder a settings file naming no data folder keeps its `data` in: a checkout's own (beside settings.toml),
# else the user's (an installed arcade never writes into site-packages)
HOME = ARCADE_SETTINGS.parent if ARCADE_SETTINGS.is_file() else _user_folder()


def default_data_dir() -> Path:
    """The data folder of the default settings (what settings.toml names, or none: `data` in HOME)."""
    return HOME / "data"


class UnsafePath(OSError):
    """A path that must not be written: not a regular file, or not a place a file can be."""


def writable_file_problem(path: str | Path) -> str | None:
    """Why a file cannot be created or replaced at `path` (one line), or None if it can.

    Saving only ever creates or replaces a regular file: a device, a FIFO, a socket or a folder at the
    path, a parent that is a file, an empty or too long name are refused before any work starts."""
    text = str(path)
    if not text.strip():
        return "the path is empty; give a file name"
    path = Path(text)
    try:
        max_name = os.pathconf(path.parent if path.parent.exists() else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        max_name = 255
    if len(path.name.encode()) > max_name:
        return f"the file name is {len(path.name.encode())} bytes, longer than the {max_name} this folder allows"
    if path.is_symlink() or path.exists():
        try:
            mode = path.stat().st_mode
        except OSError as exc:
            return f"it cannot be examined ({exc.strerror or exc})"
        if not stat.S_ISREG(mode):
            kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else
                    "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
                    else "not a regular file")
            return f"it is {kind}, not a regular file; saving only ever writes regular files"
    for parent in path.parents:
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                return f"{parent} is a file, not a folder"
            break
    return None


def folder_write_problem(path: str | Path) -> str | None:
    """Why nothing can be written beside `path` (one line), or None: its folder is made if missing and a
    temp file is made and removed there. For a long run's output, checked before the run starts (a check
    of the path alone cannot know that /proc/x or a read-only mount refuses files)."""
    folder = Path(path).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-check.", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"nothing can be written in {folder} ({exc.strerror or exc})"
    return None


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write data to path via a temp file + rename; raises OSError (UnsafePath for a path that is not a
    regular file's). A replaced file keeps its permissions; a new one gets the usual ones (umask)."""
    path = Path(path)
    problem = writable_file_problem(path)
    if problem:
        raise UnsafePath(problem)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:200]}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def move_aside(path: Path) -> Path | None:
    """Rename `path` to NAME.corrupt (NAME.corrupt1, ... where that exists), keeping it; the new path, or None
    where it could not be moved. Says nothing: the caller says what it did."""
    aside = path.with_name(path.name + ".corrupt")
    n = 1
    while aside.exists():
        aside = path.with_name(f"{path.name}.corrupt{n}")
        n += 1
    try:
        os.replace(path, aside)
    except OSError:
        return None
    return aside


def set_aside(path: Path, problem: str, then: str = "starting fresh") -> None:
    """Rename an unreadable file out of the way (keeping it) and say so, and what happens instead (`then`).
    A file the arcade ships (under ASSETS) is never moved: it is the install's, and moving it would break
    every later start of it (a network of another shape there means a newer or older code, not damage)."""
    if Path(path).resolve().is_relative_to(ASSETS):
        notice(f"{path}: {problem}; left in place (it ships with the arcade), {then}")
        return
    aside = move_aside(Path(path))
    where = f"kept as {aside.name}" if aside is not None else "left in place"
    notice(f"{path}: {problem}; {where}, {then}")


def save_npz(path: str | Path, version: int, **arrays: np.ndarray) -> bool:
    """Save arrays with a format version, atomically. Returns False (with a notice) on failure."""
    buf = io.BytesIO()
    np.savez_compressed(buf, **{FORMAT_KEY: np.array(version)}, **arrays)
    try:
        atomic_write_bytes(path, buf.getvalue())
    except OSError as exc:
        notice(f"{path}: could not save ({exc.strerror or exc}); the previous file is unchanged")
        return False
    return True


def load_npz(path: str | Path, version: int, required: tuple[str, ...] = (),
             then: str = "starting fresh") -> dict[str, np.ndarray] | None:
    """Load a versioned .npz; None if missing. A corrupt or stale file is set aside."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError, EOFError, MemoryError, zipfile.BadZipFile, zlib.error, SyntaxError,
            tokenize.TokenError, struct.error, KeyError) as exc:  # (damage inside the archive: each its own)
        set_aside(path, f"not a readable table ({type(exc).__name__}: {str(exc)[:80]})", then)
        return None
    found = arrays.pop(FORMAT_KEY, None)
    if found is None or int(found) != version:
        set_aside(path, f"format version {None if found is None else int(found)}, expected {version}", then)
        return None
    missing = [k for k in required if k not in arrays]
    if missing:
        set_aside(path, f"missing arrays {', '.join(missing)}", then)
        return None
    return arrays


class ReadOnce:
    """Files decoded once per process and shared by all who ask (the networks: tens to hundreds of MB each).

    read(path, decode) gives what decode(path) made of the file as it is now, keyed by its path, inode,
    modification time and size (a file written since is decoded again: atomic writes make a new inode, so
    even a rewrite within the clock's tick is seen); None when there is no file or decode gives None
    (nothing is kept then). The last `keep` files decoded are kept."""

    def __init__(self, keep: int):
        self.keep = keep
        self._kept: OrderedDict[tuple[str, int, int, int], Any] = OrderedDict()

    def read(self, path: Path, decode) -> Any:
        try:
            st = Path(path).stat()
        except OSError:
            return None
        key = (str(path), st.st_ino, st.st_mtime_ns, st.st_size)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        got = decode(path)
        if got is not None:
            self._kept[key] = got
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        return got

    def values(self) -> list:
        return list(self._kept.values())


def json_default(x):
    """json.dumps' `default` for the arcade's values: numpy scalars and arrays as Python ones, sets sorted,
    anything else as its text."""
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (set, frozenset)):
        return sorted(x)
    return str(x)


def load_json(path: str | Path, default: Any) -> Any:
    """Load a JSON record; default if missing. A corrupt file is set aside."""
    path = Path(path)
    if not path.exists():
        return default
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        set_aside(path, f"not readable JSON ({type(exc).__name__})")
        return default
    if not isinstance(value, type(default)):
        set_aside(path, f"expected a JSON {type(default).__name__}")
        return default
    return value


def save_json(path: str | Path, value: Any) -> bool:
    try:
        atomic_write_bytes(path, json.dumps(value, indent=1, sort_keys=True).encode("utf-8"))
    except OSError as exc:
        notice(f"{path}: could not save ({exc.strerror or exc}); the previous file is unchanged")
        return False
    return True


class PerGame:
    """One JSON file in the data folder holding an entry per game id (the game in progress, the player's
    choices): what the screens keep across visits and runs, written whole (temp file and rename)."""

    def __init__(self, data_dir: str | Path, name: str):
        self.path = Path(data_dir) / name

    def get(self, game_id: str):
        """The game's entry, or None (no file, no entry)."""
        return load_json(self.path, {}).get(game_id)

    def put(self, game_id: str, value) -> None:
        """Keep `value` as the game's entry; None drops it (nothing written if there was none)."""
        kept = load_json(self.path, {})
        if value is None and game_id not in kept:
            return
        if value is None:
            kept.pop(game_id)
        else:
            kept[game_id] = value
        save_json(self.path, kept)


class BestScores:
    """Best score per key (e.g. '2048/4x4'), kept in one JSON file in the data folder.

    `offer` only records in memory (it is called on every move, from the frame loop); `flush`
    writes, merging with the file by maximum so two screens never clobber each other's records.
    A screen calls `start_game` when a game starts, `after_move` after each move (it flushes
    when the game is over), and `flush` when it closes.
    """

    def __init__(self, data_dir: str | Path, filename: str = "best_scores.json"):
        self.path = Path(data_dir) / filename
        self._scores = self._read()
        self._dirty: set[str] = set()
        self._to_beat: dict[str, float] = {}  # key -> the best when the current game started

    def _read(self) -> dict:
        raw = load_json(self.path, {})
        return {k: v for k, v in raw.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}

    def get(self, key: str) -> float:
        return self._scores.get(key, 0)

    def offer(self, key: str, score: float) -> bool:
        """Record score if it beats the best; returns True when it is a new best."""
        if score <= self._scores.get(key, 0):
            return False
        self._scores[key] = score
        self._dirty.add(key)
        return True

    def start_game(self, key: str) -> None:
        """A new game under key: write what the last game set, remember the best it has to beat."""
        self.flush()
        self._to_beat[key] = self.get(key)

    def after_move(self, key: str, score: float, game_over: bool) -> bool:
        """Record the score; at game over write it. True when a finished game beat the best it started with."""
        self.offer(key, score)
        if not game_over:
            return False
        self.flush()
        return score > self._to_beat.get(key, 0)

    def flush(self) -> bool:
        """Write the new records (if any). False, with a notice, if the file could not be written."""
        if not self._dirty:
            return True
        merged = self._read()
        for key in self._dirty:
            merged[key] = max(merged.get(key, 0), self._scores[key])
        if not save_json(self.path, merged):
            return False
        self._scores = {**merged, **{k: max(v, merged.get(k, 0)) for k, v in self._scores.items()}}
        self._dirty.clear()
        return True
