"""How an estimate a person reads is written: a value with its interval, to the digits the interval supports.
No pygame (the command line and the window write them alike)."""
from __future__ import annotations

import math


def decimals_for(half: float) -> int:
    """Decimals that show a 95% half-width to two significant digits (none for a half-width of 10 or more)."""
    if not math.isfinite(half) or half <= 0:
        return 0
    return max(0, 1 - math.floor(math.log10(half)))


def estimate(mean: float, half: float, signed: bool = False) -> str:
    """'6.99 +- 0.16', '1,830 +- 120', '+91 +- 83': the mean to the decimals of its interval's half-width (two
    significant digits); with no spread measured (a half-width of 0 from one value), the mean to 3 digits and
    the interval said as unknown."""
    if not math.isfinite(mean):
        return "no games"
    if half <= 0 or not math.isfinite(half):
        return f"{mean:{'+' if signed else ''},.3g} (one game: no interval)"
    d = decimals_for(half)
    return f"{mean:{'+' if signed else ''},.{d}f} +- {half:,.{d}f}"


def interval(low: float, high: float) -> str:
    """'[+12, +95]': a 95% interval on a signed scale, to the digits its width supports."""
    d = decimals_for((high - low) / 2)
    return f"[{low:+,.{d}f}, {high:+,.{d}f}]"
