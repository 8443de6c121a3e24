"""Shared bits for the benchmark scripts: import path, stats formatting."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402


def ms_stats(seconds) -> str:
    a = np.asarray(seconds) * 1000
    return f"median {np.median(a):.2f} ms  p95 {np.percentile(a, 95):.2f} ms  max {a.max():.2f} ms  (n={a.size})"


def wilson(wins: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of a share."""
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, float(centre - half)), min(1.0, float(centre + half))


def mean_ci(values) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    a = np.asarray(values, dtype=float)
    return float(a.mean()), float(1.96 * a.std(ddof=1) / np.sqrt(a.size)) if a.size > 1 else 0.0


def run_logged(players, spec, path, backend, label: str):
    """Play the games of the run `spec` that its log at `path` does not hold yet (the log is made if missing),
    on `backend`, each finished game appended as it finishes, with a progress bar. Returns (the log's records,
    complete: False when Ctrl-C stopped it), or None when the log holds another run (said in one line)."""
    from arcade import runner
    from arcade.progress import Progress

    path = Path(path)
    try:
        log = runner.GameLog.open(path) if path.exists() else None
    except runner.RunError as exc:
        print(f"  {exc}; {label} left out")
        return None
    if log is not None and log.skipped_line():
        print(f"  {log.skipped_line()}")
    relation = log.spec.stands_to(spec, players.rules.players) if log is not None else "new"
    if relation == "grows":
        print(f"  {path}: {log.spec.games} games -> {spec.games} (the {len(log.records)} played are kept)")
    if relation in ("grows", "same settings"):
        try:
            log.become(spec)
        except runner.RunError as exc:
            print(f"  {exc}; {label} left out")
            return None
    if relation is None:
        print(f"  {path} holds another run ({log.spec.describe()}): move it away or give another log folder; "
              f"{label} left out")
        return None
    try:
        log = log or runner.GameLog.create(path, spec)
    except runner.RunError as exc:
        print(f"  {exc}; {label} left out")
        return None
    jobs = log.missing(players.rules.players)
    if not jobs:
        return log.records, True
    print(f"  {label}: {len(jobs)} game{'' if len(jobs) == 1 else 's'} to play, {len(log.records)} in {path}", flush=True)
    bar = Progress(spec.games, label)
    bar.update(len(log.records))
    try:
        result = runner.execute(players, jobs, backend, log, progress=bar.update)
    except runner.RunError as exc:  # the log cannot take a game (a full disk): what it holds is kept
        bar.close()
        print(f"  {exc}")
        return log.records, False
    bar.close()
    return log.records, result.complete
