"""Whole games as independent jobs, run serially, on local processes or as Ray tasks; logged per game, resumable.

A run is a game, the measured agent, its opponent and a seed. Game i of the run plays from the game seed
`seed + i`, the agents draw from a Generator seeded by (agent seed, game seed), and the measured agent sits
in seat 0 for the first half of a two-player run and in seat 1 after. An agent that learns while it plays
starts every game from the state it had when the run began (so does a search's cache). So a game's
record is the same whichever worker plays it and in whatever order: serial, `--jobs N` and Ray give equal
per-game results.

Records are plain JSON objects. Each finished game is appended to the run's log (one line) as it finishes;
the summary is read from the log's records; `resume` continues a stopped run without replaying its games.

Where the games run (a `Backend`):
- `Serial()`: in this process.
- `LocalProcesses(n)`: a pool of n processes; the agents are pickled once per worker, not per game.
- `RayCluster(address)`: Ray tasks on a cluster ('auto' joins a running one, else one is started here);
  the agents go into Ray's object store once (their numpy tables with them) and each worker reads them once;
  a task whose worker dies is retried, so a lost worker costs only that game.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
import signal
import socket
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from arcade.headless import GameRecord, play_game
from arcade.setting_fields import trains_only_fields
from arcade.storage import atomic_write_bytes, json_default
from arcade import workers

LOG_VERSION = 1
RAY_REQUIREMENTS = "requirements-ray.txt"
ROOT = Path(__file__).resolve().parent.parent


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

    @classmethod
    def of(cls, game: str, agent: str, opponent: str | None, games: int, seed: int, settings,
           variant: str | None = None, agent_seed: int | None = None) -> RunSpec:
        """The run of `games` games from `seed` (game i from seed + i), its agents built from `settings` (and
        seeded by their seeds.agent unless `agent_seed` is given); variant: the game's variant from the
        settings unless given."""
        from arcade.games import settings_variant

        return cls(game, agent, opponent, games, seed, settings.seeds.agent if agent_seed is None else agent_seed,
                   settings_key(settings, game), variant or settings_variant(game, settings))

    def header(self) -> dict:
        return {"run": asdict(self), "version": LOG_VERSION}

    def stands_to(self, run: RunSpec, players: int) -> str | None:
        """How this logged run stands to `run`: "same"; "same settings" (the same run, logged before runs
        named their variant: its header is written anew); "grows" (`run` is it with more games, every game it
        played unchanged: one-player runs only, game i is seed + i whatever the count, while in a two-player
        run the count decides the seats); None: another run."""
        logged = self
        if logged.variant is None:  # logged before variants: the settings fingerprint pins the rules
            logged = replace(logged, variant=run.variant)
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


def settings_key(settings, game: str) -> str:
    """A short fingerprint of the settings a run of `game` builds its agents from: that game's table and the
    seeds, search and data tables (not the other games' tables, the window, sound or pacing, nor where the
    settings were read from, nor the game's settings only training reads: changing those leaves a logged
    run continuable)."""
    kept = {k: asdict(getattr(settings, k)) for k in ("seeds", "search", "data")}
    table = settings.for_game(game)  # (its defaults when the settings do not set it)
    if table is not None:
        skipped = trains_only_fields(table)
        kept["game"] = {k: v for k, v in asdict(table).items() if k not in skipped}
    else:
        kept["game"] = None
    return hashlib.sha1(json.dumps(kept, sort_keys=True, default=str).encode()).hexdigest()[:12]


@dataclass
class Players:
    """The rules and the two agents of a run: what every worker needs, shipped to each once."""

    rules: object
    agent: object
    opponent: object | None = None
    until: Callable | None = None  # until(state) true ends a game early (picklable: a module-level class)

    def seats(self, agent_seat: int) -> list:
        if self.opponent is None:
            return [self.agent]
        return [self.agent, self.opponent] if agent_seat == 0 else [self.opponent, self.agent]


def play_job(players: Players, job: GameJob) -> dict:
    """Play one game of a run; its record as a JSON-ready dict (the same whatever process plays it)."""
    # every game starts from the agents as the run began (a learner's table, a search's transposition cache),
    # so no game depends on the games played before it in the same process
    seats = [copy.deepcopy(a) for a in players.seats(job.agent_seat)]
    rng = np.random.default_rng([job.agent_seed, job.game_seed])
    record = play_game(players.rules, seats, job.game_seed, job.agent_seat, rng, until=players.until,
                       start=job.start)
    out = {"index": job.index, "seed": record.seed, "agent_seat": record.agent_seat, "score": record.score,
           "result": record.result, "moves": record.moves, "outcome": record.outcome,
           "decision_ms": [round(t, 4) for t in record.decision_ms],
           "opponent_ms": [round(t, 4) for t in record.opponent_ms], "figures": record.figures}
    return json.loads(json.dumps(out, default=json_default))


def as_record(d: dict) -> GameRecord:
    """A logged game as the record `headless.summarize` reads."""
    return GameRecord(seed=d["seed"], agent_seat=d["agent_seat"], outcome=d["outcome"], moves=d["moves"],
                      score=d["score"], decision_ms=list(d["decision_ms"]),
                      opponent_ms=list(d.get("opponent_ms", [])), figures=dict(d.get("figures", {})))


# --- the log --------------------------------------------------------------------------------------------

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
        path = Path(path)
        if not path.is_file():
            raise RunError(f"no log at {path}; start a run with --log {path} (or without --resume)")
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise RunError(f"{path} cannot be read ({exc.strerror or exc})") from None
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
        """Add a finished game at the end; RunError (one line) when the file cannot take it (a full disk):
        the games before it stay as they were."""
        try:
            self._append(record)
        except OSError as exc:
            raise RunError(f"the log {self.path} cannot be written ({exc.strerror or exc}): the run stopped with "
                           f"{len(self.records)} games in it; free space, then continue it with "
                           f"python main.py bench --resume {self.path}") from None
        self.records.append(record)

    def _append(self, record: dict) -> None:
        with open(self.path, "a+b") as f:
            end = f.seek(0, os.SEEK_END)
            if end:
                f.seek(end - 1)
                if f.read(1) != b"\n":
                    f.write(b"\n")  # after a line cut short: start a fresh one, keep what is there
            f.write((json.dumps(record) + "\n").encode())

    def become(self, spec: RunSpec) -> None:
        """Make this log the run `spec`, which its own run grows into or is under another fingerprint
        (RunSpec.stands_to): a new header, the games it holds kept. Written to a temp file and renamed, so
        a kill leaves the old log or the new one whole."""
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
               "agent_seed": int, "settings_key": str, "variant": (str, type(None))}


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


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and np.isfinite(x)


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
          and _is_number(d.get("score")) and isinstance(d.get("outcome"), dict) and "result" in d
          and isinstance(d.get("decision_ms"), list) and all(_is_number(t) for t in d["decision_ms"])
          and isinstance(d.get("opponent_ms", []), list) and all(_is_number(t) for t in d.get("opponent_ms", []))
          and isinstance(d.get("figures", {}), dict))
    return d if ok else None


# --- where games run ------------------------------------------------------------------------------------

class Backend:
    """Where a run's games are played: connect() before the games (a problem is said at once, as RunError),
    run() yields each finished game's record, stop() ends the games in play, shutdown() after the run."""

    name = ""

    def connect(self) -> None:
        pass

    def run(self, players: Players, jobs: list[GameJob]) -> Iterator[dict]:
        raise NotImplementedError

    def stop(self) -> None:
        pass

    def shutdown(self) -> None:
        pass


