"""Greedy baselines: the move with the best immediate result, per game."""
from __future__ import annotations

import numpy as np

from agents.base import register
from arcade.games.twenty48 import move_all


@register("greedy", ("2048",), "the move with the largest immediate score gain (ties: up, down, left, right)",
          order=60)
class Greedy2048:
    name = "greedy"

    def __init__(self, rules, settings=None):
        self.rules = rules

    def explain(self, state) -> dict[int, float]:
        _, gains, legal = move_all(state.board[None])
        return {d: float(state.score + gains[0, d]) for d in range(4) if legal[0, d]}

    def act(self, state, rng=None) -> int:
        values = self.explain(state)
        if not values:
            raise ValueError("no legal move in this state")
        return max(values, key=lambda d: (values[d], -d))
