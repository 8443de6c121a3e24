"""A run and its log: what a run plays (RunSpec: game and variant, agents, games, seeds, the fingerprint of the
settings its agents read), its games as jobs, and the log each finished game is appended to (GameLog: one JSON
line a game after a header naming the run), which a stopped run resumes from. No pygame; nothing here plays.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from arcade.games.base import is_real_number
from arcade.invocation import command
from arcade.foundation.setting_fields import trains_only_fields
from arcade.foundation.storage import atomic_write_bytes

LOG_VERSION = 1


class RunError(Exception):
    """A problem with a run the user can fix (a log that does not match, Ray missing); one line."""


# --- the run and its games ------------------------------------------------------------------------------

@dataclass(frozen=True)
class RunSpec:
    """What a run plays: enough to check that a log belongs to it and to rebuild its list of games.
    RunSpec.of builds one from the settings."""

    game: str
    agent: str
    opponent: str | None
    games: int
    seed: int
    agent_seed: int
    settings_key: str  # a fingerprint of the settings the agents were built with (settings_key)
    # the game with its rules parameters, e.g. nim(heap=21) (a benchmark may name a set of openings
    # instead); None in a log from before variants (its settings fingerprint pins the rules)
    variant: str | None = None
    # how the agents counted their time a move ("wall" or "cpu"), so --resume restores it; None in older logs
    budget_clock: str | None = None
    # what earlier runners fingerprinted the same settings as: every agent of the game (not written to a log)
    earlier_keys: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def of(cls, game: str, agent: str, opponent: str | None, games: int, seed: int, settings,
           variant: str | None = None, agent_seed: int | None = None) -> RunSpec:
        """The run of `games` games from `seed` (game i from seed + i), its agents built from `settings` (and
        seeded by their seeds.agent unless `agent_seed` is given); variant: the game's variant from the
        settings unless given."""
        from arcade.games import settings_variant

        return cls(game, agent, opponent, games, seed, settings.seeds.agent if agent_seed is None else agent_seed,
                   settings_key(settings, game, (agent, opponent)), variant or settings_variant(game, settings),
                   settings.agents.budget_clock, (settings_key(settings, game),))

    def header(self) -> dict:
        run = asdict(self)
        del run["earlier_keys"]
        return {"run": run, "version": LOG_VERSION}

    def stands_to(self, run: RunSpec, players: int) -> str | None:
        """How this logged run stands to `run`: "same"; "same settings" (the same run, logged before runs
        named their variant: its header is written anew); "grows" (`run` is it with more games, every game it
        played unchanged: one-player runs only, game i is seed + i whatever the count, while in a two-player
        run the count decides the seats); None: another run."""
        logged = self
        if logged.settings_key in run.earlier_keys:  # logged by an earlier runner: the same settings
            logged = replace(logged, settings_key=run.settings_key)
        if logged.variant is None:  # logged before variants: the settings fingerprint pins the rules
            logged = replace(logged, variant=run.variant)
        if logged.budget_clock is None:  # logged before the clock was named: the fingerprint pins it too
            logged = replace(logged, budget_clock=run.budget_clock)
        if logged == run:
            return "same" if logged is self else "same settings"
        if players == 1 and run.games > logged.games and replace(logged, games=run.games) == run:
            return "grows"
        return None

    def describe(self) -> str:
        from arcade.games import variant_label

        vs = f" vs {self.opponent}" if self.opponent else ""
        return f"{variant_label(self.game, self.variant)}: {self.agent}{vs}, {self.games} games from seed {self.seed}"


@dataclass(frozen=True)
class GameJob:
    index: int
    game_seed: int
    agent_seat: int
    agent_seed: int
    start: object = None  # a state to play on from (a benchmark's opening); None: the game's first


def jobs_of(spec: RunSpec, players: int) -> list[GameJob]:
    """The run's games in order; in two-player runs the agent takes seat 0 in the first half, seat 1 after."""
    half = (spec.games + 1) // 2
    return [GameJob(i, spec.seed + i, 0 if players == 1 or i < half else 1, spec.agent_seed)
            for i in range(spec.games)]


def _fingerprint(kept: dict) -> str:
    return hashlib.sha1(json.dumps(kept, sort_keys=True, default=str).encode()).hexdigest()[:12]


def _played_fields(table) -> dict | None:
    """A settings dataclass's values a logged game depends on (not those only training reads)."""
    if table is None:
        return None
    skipped = trains_only_fields(table)
    return {k: v for k, v in asdict(table).items() if k not in skipped}


