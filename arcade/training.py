"""Training a learner off the frame loop, and the learning curve it draws. No pygame here.

Any agent that `Trains` (agents/base.py) is trained the same way from any
screen: a `TrainingJob` runs `agent.train` in a process of its own (pure-Python
learning in a thread would hold the interpreter lock the frames need), reports
progress and learning-curve points through a queue, saves the table there, and
says when it is done; the screen then rebuilds its agents from the new table.

A curve point is `(done, {series: value})`. A trainer that measures itself
passes its own figures to `checkpoint`; otherwise the training process measures
the agent as it is by playing games: in two-player games its shares of wins,
draws and losses against the weakest and the strongest other agent, half the
games on each side; in one-player games its mean score.
"""
from __future__ import annotations

import os
import time

import numpy as np

from arcade import workers
from arcade.ui.curve_series import RESULTS

CURVE_GAMES = 40  # games at each point of a measured learning curve (two players: per opponent, half a side)


def measure_results(game_id: str, name: str, rules, settings, agent, seed: int):
    """A function done -> {series: value} for the agent as it is (see the module docstring)."""
    from agents import agents_for
    from arcade.headless import summarize
    from arcade.runner import play_games

    if rules.players == 1:
        def mean_score(done: int) -> dict:
            records = play_games(rules, agent, None, CURVE_GAMES, seed + done, agent_seed=seed + done)
            return {"mean score": float(np.mean([r.score for r in records]))}
        return mean_score

    others = [s for s in agents_for(game_id) if s.name != name and s.cannot_play(rules) is None]
    opponents = {s.name: s.create(rules, settings) for s in dict.fromkeys([others[-1], others[0]]) if others}

    def results(done: int) -> dict:
        out = {}
        for opp_name, opp in opponents.items():
            r = summarize(play_games(rules, agent, opp, CURVE_GAMES, seed + done, agent_seed=seed + done))["results"]
            for label, key in zip(RESULTS, ("win", "draw", "loss"), strict=True):
                out[f"{label} v {opp_name}"] = r[key] / CURVE_GAMES
        return out

    return results


def read_curve_file(path) -> list[tuple[int, dict]]:
    """A learning curve written by `main.py train --curve` (lines "games,series,value"): its points
    (games done, {series: value}) in the order of the games; lines of another shape are skipped."""
    points: dict[int, dict] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.strip().split(",")
            if len(parts) == 3:
                try:
                    points.setdefault(int(parts[0]), {})[parts[1]] = float(parts[2])
                except ValueError:
                    continue
    return sorted(points.items())


def _train(results, stop, spec, rules, settings, episodes: int, seed: int, from_scratch: bool = False,
           parent: int | None = None) -> None:
    """Runs in a training process: train, save, and report (progress, curve points, then one result).
    The agent is built from its spec (its factory crosses by reference), so any registered agent trains."""
    workers.start(parent)
    from agents.base import CannotTrain, TrainingDiverged, resumed_at
    from arcade.foundation import notices

    try:
        agent = spec.create(rules, settings)
        workers.post(results, "resumed", resumed_at(agent, episodes, from_scratch))
        measure = measure_results(rules.game_id, spec.name, rules, settings, agent, seed)

        def checkpoint(done, figures=None):
            workers.post(results, "curve", (int(done), dict(figures) if figures is not None else measure(done)))

        done_games = [0]

        def progress(done):
            done_games[0] = done
            workers.post(results, "progress", done)

        from arcade.runner import default_jobs

        # on every core (a trainer that cannot parallelise ignores jobs): the window waits on this process alone
        agent.train(episodes, np.random.default_rng(seed), progress=progress, from_scratch=from_scratch, stop=stop,
                    checkpoint=checkpoint, watch=lambda state: workers.post(results, "watch", state),
                    jobs=default_jobs())
        if stop.is_set() and not done_games[0]:  # nothing learnt: the file and the agent stay as they were
            workers.post(results, "result", (None, "stopped before its first game finished: nothing learnt, "
                                                   "nothing saved (it plays as before)"))
        elif agent.save():  # (the line names what was saved, not where: `i` and the CLI say the file)
            workers.post(results, "result", (True, "what it learnt is saved and plays now"))
        else:  # save() gave a notice saying why; in this process it reaches no screen, so pass it on
            said = notices.recent()
            workers.post(results, "result", (False, said[-1] if said else "could not save"))
    except CannotTrain as exc:  # (said before any work: a library to install)
        workers.post(results, "result", (False, str(exc)))
    except TrainingDiverged as exc:  # nothing saved: the file keeps what was learnt before
        workers.post(results, "result", (False, f"training stopped: {exc}; nothing of it is saved"))
    except Exception as exc:  # reported on the screen; the game goes on
        workers.post(results, "result", (False, f"{type(exc).__name__}: {exc}"))


class TrainingJob:
    """A learner's training in its own process. Call poll() every frame; `result` is set at the end.

    In: the agent's spec (agents.base.AgentSpec), rules, settings, episodes, a seed, and whether to start
    from the initial values. Out (as it goes): done, curve, watched; at the end result = (saved, message), saved
    None where it stopped before anything was learnt (nothing to save: not a failure)."""

    def __init__(self, spec, rules, settings, episodes: int, seed: int, from_scratch: bool = False):
        ctx = workers.context()
        self.name = name = spec.name
        self.total = episodes
        self.done = 0
        self.resumed_at = 0  # the games of a stopped run of as many it goes on from (0: a run of its own)
        self.result: tuple[bool, str] | None = None  # (saved, message)
        self.curve: list[tuple[int, dict]] = []  # (episodes done, {series: value})
        self.watched = None  # the latest state of a training game the trainer showed (where it shows one)
        self.stopping_since: float | None = None  # time.monotonic() when stop() was asked
        self._results = ctx.Queue()
        self._stop = ctx.Event()
        self._process = ctx.Process(target=_train, name=f"train-{name}", daemon=True,
                                    args=(self._results, self._stop, spec, rules, settings, episodes, seed,
                                          from_scratch, os.getpid()))
        self._process.start()

    def poll(self) -> bool:
        """Take in what the process reported; True once it has finished."""
        alive = self._process.is_alive()  # (asked first: a process that ends now has sent all it will)
        for kind, value in workers.take(self._results) if self.result is None else ():
            if kind == "progress":
                self.done = value
            elif kind == "curve":
                self.curve.append(value)
            elif kind == "watch":
                self.watched = value
            elif kind == "resumed":
                self.resumed_at = value
            else:
                self.result = value
        if self.result is None and not alive:
            self.result = (False, f"the training process ended unexpectedly (exit {self._process.exitcode})")
        return self.result is not None

    def stop(self) -> None:
        """Ask for an early end: the process saves what it learnt so far and reports."""
        self._stop.set()
        if self.stopping_since is None:
            self.stopping_since = time.monotonic()

    def kill(self) -> None:
        """End it now, saving nothing (leaving the screen)."""
        if self._process.is_alive():
            self._process.terminate()
