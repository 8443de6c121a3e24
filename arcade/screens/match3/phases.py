"""The match-3 screen's animation phases: what a turn looks like between two states.

A turn is shown as a list of phases (a swap, then a clear and a fall per cascade
stage; a refused swap is a wobble). Each phase has its length in ms and, for a
progress t in [0, 1], a `Pose`: the board to draw, each moving cell's offset in
cells, and which cells are fading out. Pure data and arithmetic; the screen draws.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

SWAP_MS, CLEAR_MS, FALL_MS, WOBBLE_MS = 130, 160, 200, 260


@dataclass(frozen=True)
class Pose:
    board: np.ndarray | None  # None: the current state's board
    offsets: dict = field(default_factory=dict)  # (r, c) -> (dr, dc) in cells
    fade: np.ndarray | None = None  # cells clearing (they grow and fade)


def _pair_offsets(swap, w: float) -> dict:
    r1, c1, r2, c2 = swap
    return {(r1, c1): ((r2 - r1) * w, (c2 - c1) * w), (r2, c2): ((r1 - r2) * w, (c1 - c2) * w)}


@dataclass(frozen=True)
class Swap:
    """The two gems change places (on the board before the turn)."""

    board: np.ndarray
    swap: tuple
    ms: float = SWAP_MS

    def pose(self, t: float) -> Pose:
        return Pose(self.board, _pair_offsets(self.swap, t))


@dataclass(frozen=True)
class Wobble:
    """A refused swap: the two gems nudge toward each other and back."""

    swap: tuple
    ms: float = WOBBLE_MS

    def pose(self, t: float) -> Pose:
        return Pose(None, _pair_offsets(self.swap, 0.3 * np.sin(t * np.pi * 3) * (1 - t)))


@dataclass(frozen=True)
class Clear:
    """A cascade stage's lines clear."""

    stage: object  # match3.Stage
    ms: float = CLEAR_MS

    def pose(self, t: float) -> Pose:
        return Pose(self.stage.before, fade=self.stage.cleared)


@dataclass(frozen=True)
class Fall:
    """The gems above fall into the gaps, and new ones drop in from above."""

    stage: object  # match3.Stage
    ms: float = FALL_MS

    def pose(self, t: float) -> Pose:
        src = self.stage.source
        rows, cols = np.nonzero(src != np.arange(src.shape[0])[:, None])
        return Pose(self.stage.after, {(int(r), int(c)): ((src[r, c] - r) * (1 - t), 0) for r, c in zip(rows, cols, strict=True)})


def turn_phases(board_before: np.ndarray, swap, stages) -> list:
    """The phases of a played turn: the swap, then a clear and a fall for each cascade stage."""
    phases: list = [Swap(board_before, tuple(swap))]
    for st in stages:
        phases += [Clear(st), Fall(st)]
    return phases
