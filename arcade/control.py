"""Who plays: the agent controller shared by every game screen.

It holds the agents registered for a game, which one is selected, whether it is
in control, and its move delay. `poll` starts `act` in a worker thread and
hands back the decision when it is ready, so the frame loop never waits; agents
registered with process=True decide in the agent process instead (no GIL shared
with the frame loop). Every
toggle, switch, restart or undo bumps a generation counter; a decision that
comes back from an older generation is dropped. An exception inside an agent
turns the agent off and is kept as a one-line error for the HUD.
"""
from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from agents import agents_for
from arcade import agent_process

DELAY_STEPS_MS = (0, 25, 50, 100, 200, 400, 800, 1500)


def make_rng(seed: int) -> np.random.Generator:
    """A Generator from a settings seed; -1 means fresh entropy."""
    return np.random.default_rng(None if seed < 0 else seed)


class AgentController:
    def __init__(self, game_id: str, rules, settings, agent: str | None = None, clock=time.perf_counter,
                 names: tuple[str, ...] | None = None):
        self.game_id = game_id
        self.rules = rules
        self.settings = settings
        self.specs = [s for s in agents_for(game_id) if names is None or s.name in names]
        if names is not None:
            self.specs.sort(key=lambda s: names.index(s.name))
        if not self.specs:
            raise ValueError(f"no agent is registered for {game_id}")
        self.index = 0
        self.enabled = False
        self.delay_ms = settings.agents.delay_ms
        self.generation = 0
        self.rng = make_rng(settings.seeds.agent)
        self.error: str | None = None
        self.last_ms: float | None = None
        self.decisions = 0  # actions handed back (benchmarks count them)
        self._clock = clock
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"agent-{game_id}")
        self._future: Future | None = None
        self._future_generation = -1
        self._started = 0.0
        self._ready_at = 0.0
        self._instances: dict[str, object] = {}
        self._instances_lock = threading.Lock()
        self._token = uuid.uuid4().hex  # names this controller's agents in the agent process
        self._rules_version = 0
        if agent is not None:
            self.select(agent)

    # --- which agent -------------------------------------------------------
    @property
    def spec(self):
        return self.specs[self.index]

    @property
    def name(self) -> str:
        return self.spec.name

    def select(self, name: str) -> None:
        for i, spec in enumerate(self.specs):
            if spec.name == name:
                if i != self.index:
                    self.index = i
                    self.invalidate()
                return
        known = ", ".join(s.name for s in self.specs)
        raise ValueError(f"unknown agent '{name}' for {self.game_id}; choose one of: {known}")

    def cycle(self, step: int = 1) -> None:
        self.index = (self.index + step) % len(self.specs)
        self.error = None
        self.invalidate()

    def agent(self):
        """The selected agent instance (built once per rules; may be slow, so called in the worker)."""
        with self._instances_lock:
            inst = self._instances.get(self.name)
            if inst is None:
                inst = self.spec.create(self.rules, self.settings)
                self._instances[self.name] = inst
            return inst

    def cached_agent(self):
        """The selected agent if already built, else None (never blocks the frame loop)."""
        return self._instances.get(self.name)

    def set_rules(self, rules) -> None:
        """New rules (e.g. another board size): agents are rebuilt on next use."""
        self.rules = rules
        self._rules_version += 1
        with self._instances_lock:
            self._instances.clear()
        self.invalidate()

    # --- control -----------------------------------------------------------
    def set_enabled(self, on: bool) -> None:
        if on != self.enabled:
            self.enabled = on
            if on:
                self.error = None
            self.invalidate()

    def toggle(self) -> None:
        self.set_enabled(not self.enabled)

    def change_delay(self, direction: int) -> None:
        steps = DELAY_STEPS_MS
        if direction > 0:
            self.delay_ms = next((d for d in steps if d > self.delay_ms), steps[-1])
        else:
            self.delay_ms = next((d for d in reversed(steps) if d < self.delay_ms), steps[0])
        self._ready_at = min(self._ready_at, self._clock() + self.delay_ms / 1000)

    def invalidate(self) -> None:
        """Forget any decision in flight (after a toggle, switch, restart or undo)."""
        self.generation += 1
        self._future = None
        self._ready_at = 0.0

    @property
    def thinking(self) -> bool:
        return self._future is not None and self._future_generation == self.generation

    def status(self) -> str:
        if self.error:
            return f"error: {self.error}"
        if self.thinking:
            return f"thinking {int((self._clock() - self._started) * 1000)} ms"
        if not self.enabled:
            return "off"
        if self.last_ms is not None:
            return f"waiting (last move {self.last_ms:.0f} ms)"
        return "waiting"

    def poll(self, state, active: bool | None = None):
        """Call every frame while the agent may move in `state`; returns its action once ready.

        `active` says whether the agent plays now; by default, whether it is in control. Two-player
        screens pass True on the opponent's turns, where the agent always plays.
        """
        if not (self.enabled if active is None else active):
            return None
        now = self._clock()
        if self._future is None:
            if now >= self._ready_at:
                self._submit(state, now)
            return None
        if not self._future.done():
            return None
        future, self._future = self._future, None
        if self._future_generation != self.generation:
            return None
        try:
            action = future.result()
        except Exception as exc:  # an agent bug must not take the game down
            agent_process.forget_broken()
            self.error = f"{self.name} failed: {type(exc).__name__}: {exc}"
            self.enabled = False
            self.invalidate()
            return None
        self.last_ms = (self._clock() - self._started) * 1000
        self.decisions += 1
        self._ready_at = self._clock() + self.delay_ms / 1000
        return action

    def _submit(self, state, now: float) -> None:
        self._started = now
        self._future_generation = self.generation
        self._future = self.decide(state, self.rng)

    def decide(self, state, rng) -> Future:
        """The selected agent's action in `state`, computed off the frame loop (a Future)."""
        spec = self.spec
        if spec.process:
            key = (self._token, spec.name, self._rules_version)
            seed = int(rng.integers(2**63))
            return agent_process.submit(key, self.game_id, spec.name, self.rules, self.settings, state, seed)
        return self._executor.submit(lambda: self.agent().act(state, rng))

    def run_in_worker(self, fn):
        """Run fn in this controller's worker (e.g. a hint); returns its Future."""
        return self._executor.submit(fn)

    def close(self) -> None:
        self.invalidate()
        self._executor.shutdown(wait=False, cancel_futures=True)
