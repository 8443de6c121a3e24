"""Arcade entry point: `python main.py` opens the launcher; see `python main.py --help`."""
import os
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from arcade.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
