"""Bit tricks on int64 bit sets that compiled kernels of several engines share (numba, inlined where called):
set bits counted, the index of a single bit, a uniformly drawn set bit. No game here."""
from __future__ import annotations

import numpy as np
from numba import njit

from agents.engines.compiled import keep_cache_fresh


@njit(cache=True, inline="always")
def popcount(x):
    """Set bits of a non-negative int64 (the parallel sum: a constant dozen operations)."""
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def bit_index(bit):
    """The index of a single set bit."""
    return popcount(bit - 1)


@njit(cache=True, inline="always")
def random_bit(mask, rng):
    """One of the set bits of `mask` (not 0), drawn uniformly: the k-th lowest for k = floor(u * count), one
    draw of rng."""
    count = popcount(mask)
    for _ in range(min(np.int64(rng.random() * count), count - 1)):
        mask &= mask - 1
    return mask & -mask


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
