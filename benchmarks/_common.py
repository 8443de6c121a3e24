"""Shared bits for the benchmark scripts: import path, stats formatting, logged runs, stopping.

Every script ends with `run(main)`: Ctrl-C, a SIGINT sent to a run in the background (which the shell
started with SIGINT ignored) and SIGTERM all stop it within seconds, with one line; the figures printed
before are the parts that finished, and the runs with logs continue from them when the same command is
run again.
"""
from __future__ import annotations

import argparse
import signal
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


def run_logged(players, spec, path, backend, label: str, jobs=None):
    """Play the games of the run `spec` that its log at `path` does not hold yet (the log is made if missing),
    on `backend`, each finished game appended as it finishes, with a progress bar. `jobs`: the run's games
    when they are not the runner's usual ones (openings to play from), else runner.jobs_of(spec). Returns (the
    log's records, complete: False when Ctrl-C stopped it, said in one line), or None when the log holds
    another run or cannot be written (said in one line)."""
    from arcade import runner
    from arcade.run_log import kept_path
    from arcade.progress import Progress

    path = Path(path)
    try:
        log = runner.GameLog.open(path) if kept_path(path) else None  # (a kept run may be compressed)
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
    done = {r["index"] for r in log.records}
    jobs = log.missing(players.rules.players) if jobs is None else [j for j in jobs if j.index not in done]
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
    if not result.complete:
        print(f"  {label}: stopped with {len(log.records)} of {spec.games} games finished (kept in {path})")
    return log.records, result.complete


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def run(main) -> None:
    """Run a benchmark's main() and exit with its code (130 when stopped by a signal, see the module)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        code = main()
    except KeyboardInterrupt:
        print("\nstopped: the figures above are the parts that finished; the runs kept in logs continue from "
              "them when the same command is run again", file=sys.stderr)
        code = 130
    sys.exit(code or 0)


AT_LEAST_ONE = {"--jobs", "--rounds", "--repeat", "--boards", "--loads", "--late-boards",
                "--strength-rounds", "--simulations", "--batch", "--budget-ms", "--dwell", "--seconds"}


class Parser(argparse.ArgumentParser):
    """The benchmarks' argument parser, as strict as the CLI's: a number option takes no negative value
    (counts of 0 skip a part where a script says so), and the options in AT_LEAST_ONE, or given positive=True,
    take 1 or more (a float: more than 0); a wrong value is one line and exit status 2, not a traceback later."""

    def add_argument(self, *names, positive: bool | None = None, **kwargs):
        """positive: None for AT_LEAST_ONE's say; False where a script takes 0 to skip that part."""
        kind = kwargs.get("type")
        if kind in (int, float):
            long_name = next((n for n in names if n.startswith("--")), names[0])
            kwargs["type"] = _checked(kind, long_name, long_name in AT_LEAST_ONE if positive is None else positive)
        return super().add_argument(*names, **kwargs)


def _checked(kind, name: str, positive: bool):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} takes {'an integer' if kind is int else 'a number'}, "
                                             f"got {text!r}") from None
        least_ok = value > 0 if positive else value >= 0
        if not least_ok or (kind is float and not np.isfinite(value)):
            raise argparse.ArgumentTypeError(f"{name} must be {'more than 0' if positive else '0 or more'}, "
                                             f"got {text}")
        return value
    parse.__name__ = kind.__name__
    return parse
