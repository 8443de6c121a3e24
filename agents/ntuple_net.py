"""An n-tuple network: the value of a 4x4 2048 board as a sum of table look-ups, on 64-bit boards.

A tuple is a few cells of the board; its table has one weight for every way those cells can be filled
(16 exponents a cell, so 16**6 weights for a 6-tuple). The value of a board is the sum, over the tuples
and the board's 8 symmetries (rotations and reflections), of the weight its cells index: the same tuple
is read at 8 places, so what is learnt in one corner serves all four (Szubert & Jaskowski 2014, "Temporal
difference learning of n-tuple networks for the game 2048"; Yeh et al. 2016 for the four 6-tuples).

A staged set ("4x6/16384", after Wu et al. 2014's multi-stage TD) has a second set of the same tables for the
late game: a board holding a tile of at least 16384 is valued by the late tables alone, and its TD steps move
only them. So what the late game teaches does not move the values of the boards before it (one table set for
both pulled the 1 ply mean score down by a seventh while it learnt the late game). The late tables start as a
copy of a network trained on whole games; a file stores them as their differences from the first set
(`stored` / `from_stored`), 0 wherever neither set has learnt since the copy.

Boards are the uint64 boards of agents/engines/twenty48/board64.py (cell i is nibble i). The 8 symmetric boards come
from three bit operations (transpose, flip the rows, mirror each row), and a tuple's index is one shift
and mask per run of consecutive cells, so a whole layer of boards is indexed with a handful of numpy
operations. No pygame here.
"""
from __future__ import annotations

import numpy as np

from agents.engines.twenty48.board64 import transpose

# tuple sets by name: cells in reading order (cell 4r + c is row r, column c)
TUPLE_SETS: dict[str, tuple[tuple[int, ...], ...]] = {
    # Yeh et al. 2016 (and most strong 2048 learners since): four 6-tuples, two straight-ish, two 2x3
    "4x6": ((0, 1, 2, 3, 4, 5), (4, 5, 6, 7, 8, 9), (0, 1, 2, 4, 5, 6), (4, 5, 6, 8, 9, 10)),
    # Szubert & Jaskowski 2014: two straight 4-tuples and two 2x3 rectangles
    "2x4+2x6": ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 2, 4, 5, 6), (4, 5, 6, 8, 9, 10)),
    # a small network (65,536 weights a tuple): quick to train, for tests and for watching it learn
    "3x4": ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5)),
}
LATE_TILES = (8192, 16384, 32768)  # where a staged set's late game may begin
SYMMETRIES = 8
_U = np.uint64


def mirror(x: np.ndarray) -> np.ndarray:
    """Each row reversed (columns 0 <-> 3, 1 <-> 2)."""
    return (((x & _U(0x000F000F000F000F)) << _U(12)) | ((x & _U(0x00F000F000F000F0)) << _U(4))
            | ((x >> _U(4)) & _U(0x00F000F000F000F0)) | ((x >> _U(12)) & _U(0x000F000F000F000F)))


def flip(x: np.ndarray) -> np.ndarray:
    """The rows in reverse order (row 0 <-> 3, 1 <-> 2)."""
    return (((x & _U(0xFFFF)) << _U(48)) | ((x & _U(0xFFFF0000)) << _U(16))
            | ((x >> _U(16)) & _U(0xFFFF0000)) | (x >> _U(48)))


def symmetries(x: np.ndarray) -> np.ndarray:
    """The 8 images of each board under the square's symmetries: 8 x N uint64 (row 0 the boards themselves)."""
    x = np.asarray(x, dtype=np.uint64)
    out = np.empty((SYMMETRIES, x.size), dtype=np.uint64)
    for base, board in ((0, x), (4, transpose(x))):
        out[base] = board
        out[base + 1] = mirror(board)
        out[base + 2] = flip(board)
        out[base + 3] = flip(out[base + 1])
    return out


def parse_tuple_set(name: str) -> tuple[str, int]:
    """(base tuple set, late tile or 0) of a tuple set's name: "4x6" or "4x6/16384"; ValueError naming the
    choices for anything else."""
    base, staged, late = str(name).partition("/")
    if base not in TUPLE_SETS or (staged and (not late.isdigit() or int(late) not in LATE_TILES)):
        raise ValueError(f"unknown tuple set {name!r}; choose one of {', '.join(TUPLE_SETS)}, optionally with "
                         f"a late stage from a tile of {' or '.join(map(str, LATE_TILES))} (e.g. 4x6/16384)")
    return base, int(late) if late else 0


def holds_tile(x: np.ndarray, tile: int) -> np.ndarray:
    """Whether each board has a tile of at least `tile` (a power of two from 8192: a nibble of at least 13,
    14 or 15, found by its top bits in three bit operations)."""
    x = np.asarray(x, dtype=np.uint64)
    exponent = int(tile).bit_length() - 1
    high = x & (x << _U(1))  # bit 3 of a nibble: its bits 3 and 2 set
    top = {13: high & ((x << _U(2)) | (x << _U(3))), 14: high & (x << _U(2)),
           15: high & (x << _U(2)) & (x << _U(3))}[exponent]
    return (top & _U(0x8888888888888888)) != 0


