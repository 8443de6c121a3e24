"""Statistics per game and player, kept in the data folder across runs (statistics.json).

A player is "you" or an agent's name. For each (game, player): games played,
total and best score, wins / draws / losses where the game has them, and a
histogram of a per-game figure (2048: the largest tile; match-3: the score in
bins; blackjack: the round's reward). `record` adds one finished game and writes
the file at once (atomically; a game ends seldom); a corrupt file is set aside
by `storage.load_json` and the statistics start again from zero. No pygame.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from arcade.foundation.storage import load_json, save_json

FILENAME = "statistics.json"


@dataclass
class Tally:
    """One player's figures in one game."""

    games: int = 0
    total: float = 0.0
    best: float | None = None
    wins: int = 0
    draws: int = 0
    losses: int = 0
    histogram: dict[str, int] = field(default_factory=dict)  # bucket label -> games

    @property
    def mean(self) -> float | None:
        return self.total / self.games if self.games else None

    def add(self, score: float, result: str | None, bucket: str | None) -> None:
        self.games += 1
        self.total += score
        self.best = score if self.best is None else max(self.best, score)
        if result == "win":
            self.wins += 1
        elif result == "draw":
            self.draws += 1
        elif result == "loss":
            self.losses += 1
        if bucket is not None:
            self.histogram[bucket] = self.histogram.get(bucket, 0) + 1

    def to_json(self) -> dict:
        return {"games": self.games, "total": self.total, "best": self.best, "wins": self.wins,
                "draws": self.draws, "losses": self.losses, "histogram": dict(self.histogram)}

    @classmethod
    def from_json(cls, raw) -> "Tally | None":
        """A tally from its JSON, or None if it is not one (a hand-edited or damaged entry)."""
        try:
            t = cls(int(raw["games"]), float(raw["total"]), None if raw["best"] is None else float(raw["best"]),
                    int(raw["wins"]), int(raw["draws"]), int(raw["losses"]),
                    {str(k): int(v) for k, v in dict(raw["histogram"]).items()})
        except (KeyError, TypeError, ValueError):
            return None
        return t if t.games >= 0 else None


class Statistics:
    """All tallies of one data folder: {game: {player: Tally}}."""

    def __init__(self, data_dir: str | Path):
        self.path = Path(data_dir) / FILENAME
        self.tallies: dict[str, dict[str, Tally]] = self._read()

    def _read(self) -> dict[str, dict[str, Tally]]:
        raw = load_json(self.path, {})
        out: dict[str, dict[str, Tally]] = {}
        for game, players in raw.items():
            if isinstance(players, dict):
                for player, entry in players.items():
                    tally = Tally.from_json(entry) if isinstance(entry, dict) else None
                    if tally is not None:
                        out.setdefault(game, {})[player] = tally
        return out

    def of(self, game: str) -> dict[str, Tally]:
        """The tallies of one game by player (empty if none yet)."""
        return self.tallies.get(game, {})

    def record(self, game: str, player: str, score: float, result: str | None = None,
               bucket: str | None = None) -> bool:
        """Add one finished game and write the file. False (with a notice) if it could not be written:
        the figures stay in memory and go out with the next write."""
        self.tallies.setdefault(game, {}).setdefault(player, Tally()).add(float(score), result, bucket)
        return save_json(self.path, {g: {p: t.to_json() for p, t in ps.items()} for g, ps in self.tallies.items()})