def settings_key(settings, game: str, agents: tuple[str | None, ...] | None = None) -> str:
    """A short fingerprint of the settings a run of `game` builds its agents from: that game's table, the
    parameters of the run's `agents` (None: every agent of the game, as runs were fingerprinted until an
    agent that did not play could stop a logged run from continuing), [agents]' time a move and clock, the
    seeds and the data folder (not the other games' tables, the window, sound or pacing, nor where the settings
    were read from, nor what only training reads: changing those leaves a logged run continuable)."""
    from agents.base import agents_for

    kept = {k: asdict(getattr(settings, k)) for k in ("seeds", "data")}
    kept["agents"] = {"time_budget_ms": settings.agents.time_budget_ms, "budget_clock": settings.agents.budget_clock}
    kept["game"] = _played_fields(settings.for_game(game))  # (its defaults when the settings do not set it)
    kept["params"] = {s.name: _played_fields(settings.agent_params(game, s.name))
                      for s in agents_for(game) if s.params is not None and (agents is None or s.name in agents)}
    return _fingerprint(kept)


def kept_path(path: Path) -> Path | None:
    """The log at `path`, or the same log kept compressed beside it (`path`.gz, as docs/benchmarks keeps the
    runs its figures are read from); None when neither is there."""
    path = Path(path)
    if path.is_file():
        return path
    packed = path.with_name(path.name + ".gz")
    return packed if path.suffix != ".gz" and packed.is_file() else None


