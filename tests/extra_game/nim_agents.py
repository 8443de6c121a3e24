"""Toy agents for the Nim test game (tests/test_extending.py): a trainer and a learner, registered by the
tests themselves, that show `t`, the learning curve, `l` and the `i` panel work on a screen that names
neither. Module-level classes, so the training process can build them by reference."""
from __future__ import annotations

import time
from pathlib import Path

from agents.base import best_action
from arcade.foundation.storage import load_json, save_json


class NimTrainer:
    """Learns Nim's winning rule by counting: after training it leaves a multiple of 4 when it can.
    Before training (no saved file) it takes one stone, always."""

    def __init__(self, rules, settings):
        self.rules = rules
        self.path = Path(settings.data_dir) / "nim_trainer.json"
        self.trained = int(load_json(self.path, {}).get("episodes", 0))

    @classmethod
    def default_episodes(cls, settings, game: str) -> int:
        return 400

    def default_path(self) -> Path:
        return self.path

    def explain(self, state) -> dict:
        good = (state.stones % 4) if self.trained >= 200 else 1
        return {k: float(k == good) for k in self.rules.legal_actions(state)}

    def value_legend(self, mover: str) -> str:
        return "1 for the move it has learnt to like"

    def act(self, state, rng):
        return best_action(self.explain(state), rng)

    def load(self, path) -> bool:
        self.trained = int(load_json(path, {}).get("episodes", 0))
        return True

    def train(self, episodes, rng, progress=None, from_scratch=False, stop=None, checkpoint=None, watch=None,
              jobs=1):
        if from_scratch:
            self.trained = 0
        for done in range(50, episodes + 1, 50):
            if stop is not None and stop.is_set():
                break
            self.trained += 50
            if watch is not None:  # a training game to draw beside the curve (by Nim's painter)
                state = self.rules.new_state()
                watch(self.rules.step(state, 1 + done // 50 % 3))
            time.sleep(0.02)  # a trainer that takes a moment, so the screen shows it working
            if progress:
                progress(done)
            if checkpoint and done % 100 == 0:
                # every other point measured by the host (results against random), the rest its own figures
                checkpoint(done) if done % 200 == 0 else checkpoint(done, {"won v random": min(1.0, done / 400),
                                                                            "lost v random": 0.0})

    def save(self, path=None) -> bool:
        return save_json(Path(path) if path else self.path, {"episodes": self.trained})


class NimLearner:
    """Counts the states it is shown while learning; says so when asked to describe itself."""

    def __init__(self, rules, settings):
        self.rules = rules
        self.learning = False
        self.seen: list = []

    def set_learning(self, on: bool) -> None:
        self.learning = on

    def is_learning(self) -> bool:
        return self.learning

    def observe(self, state) -> None:
        if self.learning:
            self.seen.append(state)

    def describe(self) -> list[str]:
        return [f"states seen while learning: {len(self.seen)}"]

    def act(self, state, rng):
        return self.rules.legal_actions(state)[0]
