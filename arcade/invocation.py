"""How the person started the arcade, so what it says names commands they have: `python main.py ...` in a
checkout, `arcade ...` where it is installed (`pip install .`: no main.py, no Makefile, no requirements files).
"""
from __future__ import annotations

import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent  # (a checkout has main.py here; an install has site-packages)


def installed() -> bool:
    """Whether this is the installed package (the `arcade` command), not a checkout's main.py."""
    return Path(sys.argv[0]).name == "arcade" or not (CHECKOUT / "main.py").is_file()


def prog() -> str:
    """The program's name in its messages: "main.py" or "arcade"."""
    return "arcade" if installed() else "main.py"


def command() -> str:
    """What a person types to run it: "python main.py" or "arcade"."""
    return "arcade" if installed() else "python main.py"


def ray_install() -> str:
    """How to install Ray where it is missing: the checkout's pinned file, or the package's extra."""
    return 'pip install "agents-arcade[ray]"' if installed() else ".venv/bin/pip install -r requirements-ray.txt"
