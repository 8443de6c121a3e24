"""Where the compiled kernels (numba) live on disk, and making them ready before anything is timed.

numba compiles a kernel the first time it is called and, with cache=True, keeps the machine code beside
its source (`__pycache__`), so every later process loads it in a fraction of a second. When the package
folder cannot be written (an installed, read-only copy), the cache goes to the data folder instead
(`numba-cache` in it), or to the user's cache folder when no data folder is known yet. `kernels(data_dir)`
decides that once per process, before the kernels module is imported (numba reads the place then).
`warm(steps)` runs a few tiny calls so the compiling or loading happens while the screen says "getting
ready", with a bar, and never inside an agent's timed decision.
"""
from __future__ import annotations

import os
import re
import threading
from pathlib import Path


from agents.base import report_progress

_AGENTS = Path(__file__).resolve().parent  # (numba keeps a kernel's cache beside its source)
TASK = "compiling the search kernels"  # what the progress bar says while it happens


def cache_folder(data_dir: Path | None) -> Path | None:
    """Where numba should keep its cache: None for its own place beside the source (the package folder can
    be written), else the data folder's numba-cache, else the user's cache folder."""
    pycache = _AGENTS / "__pycache__"
    if os.access(pycache if pycache.exists() else _AGENTS, os.W_OK):
        return None
    if data_dir is not None:
        return Path(data_dir) / "numba-cache"
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "arcade" / "numba"


def kernels(module: str, data_dir: Path | None = None):
    """The kernels module `module` (a dotted path below agents, e.g. an engine's "agents.engines.<game>.kernels"),
    numba's cache placed first where it can be written and cleared where a kernel it calls has changed."""
    import importlib
    import sys

    with _PREPARING:  # (threads of one process ask at once: the agent process's, the values' and a screen's)
        if module not in sys.modules:
            if "NUMBA_CACHE_DIR" not in os.environ:
                folder = cache_folder(data_dir)
                if folder is not None:
                    import numba

                    os.environ["NUMBA_CACHE_DIR"] = str(folder)
                    numba.config.CACHE_DIR = str(folder)
            for kernel in _with_depends(module):
                drop_stale_cache(kernel)
    return importlib.import_module(module)


def source_of(module: str) -> Path:
    """The file of a kernels module below agents, found without importing it."""
    return _AGENTS.parent.joinpath(*module.split(".")).with_suffix(".py")


def _with_depends(module: str) -> list[str]:
    """MODULE and the kernel modules it calls, directly or through another (their DEPENDS lines)."""
    found = [module]
    for kernel in found:
        found += [d for d in _declared_depends(kernel) if d not in found]
    return found


def _declared_depends(module: str) -> tuple[str, ...]:
    """The kernel modules MODULE's kernels call (its DEPENDS line: a tuple of their dotted paths), read from its
    source without importing it. (Read as text: CPython 3.11's ast.parse can fail with "AST constructor
    recursion depth mismatch" while another thread parses, cpython#106905, and a test process met it.)"""
    line = _DEPENDS_LINE.search(source_of(module).read_text())
    return tuple(re.findall(r"[\"']([\w.]+)[\"']", line.group(1))) if line else ()


_DEPENDS_LINE = re.compile(r"^DEPENDS\s*=\s*\(([^)]*)\)", re.MULTILINE)
_PREPARING = threading.Lock()


def cache_folders(module: str) -> list[Path]:
    """Where numba keeps the cache of MODULE's kernels: beside its source, and under numba's CACHE_DIR when one
    is set (in the folder numba's locator names after the source's folder)."""
    import numba
    from numba.core.caching import _CacheLocator

    source = source_of(module)
    folders = [source.parent / "__pycache__"]
    if numba.config.CACHE_DIR:
        folders.append(Path(numba.config.CACHE_DIR) / _CacheLocator.get_suitable_cache_subpath(str(source)))
    return folders


def drop_stale_cache(module: str) -> list[Path]:
    """numba reuses a cached kernel while its own file is unchanged, even when a kernel it calls in another
    file has changed since (its old machine code is inside). A kernel module that calls others declares them
    (DEPENDS); its cache files older than one of those files are removed here, before it is imported, so
    numba compiles it again. Returns the files removed."""
    depends = _declared_depends(module)
    if not depends:
        return []
    newest = max(source_of(d).stat().st_mtime for d in depends)
    stem = source_of(module).stem
    removed = []
    for folder in cache_folders(module):
        if not folder.is_dir():
            continue
        for index in folder.glob(f"{stem}.*.nbi"):
            if index.stat().st_mtime < newest:
                name = index.name[:-len(".nbi")]
                for stale in [index, *folder.glob(f"{name}.*.nbc")]:
                    stale.unlink(missing_ok=True)
                    removed.append(stale)
    return removed


def warm(steps, first: int = 0, total: int | None = None) -> None:
    """Run each of `steps` (callables that make tiny kernel calls), reporting progress as TASK: a step that
    compiles is one long call, so a thread says how long it has been going once a second (a host drops a
    bar that goes quiet for long). `steps` may be steps first, first + 1, ... of `total` run in parts."""
    import threading
    import time

    steps = list(steps)
    total = len(steps) if total is None else total
    done = threading.Event()
    at = [first, time.monotonic()]  # the step running, when it started

    def heartbeat() -> None:
        while not done.wait(1.0):
            k, started = at
            report_progress(TASK, k, total, f"{time.monotonic() - started:.0f} s (the first time only)")

    beat = threading.Thread(target=heartbeat, name="compile-progress", daemon=True)
    beat.start()
    try:
        for k, step in enumerate(steps, start=first):
            at[:] = [k, time.monotonic()]
            report_progress(TASK, k, total, "the first time only")
            step()
    finally:
        done.set()
        beat.join()
    report_progress(TASK, first + len(steps), total)
