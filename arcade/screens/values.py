"""The value view every game screen shares: what the selected agent believes of the state on screen.

`v` turns it on. Each frame the screen hands it the state it shows (None when
the game is over); when that state or the agent changes, it asks the agent to
explain the state off the frame loop (the agent's thread or process), and keeps
the last answer for that state and agent until a new one arrives. A stale
answer (another generation, state or agent) is dropped. It works on the human's
turn too: a person can ask the agent's opinion before moving. The screens only
draw `values`; how they look differs per game.
"""
from __future__ import annotations

from agents import Explains
from agents.base import best_action
from arcade.control import Question
from arcade.progress import ms_text
from arcade.ui.text import number


def same_state(a, b) -> bool:
    """Equality of two game states (values), tolerant of states that do not compare."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:  # e.g. arrays compared elementwise
        return False


class ValueView:
    """Values of the selected agent for one state: values {action: value}, figures, ms; or why none."""

    def __init__(self, controller):
        self.controller = controller
        self.on = False
        self.values: dict | None = None  # of `state`, by `agent`
        self.figures: dict = {}
        self.ms: float | None = None
        self.legend = ""
        self.state = None
        self.agent: str | None = None
        self.error: str | None = None
        self._question = Question(controller)
        self._rules = None  # the rules the values were worked out for

    def toggle(self) -> bool:
        self.on = not self.on
        return self.on

    @property
    def explains(self) -> bool:
        """Whether the selected agent has values at all."""
        return self.controller.spec.can(Explains)

    @property
    def pending(self) -> bool:
        return self._question.pending

    def best(self) -> set:
        """The actions with the largest value (what the agent would choose), or an empty set."""
        if not self.values:
            return set()
        top = max(self.values.values())
        return {a for a, v in self.values.items() if v == top}

    def choice(self):
        """The one action the agent's values pick: the largest, ties to the first listed (agents list their
        actions in their tie-break order); None without values."""
        return best_action(self.values) if self.values else None

    def current(self, state) -> dict | None:
        """The values if they are of `state` and of the selected agent, else None."""
        if self.values is None or self.agent != self.controller.name or not same_state(self.state, state):
            return None
        return self.values

    def refresh(self, state) -> None:
        """Call every frame with the state on screen (None: nothing to explain)."""
        c, q = self.controller, self._question
        agent = q.agent
        got = q.poll()
        if got is not None:
            answer, (asked_state, asked_rules) = got
            if isinstance(answer, Exception):  # an agent bug shows as a line; the game goes on
                self.error = f"{agent} could not explain: {type(answer).__name__}: {answer}"
                self.values, self.agent, self.state, self._rules = None, agent, asked_state, asked_rules
                return
            if agent == c.name and asked_rules is c.rules:
                self.values, self.figures, self.ms, self.legend = answer.value, answer.figures, answer.ms, answer.legend
                self.state, self.agent, self.error = asked_state, agent, None
                self._rules = asked_rules
        if q.pending or not self.wants(state):
            return
        q.ask(state, "explain", about=(state, c.rules))

    def wants(self, state) -> bool:
        """Whether values of `state` are to be asked for: on, an agent that explains, and none known for it
        yet (a failure records its agent and state too, so a failing agent is not asked again and again).
        The screen stays awake while this holds: the question is put on the next frame."""
        c = self.controller
        if not self.on or state is None or not self.explains:
            return False
        return not (self.agent == c.name and self._rules is c.rules and same_state(self.state, state))

    def caption(self) -> str:
        """One line of the decision's figures: 'depth 3, positions 12,480, 84 ms'."""
        parts = [f"{k} {_fmt(v)}" for k, v in self.figures.items()]
        if self.ms is not None:
            parts.append(ms_text(self.ms))
        return ", ".join(parts)

    def shown(self, state) -> dict | None:
        """The values of `state` to draw: known and the view on, else None."""
        return self.current(state) if self.on else None

    def status(self, shown_state) -> str:
        """One line about the values shown for `shown_state` (None: nothing is left to decide): their figures,
        or why there are none."""
        name = self.controller.name
        if not self.explains:
            return f"{name} has no values to show (it does not explain its moves)"
        if self.error:
            return self.error
        if shown_state is None:
            return f"{name}: no values, nothing is left to decide (the game or round is over)"
        if self.values is None or self.agent != name:
            return f"{name} is working out its values..."  # never the previous agent's figures
        return f"{name}: {self.caption()}"

    def forget(self) -> None:
        """Drop what is known (after new rules, a retrained table): the next refresh asks again."""
        self.values, self.state, self.agent, self.error = None, None, None, None
        self._question.forget()


def _fmt(v) -> str:
    return f"{v:,}" if isinstance(v, int) else (number(v) if isinstance(v, float) else str(v))
