"""Every game finished in the window, kept in the data folder to be replayed: one JSON line a game in
finished/<game>.jsonl (appended as each game ends: the generator at its start, every move and who played
it, how it ended, the variant it was played under; a few bytes a move). No pygame.

`keep(data_dir, game_id, session, variant, player)` appends a finished session's record (arcade.session's
record(): None, and nothing kept, for a game that cannot be replayed); `kept(data_dir, game_id)` reads them
back newest first: a line that does not read (any bytes, a cut line, a field of the wrong type) is never an
error: the file is set aside as finished/GAME.jsonl.corrupt, the readable games written back, and one line
says so; GameSession.replayed(rules, record,
to) rebuilds one at any move. `python main.py replay --kept GAME [--index I] [--to MOVE]` prints one.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from arcade.games.base import is_real_number, is_whole_number
from arcade.foundation.notices import notice
from arcade.foundation.storage import atomic_write_bytes, move_aside

FOLDER = "finished"


def path_of(data_dir, game_id: str) -> Path:
    return Path(data_dir) / FOLDER / f"{game_id}.jsonl"


def keep(data_dir, game_id: str, session, variant: dict, player: str) -> bool:
    """Append the finished game of `session` (played under `variant`, `player` the one credited with it);
    False where it cannot be replayed or the folder cannot be written (the game is not lost: it was played)."""
    record = session.record()
    if record is None:
        return False
    record.update(variant=variant, player=player, when=time.strftime("%Y-%m-%d %H:%M"))
    path = path_of(data_dir, game_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record, separators=(",", ":"), default=_plain) + "\n")
    except OSError:
        return False
    return True


def kept(data_dir, game_id: str, limit: int | None = None) -> list[dict]:
    """The kept games of `game_id`, newest first (at most `limit`)."""
    path = path_of(data_dir, game_id)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        notice(f"{path}: cannot be read ({exc.strerror or exc}); no kept games shown")
        return []
    good, bad = [], 0
    for line in raw.splitlines():
        if not line.strip():
            continue
        record = _record(line)
        if record is None:
            bad += 1
        else:
            good.append((line, record))
    if bad:
        _set_damaged_aside(path, [line for line, _ in good], bad)
    out = [record for _, record in reversed(good)]
    return out if limit is None else out[:limit]


def played_by(record: dict) -> str:
    """Who played a kept game: the name it was credited to, and where others played moves of it too (control
    handed over mid-game), each with its moves: "expectimax (4x4); moves: you 12, expectimax 300"."""
    player = record.get("player", "?")
    movers = [m for m in record.get("movers", []) if isinstance(m, str)]
    names = list(dict.fromkeys(movers))
    if all(name in player for name in names):
        return player
    return f"{player}; moves: " + ", ".join(f"{name} {movers.count(name)}" for name in names)


def _record(line: bytes) -> dict | None:
    """A line as a kept game, or None: not UTF-8, not JSON, or a field a replay reads of the wrong type."""
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not (isinstance(record, dict) and isinstance(record.get("start_rng"), dict)
            and isinstance(record.get("actions"), list) and isinstance(record.get("variant", {}), dict)
            and isinstance(record.get("movers", []), list) and _count(record.get("moves"))
            and _outcome(record.get("outcome")) and all(isinstance(record.get(k, ""), str) for k in ("player", "when"))):
        return None
    return record


def _count(v) -> bool:
    return is_whole_number(v) and v >= 0


def _outcome(outcome) -> bool:
    """Whether a kept outcome is None or of the shape the replay list reads (a score, or a winner and scores)."""
    if outcome is None:
        return True
    if not isinstance(outcome, dict):
        return False
    scores = outcome.get("scores", [0, 0])
    return (is_real_number(outcome.get("score", 0)) and outcome.get("winner") in (None, 0, 1)
            and isinstance(scores, list) and len(scores) == 2 and all(is_real_number(s) for s in scores))


def _set_damaged_aside(path: Path, lines: list[bytes], bad: int) -> None:
    """The file as it was kept aside (NAME.corrupt), its readable lines written back in its place."""
    aside = move_aside(path)
    if aside is None:  # (it could not be moved: left as it is, read again next time)
        notice(f"{path}: {bad} damaged line{'s' * (bad != 1)} skipped; the file could not be set aside")
        return
    try:
        atomic_write_bytes(path, b"".join(line + b"\n" for line in lines))
        kept_now = (f"the {len(lines)} readable game{'s' * (len(lines) != 1)} kept in it" if lines else
                    "no readable game was in it")
    except OSError as exc:
        kept_now = f"the readable games could not be written back ({exc.strerror or exc})"
    notice(f"{path}: {bad} damaged line{'s' * (bad != 1)} (not a kept game); the file as it was is kept as "
           f"{aside.name}, {kept_now}")


def _plain(value):
    return value.item() if hasattr(value, "item") else str(value)
