"""Every kernel compiled (or loaded from numba's cache) before anything needs it: `python -m
agents.warm_kernels`, run by `make test`, beside the window as it opens (make run and the installed arcade:
arcade/kernel_warmup.py), and a part a call by the arcade's agent process as it starts (what first moves
need). The steps are what the engines declare for their own kernels (agents/engines: each engine's
warm_steps) and what the agent modules that call kernels declare beside them (agents.base.declare_warm_up),
game by game in the engines' order.
"""
from __future__ import annotations

import functools
import time

from agents.base import warm_ups
from agents.engines import engines
from agents.engines.compiled import warm
from agents.engines.progress import set_progress_sink


SLOW_STEP_S = 2.0  # a step that has run this long is compiling (one loaded from the cache takes milliseconds)
SAY_EVERY_S = 5.0  # then a line this often while a step compiles
NEVER_QUIET_S = 10.0  # and never longer than this without one, however the time splits into steps


class StepLines:
    """A progress sink (report_progress's, fed once a step and once a second by compiled.warm) that prints
    a terminal line when kernels are compiling: a step running SLOW_STEP_S, then every SAY_EVERY_S, never
    NEVER_QUIET_S without one, and a last line when it ends. A first `make run` (a minute idle, half an hour
    on a loaded machine) is never a blank terminal; a run whose kernels load from the cache prints nothing."""

    def __init__(self, label: str, out=None, clock=time.monotonic):
        import sys

        self.label, self.out, self.clock = label, out or sys.stdout, clock
        self.start = self.said_at = clock()
        self.step, self.step_at, self.spoke = -1.0, self.start, False

    def __call__(self, task: str, done: float, total: float, detail: str = "") -> None:
        now = self.clock()
        done = int(done)  # (the bar creeps within a step; a step is a whole number)
        if done != self.step:
            self.step, self.step_at = done, now
        finished = done >= total
        slow = now - self.step_at >= SLOW_STEP_S and now - self.said_at >= (SAY_EVERY_S if self.spoke else 0)
        if not (slow or now - self.said_at >= NEVER_QUIET_S or (finished and self.spoke)):
            return
        self.said_at, self.spoke = now, True
        where = "done" if finished else f"kernel {int(done) + 1} of {int(total)}"
        print(f"  compiling the {self.label} kernels (the first time only): {where}, "
              f"{now - self.start:.0f} s", file=self.out, flush=True)


def prepare_all(playing_only: bool = False, jobs: int = 1, say: bool = False) -> float:
    """Compile (or load from the cache) every kernel with the argument types the agents use (with `playing_only`,
    those first moves use, not the learners' or the playouts' that their agents load as they are made);
    returns the seconds it took. With jobs > 1, `jobs` processes take the game groups (groups_of: games that
    share kernels together) one after another as each finishes one, in the engines' order; then, where
    something compiled, a fresh process loads them all and compiles now, not at the next start, anything
    two processes writing one cache index at once left out.
    `python -m agents.warm_kernels` runs it: the Makefile does before the tests start, the window beside it
    as it opens, so the first window and every test process find the kernels compiled."""
    start = time.perf_counter()
    if jobs <= 1:
        if say:
            set_progress_sink(StepLines(_names(range(len(engines())))))
        warm([step for _, step in _steps(playing_only)])
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        spawn = multiprocessing.get_context("spawn")
        groups = groups_of()
        with ProcessPoolExecutor(max_workers=min(jobs, len(groups)), mp_context=spawn) as pool:
            parts = [pool.submit(_prepare_places, playing_only, places, say) for places in groups]
            longest = max(part.result() for part in parts)
        if longest > SLOW_STEP_S:  # something compiled: a fresh process checks every kernel loads
            with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
                pool.submit(prepare_all, playing_only, 1, say).result()
    return time.perf_counter() - start


def _names(indices) -> str:
    """The games of the engines at these places, as the terminal lines name them."""
    names = [engines()[i].game for i in indices]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]


def groups_of() -> list[list[int]]:
    """The games' places in groups one process prepares, in the engines' order: games whose engines have a
    compiled tree share its kernels (one cache index a kernel, which two processes writing at once would lose
    entries of), so they form one group; every other game is a group of its own."""
    groups: dict = {}
    for place, engine in enumerate(engines()):
        groups.setdefault("tree" if hasattr(engine.api(), "compiled_tree") else engine.game, []).append(place)
    return list(groups.values())


def _prepare_places(playing_only: bool, places: list[int], say: bool = False) -> float:
    """The steps of the games at `places`; returns the longest step's seconds."""
    if say:
        set_progress_sink(StepLines(_names(places)))
    return warm([step for of, step in _steps(playing_only) if of in places])


def prepare_part(part: int) -> bool:
    """Step `part` of prepare_all(playing_only=True) (the games in their order); whether steps are left. The
    arcade's agent process runs the steps one call each as the arcade opens, so a first move asked for
    meanwhile waits for the step loading, not for every kernel."""
    steps = [step for _, step in _steps(True)]
    warm(steps[part:part + 1], part, len(steps))
    return part + 1 < len(steps)


ENGINE_ORDER = 50  # where an engine's own steps come among its game's declared warm-ups


@functools.lru_cache(maxsize=2)
def _steps(playing_only: bool) -> list:
    """prepare_all's steps, game by game in the engines' order: (the game's place, a callable that makes tiny
    kernel calls); within a game, the agents' declared warm-ups and the engine's own by their order."""
    out = []
    for place, engine in enumerate(engines()):
        parts = [(w.order, w.steps) for w in warm_ups(engine.game)]
        parts.append((ENGINE_ORDER, engine.api().warm_steps))
        for _, steps in sorted(parts, key=lambda p: p[0]):
            out += [(place, step) for step in steps(playing_only)]
    return out


if __name__ == "__main__":
    import os
    import sys

    quiet = "--quiet" in sys.argv[1:]  # (beside the window: lines only while something compiles)
    if not quiet:
        print("getting the agents' compiled kernels ready (numba keeps them: only a first run compiles)", flush=True)
    took = prepare_all(jobs=os.cpu_count() or 1, say=True)
    if not quiet or took > SLOW_STEP_S:
        print(f"the compiled kernels are ready ({took:.1f} s)", flush=True)