def _runs(cells: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """A tuple's cells as runs of consecutive cells: (first cell, length, place in the tuple)."""
    runs, place = [], 0
    for c in cells:
        if runs and runs[-1][0] + runs[-1][1] == c:
            runs[-1][1] += 1
        else:
            runs.append([c, 1, place])
        place += 1
    return [tuple(r) for r in runs]


class Coherence:
    """Temporal coherence (Beal & Smith 1999, for 2048 Jaskowski 2018): for each weight, the sum E of the
    errors its TD steps have met and the sum A of their sizes. |E| / A is near 1 while the errors agree
    (the weight is still far from its value: full steps) and falls toward 0 as they cancel out (it only
    jitters around its value: small steps), so every weight gets its own rate, falling as it settles.
    The compiled learner (agents/engines/twenty48/kernels.td_run) reads and adds to the two float32 arrays."""

    def __init__(self, size: int, signed: np.ndarray | None = None, absolute: np.ndarray | None = None):
        self.signed = np.zeros(size, dtype=np.float32) if signed is None else signed
        self.absolute = np.zeros(size, dtype=np.float32) if absolute is None else absolute


class NTupleNetwork:
    """Weights for a tuple set (one of TUPLE_SETS), one flat float32 array for all tuples.

    value(boards) -> float64 values; features(boards) -> the F x N weight indexes a value reads (F = tuples
    x 8); learn(features, errors, rate) moves the read weights toward the errors."""

    def __init__(self, tuple_set: str = "4x6", weights: np.ndarray | None = None):
        base, self.late_tile = parse_tuple_set(tuple_set)
        self.tuple_set = tuple_set
        self.tuples = TUPLE_SETS[base]
        sizes = [16 ** len(t) for t in self.tuples]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.uint64)
        self.stage_size = int(sum(sizes))  # the weights of one table set (the late set follows the first)
        self.size = self.stage_size * (2 if self.late_tile else 1)
        self.n_features = len(self.tuples) * SYMMETRIES
        self._runs = [_runs(t) for t in self.tuples]
        self._kernel_runs = None
        if weights is None:
            weights = np.zeros(self.size, dtype=np.float32)
        if weights.shape != (self.size,) or weights.dtype != np.float32:
            raise ValueError(f"{tuple_set} weights must be {self.size:,} float32, got {weights.shape} {weights.dtype}")
        self.weights = weights

    @staticmethod
    def size_of(tuple_set: str) -> int:
        """How many weights a network of this tuple set has."""
        base, late = parse_tuple_set(tuple_set)
        return sum(16 ** len(t) for t in TUPLE_SETS[base]) * (2 if late else 1)

    def staged(self, late_tile: int) -> "NTupleNetwork":
        """A copy of this (unstaged) network with late tables from `late_tile` on, copies of its tables: it
        values every board as this one does until the late tables learn."""
        return NTupleNetwork(f"{self.tuple_set}/{int(late_tile)}", np.concatenate([self.weights, self.weights]))

    def stored(self) -> np.ndarray:
        """The weights as a file keeps them (a copy): a staged network's late tables as their differences
        from the first tables."""
        weights = np.array(self.weights)  # a snapshot: training processes may be writing to the network
        if self.late_tile:
            weights[self.stage_size:] -= weights[:self.stage_size]
        return weights

    @classmethod
    def from_stored(cls, tuple_set: str, weights: np.ndarray) -> "NTupleNetwork":
        """The network of `stored()` weights (taken over and changed in place)."""
        net = cls(tuple_set, weights)
        if net.late_tile:
            weights[net.stage_size:] += weights[:net.stage_size]
        return net

    def late(self, x: np.ndarray) -> np.ndarray | None:
        """Which boards the late tables value (None for an unstaged network)."""
        return holds_tile(x, self.late_tile) if self.late_tile else None

    def kernel_spec(self) -> tuple[np.ndarray, np.ndarray, int, int]:
        """What the compiled kernels read: (the weights, the tuples as rows of [offset, runs, then (first
        cell, length, place) a run], the size of one table set, the late tile's exponent or 0)."""
        if self._kernel_runs is None:
            from agents.engines.twenty48.kernels import MAX_RUNS

            runs = np.zeros((len(self.tuples), 2 + 3 * MAX_RUNS), dtype=np.int64)
            for t, tuple_runs in enumerate(self._runs):
                runs[t, :2] = int(self.offsets[t]), len(tuple_runs)
                runs[t, 2:2 + 3 * len(tuple_runs)] = np.ravel(tuple_runs)
            self._kernel_runs = runs
        late = int(self.late_tile).bit_length() - 1 if self.late_tile else 0
        return self.weights, self._kernel_runs, self.stage_size, late

    def features(self, x: np.ndarray) -> np.ndarray:
        """The weight indexes each board reads: F x N int64 (tuple-major, then symmetry; a late board's in
        the late tables)."""
        from agents.engines.twenty48 import kernels as k

        _, runs, stage, late = self.kernel_spec()
        x = np.asarray(x, dtype=np.uint64).ravel()
        out = np.empty((x.size, self.n_features), dtype=np.int64)
        for i, board in enumerate(x):
            k.features(board, runs, stage, late, out[i])
        return out.T.copy()

    def value(self, x: np.ndarray) -> np.ndarray:
        """V of each board (float64): the sum of the weights its features read."""
        x = np.ascontiguousarray(x, dtype=np.uint64).ravel()
        out = np.empty(x.size)
        weights, runs, stage, late = self.kernel_spec()
        from agents.engines.twenty48 import kernels

        kernels.ntuple_values(x, weights, runs, stage, late, out)
        return out

    def nonzero(self) -> int:
        """How many weights training has moved from 0."""
        return int(np.count_nonzero(self.weights))
