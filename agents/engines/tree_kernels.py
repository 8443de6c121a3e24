"""Writes each engine's copy of the compiled UCT tree: agents/engines/tree_kernels_template.py with the engine's
own position operations imported, as <engine package>/tree_kernels.py, for every engine package that has a
`tree_positions` module. (numba cannot cache one kernel over several engines' compiled functions: the
template says why.) Run `python -m agents.engines.tree_kernels` after editing the template or adding an engine
with a tree; tests/test_engines.py fails while a copy differs from what this writes.
"""
from __future__ import annotations

from pathlib import Path

ENGINES = Path(__file__).resolve().parent
ROOT = ENGINES.parent.parent  # (the folder the packages are found from)
TEMPLATE = ENGINES / "tree_kernels_template.py"
MARK = "agents.engines.ENGINE"


def with_tree() -> list[str]:
    """The engine packages here (dotted) that declare a compiled tree (a tree_positions module)."""
    return sorted(f"agents.engines.{p.parent.name}" for p in ENGINES.glob("*/tree_positions.py"))


def source_for(package: str) -> str:
    """The text of the copy of the tree kernels for the engine `package` (dotted)."""
    return (f"# Written by `python -m agents.engines.tree_kernels` from agents/engines/tree_kernels_template.py "
            f"for {package}:\n# edit the template, not this copy.\n" + TEMPLATE.read_text().replace(MARK, package))


def path_for(package: str) -> Path:
    return ROOT.joinpath(*package.split(".")) / "tree_kernels.py"


def write_all(packages: list[str] | None = None) -> list[Path]:
    """Write each engine's copy (every engine here by default) that differs from its template text, by a temp
    file renamed; returns those written."""
    written = []
    for package in with_tree() if packages is None else packages:
        path, text = path_for(package), source_for(package)
        if not path.exists() or path.read_text() != text:
            temp = path.with_suffix(".tmp")
            temp.write_text(text)
            temp.replace(path)
            written.append(path)
    return written


if __name__ == "__main__":
    for path in write_all():
        print(f"wrote {path.relative_to(ROOT)}")
