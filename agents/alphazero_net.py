"""The AlphaZero agent's network: what it computes, its weights in numpy, and its file.

A position's features (the engine's `features`: agents/engines/puct_kernels.py) go through two ReLU layers;
a policy head gives a logit a move, made priors by a softmax over the legal moves; a value head gives the
mover's expected result, tanh of a sum, in [-1, 1]:

    h1 = relu(x w1 + b1)    h2 = relu(w2 h1 + b2)    priors = softmax_legal(wp h2 + bp)    v = tanh(wv h2 + bv)

The weights are the arrays NAMES (w1: inputs x h1, w2: h2 x h1, wp: moves x h2, wv: h2, bv: 1). Three
computations of it are held equal by tests: `Network.forward` here (numpy, a batch), the compiled one in the
tree (agents/engines/puct_kernels.forward) and the learner's (agents/alphazero_training.py, JAX).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from arcade.foundation.notices import notice
from arcade.foundation.storage import load_npz, save_npz, set_aside

NAMES = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
FORMAT_VERSION = 1


def shapes(n_features: int, n_moves: int, hidden: tuple[int, int]) -> dict[str, tuple[int, ...]]:
    """Each weight array's shape."""
    h1, h2 = hidden
    return {"w1": (n_features, h1), "b1": (h1,), "w2": (h2, h1), "b2": (h2,), "wp": (n_moves, h2), "bp": (n_moves,),
            "wv": (h2,), "bv": (1,)}


class Network:
    """A network's weights (float32, as the learner keeps them) and its shape. `args()`: the compiled tree's
    tuple (float64), made once."""

    def __init__(self, weights: dict[str, np.ndarray]):
        self.weights = {k: np.ascontiguousarray(weights[k], np.float32) for k in NAMES}
        self.n_features, h1 = self.weights["w1"].shape
        self.n_moves, h2 = self.weights["wp"].shape
        self.hidden = (h1, h2)
        want = shapes(self.n_features, self.n_moves, self.hidden)
        for k in NAMES:
            if self.weights[k].shape != want[k]:
                raise ValueError(f"weights {k} of shape {self.weights[k].shape}, not {want[k]}")
        self._args = None

    @classmethod
    def initial(cls, n_features: int, n_moves: int, hidden: tuple[int, int], rng: np.random.Generator) -> Network:
        """Fresh weights: He-scaled normal on the layers, the heads small (priors near uniform, values near 0)."""
        out = {}
        for k, shape in shapes(n_features, n_moves, hidden).items():
            if k.startswith("b"):
                out[k] = np.zeros(shape, np.float32)
            else:
                fan_in = shape[0] if k == "w1" else shape[-1]
                scale = np.sqrt(2.0 / fan_in) * (0.1 if k in ("wp", "wv") else 1.0)
                out[k] = (rng.standard_normal(shape) * scale).astype(np.float32)
        return cls(out)

    def args(self) -> tuple:
        """The weights as the compiled tree reads them (agents/engines/puct_kernels.py), float64."""
        if self._args is None:
            self._args = tuple(np.ascontiguousarray(self.weights[k], np.float64) for k in NAMES)
            for a in self._args:
                a.flags.writeable = False
        return self._args

    def forward(self, x: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For a batch: x (positions, features), legal (positions, moves; nonzero a legal move) -> priors
        (positions, moves; 0 off the legal moves) and the movers' values (positions,)."""
        w = {k: v.astype(np.float64) for k, v in self.weights.items()}
        h1 = np.maximum(np.asarray(x, np.float64) @ w["w1"] + w["b1"], 0.0)
        h2 = np.maximum(h1 @ w["w2"].T + w["b2"], 0.0)
        logits = np.where(legal > 0, h2 @ w["wp"].T + w["bp"], -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True), np.tanh(h2 @ w["wv"] + w["bv"][0])

    def size(self) -> int:
        return int(sum(v.size for v in self.weights.values()))


def read(path: Path, n_features: int, n_moves: int, then: str) -> tuple[Network, dict] | None:
    """The network in `path` and its record ({"games", "steps", "seconds"} and, in a stopped run's file, its
    learner's state: "learner", arrays by name), or None where missing or unreadable (set aside, with a notice
    saying `then`)."""
    arrays = load_npz(path, FORMAT_VERSION, required=NAMES + ("games", "steps", "seconds"), then=then)
    if arrays is None:
        return None
    try:
        net = Network({k: arrays[k] for k in NAMES})
    except ValueError as exc:
        set_aside(path, f"a network that does not fit ({exc})", then)
        return None
    if (net.n_features, net.n_moves) != (n_features, n_moves):
        set_aside(path, f"a network for another board ({net.n_features} features, {net.n_moves} moves)", then)
        return None
    if not all(np.isfinite(v).all() for v in net.weights.values()):
        set_aside(path, "weights that are not numbers", then)
        return None
    try:
        meta = {"games": int(arrays["games"]), "steps": int(arrays["steps"]), "seconds": float(arrays["seconds"])}
    except (TypeError, ValueError):
        set_aside(path, "a record that is not numbers", then)
        return None
    learner = {k[len("learner_"):]: v for k, v in arrays.items() if k.startswith("learner_")}
    if learner:
        meta["learner"] = learner
    return net, meta


def write(path: Path, net: Network, meta: dict) -> bool:
    """The network and its record (and a stopped run's learner state, meta["learner"]) to `path`, atomically;
    False with a notice if not."""
    if not all(np.isfinite(v).all() for v in net.weights.values()):
        notice(f"{path}: not saved: the network holds values that are not numbers; the previous file is unchanged")
        return False
    extra = {f"learner_{k}": np.asarray(v) for k, v in meta.get("learner", {}).items()}
    return save_npz(path, FORMAT_VERSION, **net.weights, games=np.array(int(meta["games"])),
                    steps=np.array(int(meta["steps"])), seconds=np.array(float(meta["seconds"])), **extra)
