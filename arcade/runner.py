"""Whole games as independent jobs, run serially, on local processes or as Ray tasks; logged per game, resumable.

A run is a game, the measured agent, its opponent and a seed. Game i of the run plays from the game seed
`seed + i`, the agents draw from a Generator seeded by (agent seed, game seed), and the measured agent sits
in seat 0 for the first half of a two-player run and in seat 1 after. An agent that learns while it plays
starts every game from the state it had when the run began (so does a search's cache). So a game's
record is the same whichever worker plays it and in whatever order: serial, `--jobs N` and Ray give equal
per-game results.

Records are plain JSON objects. Each finished game is appended to the run's log (arcade/run_log.py, whose
names this module also offers) as it finishes; the summary is read from the log's records; `resume`
continues a stopped run without replaying its games.

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
import multiprocessing
import os
import pickle
import signal
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from arcade.headless import GameRecord, play_game
from arcade.invocation import ray_install
from arcade.foundation.storage import json_default
from arcade import workers
from arcade.run_log import (LOG_VERSION, GameJob, GameLog, RunError, RunSpec, default_log_path,  # noqa: F401
                             jobs_of, settings_key)

ROOT = Path(__file__).resolve().parent.parent


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


@dataclass(frozen=True)
class Recipe:
    """An agent built where its games are played rather than where the run starts: a Players seat may be one.
    A window's arena hands its workers recipes, so neither building the agents nor pickling their tables (a
    solver's, a network) holds the window's process; each worker builds an agent once and copies it per game."""

    game: str
    name: str
    settings: object

    def build(self, rules):
        from agents import find

        return find(self.game, self.name).create(rules, self.settings)


_BUILT: dict[int, tuple[Recipe, object]] = {}  # id(recipe) -> (the recipe, its agent) in this process


def _as_played(seat, rules):
    """A seat's agent as a game starts: a copy of the agent (of the recipe's, built here once)."""
    if isinstance(seat, Recipe):
        kept = _BUILT.get(id(seat))
        if kept is None or kept[0] is not seat:
            if len(_BUILT) >= 16:  # (a window running arena after arena serially: the old ones go)
                _BUILT.clear()
            kept = _BUILT[id(seat)] = (seat, seat.build(rules))
        seat = kept[1]
    return copy.deepcopy(seat)


def play_job(players: Players, job: GameJob) -> dict:
    """Play one game of a run; its record as a JSON-ready dict (the same whatever process plays it)."""
    # every game starts from the agents as the run began (a learner's table, a search's transposition cache),
    # so no game depends on the games played before it in the same process
    seats = [_as_played(a, players.rules) for a in players.seats(job.agent_seat)]
    rng = np.random.default_rng([job.agent_seed, job.game_seed])
    cpu = time.process_time()
    record = play_game(players.rules, seats, job.game_seed, job.agent_seat, rng, until=players.until,
                       start=job.start)
    out = {"index": job.index, "seed": record.seed, "agent_seat": record.agent_seat, "score": record.score,
           "result": record.result, "moves": record.moves, "outcome": record.outcome,
           "decision_ms": [round(t, 4) for t in record.decision_ms],
           "opponent_ms": [round(t, 4) for t in record.opponent_ms], "figures": record.figures,
           "cpu_s": round(time.process_time() - cpu, 3),  # the whole game's, both seats (a process plays one at a time)
           "actions": record.actions, "from_start": job.start is None}  # (what arcade/replay.py plays again)
    return json.loads(json.dumps(out, default=json_default))


TIMED_FIELDS = ("decision_ms", "opponent_ms", "cpu_s")  # a record's clock readings: all else replays exactly


def without_times(records: list[dict]) -> list[dict]:
    """The records with their clock readings left out: what two runs of the same games must agree on."""
    return [{k: v for k, v in r.items() if k not in TIMED_FIELDS} for r in records]


def as_record(d: dict) -> GameRecord:
    """A logged game as the record `headless.summarize` reads."""
    return GameRecord(seed=d["seed"], agent_seat=d["agent_seat"], outcome=d["outcome"], moves=d["moves"],
                      score=d["score"], decision_ms=list(d["decision_ms"]),
                      opponent_ms=list(d.get("opponent_ms", [])), figures=dict(d.get("figures", {})))


# --- the log --------------------------------------------------------------------------------------------

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
_SHIPPED: dict[str, Players] = {}  # a kept worker's players of the runs it played for, by their pickle's digest


def _start_worker(blob: bytes | None, parent: int, give_way: bool = False) -> None:
    global _WORKER_PLAYERS
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the pool
    workers.start(parent, priority=False, background=give_way)  # (a headless run's games are the work; a
    #                                                               window's arena runs on what the window leaves)
    _WORKER_PLAYERS = pickle.loads(blob) if blob is not None else None


def _play_in_worker(job: GameJob) -> dict:
    return play_job(_WORKER_PLAYERS, job)


def _play_shipped(item: tuple[str, bytes, GameJob]) -> dict:
    """A kept worker's game: the players come with the job (unpickled once a run: agents built once, Recipe)."""
    digest, blob, job = item
    players = _SHIPPED.get(digest)
    if players is None:
        if len(_SHIPPED) >= 4:
            _SHIPPED.clear()
        players = _SHIPPED[digest] = pickle.loads(blob)
    return play_job(players, job)


