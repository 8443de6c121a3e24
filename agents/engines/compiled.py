"""Where the compiled kernels (numba) live on disk, and making them ready before anything is timed.

numba compiles a kernel the first time it is called and, with cache=True, keeps the machine code beside
its source (`__pycache__`), so every later process loads it in a fraction of a second. When the package
folder cannot be written (an installed, read-only copy), the cache goes to the user's cache folder instead:
decided once, as this module is imported, and every kernel module imports it first. A kernel module's last
line, `keep_cache_fresh`, drops its cache where a kernel module it imports has changed since.
`warm(steps)` runs a few tiny calls so the compiling or loading happens while the screen says "getting
ready", with a bar, and never inside an agent's timed decision.
"""
from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from types import ModuleType

from agents.engines.progress import report_progress

_ENGINES = Path(__file__).resolve().parent  # (the kernels' package: numba keeps a kernel's cache beside its source)
TASK = "compiling the search kernels"  # what the progress bar says while it happens
STEP_S = 15.0  # about how long a step that compiles takes (idle, one core): how fast the bar creeps through it


def cache_folder() -> Path | None:
    """Where numba should keep its cache: None for its own place beside the source (the package folder can
    be written), else the user's cache folder."""
    pycache = _ENGINES / "__pycache__"
    if os.access(pycache if pycache.exists() else _ENGINES, os.W_OK):
        return None
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "arcade" / "numba"


def _place_cache() -> None:
    """Fix numba's cache folder for this process, before any kernel module is imported (every kernel module
    imports this one first; numba reads the folder as a kernel is decorated)."""
    folder = cache_folder()
    if folder is None or "NUMBA_CACHE_DIR" in os.environ:
        return
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:  # (imported already: its config was read)
        sys.modules["numba"].config.CACHE_DIR = str(folder)


_place_cache()


def kernel_imports(module: ModuleType) -> list[ModuleType]:
    """The kernel modules `module` imports, directly or through one another: modules of the engines package or
    of `module`'s own top package that use numba, found from its globals (modules, and the modules of the
    compiled and plain functions it imported), not from its text."""
    top = module.__name__.split(".")[0]
    found: dict[str, ModuleType] = {}
    todo = [module]
    while todo:
        for value in list(vars(todo.pop()).values()):
            name = value.__name__ if isinstance(value, ModuleType) else \
                getattr(getattr(value, "py_func", value), "__module__", None)
            if not isinstance(name, str) or name in found or name == module.__name__:
                continue
            other = sys.modules.get(name)
            path = getattr(other, "__file__", None)
            if path and (name.split(".")[0] == top or Path(path).resolve().is_relative_to(_ENGINES)) \
                    and _uses_numba(other):
                found[name] = other
                todo.append(other)
    return list(found.values())


def _uses_numba(module: ModuleType) -> bool:
    """Whether `module` holds kernels: a global of it comes from numba (njit, a compiled function)."""
    return any(str(getattr(v, "__module__", None) or "").startswith("numba") or type(v).__module__.startswith("numba")
               or (isinstance(v, ModuleType) and v.__name__.startswith("numba")) for v in vars(module).values())


def cache_folders(module: ModuleType) -> list[Path]:
    """Where numba keeps the cache of `module`'s kernels: beside its source, and under numba's CACHE_DIR when
    one is set (in the folder numba's locator names after the source's folder)."""
    import numba
    from numba.core.caching import _CacheLocator

    source = Path(module.__file__).resolve()
    folders = [source.parent / "__pycache__"]
    if numba.config.CACHE_DIR:
        folders.append(Path(numba.config.CACHE_DIR) / _CacheLocator.get_suitable_cache_subpath(str(source)))
    return folders


def keep_cache_fresh(name: str, also: tuple[ModuleType, ...] = ()) -> list[Path]:
    """numba reuses a cached kernel while its own file is unchanged, even when a kernel it calls in another
    file has changed since (the old machine code is inside). A kernel module (`name`) calls this as its last line
    (before any kernel of it runs: numba reads its cache at a kernel's first call): its cache files older
    than a module it imports (kernel_imports), or than one of `also` (modules it calls otherwise) and
    theirs, are removed, so numba compiles again. Returns the files removed."""
    module = sys.modules[name]
    with _PREPARING:  # (threads of one process import at once: the agent process's, the values', a screen's)
        depends = kernel_imports(module) + [m for extra in also for m in (extra, *kernel_imports(extra))]
        depends = [m for m in depends if m is not module]
        if not depends:
            return []
        newest = max(Path(m.__file__).stat().st_mtime for m in depends)
        stem = Path(module.__file__).stem
        removed = []
        for folder in cache_folders(module):
            if not folder.is_dir():
                continue
            for index in folder.glob(f"{stem}.*.nbi"):
                if index.stat().st_mtime < newest:
                    kernel = index.name[:-len(".nbi")]  # (its compiled versions: KERNEL.N.nbc)
                    for stale in [index, *folder.glob(f"{kernel}.*.nbc")]:
                        stale.unlink(missing_ok=True)
                        removed.append(stale)
        return removed


_PREPARING = threading.RLock()


def warm(steps, first: int = 0, total: int | None = None) -> float:
    """Run each of `steps` (callables that make tiny kernel calls), reporting progress as TASK: a step that
    compiles is one long call, so a thread says how long it has been going once a second (a host drops a
    bar that goes quiet for long). `steps` may be steps first, first + 1, ... of `total` run in parts.
    Returns the longest step's seconds (one that loads from the cache takes milliseconds)."""
    import math
    import time

    steps = list(steps)
    total = len(steps) if total is None else total
    done = threading.Event()
    at = [first, time.monotonic()]  # the step running, when it started

    def heartbeat() -> None:
        while not done.wait(1.0):
            k, started = at
            spent = time.monotonic() - started
            # (the bar creeps through the step, never past 90% of it: a compile's length is not known)
            report_progress(TASK, k + 0.9 * (1 - math.exp(-spent / STEP_S)), total,
                            f"{spent:.0f} s (the first time only)")

    beat = threading.Thread(target=heartbeat, name="compile-progress", daemon=True)
    beat.start()
    longest = 0.0
    try:
        for k, step in enumerate(steps, start=first):
            at[:] = [k, time.monotonic()]
            report_progress(TASK, k, total, "the first time only")
            step()
            longest = max(longest, time.monotonic() - at[1])
    finally:
        done.set()
        beat.join()
    report_progress(TASK, first + len(steps), total)
    return longest
