"""Arcade entry point: `python main.py` opens the launcher; see `python main.py --help`."""
import os
import sys
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

try:
    from arcade.cli import main
except ModuleNotFoundError as exc:  # a Python without the pinned packages (the system's, not .venv's)
    if exc.name not in {"numpy", "pygame", "numba", "llvmlite", "gymnasium", "pettingzoo"}:
        raise
    venv = Path(__file__).resolve().parent / ".venv" / "bin" / "python"
    how = f"run it with {venv} main.py ..." if venv.exists() else "run `make run` once, then .venv/bin/python main.py ..."
    sys.exit(f"main.py: error: {exc.name} is not installed for this Python ({sys.executable}): the arcade's "
             f"packages are in its own environment; {how}")

if __name__ == "__main__":
    sys.exit(main())
