"""Baseline agents that work on every game through the rules protocol."""
from __future__ import annotations

from agents.base import ANY_GAME, register


@register("random", ANY_GAME, "a uniformly random legal move (the baseline)", order=90,
          about="It picks one of the legal moves at random, each as likely as the others. It knows nothing and "
                "plans nothing: any agent worth the name should beat it.", title="Random moves")
class RandomAgent:
    """A uniformly random legal action, drawn from the Generator it is given: plays every game."""

    name = "random"

    def __init__(self, rules, settings):
        self.rules = rules

    def act(self, state, rng):
        actions = self.rules.legal_actions(state)
        if not actions:
            raise ValueError("no legal move in this state")
        return actions[int(rng.integers(len(actions)))]
