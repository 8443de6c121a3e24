"""The agent process: where agents that compute for long stretches make their decisions.

A decision that takes tens or hundreds of milliseconds of Python in a thread
holds the GIL the frame loop needs, and frames come late. Agents registered
with `process=True` therefore decide in one shared worker process (spawned,
never forked: the parent has SDL threads). The process keeps the agents it
built, keyed by the controller's token and rules version, so an agent that
learns or builds tables across turns (q-rollouts, the dots solver) keeps them
there. Randomness crosses as a seed drawn from the controller's generator, so
a seeded game is still reproducible.

Training a learner from a screen (tic-tac-toe's `t`) runs the same way, in a
process of its own (`TrainingJob`), reporting progress through a queue and
saving the table there; the screen reloads it when the job says it is done.
"""
from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
import queue
from collections import OrderedDict
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor

import numpy as np

KEEP_AGENTS = 4  # built agents kept in the process (a 3x3 dots solver holds ~200 MB)

_pool: ProcessPoolExecutor | None = None
_agents: OrderedDict = OrderedDict()  # lives in the worker process


def _init_worker() -> None:
    """The frame loop must win a contended core: the agent process runs at a lower priority."""
    try:
        os.nice(5)
    except (AttributeError, OSError):  # not on this platform, or not allowed
        pass


def _run(key: tuple, game_id: str, name: str, rules, settings, method: str, state, seed: int):
    """Runs in the worker process: build (or reuse) the agent, then act / explain / nothing."""
    from agents import find
    from arcade.deciders import call

    agent = _agents.get(key)
    if agent is None:
        agent = find(game_id, name).create(rules, settings)
        _agents[key] = agent
        while len(_agents) > KEEP_AGENTS:
            _agents.popitem(last=False)
    _agents.move_to_end(key)
    return call(agent, method, state, np.random.default_rng(seed), rules)


def submit(key: tuple, game_id: str, name: str, rules, settings, method: str, state, seed: int) -> Future:
    """Run agent `name`'s `method` on `state` in the worker process (seeded with `seed`), as a Future.

    `key` names the instance there (one per controller, agent and rules version). Starts the process
    on first use, or after it died."""
    global _pool
    for attempt in range(2):
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_init_worker)
        try:
            return _pool.submit(_run, key, game_id, name, rules, settings, method, state, seed)
        except BrokenExecutor:
            _pool = None
    raise RuntimeError("the agent process could not be started")


def forget_broken() -> None:
    """After a decision failed because the process died, start a fresh one next time."""
    global _pool
    if _pool is not None and getattr(_pool, "_broken", False):
        _pool = None


def shutdown() -> None:
    """Stop the worker now, even in the middle of a long decision (quitting must not wait)."""
    global _pool
    pool, _pool = _pool, None
    if pool is None:
        return
    processes = list(getattr(pool, "_processes", {}).values())  # no public way to stop a busy worker
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.terminate()


def _train(results, stop, game_id: str, name: str, rules, settings, episodes: int, seed: int) -> None:
    """Runs in a training process: train, save, and report (progress, then one result)."""
    _init_worker()
    from arcade import notices

    from agents import find

    try:
        agent = find(game_id, name).create(rules, settings)
        agent.train(episodes, np.random.default_rng(seed), progress=lambda done: results.put(("progress", done)),
                    stop=stop)
        if agent.save():
            results.put(("result", (True, f"saved to {agent.default_path()}")))
        else:  # save() gave a notice saying why; in this process it reaches no screen, so pass it on
            said = notices.recent()
            results.put(("result", (False, said[-1] if said else "could not save")))
    except Exception as exc:  # reported on the screen; the game goes on
        results.put(("result", (False, f"{type(exc).__name__}: {exc}")))


class TrainingJob:
    """A learner's training in its own process. Call poll() every frame; `result` is set at the end."""

    def __init__(self, game_id: str, name: str, rules, settings, episodes: int, seed: int):
        ctx = multiprocessing.get_context("spawn")
        self.name = name
        self.total = episodes
        self.done = 0
        self.result: tuple[bool, str] | None = None  # (saved, message)
        self._results = ctx.Queue()
        self._stop = ctx.Event()
        self._process = ctx.Process(target=_train, name=f"train-{name}", daemon=True,
                                    args=(self._results, self._stop, game_id, name, rules, settings, episodes, seed))
        self._process.start()

    def poll(self) -> bool:
        """Take in what the process reported; True once it has finished."""
        while self.result is None:
            try:
                kind, value = self._results.get_nowait()
            except queue.Empty:
                if not self._process.is_alive() and self._results.empty():
                    self.result = (False, f"the training process ended unexpectedly (exit {self._process.exitcode})")
                break
            if kind == "progress":
                self.done = value
            else:
                self.result = value
        return self.result is not None

    def stop(self) -> None:
        """Ask for an early end: the process saves what it learnt so far and reports."""
        self._stop.set()

    def kill(self) -> None:
        """End it now, saving nothing (leaving the screen)."""
        if self._process.is_alive():
            self._process.terminate()


# concurrent.futures joins its workers when the interpreter exits, waiting for a decision in flight;
# threading's exit hooks run in reverse order of registration, so this one runs first and stops them.
getattr(threading, "_register_atexit", atexit.register)(shutdown)
