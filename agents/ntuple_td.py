"""TD(0) on afterstates for the n-tuple network, in a compiled loop (one core or several).

The formulation of Szubert & Jaskowski (2014), "TD-afterstate": in state s the player takes the move a
whose reward plus afterstate value r + V(s'_a) is largest; once the computer has placed its tile (s'')
and the next move has been chosen the same way (reward r', afterstate s'_next), the previous afterstate
learns V(s') <- V(s') + rate (r' + V(s'_next) - V(s')); when s'' has no move the target is 0. Each of the F
weights V(s') reads moves by rate / F of the error.

`TDGames` plays training games one after another in agents/kernels2048.td_run (a stretch of moves a call,
the game in play carried between calls). `train` runs a whole training on one core; with jobs > 1 the
workers share one weight array in shared memory and update it without locks (Hogwild, as Jaskowski 2018
trained on many cores): reads and writes of different games interleave, and the rare lost update costs
less than the cores gain. All randomness comes from the Generators given.

Restarts (Matsuzaki 2016's restart strategy, in the spirit of Wu et al. 2014's late stages): a fresh game
from the start seldom lives long enough to teach the network the boards past a large tile (at 1 ply the
trained network makes 16384 in about one game of eight), so the boards on which fresh games first make
`Restart.tile` are kept, and that share of new games starts from one of them instead of an empty board.
Those practice games learn like any other but are not counted as games nor drawn in the learning curve.

Temporal coherence (Beal & Smith 1999; Jaskowski 2018's TC, [2048] ntuple_rates = "coherent"): each weight
steps at the learning rate times |E| / A, E the sum of the errors its steps have met and A the sum of their
sizes (agents/ntuple_net.Coherence). A weight far from its value meets errors of one sign and moves at the
full rate; one that jitters around it meets errors that cancel and slows down, each at its own time, where
a fixed rate is either too slow early or too noisy late. The sums are a training run's state: a resumed run
starts them afresh.
"""
from __future__ import annotations

import multiprocessing
import os
import queue
import time
from dataclasses import dataclass, field
from multiprocessing import shared_memory

import numpy as np

from agents import compiled
from agents.ntuple_net import Coherence, NTupleNetwork

TILE_2048 = 11  # exponent of the 2048 tile
POOL_SIZE = 4096  # boards kept per training process for restarts (the newest replace the oldest)
STEP_MOVES = 20_000  # moves a call of the compiled loop plays (about 10 ms): between calls, reports and stops
ENDED_ROWS = 512  # finished games a call can hand back (it returns early when they are more)


@dataclass(frozen=True)
class Restart:
    """Keep the boards on which a fresh game first made the tile `tile` (0: none), and start `share` of new
    games from them (0: keep them only)."""

    tile: int = 0
    share: float = 0.0

    @property
    def on(self) -> bool:
        return self.tile > 0 and self.share > 0


class TDGames:
    """Training games one after another on one network, learning as they go (agents/kernels2048.td_run).

    step() plays up to STEP_MOVES moves and returns the games that ended as (scores, largest exponents,
    moves, fresh) arrays (fresh: False for a restarted practice game); `board`, `score` and `length` are the
    game in play's. `moves` counts every move played (and learnt from) so far."""

    def __init__(self, net, p_four: float, rate: float, rng: np.random.Generator, restart: Restart = Restart(),
                 coherence: Coherence | None = None):
        self.kernels = compiled.kernels()
        self.net, self.p_four, self.rate, self.rng, self.restart = net, float(p_four), float(rate), rng, restart
        self.coherence = coherence  # temporal coherence's sums (None: every weight steps at `rate`)
        self.game = np.zeros(7, dtype=np.uint64)  # (agents/kernels2048's G_* fields; an empty board: none yet)
        self.prev_feats = np.zeros(net.n_features, dtype=np.int64)  # the weights its last afterstate reads
        self.pool = np.zeros(POOL_SIZE if restart.tile else 1, dtype=np.uint64)
        self.counters = np.zeros(2, dtype=np.int64)  # boards ever pooled, moves played
        self.ended = np.zeros((ENDED_ROWS, 4), dtype=np.int64)
        self.scratch = (np.empty((4, net.n_features), np.int64), np.empty(4, np.uint64), np.empty(4, np.int64))
        self.moves_t, self.gains_t = compiled.move_tables()
        self._none = np.zeros(1, dtype=np.float32)

    @property
    def moves(self) -> int:
        return int(self.counters[1])

    @property
    def board(self) -> int:
        return int(self.game[self.kernels.G_BOARD])

    @property
    def score(self) -> int:
        return int(self.game[self.kernels.G_SCORE])

    @property
    def length(self) -> int:
        return int(self.game[self.kernels.G_LENGTH])

    @property
    def fresh(self) -> bool:
        """Whether the game in play started from an empty board (not a restart)."""
        return bool(self.game[self.kernels.G_FRESH])

    @property
    def pooled(self) -> int:
        """Boards ever put in the restart pool."""
        return int(self.counters[0])

    def step(self, moves: int = STEP_MOVES):
        weights, runs, stage, late = self.net.kernel_spec()
        coherent = self.coherence is not None
        signed, absolute = (self.coherence.signed, self.coherence.absolute) if coherent else (self._none, self._none)
        restart_exponent = int(self.restart.tile).bit_length() - 1 if self.restart.tile else 0
        n = self.kernels.td_run(self.game, self.prev_feats, int(moves), self.rate, self.p_four, self.rng, weights, runs, stage, late,
                                self.moves_t, self.gains_t, coherent, signed, absolute, self.pool, self.counters,
                                restart_exponent, float(self.restart.share) if self.restart.on else 0.0, self.ended,
                                *self.scratch)
        done = self.ended[:n]
        return done[:, 0].copy(), done[:, 1].copy(), done[:, 2].copy(), done[:, 3].astype(bool)


