"""A Q table keyed by observation, as tabular Q-learning fills it, kept in a versioned .npz (written
atomically). Trained through the Gymnasium environments (examples/train_blackjack_q.py) and played by an
arcade agent (agents/gym_blackjack_q.py) without importing the environments. No pygame, no Gymnasium.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from arcade.foundation.storage import load_npz, save_npz

FORMAT_VERSION = 1


def observation_key(observation) -> str:
    """A canonical, hashable text of an observation (an array or a dict of arrays and numbers)."""
    if isinstance(observation, dict):
        return ";".join(f"{k}={observation_key(observation[k])}" for k in sorted(observation))
    return json.dumps(np.asarray(observation).tolist())


class TabularQ:
    """Q values per observation (rows of n_actions), plus what they were trained on (`meta`)."""

    def __init__(self, n_actions: int, meta: dict | None = None):
        self.n_actions = n_actions
        self.meta = dict(meta or {})
        self.table: dict[str, np.ndarray] = {}

    def values(self, observation) -> np.ndarray:
        """The row of Q values of an observation (a live row, zeros for one never seen)."""
        key = observation_key(observation)
        row = self.table.get(key)
        if row is None:
            row = self.table[key] = np.zeros(self.n_actions)
        return row

    def known(self, observation) -> bool:
        return observation_key(observation) in self.table

    def greedy(self, observation, action_mask) -> int:
        """The legal action of largest Q (the first of equal values)."""
        q = np.where(np.asarray(action_mask) > 0, self.values(observation), -np.inf)
        return int(np.argmax(q))

    def save(self, path: str | Path) -> bool:
        """Write the table atomically; False (with a notice) if it could not be written."""
        keys = sorted(self.table)
        values = np.array([self.table[k] for k in keys]).reshape(len(keys), self.n_actions)
        return save_npz(path, FORMAT_VERSION, keys=np.array(keys, dtype=str), values=values,
                        meta=np.array(json.dumps(self.meta)))

    @classmethod
    def load(cls, path: str | Path, then: str = "starting fresh") -> "TabularQ | None":
        """A saved table, or None if there is none (a broken file is set aside with a notice)."""
        arrays = load_npz(path, FORMAT_VERSION, required=("keys", "values", "meta"), then=then)
        if arrays is None:
            return None
        values = arrays["values"]
        q = cls(values.shape[1] if values.ndim == 2 else 0, json.loads(str(arrays["meta"])))
        q.table = {str(k): row.astype(float) for k, row in zip(arrays["keys"], values, strict=True)}
        return q
