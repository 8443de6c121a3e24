"""Runs the whole test suite the way `make test` does, and says what it cost and what failed.

    .venv/bin/python tools/run_suite.py              # the suite on every core (make test)
    .venv/bin/python tools/run_suite.py --load 2     # the same with two busy processes beside it (make test-loaded)
    .venv/bin/python tools/run_suite.py -- -k runner # anything after -- goes to pytest

It keeps pytest's report of the run (JUnit XML) in reports/ (the newest as reports/junit.xml, each run's under
its own time too), so a test that failed once can be read back later; on a failure it prints, after pytest's
own output, each failing test's whole output from that report. At the end: the wall time and the CPU time
(user + sys) of the suite's processes. --load N starts N processes that only keep a core busy (`yes`), by
PID, and stops them by PID when the suite ends, however it ends. Exit status: pytest's.

The tests' temporary folders go to a memory file system (/dev/shm) where one has room: on a disk that discards
each freed block (this machine's), deleting a run's 3,000 small files took ~20 s of the suite's wall, spent at
its end when pytest drops older runs. They are deleted after a passing run and kept after a failing one (the
path is printed) until the next run.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports"
MEMORY_FS = Path("/dev/shm")
ROOM_NEEDED = 2 << 30  # the suite writes ~200 MB at most (the wheel test); a small /dev/shm (a container's) is left alone


def busy_processes(n: int) -> list[subprocess.Popen]:
    """n processes that keep a core busy each and print nothing."""
    return [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(n)]


def stop(processes: list[subprocess.Popen]) -> None:
    for p in processes:
        p.kill()
        p.wait()


def memory_basetemp() -> Path | None:
    """A folder for the tests' temporary files on a memory file system with room to spare, or None (pytest's
    own under the system's temp folder). One per checkout, so two checkouts' suites never share it."""
    try:
        if not (MEMORY_FS.is_dir() and os.access(MEMORY_FS, os.W_OK)):
            return None
        room = os.statvfs(MEMORY_FS)
    except OSError:
        return None
    if room.f_bavail * room.f_frsize < ROOM_NEEDED:
        return None
    key = zlib.crc32(str(ROOT).encode())
    return MEMORY_FS / f"arcade-suite-{os.getuid()}-{key:08x}"


def failures(report: Path) -> list[tuple[str, str]]:
    """(test id, its whole output: the failure and what it printed) of each failed or erred test in a report."""
    out = []
    try:
        root = ET.parse(report).getroot()
    except (OSError, ET.ParseError):
        return out
    for case in root.iter("testcase"):
        bad = [e for e in case if e.tag in ("failure", "error")]
        if not bad:
            continue
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        parts = [(e.get("message") or "") + "\n" + (e.text or "") for e in bad]
        parts += [f"-- {e.tag} --\n{e.text}" for e in case if e.tag in ("system-out", "system-err") and e.text]
        out.append((name, "\n".join(parts)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--load", type=int, default=0, help="busy processes to run beside the suite (0: none)")
    ap.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    args = ap.parse_args(argv)
    if args.load < 0:
        ap.error("--load is a number of processes, 0 or more")
    REPORTS.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    report = REPORTS / f"junit-{stamp}.xml"
    command = [sys.executable, "-m", "pytest", "-n", "auto", "--dist", "loadgroup", "-rfE",
               f"--junitxml={report}", *args.pytest_args]
    basetemp = None if any(a.startswith("--basetemp") for a in args.pytest_args) else memory_basetemp()
    if basetemp is not None:
        command.append(f"--basetemp={basetemp}")  # (pytest empties it first)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="")  # pytest keeps its rewritten test modules (see Makefile)
    load = busy_processes(args.load)
    if load:
        print(f"the suite beside {len(load)} busy processes (pids {', '.join(str(p.pid) for p in load)})")
    t0 = time.perf_counter()
    try:
        status = subprocess.call(command, cwd=ROOT, env=env)
        # read before the busy processes are reaped: the suite's processes alone (pytest waits for its workers)
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        stop(load)
    wall = time.perf_counter() - t0
    if report.exists():
        shutil.copyfile(report, REPORTS / "junit.xml")
    failed = failures(report)
    if basetemp is not None:
        if status == 0:
            shutil.rmtree(basetemp, ignore_errors=True)
        else:
            print(f"the tests' temporary folders are kept in {basetemp} until the next run")
    if failed:
        print(f"\n==== the output of each failing test ({len(failed)}), from {report.relative_to(ROOT)} ====")
        for name, text in failed:
            print(f"\n---- {name} ----\n{text}")
    print(f"suite: {wall:.0f} s wall, CPU {used.ru_utime + used.ru_stime:.0f} s (user {used.ru_utime:.0f} + sys "
          f"{used.ru_stime:.0f}); report {report.relative_to(ROOT)}"
          + (f"; beside {len(load)} busy processes" if load else ""))
    return status


if __name__ == "__main__":
    sys.exit(main())
