"""The value view every game screen shares: what the selected agent believes of the state on screen.

`v` turns it on. Each frame the screen hands it the state it shows (None when
the game is over); when that state or the agent changes, it takes the agent's
decision there (agents.decide: the move and the values it was chosen on, from one
search): the one the agent makes to move, where the agent is to move, else one
asked off the frame loop (the agent's thread or process); it keeps the last
answer for that state and agent until a new one arrives. A stale
answer (another generation, state or agent) is dropped. It works on the human's
turn too: a person can ask the agent's opinion before moving. The screens only
draw `values`; how they look differs per game.
"""
from __future__ import annotations

from agents import Decision, Explains
from agents.base import best_action
from arcade.control import Question, same_state
from arcade.progress import ms_text
from arcade.seeds import make_rng
from arcade.numbers import number, numbers_for


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
        self.action = None  # the move the decision chose on them
        self._answer = None  # the Answer they came from
        self._question = Question(controller)
        self._rules = None  # the rules the values were worked out for
        self._format = number  # how a value of them is written (numbers_for: their set's one format)
        self._seed = controller.settings.seeds.agent  # the decisions asked here draw as `decide` does (no move
        #                                               follows them: looking changes no game)

    def toggle(self) -> bool:
        self.on = not self.on
        c = self.controller
        c.wants_values = self.on
        if self.on and c.thinking:  # a move asked without its values: asked again as a decision that has them
            c.invalidate()
        return self.on

    @property
    def explains(self) -> bool:
        """Whether the selected agent has values at all."""
        return self.controller.spec.can(Explains)

    @property
    def pending(self) -> bool:
        return self._question.pending

    def best(self) -> set:
        """The actions to mark as the agent's choice: the move its decision chose and those of equal value
        (an empty set without values). Where it chose a move that is not the largest (mcts plays its most
        visited move; a learner explores), that move alone."""
        if not self.values:
            return set()
        chosen = self.choice()
        return {a for a, v in self.values.items() if v == self.values.get(chosen)} or {chosen}

    def choice(self):
        """The one action the decision played or would play; None without values."""
        if not self.values:
            return None
        return self.action if self.action in self.values else best_action(self.values)

    def number(self, v: float) -> str:
        """A value of the decision shown, in the one format of its set (arcade.ui.text.numbers_for): the board,
        the tree and the replay write a value alike, to the digits that tell the moves apart."""
        return self._format(v)

    def current(self, state) -> dict | None:
        """The values if they are of `state` and of the selected agent, else None."""
        if self.values is None or self.agent != self.controller.name or not same_state(self.state, state):
            return None
        return self.values

    def refresh(self, state, agent_moves: bool = False) -> None:
        """Call every frame with the state on screen (None: nothing to explain); agent_moves: the selected agent
        is to move in it (its own decision there is awaited and shown, not a second search asked)."""
        c, q = self.controller, self._question
        c.wants_values = self.on
        agent = q.agent
        got = q.poll()
        if got is not None:
            answer, (asked_state, asked_rules) = got
            if isinstance(answer, Exception):  # an agent bug shows as a line; the game goes on
                self.error = f"{agent} could not explain: {type(answer).__name__}: {answer}"
                self.values, self.agent, self.state, self._rules = None, agent, asked_state, asked_rules
                return
            if agent == c.name and asked_rules is c.rules:
                self._take(answer, asked_state, agent)
        if not self.on or state is None or not self.explains:
            return
        decided = c.decision_for(state)  # the agent's own decision there (its move is, or was, this one)
        if decided is not None and isinstance(decided.value, Decision) and decided is not self._answer:
            self._take(decided, state, c.name)
            q.forget()
        elif self.wants(state) and not q.pending and not agent_moves:
            q.ask(state, "decide", rng=make_rng(self._seed), about=(state, c.rules))

    def _take(self, answer, state, agent: str) -> None:
        self._answer = answer
        decision = answer.value
        self.values, self.action = decision.values, decision.action
        self._format = numbers_for((self.values or {}).values())  # (once a decision, not once a value a frame)
        self.figures, self.ms, self.legend = answer.figures, answer.ms, answer.legend
        self.state, self.agent, self.error = state, agent, None
        self._rules = self.controller.rules

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
        name = self.controller.spec.shown  # (its title, as the HUD names it)
        if not self.explains:
            return f"{name} has no values to show (it does not explain its moves)"
        if self.error:
            return self.error
        if shown_state is None:
            return f"{name}: no values, nothing is left to decide (the game or round is over)"
        if self.values is None or self.agent != self.controller.name:
            return f"{name} is working out its values..."  # never the previous agent's figures
        return f"{name}: {self.caption()}"

    def forget(self) -> None:
        """Drop what is known (after new rules, a retrained table): the next refresh asks again."""
        self.values, self.state, self.agent, self.error, self.action, self._answer = None, None, None, None, None, None
        self._question.forget()


def _fmt(v) -> str:
    return f"{v:,}" if isinstance(v, int) else (number(v) if isinstance(v, float) else str(v))
