"""Seeds and Generators: where every random number of the arcade starts. No pygame."""
from __future__ import annotations

import numpy as np


def make_rng(seed: int) -> np.random.Generator:
    """A Generator from a settings seed; -1 means fresh entropy."""
    return np.random.default_rng(None if seed < 0 else seed)


def fresh_seed() -> int:
    """A new game seed from the operating system's entropy (shown in the HUD, so a game can be replayed)."""
    return int(np.random.SeedSequence().entropy % (2**31))
