"""The code stays free of what a linter catches as likely bugs: ruff's pyflakes (F), syntax (E9) and bugbear
(B) rules, zip() with an explicit strict= among them, over everything this project tracks; and no function
more complex than 15 (mccabe, C901), so no method grows into a dispatcher of everything."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--select", "F,E9,B,C901", "--no-cache",
                           "--config", "lint.mccabe.max-complexity=15",
                           "--exclude", ".venv,.venv-bench,build", "."], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
