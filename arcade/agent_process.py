"""The agent process: where agents that compute for long stretches make their decisions.

A decision that takes tens or hundreds of milliseconds of Python in a thread
holds the GIL the frame loop needs, and frames come late. Agents registered
with `process=True` therefore decide in one shared worker process (spawned,
never forked: the parent has SDL threads). The process keeps the agents it
built, keyed by the controller's token and rules version, so an agent that
learns or builds tables across turns (q-rollouts, the dots solver) keeps them
there. Randomness crosses as a seed drawn from the controller's generator, so
a seeded game is still reproducible.

Training a learner from a screen (`t`) runs in a process of its own too
(`arcade.training`). Both start, and report progress, the one way of `arcade.workers`.
"""
from __future__ import annotations

import atexit
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor

import numpy as np

from arcade import workers

KEEP_AGENTS = 4  # built agents kept in the process (a 3x3 dots solver holds ~200 MB)

_pool: ProcessPoolExecutor | None = None
_progress_queue = None  # the worker's report_progress lines, to this process
_progress: "TaskProgress | None" = None
_agents: OrderedDict = OrderedDict()  # lives in the worker process
_unfinished: set[Future] = set()  # the calls asked of the worker and not done yet


@dataclass(frozen=True)
class TaskProgress:
    """How far long work in the agent process is: `done` of `total` units of `task`."""

    task: str
    done: float
    total: float
    detail: str
    started: float  # time.monotonic() when the task was first reported
    updated: float
    agent: str | None = None  # the agent whose call reported it (None: the kernels loaded for every agent)

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 1.0

    def eta_seconds(self) -> float | None:
        """Seconds left at the pace so far (None until there is a pace)."""
        f = self.fraction
        return (self.updated - self.started) * (1 - f) / f if 0 < f < 1 else None

    def line(self) -> str:
        eta = self.eta_seconds()
        left = f", about {eta:.0f} s left" if eta is not None else ""
        where = f", {self.detail}" if self.detail else ""
        return f"{self.task}{where}: {self.fraction:.0%}{left}"


def latest_progress(agent: str | None = None) -> TaskProgress | None:
    """The agent process's latest unfinished long task, or None (none running, or it went quiet); given an
    agent, only a task of that agent's (or of every agent's: the kernels loading), never another agent's."""
    global _progress
    for kind, value in workers.take(_progress_queue):
        if kind != "progress":
            continue
        task, done, total, detail, working_for = value
        now = time.monotonic()
        same = _progress is not None and task == _progress.task and done >= _progress.done
        _progress = TaskProgress(task, done, total, detail, _progress.started if same else now, now, working_for)
    p = _progress
    if p is None or p.done >= p.total or time.monotonic() - p.updated > 30:
        return None
    if agent is not None and p.agent not in (None, agent):
        return None
    return p


def _run(key: tuple, game_id: str, name: str, rules, settings, method: str, state, seed: int):
    """Runs in the worker process: build (or reuse) the agent, then act / explain / nothing."""
    from agents import find
    from arcade.agent_call import call

    workers.working_for = name  # (its long work's progress names it: a screen shows only its selected agent's)
    try:
        agent = _agents.get(key)
        if agent is None:
            agent = find(game_id, name).create(rules, settings)
            _agents[key] = agent
            while len(_agents) > KEEP_AGENTS:
                _agents.popitem(last=False)
        _agents.move_to_end(key)
        return call(agent, method, state, np.random.default_rng(seed), rules)
    finally:
        workers.working_for = None


def _prepare(part: int) -> bool:
    """Runs in the worker process: one part of the kernels the first moves use loaded (compiled the first
    time), with progress; whether parts are left."""
    from agents.warm_kernels import prepare_part

    return prepare_part(part)


def start_early(settings) -> None:
    """Start the agent process now, as the arcade opens, and load the compiled kernels in it (about a second
    while the player is on the launcher), so an agent's first move does not wait for the process and them.
    The kernels load a part a call, the next part asked for when one is done (by a thread here), so a
    decision asked for meanwhile waits for one part (the 2048 searches come first), not for all."""
    first = _submit(_prepare, 0)
    threading.Thread(target=_prepare_the_rest, args=(_pool, first), daemon=True, name="prepare-kernels").start()


def _prepare_the_rest(pool: ProcessPoolExecutor, future: Future) -> None:
    part = 0
    try:
        while future.result():
            if pool is not _pool:  # (shut down, or broken and replaced: the next agent loads its own)
                return
            part += 1
            future = _tracked(pool.submit(_prepare, part))
    except Exception:  # (the process died or was shut down: a decision's own call reports that)
        return


def submit(key: tuple, game_id: str, name: str, rules, settings, method: str, state, seed: int) -> Future:
    """Run agent `name`'s `method` on `state` in the worker process (seeded with `seed`), as a Future.

    `key` names the instance there (one per controller, agent and rules version). Starts the process
    on first use, or after it died."""
    return _submit(_run, key, game_id, name, rules, settings, method, state, seed)


def _submit(fn, *args) -> Future:
    """fn(*args) in the worker process, started first if it is not running (or died)."""
    global _pool, _progress_queue
    for _attempt in range(2):
        if _pool is None:
            ctx = workers.context()
            _progress_queue = ctx.Queue(maxsize=1000)
            _pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=workers.start,
                                        initargs=(os.getpid(), _progress_queue))
        try:
            return _tracked(_pool.submit(fn, *args))
        except BrokenExecutor:
            _pool = None
    raise RuntimeError("the agent process could not be started")


def _tracked(future: Future) -> Future:
    _unfinished.add(future)
    future.add_done_callback(_unfinished.discard)
    return future


def idle() -> bool:
    """Whether nothing asked of the agent process is still to finish (a decision, a part of the kernels)."""
    return not any(not f.done() for f in list(_unfinished))


def forget_broken() -> None:
    """After a decision failed because the process died, start a fresh one next time."""
    global _pool
    if _pool is not None and getattr(_pool, "_broken", False):
        _pool = None


def shutdown() -> None:
    """Stop the worker now, even in the middle of a long decision (quitting must not wait)."""
    global _pool
    pool, _pool = _pool, None
    _unfinished.clear()  # (its calls are given up)
    if pool is None:
        return
    processes = list(getattr(pool, "_processes", {}).values())  # no public way to stop a busy worker
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.terminate()


# concurrent.futures joins its workers when the interpreter exits, waiting for a decision in flight;
# threading's exit hooks run in reverse order of registration, so this one runs first and stops them.
getattr(threading, "_register_atexit", atexit.register)(shutdown)
