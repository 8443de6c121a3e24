"""How a number a person reads is written: a value in a few characters (number), a set of values shown together
in one format that tells them apart (numbers_for), an estimate with its interval to the digits the interval
supports. No pygame (the command line and the window write them alike)."""
from __future__ import annotations

import math
from typing import Callable


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


def number(v: float, more: int = 0) -> str:
    """A value in a few characters a player reads: 1.610M, 16.1k, 512, 3.25, 0.007, and "~0" for a value
    nearer 0 than 0.001 but not 0 (noise: no scientific notation on screen, no "-0.00"). Values of one size
    have one number of decimals, so two side by side line up (1.590M next to 1.598M, not 1.59M). more: digits
    beyond those (numbers_for: what tells values that differ apart)."""
    a = abs(v)
    if a == 0:
        return "0"  # (-0.0 too)
    if a < 10.0 ** -(3 + more):
        return "~0"
    if a >= 1e9:
        return f"{v / 1e9:.{3 + more}f}G"
    if a >= 1e6:
        return f"{v / 1e6:.{3 + more}f}M"
    if a >= 1e4:
        return f"{v / 1e3:.{1 + more}f}k"
    if a >= 100 or v == int(v):
        return f"{v:.{more}f}"
    return f"{v:.{3 + more}g}" if a < 1 else f"{v:.{2 + more}f}"


def numbers_for(values) -> Callable[[float], str]:
    """The one format for a set of values shown together (a move's values on the board, in the tree, in the
    replay): number's, with as many more digits as it takes for values that differ to read differently
    (three moves at 1.552M read 1.5518M, 1.5519M, 1.5521M)."""
    distinct = {float(v) for v in values if v == v}
    for more in range(0, 7):
        if len({_read(number(v, more)) for v in distinct}) == len(distinct):
            return lambda v, more=more: number(v, more)
    return lambda v: f"{v:,.6g}"


def _read(written: str) -> float:
    """The value a number's text says ("1.552M" is 1,552,000; "~0" is 0): two texts of one value ("1" and
    "1.00") do not tell values apart."""
    scale = {"k": 1e3, "M": 1e6, "G": 1e9}.get(written[-1:], 1.0)
    return 0.0 if written == "~0" else float(written.rstrip("kMG")) * scale
