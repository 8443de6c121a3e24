"""TD(0) on afterstates for the n-tuple network, over many 2048 games in lockstep (one core or several).

The formulation of Szubert & Jaskowski (2014), "TD-afterstate": in state s the player takes the move a
whose reward plus afterstate value r + V(s'_a) is largest; once the computer has placed its tile (s'')
and the next move has been chosen the same way (reward r', afterstate s'_next), the previous afterstate
learns V(s') <- V(s') + rate (r' + V(s'_next) - V(s')); when s'' has no move the target is 0.

BatchTD plays `parallel` games at once on 64-bit boards: one step moves every game (all four moves by row
tables, values of the legal afterstates by the network, the greedy choice, the TD step of every game's
previous afterstate in one batched update, one new tile each). A finished game is recorded and replaced
by a new one, so the batch stays full. `train` runs a whole training on one core; with jobs > 1 the
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

from agents.ntuple_net import Coherence, NTupleNetwork
from arcade.games import board64

TILE_2048 = 11  # exponent of the 2048 tile
POOL_SIZE = 4096  # boards kept per training process for restarts (the newest replace the oldest)


@dataclass(frozen=True)
class Restart:
    """Keep the boards on which a fresh game first made the tile `tile` (0: none), and start `share` of new
    games from them (0: keep them only)."""

    tile: int = 0
    share: float = 0.0

    @property
    def on(self) -> bool:
        return self.tile > 0 and self.share > 0


class BatchTD:
    """`parallel` training games in lockstep on one network.

    step() plays one move of every game (learning as it goes) and returns the games that ended in it as
    (scores, largest exponents, moves, fresh) arrays (fresh: False for a restarted practice game). `boards`
    are the games' current boards (uint64)."""

    def __init__(self, net: NTupleNetwork, p_four: float, rate: float, parallel: int, rng: np.random.Generator,
                 restart: Restart = Restart(), coherence: Coherence | None = None):
        self.net, self.p_four, self.rate, self.rng, self.restart = net, float(p_four), float(rate), rng, restart
        self.coherence = coherence  # temporal coherence's sums (None: every weight steps at `rate`)
        n = int(parallel)
        self.boards = np.zeros(n, dtype=np.uint64)
        self.prev = np.zeros(n, dtype=np.uint64)  # each game's last afterstate (learns at the next step)
        self.has_prev = np.zeros(n, dtype=bool)
        self.scores = np.zeros(n, dtype=np.int64)
        self.lengths = np.zeros(n, dtype=np.int64)
        self.moves = 0  # moves played (and learnt from) so far
        self.fresh = np.ones(n, dtype=bool)  # started from an empty board (not a restart)
        self.made = np.zeros(n, dtype=bool)  # a fresh game that has made the restart tile
        self.pool = np.zeros(POOL_SIZE if restart.tile else 0, dtype=np.uint64)
        self.pooled = 0  # boards ever put in the pool
        self._new_games(np.arange(n))

    def _new_games(self, which: np.ndarray) -> None:
        """Fresh boards (two tiles, two uniforms each) for games `which`; with restarts on, a share of them
        starts from a pooled board instead."""
        u = self.rng.random((4, which.size))
        x = board64.spawn(np.zeros(which.size, dtype=np.uint64), u[0], u[1], self.p_four)
        self.boards[which] = board64.spawn(x, u[2], u[3], self.p_four)
        self.fresh[which] = True
        self.made[which] = False
        if self.restart.on and self.pooled:
            again = which[self.rng.random(which.size) < self.restart.share]
            kept = min(self.pooled, self.pool.size)
            self.boards[again] = self.pool[self.rng.integers(kept, size=again.size)]
            self.fresh[again] = False
        self.has_prev[which] = False
        self.scores[which] = 0
        self.lengths[which] = 0

    def greedy(self, boards: np.ndarray):
        """For each board: (the move, its afterstate, its reward, its afterstate's value, any move legal)."""
        codes = board64.lines(boards)
        moved = board64.move_all(boards, codes)
        gains = board64.all_gains(codes)
        legal = moved != boards
        values = np.full(moved.shape, -np.inf)
        values[legal] = self.net.value(moved[legal]) + gains[legal]
        best = values.argmax(axis=0)
        cols = np.arange(boards.size)
        reward = gains[best, cols]
        return best, moved[best, cols], reward, values[best, cols] - reward, legal.any(axis=0)

    def step(self):
        _, after, reward, v_after, alive = self.greedy(self.boards)
        learners = np.flatnonzero(self.has_prev)
        if learners.size and self.rate > 0:  # (rate 0: it only plays)
            target = np.where(alive[learners], reward[learners] + v_after[learners], 0.0)
            feats, values = self.net.learning_features(self.prev[learners])
            errors = target - values
            self.net.learn(feats, errors, self.rate, self.coherence)
        live = np.flatnonzero(alive)
        self.moves += live.size
        self.prev[live] = after[live]
        self.has_prev[live] = True
        self.scores[live] += reward[live]
        self.lengths[live] += 1
        u = self.rng.random((2, live.size))
        self.boards[live] = board64.spawn(after[live], u[0], u[1], self.p_four)
        if self.restart.tile:
            self._keep_made(live, reward)
        ended = np.flatnonzero(~alive)
        records = (self.scores[ended].copy(), board64.max_exponent(self.boards[ended]), self.lengths[ended].copy(),
                   self.fresh[ended].copy())
        if ended.size:
            self._new_games(ended)
        return records

    def _keep_made(self, live: np.ndarray, reward: np.ndarray) -> None:
        """Pool the boards of fresh games `live` whose move just made the restart tile for the first time (a
        move's points are at least the tile it makes, so only those games' tiles are read)."""
        tile = self.restart.tile
        maybe = live[(reward[live] >= tile) & self.fresh[live] & ~self.made[live]]
        if not maybe.size:
            return
        made = maybe[board64.max_exponent(self.boards[maybe]) >= tile.bit_length() - 1]
        self.made[made] = True
        slots = (self.pooled + np.arange(made.size)) % self.pool.size
        self.pool[slots] = self.boards[made]
        self.pooled += made.size


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
POST_SECONDS = 0.25  # how often a worker posts its finished games


