"""TD(0) on afterstates for the n-tuple network, in a compiled loop (one core or several).

The formulation of Szubert & Jaskowski (2014), "TD-afterstate": in state s the player takes the move a
whose reward plus afterstate value r + V(s'_a) is largest; once the computer has placed its tile (s'')
and the next move has been chosen the same way (reward r', afterstate s'_next), the previous afterstate
learns V(s') <- V(s') + rate (r' + V(s'_next) - V(s')); when s'' has no move the target is 0. Each of the F
weights V(s') reads moves by rate / F of the error.

`TDGames` plays training games one after another in agents/engines/twenty48/kernels.td_run (a stretch of moves a call,
the game in play carried between calls). `train` runs a whole training on one core; with jobs > 1 as many
threads play their own games on the one weight array and update it without locks (Hogwild, as Jaskowski
2018 trained on many cores; the compiled loop lets go of the interpreter lock): reads and writes of
different games interleave, and the rare lost update costs less than the cores gain. All randomness comes
from the Generators given.

Restarts (Matsuzaki 2016's restart strategy, in the spirit of Wu et al. 2014's late stages): a fresh game
from the start seldom lives long enough to teach the network the boards past a large tile (at 1 ply the
trained network makes 16384 in about one game of eight), so the boards on which fresh games first make
`Restart.tile` are kept, and that share of new games starts from one of them instead of an empty board.
Those practice games learn like any other but are not counted as games nor drawn in the learning curve.

Temporal coherence (Beal & Smith 1999; Jaskowski 2018's TC, [2048.ntuple] rates = "coherent"): each weight
steps at the learning rate times |E| / A, E the sum of the errors its steps have met and A the sum of their
sizes (agents/ntuple_net.Coherence). A weight far from its value meets errors of one sign and moves at the
full rate; one that jitters around it meets errors that cancel and slows down, each at its own time, where
a fixed rate is either too slow early or too noisy late. The sums are a training run's state: a resumed run
starts them afresh.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from agents.engines.twenty48 import board64
from agents.base import TrainingDiverged, declare_warm_up
from agents.ntuple_net import Coherence, NTupleNetwork

TILE_2048 = 11  # exponent of the 2048 tile
POOL_SIZE = 4096  # boards kept per training thread for restarts (the newest replace the oldest)
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
    """Training games one after another on one network, learning as they go (agents/engines/twenty48/kernels.td_run).

    step() plays up to STEP_MOVES moves and returns the games that ended as (scores, largest exponents,
    moves, fresh) arrays (TrainingDiverged when a TD error is not finite or past any score) (fresh: False for a restarted practice game); `board`, `score` and `length` are the
    game in play's. `moves` counts every move played (and learnt from) so far."""

    def __init__(self, net, p_four: float, rate: float, rng: np.random.Generator, restart: Restart = Restart(),
                 coherence: Coherence | None = None, ended_rows: int = ENDED_ROWS):
        from agents.engines.twenty48 import kernels

        self.kernels = kernels
        self.net, self.p_four, self.rate, self.rng, self.restart = net, float(p_four), float(rate), rng, restart
        self.coherence = coherence  # temporal coherence's sums (None: every weight steps at `rate`)
        self.game = np.zeros(7, dtype=np.uint64)  # (agents/engines/twenty48/kernels's G_* fields; an empty board: none yet)
        self.prev_feats = np.zeros(net.n_features, dtype=np.int64)  # the weights its last afterstate reads
        self.pool = np.zeros(POOL_SIZE if restart.tile else 1, dtype=np.uint64)
        self.counters = np.zeros(3, dtype=np.int64)  # boards ever pooled, moves played, diverged
        self.ended = np.zeros((ended_rows, 4), dtype=np.int64)  # (1: a step returns as its game ends)
        self.scratch = (np.empty((4, net.n_features), np.int64), np.empty(4, np.uint64), np.empty(4, np.int64))
        self.moves_t, self.gains_t = board64.move_tables()
        self._none = np.zeros(1, dtype=np.float32)
        self._play_copy = None  # (read-only weights, a writable copy the loop reads)

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

    def _last_value(self, weights) -> float:
        """The value of the last afterstate learnt from (for the message of a run that diverged)."""
        return float(np.asarray(weights, dtype=np.float64)[self.prev_feats].sum())

    def step(self, moves: int = STEP_MOVES):
        weights, runs, stage, late = self.net.kernel_spec()
        if not weights.flags.writeable:  # a network read from a file (shared read-only) only plays
            if self.rate > 0:
                raise ValueError("a network read from a file is shared read-only: train a copy of it")
            if self._play_copy is None or self._play_copy[0] is not weights:
                self._play_copy = (weights, np.array(weights))  # (the compiled loop is typed for one that learns)
            weights = self._play_copy[1]
        coherent = self.coherence is not None
        signed, absolute = (self.coherence.signed, self.coherence.absolute) if coherent else (self._none, self._none)
        restart_exponent = int(self.restart.tile).bit_length() - 1 if self.restart.tile else 0
        n = self.kernels.td_run(self.game, self.prev_feats, int(moves), self.rate, self.p_four, self.rng, weights, runs, stage, late,
                                self.moves_t, self.gains_t, coherent, signed, absolute, self.pool, self.counters,
                                restart_exponent, float(self.restart.share) if self.restart.on else 0.0, self.ended,
                                *self.scratch)
        if self.counters[2]:
            raise TrainingDiverged(f"the values ran away after {self.moves:,} moves (an afterstate valued at "
                           f"{self._last_value(weights):.3g} points)")
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