class GameLog:
    """A run's log: a header line, then one JSON line per finished game, appended as games finish."""

    def __init__(self, path: Path, spec: RunSpec, records: list[dict]):
        self.path, self.spec, self.records = path, spec, records
        self.skipped = 0  # lines open() left out

    @classmethod
    def create(cls, path: str | Path, spec: RunSpec) -> GameLog:
        """A new log; refuses to touch a file that is already there (that is a run to --resume)."""
        path = Path(path)
        if path.exists():
            raise RunError(f"the log {path} exists; continue that run with --resume {path}, or give another --log")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "x", encoding="utf-8") as f:
                f.write(json.dumps(spec.header()) + "\n")
        except OSError as exc:
            raise RunError(f"the log {path} cannot be written ({exc.strerror or exc}); give another --log") from None
        return cls(path, spec, [])

    @classmethod
    def open(cls, path: str | Path) -> GameLog:
        """A log to continue: its run and the games it holds. Lines that are not a game of this run (damaged,
        a record missing a field or with a wrong type, an index outside the run, a game logged twice) are
        left out and counted in `skipped`; a last line cut short by a kill is left out and not counted."""
        path = kept_path(Path(path)) or Path(path)
        if not path.is_file():
            raise RunError(f"no log at {path}; start a run with --log {path} (or without --resume)")
        try:
            raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            raise RunError(f"{path} cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
        if not raw.strip():
            raise RunError(f"{path} is empty (a run stopped as it was created, before its first line): it holds "
                           "no games; delete it and start the run again")
        lines = raw.split(b"\n")
        spec = _header_spec(lines[0], path)
        cut_short = bool(lines[-1].strip()) and not raw.endswith(b"\n")
        records, seen, skipped = [], set(), 0
        for k, line in enumerate(lines[1:], start=1):
            if not line.strip():
                continue
            record = _game_record(line, spec)
            if record is None or record["index"] in seen:
                skipped += not (cut_short and k == len(lines) - 1)
                continue
            seen.add(record["index"])
            records.append(record)
        log = cls(path, spec, records)
        log.skipped = skipped
        return log

    def skipped_line(self) -> str | None:
        """One line saying how many lines open() left out, or None."""
        if not self.skipped:
            return None
        return (f"{self.path}: {self.skipped} line{'s' * (self.skipped != 1)} left out (damaged, not a game of "
                f"this run, or a game logged twice); {len(self.records)} games read")

    def append(self, record: dict) -> None:
        """Add a finished game at the end; RunError (one line) when the file cannot take it (a full disk, a
        log kept compressed): the games before it stay as they were."""
        self._refuse_if_packed("to play more games into it")
        try:
            self._append(record)
        except OSError as exc:
            raise RunError(f"the log {self.path} cannot be written ({exc.strerror or exc}): the run stopped with "
                           f"{len(self.records)} games in it; free space, then continue it with "
                           f"{command()} bench --resume {self.path}") from None
        self.records.append(record)

    def _append(self, record: dict) -> None:
        with open(self.path, "a+b") as f:
            end = f.seek(0, os.SEEK_END)
            if end:
                f.seek(end - 1)
                if f.read(1) != b"\n":
                    f.write(b"\n")  # after a line cut short: start a fresh one, keep what is there
            f.write((json.dumps(record) + "\n").encode())

    def _refuse_if_packed(self, to: str) -> None:
        """RunError where this log is kept compressed (read-only: a finished run its figures are read from)."""
        if self.path.suffix == ".gz":
            raise RunError(f"{self.path} is a finished run kept compressed (its figures are read from it); {to}: "
                           f"gunzip -k {self.path}, then the same command")

    def become(self, spec: RunSpec) -> None:
        """Make this log the run `spec`, which its own run grows into or is under another fingerprint
        (RunSpec.stands_to): a new header, the games it holds kept. Written to a temp file and renamed, so
        a kill leaves the old log or the new one whole."""
        self._refuse_if_packed("to change its run")
        try:
            lines = self.path.read_bytes().splitlines(keepends=True)
            atomic_write_bytes(self.path, (json.dumps(spec.header()) + "\n").encode() + b"".join(lines[1:]))
        except OSError as exc:
            raise RunError(f"the log {self.path} cannot be rewritten ({exc.strerror or exc}); it is unchanged") from None
        self.spec = spec

    def missing(self, players: int) -> list[GameJob]:
        done = {r["index"] for r in self.records}
        return [j for j in jobs_of(self.spec, players) if j.index not in done]


_SPEC_TYPES = {"game": str, "agent": str, "opponent": (str, type(None)), "games": int, "seed": int,
               "agent_seed": int, "settings_key": str, "variant": (str, type(None)),
               "budget_clock": (str, type(None))}


def _variant_of_board(run: dict) -> dict:
    run = dict(run)
    board = run.pop("board")
    rows, x, cols = board.partition("x") if isinstance(board, str) else ("", "", "")
    if rows.isdigit() and cols.isdigit():  # a board of rows x columns: the game's rows and cols parameters
        board = f"{run.get('game')}(rows={rows},cols={cols})"
    run["variant"] = board
    return run


def _header_spec(line: bytes, path: Path) -> RunSpec:
    """The run a log's first line names; RunError when it names none (not JSON, a field missing or of the
    wrong type)."""
    not_a_log = f"{path} is not a run log (its first line is not a run header)"
    try:
        head = json.loads(line.decode("utf-8"))
        run = head["run"]
        if "board" in run:  # a log written before variants: dots boards were "RxC"
            run = _variant_of_board(run)
        spec = RunSpec(**run)
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        raise RunError(not_a_log) from None
    bad = [k for k, kind in _SPEC_TYPES.items() if not isinstance(run.get(k), kind) or isinstance(run.get(k), bool)]
    if bad or spec.games < 1:
        raise RunError(f"{not_a_log}: {', '.join(bad) or 'games'} is not what a run header holds")
    if head.get("version") != LOG_VERSION:
        raise RunError(f"{path} was written by another version of the runner ({head.get('version')}); "
                       "start a new run")
    return spec


def _game_record(line: bytes, spec: RunSpec) -> dict | None:
    """A log line as a game of the run `spec`, or None: not JSON, a field missing or of the wrong type, or an
    index outside the run."""
    try:
        d = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(d, dict):
        return None
    index = d.get("index")
    ok = (isinstance(index, int) and not isinstance(index, bool) and 0 <= index < spec.games
          and all(isinstance(d.get(k), int) and not isinstance(d.get(k), bool) for k in ("seed", "agent_seat", "moves"))
          and is_real_number(d.get("score")) and isinstance(d.get("outcome"), dict) and "result" in d
          and isinstance(d.get("decision_ms"), list) and all(is_real_number(t) for t in d["decision_ms"])
          and isinstance(d.get("opponent_ms", []), list) and all(is_real_number(t) for t in d.get("opponent_ms", []))
          and isinstance(d.get("figures", {}), dict))
    return d if ok else None


# --- where games run ------------------------------------------------------------------------------------

def default_log_path(data_dir: Path, spec: RunSpec) -> Path:
    """data/runs/<game>-<agent>[-vs-<opponent>]-seed<seed>-<games>.jsonl, numbered if that exists."""
    vs = f"-vs-{spec.opponent}" if spec.opponent else ""
    from arcade.games import variant_slug

    stem = f"{variant_slug(spec.game, spec.variant)}-{spec.agent}{vs}-seed{spec.seed}-{spec.games}"
    path = Path(data_dir) / "runs" / f"{stem}.jsonl"
    n = 2
    while path.exists():
        path = path.with_name(f"{stem}-{n}.jsonl")
        n += 1
    return path
