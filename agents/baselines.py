"""Baseline agents that work on every game through the rules protocol."""
from __future__ import annotations

from agents.base import register
from arcade.games import GAME_IDS


@register("random", GAME_IDS, "a uniformly random legal move (the baseline)", order=90)
class RandomAgent:
    name = "random"

    def __init__(self, rules, settings=None):
        self.rules = rules

    def act(self, state, rng):
        actions = self.rules.legal_actions(state)
        if not actions:
            raise ValueError("no legal move in this state")
        return actions[int(rng.integers(len(actions)))]
