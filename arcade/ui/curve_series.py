"""Which lines a learning curve draws from its points (no pygame: the training process names its series with
RESULTS, and the panel draws what curve_series picks). A curve point is `(done, {series: value})`."""
from __future__ import annotations

from dataclasses import dataclass

RESULTS = ("won", "drawn", "lost")  # a result series is named "<result> v <opponent>"


@dataclass(frozen=True)
class Series:
    """One line of a learning curve: its label, its values (one per point) and the axis it is drawn on."""

    label: str
    values: list[float]
    share: bool  # a share in [0, 1]; otherwise drawn scaled to its own largest value


def curve_series(points: list[tuple[int, dict]]) -> list[Series]:
    """The lines worth drawing from curve points. Results against an opponent show the share that
    matters (won; drawn where it never won, e.g. against perfect play) and the share lost."""
    if not points:
        return []
    names = list(points[-1][1])
    column = {n: [p[1].get(n, 0.0) for p in points] for n in names}
    out, done_results = [], set()
    for n in names:
        head, _, opponent = n.partition(" v ")
        if head in RESULTS and opponent:
            if opponent in done_results:
                continue
            done_results.add(opponent)
            won, drawn = column.get(f"won v {opponent}", []), column.get(f"drawn v {opponent}", [])
            main = "drawn" if won and max(won) == 0 and drawn and max(drawn) > 0 else "won"
            for label in (main, "lost"):
                key = f"{label} v {opponent}"
                if key in column:
                    out.append(Series(key, column[key], True))
        else:
            values = column[n]
            out.append(Series(n, values, all(0.0 <= v <= 1.0 for v in values) and "score" not in n))
    return out
