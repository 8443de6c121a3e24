"""Which lines a learning curve draws from its points (no pygame: the training process names its series with
RESULTS, and the panel draws what curve_series picks). A curve point is `(done, {series: value})`."""
from __future__ import annotations

from dataclasses import dataclass

RESULTS = ("won", "drawn", "lost")  # a result series is named "<result> v <opponent>"


@dataclass(frozen=True)
class Series:
    """One line of a learning curve: its label, its values, the games done at each (a series measured at some
    checkpoints only, as a rating every few minutes, has values there and nowhere else) and the axis it is
    drawn on."""

    label: str
    values: list[float]
    share: bool  # a share in [0, 1]; otherwise drawn scaled to its own largest value
    at: tuple[int, ...] = ()  # the games done at each value (empty: one value a point, every point)


def _column(points: list[tuple[int, dict]], name: str) -> tuple[list[float], tuple[int, ...]]:
    """A series' values and the games done at each: the points that measured it (no value invented where a
    point did not)."""
    kept = [(done, figures[name]) for done, figures in points if name in figures]
    return [v for _, v in kept], tuple(done for done, _ in kept)


def is_share(name: str, values: list[float]) -> bool:
    """Whether a series is a share in [0, 1] (drawn 0-100%): its values all are, and its name is no score or
    loss (a loss near 1 is not 100%)."""
    return all(0.0 <= v <= 1.0 for v in values) and "score" not in name and "loss" not in name


def curve_series(points: list[tuple[int, dict]]) -> list[Series]:
    """The lines worth drawing from curve points. Results against an opponent show the share that
    matters (won; drawn where it never won, e.g. against perfect play) and the share lost. A series any point
    measured is drawn (in the order first met), through the points that measured it."""
    if not points:
        return []
    names = list(dict.fromkeys(n for _, figures in points for n in figures))
    column = {n: _column(points, n) for n in names}
    out, done_results = [], set()
    for n in names:
        head, _, opponent = n.partition(" v ")
        if head in RESULTS and opponent:
            if opponent in done_results:
                continue
            done_results.add(opponent)
            won, drawn = column.get(f"won v {opponent}", ([], ()))[0], column.get(f"drawn v {opponent}", ([], ()))[0]
            main = "drawn" if won and max(won) == 0 and drawn and max(drawn) > 0 else "won"
            for label in (main, "lost"):
                key = f"{label} v {opponent}"
                if key in column:
                    values, at = column[key]
                    out.append(Series(key, values, True, at))
        else:
            values, at = column[n]
            out.append(Series(n, values, is_share(n, values), at))
    return out