class Serial(Backend):
    """Games in this process, one after another."""

    name = "serial"

    def run(self, players: Players, jobs: list[GameJob]) -> Iterator[dict]:
        for job in jobs:
            yield play_job(players, job)


_WORKER_PLAYERS: Players | None = None


def _start_worker(blob: bytes, parent: int) -> None:
    global _WORKER_PLAYERS
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the pool
    workers.end_with_parent(parent)
    _WORKER_PLAYERS = pickle.loads(blob)


def _play_in_worker(job: GameJob) -> dict:
    return play_job(_WORKER_PLAYERS, job)


class LocalProcesses(Backend):
    """Games on a pool of local processes, handed out one at a time as workers free up."""

    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)
        self.name = f"{self.jobs} local processes"
        self.pool = None

    def run(self, players: Players, jobs: list[GameJob]) -> Iterator[dict]:

        blob = pickle.dumps(players)
        ctx = workers.context()
        self.pool = ctx.Pool(min(self.jobs, max(1, len(jobs))), initializer=_start_worker,
                             initargs=(blob, os.getpid()))
        try:
            yield from self.pool.imap_unordered(_play_in_worker, jobs, chunksize=1)
            self.pool.close()
            self.pool.join()
        finally:
            self.stop()

    def stop(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def import_ray():
    try:
        import ray
    except ImportError:
        raise RunError(f"Ray is not installed; install it with: .venv/bin/pip install -r {RAY_REQUIREMENTS}") from None
    return ray


def _token_mode() -> None:
    """Clusters started by `ray start --head` use token authentication; a driver reads the token only in
    token mode. Where a token is at hand and no mode was chosen, use it."""
    token_file = Path(os.environ.get("RAY_AUTH_TOKEN_PATH", Path.home() / ".ray" / "auth_token"))
    if "RAY_AUTH_MODE" not in os.environ and (os.environ.get("RAY_AUTH_TOKEN") or token_file.is_file()):
        os.environ["RAY_AUTH_MODE"] = "token"


# the code Ray ships to every worker: this checkout, without what the games do not need
RUNTIME_ENV = {"working_dir": str(ROOT),
               "excludes": [".git", ".venv", ".venv-bench", "data", "docs", "*.pyc", "__pycache__"]}
_RAY_PLAYERS: dict[str, Players] = {}


def _play_on_ray(boxed_ref: list, job: GameJob) -> dict:
    """A Ray task: the players come from the object store, read once per worker process."""
    ray = import_ray()
    ref = boxed_ref[0]  # boxed, so Ray does not fetch it for every task
    key = ref.hex()
    if key not in _RAY_PLAYERS:  # (the store's arrays are read-only: play_job plays on copies of the agents)
        _RAY_PLAYERS.clear()
        _RAY_PLAYERS[key] = ray.get(ref)
    return play_job(_RAY_PLAYERS[key], job)


class RayCluster(Backend):
    """Games as Ray tasks. address 'auto' joins a running cluster or starts a local one; else that address.

    `retries` is how many times a game whose worker died is played again (it starts over from its seed)."""

    def __init__(self, address: str = "auto", retries: int = 3):
        self.address, self.retries = address, retries
        self.name = "Ray"
        self.pending: list = []
        self.ray = None

    def connect(self) -> None:
        """Join the cluster (or start one here); RunError if Ray is missing or the cluster cannot be reached."""
        _token_mode()  # before Ray is imported: it reads the mode then
        ray = self.ray = import_ray()
        if self.address != "auto":
            problem = cluster_problem(self.address)  # Ray itself retries an address nobody answers for minutes
            if problem:
                raise RunError(problem)
        if not ray.is_initialized():
            self._init(ray)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
        self.name = f"Ray ({nodes} node{'s' * (nodes != 1)}, {cpus} CPU{'s' * (cpus != 1)})"

    def _init(self, ray) -> None:
        quiet = {"logging_level": "ERROR", "log_to_driver": False, "include_dashboard": False,
                 "runtime_env": RUNTIME_ENV}
        try:
            ray.init(address=self.address, **quiet)
        except ConnectionError:
            if self.address != "auto":
                raise RunError(f"no Ray cluster at {self.address}; start one there with: ray start --head") from None
            ray.init(**quiet)  # no cluster running: one on this machine
        except Exception as exc:  # noqa: BLE001  (Ray's own errors: one line, not its traceback)
            if "auth" in f"{type(exc).__name__} {exc}".lower():
                raise RunError(f"the Ray cluster at {self.address} refused this machine's token: copy the head's "
                               "~/.ray/auth_token here (or set RAY_AUTH_TOKEN) and run again") from None
            raise RunError(f"Ray could not start: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") \
                from None

    def run(self, players: Players, jobs: list[GameJob]) -> Iterator[dict]:
        self.connect()
        ray = self.ray
        task = ray.remote(num_cpus=1, max_retries=self.retries)(_play_on_ray)
        ref = ray.put(players)
        self.pending = [task.remote([ref], job) for job in jobs]
        try:
            while self.pending:
                done, self.pending = ray.wait(self.pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            self.stop()

    def stop(self) -> None:
        if self.ray is not None and self.pending:
            for r in self.pending:
                self.ray.cancel(r, force=True)
            self.pending = []

    def shutdown(self) -> None:
        if self.ray is not None and self.ray.is_initialized():
            self.ray.shutdown()


RAY_PORT = 6379  # a head's port when an address gives none
PROBE_SECONDS = 3.0


def cluster_problem(address: str, timeout: float = PROBE_SECONDS) -> str | None:
    """Why no Ray cluster can answer at `address` ("host", "host:port", "ray://host:port"), said in one line
    within `timeout` seconds, or None when something listens there (a Ray head, as far as a connection tells)."""
    where = address.split("://", 1)[-1].rstrip("/")
    host, _, port_text = where.rpartition(":") if ":" in where else (where, "", str(RAY_PORT))
    host = host.strip("[]")
    start = "start one there with: ray start --head --port PORT (or leave out --ray to play here)"
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        return f"--ray {address}: not an address of a Ray cluster (give HOST:PORT, e.g. 10.0.0.5:6379)"
    try:
        infos = socket.getaddrinfo(host, int(port_text), type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return f"no Ray cluster at {address}: the name {host!r} is not known here; {start}"
    answered = False
    for family, kind, proto, _, sockaddr in infos:
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.settimeout(timeout)
                sock.connect(sockaddr)
                answered = True
                if _speaks_grpc(sock):
                    return None
        except OSError:
            continue
    if answered:
        return (f"no Ray cluster at {address}: something listens on port {port_text} of {host} but does not "
                f"answer as a Ray head (gRPC) does; {start}")
    return f"no Ray cluster at {address}: nothing answers on port {port_text} of {host}; {start}"


HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])  # + an empty SETTINGS


def _speaks_grpc(sock: socket.socket) -> bool:
    """Whether the peer answers an HTTP/2 client preface with a SETTINGS frame, as a gRPC server (Ray's head)
    does at once."""
    sock.sendall(HTTP2_PREFACE)
    head = b""
    while len(head) < 9:
        chunk = sock.recv(9 - len(head))
        if not chunk:
            return False
        head += chunk
    return head[3] == 4  # the frame's type: SETTINGS


def backend_of(jobs: int | None = None, ray: str | None = None):
    """The backend the command line asks for: Ray when `ray` is given, else `jobs` processes (1: serial)."""
    if ray is not None:
        return RayCluster(ray)
    jobs = default_jobs() if jobs is None else jobs
    return Serial() if jobs <= 1 else LocalProcesses(jobs)


@dataclass
class RunResult:
    records: list[dict]  # every finished game of the run, in index order
    complete: bool  # False: stopped (Ctrl-C) before every game finished


def execute(players: Players, jobs: list[GameJob], backend: Backend, log: GameLog | None = None,
            progress: Callable[[int], None] | None = None) -> RunResult:
    """Play `jobs` on `backend`, appending each finished game to `log`; the result holds the log's games
    from before too (a resumed run). Ctrl-C stops the workers and returns what finished; a log that cannot
    be written stops them too and raises RunError."""
    finished = list(log.records) if log is not None else []
    complete = True
    try:
        for record in backend.run(players, jobs):
            if log is not None:
                log.append(record)
            finished.append(record)
            if progress:
                progress(len(finished))
    except KeyboardInterrupt:
        backend.stop()
        complete = False
    except RunError:  # the log cannot take a game: stop the games in play, say so once
        backend.stop()
        raise
    finished.sort(key=lambda r: r["index"])
    return RunResult(finished, complete)


def play_games(rules, agent, opponent=None, games: int = 10, seed: int = 0, progress=None,
               agent_seed: int = 1, backend=None) -> list[GameRecord]:
    """Play `games` seeded games in this process (or on `backend`): game g from seed
    `seed + g`, the agents' Generator from (agent_seed, seed + g). In two-player games the agent takes
    seat 0 in the first half, seat 1 after."""
    spec = RunSpec("", getattr(agent, "name", ""), getattr(opponent, "name", None), games, seed, agent_seed, "")
    result = execute(Players(rules, agent, opponent), jobs_of(spec, rules.players), backend or Serial(),
                     progress=progress)
    if not result.complete:
        raise KeyboardInterrupt
    return [as_record(r) for r in result.records]


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

