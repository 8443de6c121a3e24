"""Who plays: the agent controller shared by every game screen.

It holds the agents registered for a game, which one is selected, whether it is
in control, and its move delay. Where the selected agent runs is a decider's
business (`arcade.deciders`: a worker thread, or the agent process for agents
registered with process=True); the controller only asks and collects.

Every toggle, switch, restart or undo bumps a generation counter. Each request
(`ask`) carries the generation it was made in, and `collect` drops an answer
from an older generation: that check lives here and nowhere else. An exception
inside an agent turns the agent off and is kept as a one-line error for the HUD.
"""
from __future__ import annotations

import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents import Decision, agents_for
from agents.base import choose
from arcade import agent_process
from arcade.deciders import ProcessDecider, ThreadDecider
from arcade.progress import ms_text
from arcade.seeds import make_rng

VALUES_READ_S = 0.4  # with the value view on, a decision's values show at least this long before its move
DELAY_STEPS_MS = (0, 25, 50, 100, 200, 400, 800, 1500, 3000, 5000)  # up to [agents] delay_ms's largest


@dataclass(frozen=True)
class Request:
    """A question put to an agent: its Future, and the generation and agent it was asked in."""

    future: Future
    generation: int
    agent: str
    started: float

    def done(self) -> bool:
        return self.future.done()


STALE = object()  # collect()'s answer to a request from an older generation


@dataclass
class Decided:
    """The last decision a controller collected: for which state, in which generation, by which agent, its
    Answer, and whether its move was played (the value view may still show it; it is not played twice)."""

    state: Any
    generation: int
    agent: str
    answer: Any
    played: bool = False
    at: float = 0.0  # when it was collected (the controller's clock)


