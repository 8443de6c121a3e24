"""Every game finished in the window, kept in the data folder to be replayed: one JSON line a game in
finished/<game>.jsonl (appended as each game ends: the generator at its start, every move and who played
it, how it ended, the variant it was played under; a few bytes a move). No pygame.

`keep(data_dir, game_id, session, variant, player)` appends a finished session's record (arcade.session's
record(): None, and nothing kept, for a game that cannot be replayed); `kept(data_dir, game_id)` reads them
back newest first (a line that does not read is skipped, never an error); GameSession.replayed(rules, record,
to) rebuilds one at any move. `python main.py replay --kept GAME [--index I] [--to MOVE]` prints one.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

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
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    out = []
    for line in reversed(lines):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and "start_rng" in record and "actions" in record:
            out.append(record)
            if limit is not None and len(out) >= limit:
                break
    return out


def _plain(value):
    return value.item() if hasattr(value, "item") else str(value)
