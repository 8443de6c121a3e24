"""Agents for the runner's tests (tests/test_runner*.py), module-level so worker processes and Ray tasks
can build them by reference when the run's players are unpickled."""
from __future__ import annotations

import os
from pathlib import Path


class DiesOnce:
    """Plays like the agent it wraps, but the first time any process asks it for a move it kills that
    process (after leaving a mark, so the game played again lives): a worker lost mid-game."""

    def __init__(self, inner, mark: str | Path):
        self.inner, self.mark = inner, str(mark)
        self.name = inner.name

    def act(self, state, rng):
        if not os.path.exists(self.mark):
            Path(self.mark).touch()
            os._exit(17)
        return self.inner.act(state, rng)

    def figures(self) -> dict:
        return self.inner.figures()


class CountingLearner:
    """A learner that plays worse the more it has seen: its move depends on everything it has observed, so a
    game's result would depend on the games played before it in the same process, were it not reset."""

    name = "counting-learner"

    def __init__(self, rules):
        self.rules, self.seen, self.learning = rules, 0, True

    def observe(self, state) -> None:
        self.seen += 1

    def set_learning(self, on: bool) -> None:
        self.learning = on

    def is_learning(self) -> bool:
        return self.learning

    def act(self, state, rng):
        legal = self.rules.legal_actions(state)
        return legal[self.seen % len(legal)]