class LocalProcesses(Backend):
    """Games on a pool of local processes, handed out one at a time as workers free up."""

    def __init__(self, jobs: int, give_way: bool = False, keep_workers: bool = False):
        """give_way: the workers run only on CPU time nothing else wants (workers.run_in_background), so a
        window's frames come first (an arena beside a game); a headless run's games are the work and keep
        their priority. keep_workers: one pool for every run until shutdown(), each job carrying its run's
        players (for small players, Recipes: an arena's pairings start no processes after the first)."""
        self.jobs = max(1, jobs)
        self.name = f"{self.jobs} local processes"
        self.pool = None
        self.give_way = give_way
        self.keep_workers = keep_workers
        self.stopping = False

    def run(self, players: Players, jobs: list[GameJob]) -> Iterator[dict]:
        blob = pickle.dumps(players)
        ctx = workers.context()
        self.stopping = False
        if self.keep_workers:
            if self.pool is None:
                self.pool = ctx.Pool(self.jobs, initializer=_start_worker, initargs=(None, os.getpid(), self.give_way))
            digest = hashlib.sha1(blob).hexdigest()
            try:
                yield from self._results(self.pool.imap_unordered(_play_shipped, [(digest, blob, job) for job in jobs],
                                                                  chunksize=1))
            except BaseException:
                self.stop()  # (games of a stopped run must not play on in the kept workers)
                raise
            return
        self.pool = ctx.Pool(min(self.jobs, max(1, len(jobs))), initializer=_start_worker,
                             initargs=(blob, os.getpid(), self.give_way))
        try:
            yield from self._results(self.pool.imap_unordered(_play_in_worker, jobs, chunksize=1))
            self.pool.close()
            self.pool.join()
        finally:
            self.stop()

    def _results(self, results) -> Iterator[dict]:
        """The pool's records as they come; stop() from another thread (a window's arena stopped) ends the wait
        as Ctrl-C does (KeyboardInterrupt: the run is incomplete), where a terminated pool's iterator would wait
        for ever."""
        while True:
            try:
                yield results.next(timeout=0.25)
            except StopIteration:
                return
            except multiprocessing.TimeoutError:
                if self.stopping:
                    raise KeyboardInterrupt from None

    def shutdown(self) -> None:
        self.stop()

    def stop(self) -> None:
        self.stopping = True
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
        raise RunError(f"Ray is not installed; install it with: {ray_install()}") from None
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

    def map(self, fn, items: list) -> list:
        """fn(item) for each item as Ray tasks (fn importable where the workers run: a module's function), the
        results in the items' order; RunError where the cluster cannot be reached. A trainer's games on the
        cluster (agents.base.TrainsOnCluster)."""
        self._joined()
        task = self.ray.remote(num_cpus=1, max_retries=self.retries)(fn)
        self.pending = [task.remote(item) for item in items]
        try:
            return self.ray.get(self.pending)
        finally:
            self.pending = []

    def _joined(self) -> None:
        """Connected, once (connect: RunError where the cluster cannot be reached)."""
        if self.ray is None or not self.ray.is_initialized():
            self.connect()

    def cpus(self) -> int:
        """The cluster's CPUs (connected first)."""
        self._joined()
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

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


def backend_of(jobs: int | None = None, ray: str | None = None, keep_workers: bool = False):
    """The backend the command line asks for: Ray when `ray` is given, else `jobs` processes (1: serial), kept
    for every run until shutdown() when `keep_workers` (runs of small players, one after another: an arena)."""
    if ray is not None:
        return RayCluster(ray)
    jobs = default_jobs() if jobs is None else jobs
    return Serial() if jobs <= 1 else LocalProcesses(jobs, keep_workers=keep_workers)


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