FIRST_BLOCK = 50  # games the first learning-curve point averages: a point within seconds, not a block's minutes


@dataclass
class Curve:
    """Finished training games grouped in blocks: one learning-curve point a block (the first block of
    FIRST_BLOCK games at most, so the curve starts within seconds of a long run's start)."""

    block: int
    scores: list = field(default_factory=list)
    tiles: list = field(default_factory=list)
    points: int = 0  # made so far

    def add(self, scores, tiles) -> list[dict]:
        """Take in finished games; the points of the blocks they complete ({series: value})."""
        self.scores.extend(np.asarray(scores).tolist())
        self.tiles.extend(np.asarray(tiles).tolist())
        points = []
        while len(self.scores) >= (size := self.block if self.points else min(self.block, FIRST_BLOCK)):
            s, t = self.scores[:size], np.array(self.tiles[:size])
            del self.scores[:size], self.tiles[:size]
            self.points += 1
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


def _play(td: TDGames, post, stop, watch=None, rate=None) -> None:
    """Step `td` until `stop()`; finished games go to post(scores, tiles, moves, fresh, moves so far) after
    every step that ended one. `rate()`, if given, is td's learning rate for the next step."""
    last_watch = 0.0
    while not stop():
        if rate is not None:
            td.rate = rate()
        ended = td.step()
        if ended[0].size:
            post(*ended, td.moves)
        now = time.monotonic()
        if watch is not None and now - last_watch >= WATCH_SECONDS:
            watch(td.board, td.score)
            last_watch = now


def train(net: NTupleNetwork, games: int, p_four: float, rate: float | Schedule, rng: np.random.Generator,
          jobs: int = 1, report: Report | None = None, done_before: int = 0,
          restart: Restart = Restart(), coherence: Coherence | None = None) -> dict:
    """Train `net` in place until `games` more fresh games have ended (or report.stop()); returns the figures
    {"games", "moves", "seconds"} (moves: of every game ended, restarted ones too). `rate`: one learning rate,
    or a Schedule over the run's games (done_before of them ended before this call). jobs > 1 trains on that
    many threads sharing the weights. `coherence`: temporal coherence's sums for the net's weights, carried
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
        _train_threads(net, jobs, p_four, state, rng, post, stop, report.watch, restart, coherence)
    return {"games": state["games"], "moves": state["moves"], "seconds": time.perf_counter() - state["start"]}


def _train_threads(net, jobs, p_four, state, rng, post, stop, watch, restart, coherence) -> None:
    """train() on `jobs` threads, each playing its own games on the same weights (and coherence sums) in
    place: the compiled loop lets go of the interpreter lock, so the threads run on as many cores, and the
    weights stay in this process's memory (on large pages where the system gives them). A thread posts the
    games it finishes as they end; the first, what it is playing."""
    seeds = np.random.SeedSequence(int(rng.integers(2 ** 63))).spawn(jobs)
    lock, halt, failed = threading.Lock(), threading.Event(), []

    def posted(scores, tiles, lengths, fresh, _moves):
        with lock:
            post(scores, tiles, lengths, fresh)

    def stopping() -> bool:
        return halt.is_set() or stop()

    def work(k: int) -> None:
        try:
            td = TDGames(net, p_four, state["rate"], np.random.default_rng(seeds[k]), restart, coherence)
            _play(td, posted, stopping, watch if k == 0 else None, lambda: state["rate"])
        except BaseException as exc:  # (told to the caller below, after the others have stopped)
            failed.append(exc)
            halt.set()

    threads = [threading.Thread(target=work, args=(k,), name=f"ntuple-td-{k}", daemon=True) for k in range(jobs)]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(timeout=0.2)
    finally:  # (Ctrl-C in the caller: the threads stop after their current step, about 10 ms)
        halt.set()
        for t in threads:
            t.join()
    if failed:
        raise failed[0]


def _warm_up(first_move: bool) -> list:
    """The learner's kernels (a training's, never a first move's)."""
    return [] if first_move else [lambda: TDGames(NTupleNetwork("3x4"), 0.1, 0.1, np.random.default_rng(0)).step(10)]


declare_warm_up("2048", _warm_up, order=60)