def _play(td: BatchTD, post, stop, watch=None, rate=None) -> None:
    """Step `td` until `stop()`; finished games go to post(scores, tiles, moves, fresh, moves so far) every
    POST_SECONDS. `rate()`, if given, is td's learning rate for the next step."""
    pending, last_post, last_watch = [], time.monotonic(), 0.0
    watched = 0
    while not stop():
        if rate is not None:
            td.rate = rate()
        ended = td.step()
        if ended[0].size:
            pending.append(ended)
            if td.lengths[watched] == 0:  # the game followed ended: follow the longest one now
                watched = int(np.argmax(td.lengths))
        now = time.monotonic()
        if watch is not None and now - last_watch >= WATCH_SECONDS:
            watch(int(td.boards[watched]), int(td.scores[watched]))
            last_watch = now
        if pending and now - last_post >= POST_SECONDS:
            post(*(np.concatenate(p) for p in zip(*pending)), td.moves)
            pending, last_post = [], now
    if pending:
        post(*(np.concatenate(p) for p in zip(*pending)), td.moves)


def train(net: NTupleNetwork, games: int, p_four: float, rate: float | Schedule, parallel: int,
          rng: np.random.Generator, jobs: int = 1, report: Report | None = None, done_before: int = 0,
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
        td = BatchTD(net, p_four, state["rate"], parallel, rng, restart, coherence)
        _play(td, lambda s, t, m, f, _moves: post(s, t, m, f), stop, report.watch, lambda: state["rate"])
    else:
        _train_shared(net, jobs, p_four, state, parallel, rng, post, stop, report.watch, restart, coherence)
    return {"games": state["games"], "moves": state["moves"], "seconds": time.perf_counter() - state["start"]}


def _shared_arrays(buf, size: int, coherent: bool) -> list[np.ndarray]:
    """The float32 arrays of `size` a shared training keeps one after another in `buf`: the weights, then
    (with temporal coherence) its two sums."""
    return [np.ndarray((size,), dtype=np.float32, buffer=buf, offset=4 * size * k)
            for k in range(3 if coherent else 1)]


def _worker(shm_name: str, tuple_set: str, p_four: float, rate, parallel: int, restart: Restart,
            coherent: bool, seed, out, halt, watch: bool, parent: int) -> None:
    """One Hogwild worker: a BatchTD on the shared weights (and coherence sums) until `halt` is set (or its
    parent ends)."""
    from arcade.agent_process import init_worker

    init_worker(parent=parent)
    shm = shared_memory.SharedMemory(name=shm_name)
    try:
        size = NTupleNetwork.size_of(tuple_set)
        arrays = _shared_arrays(shm.buf, size, coherent)
        net = NTupleNetwork(tuple_set, arrays[0])
        coherence = Coherence(size, *arrays[1:]) if coherent else None
        td = BatchTD(net, p_four, rate.value, parallel, np.random.default_rng(seed), restart, coherence)
        _play(td, lambda s, t, m, f, moves: out.put(("games", (s, t, m, f))), halt.is_set,
              (lambda board, score: out.put(("watch", (board, score)))) if watch else None, lambda: rate.value)
        del net, td, coherence, arrays
    finally:
        out.put(("ended", None))
        shm.close()


def _train_shared(net, jobs, p_four, state, parallel, rng, post, stop, watch, restart, coherence) -> None:
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
                               args=(shm.name, net.tuple_set, p_four, rate, parallel, restart, coherent, seeds[k],
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