def same_state(a, b) -> bool:
    """Equality of two game states (values), tolerant of states that do not compare."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:  # e.g. arrays compared elementwise
        return False


class Question:
    """One question at a time put to a controller's agent off the frame loop: the one request / done /
    collect / stale sequence, used by the controller's moves, the value view, the hint and the policy strip.

    ask(state, method, about=...) starts it (`about` is kept with it: the state or deck it concerns);
    poll() each frame returns None while nothing is ready (or the answer went stale and was dropped), else
    (answer, about) with answer an arcade.agent_call.Answer, or (exception, about) if the agent raised."""

    def __init__(self, controller: "AgentController", follows_moves: bool = True):
        """follows_moves False: the answer is not about the move in play (blackjack's strip is about the
        deck), so a new round or move does not make it stale; the caller checks `about` and the agent."""
        self.controller = controller
        self.follows_moves = follows_moves
        self.request: Request | None = None
        self.about = None

    @property
    def pending(self) -> bool:
        return self.request is not None

    def ask(self, state, method: str = "act", rng=None, about=None) -> None:
        self.request = self.controller.ask(state, method, rng)
        self.about = about

    def forget(self) -> None:
        self.request = None

    def poll(self):
        if self.request is None or not self.request.done():
            return None
        request, self.request = self.request, None
        try:
            answer = self.controller.collect(request, self.follows_moves)
        except Exception as exc:  # an agent bug: the caller shows it; the game goes on
            return exc, self.about
        return None if answer is STALE else (answer, self.about)

    @property
    def agent(self) -> str:
        """The agent the pending (or last) question was put to."""
        return self.request.agent if self.request is not None else ""


class AgentController:
    """Which agent a screen has selected (Tab cycles the game's registered agents; `names` narrows them, in
    that order), whether it is in control (Enter), its delay between moves, and its decisions: asked of the
    agent's worker off the frame loop, the answer taken when it comes (a stale one, asked before a change,
    is dropped); the last decision's time and figures for the panel."""

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
        self.last_figures: dict = {}  # of the last decision: the agent's own figures and its ms
        self.decisions = 0  # actions handed back (benchmarks count them)
        self._clock = clock
        self._move = Question(self)
        self.wants_values = False  # the value view is on: a move is asked as a decision with its values
        self._decided: Decided | None = None
        self._warming: Request | None = None
        self._ready_at = 0.0
        self._deciders = {False: ThreadDecider(game_id, rules, settings), True: ProcessDecider(game_id, rules, settings)}
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
        """Select agent `name` (UnknownAgent, a ValueError, if this game has none of that name)."""
        i = self.specs.index(choose(self.specs, name, self.game_id))
        if i != self.index:
            self.index = i
            self._forget_figures()
            self.invalidate()

    def cycle(self, step: int = 1) -> list[str]:
        """The next agent (or previous, step -1) that can play the current rules; returns the reasons of
        those skipped on the way (one line each)."""
        skipped = []
        for _ in range(len(self.specs)):
            self.index = (self.index + step) % len(self.specs)
            why = self.spec.cannot_play(self.rules)
            if why is None:
                break
            skipped.append(why)
        self.error = None
        self._forget_figures()
        self.invalidate()
        return skipped

    def _forget_figures(self) -> None:
        """Another agent: the last decision's figures were the previous agent's."""
        self.last_ms, self.last_figures = None, {}

    def _decider(self):
        return self._deciders[self.spec.process]

    def cached_agent(self, build: bool = False):
        """The selected agent if it lives in this process and is built (or `build`: built now), else None.

        Agents that decide in the agent process live there only: ask them with `ask(state, "explain")`."""
        decider = self._decider()
        if build and isinstance(decider, ThreadDecider):
            return decider.agent(self.spec)
        return decider.instance(self.spec)

    def warm_up(self) -> Request:
        """Build the selected agent now, off the frame loop, so its first move or values come quickly; the
        status says it is getting ready until it is built (a policy iteration solving, a table loading)."""
        self._warming = self.ask(None, "build")
        return self._warming

    def warm_up_if_heavy(self) -> None:
        """Agents that decide in the agent process start there now (a table loads before the first move)."""
        if self.spec.process:
            self.warm_up()

    def keep_playable(self, rules, role: str = "agent") -> str | None:
        """After new rules: if the selected agent cannot play them, select the next one that can and return the
        line that says why (None when it could); a heavy agent starts loading now, not on its first move."""
        why = self.spec.cannot_play(rules)
        if why:
            self.cycle(1)
        self.warm_up_if_heavy()
        return f"{why}; the {role} is now {self.name}" if why else None

    @property
    def getting_ready(self) -> float | None:
        """Seconds the selected agent has been building, if its build is still running."""
        w = self._warming
        if w is None or w.done() or w.agent != self.name:
            return None
        return self._clock() - w.started

    def set_rules(self, rules) -> None:
        """New rules (e.g. another board size): agents are rebuilt on next use."""
        self.rules = rules
        for decider in self._deciders.values():
            decider.reset(rules)
        self.invalidate()

    def set_settings(self, settings) -> None:
        """New settings (an agent's parameter changed on screen): agents are rebuilt from them on next use."""
        self.settings = settings
        for decider in self._deciders.values():
            decider.settings = settings
        self.set_rules(self.rules)

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
        """Forget any decision in flight or made (after a toggle, switch, restart or undo)."""
        self.generation += 1
        self._move.forget()
        self._decided = None
        self._ready_at = 0.0

    @property
    def thinking(self) -> bool:
        request = self._move.request
        return request is not None and request.generation == self.generation

    def progress(self):
        """The progress of long work the selected agent is doing now (a TaskProgress), or None."""
        if not self.spec.process:
            return None
        return agent_process.latest_progress(self.name)

    def status(self, plays: str | None = None) -> str:
        """What the agent is doing, in a few words. plays: the seat it plays while the person plays the other
        (tic-tac-toe's opponent): it is not "off" then, and the words say which seat it plays."""
        if self.error:
            return f"error: {self.error}"
        ready = self.getting_ready
        if ready is not None and ready > 0.3:  # a policy iteration solving, a table loading
            doing = f"getting ready ({ready:.0f} s)"
        elif self.thinking:
            elapsed = self._clock() - self._move.request.started
            # built inside its first move (a network loading): not thinking yet
            doing = f"getting ready ({elapsed:.0f} s)" if self.progress() is not None else \
                f"thinking {int(elapsed * 1000)} ms"
        elif not self.enabled and not plays:
            return "off"
        else:
            doing = f"waiting (last {ms_text(self.last_ms)})" if self.last_ms is not None else "waiting"
        return f"plays {plays}, {doing}" if plays and not self.enabled else doing

    # --- asking the agent --------------------------------------------------
    def ask(self, state, method: str = "act", rng: np.random.Generator | None = None) -> Request:
        """Start the selected agent's `method` ("act", "explain", "build") on `state` where it runs.

        rng: the Generator of a decision (default: the controller's own)."""
        future = self._decider().run(self.spec, method, state, self.rng if rng is None else rng)
        return Request(future, self.generation, self.name, self._clock())

    def collect(self, request: Request, follows_moves: bool = True) -> Any:
        """The Answer (arcade.agent_call) of a finished request, or STALE if the generation moved on.

        An exception inside the agent is raised here; after a crash of the agent process the next
        request starts a fresh one."""
        if request.generation != self.generation and follows_moves:
            return STALE
        try:
            return request.future.result()
        except Exception:
            agent_process.forget_broken()
            raise

    def poll(self, state, active: bool | None = None):
        """Call every frame while the agent may move in `state`; returns its action once ready.

        `active` says whether the agent plays now; by default, whether it is in control. Two-player
        screens pass True on the opponent's turns, where the agent always plays. The decision is asked at
        once; its move is played once the delay since the last move has passed. With the value view on it is
        asked as a decision with its values ("decide"), which the view shows: the values, figures and move
        of one search, shown VALUES_READ_S at least before the move is played."""
        if not (self.enabled if active is None else active):
            return None
        got = self._move.poll()
        if got is not None:
            answer, asked = got
            if isinstance(answer, Exception):  # an agent bug must not take the game down
                self.error = f"{self.name} failed: {type(answer).__name__}: {answer}"
                self.enabled = False
                self.invalidate()
                return None
            self.last_ms = (self._clock() - asked[1]) * 1000
            self._decided = Decided(asked[0], self.generation, self.name, answer, at=self._clock())
        decided = self.decision_for(state)
        if decided is None or self._decided.played:
            if not self._move.pending:
                self._move.ask(state, "decide" if self.wants_values else "act", about=(state, self._clock()))
            return None
        if self._clock() < self._ready_at:
            return None
        if self.wants_values and self._clock() < self._decided.at + VALUES_READ_S:
            return None  # (a move made at once would replace the values before they are drawn: "..." only)
        self._decided.played = True
        self.last_figures = {**decided.figures, "ms": decided.ms}
        self.decisions += 1
        self._ready_at = self._clock() + self.delay_ms / 1000
        return decided.value.action if isinstance(decided.value, Decision) else decided.value

    def adopt(self, state, agent: str, answer) -> None:
        """A decision of `agent` asked elsewhere for `state` (the tree view's, with its tree): while `agent` is
        selected, the one the value view shows and, where the agent is to move in `state`, the move it plays."""
        if agent == self.name and isinstance(answer.value, Decision):
            self._move.forget()  # (a decision of its own in flight would be a second search of the state)
            self._decided = Decided(state, self.generation, self.name, answer, at=self._clock())

    def decision_for(self, state):
        """The Answer of the last decision collected for `state` by the selected agent in this generation
        (played or about to be), or None."""
        d = self._decided
        if d is None or d.generation != self.generation or d.agent != self.name:
            return None
        return d.answer if same_state(d.state, state) else None

    def close(self) -> None:
        self.invalidate()
        for decider in self._deciders.values():
            decider.close()