@dataclass(frozen=True)
class Schedule:
    """The learning rate of a run: `rate` until `fine_from` games of the run have ended, then `fine_rate`
    (the games in play go on: a stage change restarting them would end its shortest games first and put a
    false dip in the learning curve)."""

    rate: float
    fine_from: int | None = None
    fine_rate: float = 0.0

    def at(self, games_done: int) -> float:
        return self.fine_rate if self.fine_from is not None and games_done >= self.fine_from else self.rate


@dataclass
class Curve:
    """Finished training games grouped in blocks: one learning-curve point a block."""

    block: int
    scores: list = field(default_factory=list)
    tiles: list = field(default_factory=list)

    def add(self, scores, tiles) -> list[dict]:
        """Take in finished games; the points of the blocks they complete ({series: value})."""
        self.scores.extend(np.asarray(scores).tolist())
        self.tiles.extend(np.asarray(tiles).tolist())
        points = []
        while len(self.scores) >= self.block:
            s, t = self.scores[:self.block], np.array(self.tiles[:self.block])
            del self.scores[:self.block], self.tiles[:self.block]
            points.append({"mean score": float(np.mean(s)), "share reaching 2048": float((t >= TILE_2048).mean())})
        return points


def block_size(games: int) -> int:
    """Games a learning-curve point averages: about 40 points a run, 50 games at the least."""
    return max(50, games // 40)


@dataclass
class Report:
    """What a training run reports as it goes: progress(games done), point(games done, figures, moves)
    once a block, watch(board uint64, score) now and then (a game of the batch, for a screen to draw), and
    stop() -> True to end early. Each may be None."""

    progress: object = None
    point: object = None
    watch: object = None
    stop: object = None


WATCH_SECONDS = 0.1  # how often a training game's board is passed to `watch`
POST_SECONDS = 0.25  # how often a worker process posts its finished games to the parent


def _play(td: TDGames, post, stop, watch=None, rate=None, post_every: float = 0.0) -> None:
    """Step `td` until `stop()`; finished games go to post(scores, tiles, moves, fresh, moves so far) every
    `post_every` seconds (0: after every step that ended one). `rate()`, if given, is td's learning rate for
    the next step."""
    pending, last_post, last_watch = [], time.monotonic(), 0.0
    while not stop():
        if rate is not None:
            td.rate = rate()
        ended = td.step()
        if ended[0].size:
            pending.append(ended)
        now = time.monotonic()
        if watch is not None and now - last_watch >= WATCH_SECONDS:
            watch(td.board, td.score)
            last_watch = now
        if pending and now - last_post >= post_every:
            post(*(np.concatenate(p) for p in zip(*pending)), td.moves)
            pending, last_post = [], now
    if pending:
        post(*(np.concatenate(p) for p in zip(*pending)), td.moves)


def train(net: NTupleNetwork, games: int, p_four: float, rate: float | Schedule, rng: np.random.Generator, jobs: int = 1, report: Report | None = None, done_before: int = 0,
          restart: Restart = Restart(), coherence: Coherence | None = None) -> dict:
    """Train `net` in place until `games` more fresh games have ended (or report.stop()); returns the figures
    {"games", "moves", "seconds"} (moves: of every game ended, restarted ones too). `rate`: one learning rate,
    or a Schedule over the run's games (done_before of them ended before this call). jobs > 1 trains on that
    many processes sharing the weights. `coherence`: temporal coherence's sums for the net's weights, carried
    on (a training state, not the network's: a resumed run starts them afresh)."""
    report = report or Report()
    schedule = rate if isinstance(rate, Schedule) else Schedule(float(rate))
    curve = Curve(block_size(games + done_before))
    state = {"games": 0, "moves": 0, "start": time.perf_counter(), "rate": schedule.at(done_before)}
    external_stop = report.stop or (lambda: False)

    def post(scores, tiles, lengths, fresh):
        state["moves"] += int(lengths[~fresh].sum())
        scores, tiles, lengths = scores[fresh], tiles[fresh], lengths[fresh]
        take = min(scores.size, games - state["games"])  # games past the target end uncounted
        state["games"] += take
        state["moves"] += int(lengths[:take].sum())
        state["rate"] = schedule.at(done_before + state["games"])
        if report.point is not None:
            for point in curve.add(scores[:take], tiles[:take]):
                report.point(done_before + state["games"], point, state["moves"])
        if report.progress is not None:
            report.progress(done_before + state["games"])

    def stop() -> bool:
        return state["games"] >= games or external_stop()

    if jobs <= 1:
        td = TDGames(net, p_four, state["rate"], rng, restart, coherence)
        _play(td, lambda s, t, m, f, _moves: post(s, t, m, f), stop, report.watch, lambda: state["rate"])
    else:
        _train_shared(net, jobs, p_four, state, rng, post, stop, report.watch, restart, coherence)
    return {"games": state["games"], "moves": state["moves"], "seconds": time.perf_counter() - state["start"]}


def _shared_arrays(buf, size: int, coherent: bool) -> list[np.ndarray]:
    """The float32 arrays of `size` a shared training keeps one after another in `buf`: the weights, then
    (with temporal coherence) its two sums."""
    return [np.ndarray((size,), dtype=np.float32, buffer=buf, offset=4 * size * k)
            for k in range(3 if coherent else 1)]


def _worker(shm_name: str, tuple_set: str, p_four: float, rate, restart: Restart,
            coherent: bool, seed, out, halt, watch: bool, parent: int) -> None:
    """One Hogwild worker: TDGames on the shared weights (and coherence sums) until `halt` is set (or its
    parent ends)."""
    from arcade.agent_process import init_worker

    init_worker(parent=parent)
    shm = shared_memory.SharedMemory(name=shm_name)
    try:
        size = NTupleNetwork.size_of(tuple_set)
        arrays = _shared_arrays(shm.buf, size, coherent)
        net = NTupleNetwork(tuple_set, arrays[0])
        coherence = Coherence(size, *arrays[1:]) if coherent else None
        td = TDGames(net, p_four, rate.value, np.random.default_rng(seed), restart, coherence)
        _play(td, lambda s, t, m, f, moves: out.put(("games", (s, t, m, f))), halt.is_set,
              (lambda board, score: out.put(("watch", (board, score)))) if watch else None, lambda: rate.value,
              POST_SECONDS)
        del net, td, coherence, arrays
    finally:
        out.put(("ended", None))
        shm.close()


def _train_shared(net, jobs, p_four, state, rng, post, stop, watch, restart, coherence) -> None:
    """train() on `jobs` worker processes sharing the weights; the workers read the rate (state["rate"],
    set by post as games end) from a shared number."""
    ctx = multiprocessing.get_context("spawn")
    rate = ctx.Value("d", state["rate"], lock=False)  # (one writer: the parent)

    def posted(*games):
        post(*games)
        rate.value = state["rate"]

    coherent = coherence is not None
    shm = shared_memory.SharedMemory(create=True, size=net.weights.nbytes * (3 if coherent else 1))
    try:
        shared, *sums = _shared_arrays(shm.buf, net.size, coherent)
        if coherent:
            sums[0][:], sums[1][:] = coherence.signed, coherence.absolute
        shared[:] = private = net.weights
        net.weights = shared  # a checkpoint saved meanwhile reads what the workers have learnt
        out, halt = ctx.Queue(), ctx.Event()
        seeds = np.random.SeedSequence(int(rng.integers(2 ** 63))).spawn(jobs)
        workers = [ctx.Process(target=_worker, daemon=True, name=f"ntuple-td-{k}",
                               args=(shm.name, net.tuple_set, p_four, rate, restart, coherent, seeds[k],
                                     out, halt, k == 0, os.getpid()))
                   for k in range(jobs)]
        for w in workers:
            w.start()
        running = jobs
        try:
            _collect(out, workers, running, posted, stop, watch, halt)
        finally:
            halt.set()
            for w in workers:
                w.join(timeout=10)
                if w.is_alive():
                    w.terminate()
            private[:] = shared
            net.weights = private
            if coherent:
                coherence.signed[:], coherence.absolute[:] = sums
            del shared, sums
    finally:
        shm.close()
        shm.unlink()


def _collect(out, workers, running, post, stop, watch, halt) -> None:
    """The parent's side of a shared training: take in what the workers post until all have ended."""
    while running:
        if stop():
            halt.set()
        try:
            kind, value = out.get(timeout=0.2)
        except queue.Empty:
            if not any(w.is_alive() for w in workers):
                break
            continue
        if kind == "games":
            post(*value)
        elif kind == "watch":
            if watch is not None:
                watch(*value)
        else:
            running -= 1
