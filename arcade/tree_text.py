"""A search tree (agents/search_tree.py, its moves already as text) in words: what `decide --tree` prints and
the tree view writes on each node. No pygame."""
from __future__ import annotations

from typing import Callable


def plain(v: float) -> str:
    """A number as the command line prints it: six significant digits, no "-0"."""
    return f"{v + 0.0:.6g}"

KIND_WORDS = {"max": "best for the side to move", "min": "best for the other side", "chance": "chance",
              "leaf": "end of the search"}


def edge_label(e: dict, number: Callable[[float], str] = plain, action_text: Callable = str) -> str:
    """How the edge is named: its move (in the game's notation, by action_text), or chance's outcome with its
    probability."""
    if "move" in e:  # (a tree printed as JSON names its moves itself)
        return e["move"]
    if "action" in e:
        return action_text(e["action"])
    p = e.get("p")
    return f"{e['outcome']}" + ("" if p is None else f"  (p {number(p)})")


def node_figures(n: dict, number: Callable[[float], str] = plain, brief: bool = False) -> str:
    """The node's value and figures in one line: 'value 149.3, visits 120, UCT 0.61, proven', then the figures
    of its kind ('depth 3, positions 17,544'; brief: not those)."""
    parts = [f"value {number(n['value'])}"]
    if "visits" in n:
        parts.append(f"visits {n['visits']:,}")
    if "uct" in n:
        parts.append(f"UCT {number(n['uct'])}")
    for key, short in ROW_FIGURES.items():
        if brief and key in n:
            parts.append(f"{short} {number(n[key])}")
    if n.get("proven"):
        parts.append("proven")
    if n.get("more"):
        parts.append(f"{n['more']} more not shown")
    for key, v in n.items():  # the figures of its kind (a search's depth, a network's points and tuples)
        if brief or key in _SAID or isinstance(v, (dict, bool)):
            continue
        if isinstance(v, (list, tuple)):
            v = " / ".join(number(x) if isinstance(x, float) else str(x) for x in v)
        elif isinstance(v, float):
            v = number(v)
        elif isinstance(v, int):
            v = f"{v:,}"
        parts.append(f"{key} {v}")
    return ", ".join(parts)


# figures a row shows even where it is brief, by a short name: what a search was steered by (AlphaZero's prior and
# its network's own value beside the search's mean), so where the search overrules the network shows in the list
ROW_FIGURES = {"prior": "prior", "network value": "network", "final value": "game over"}
_SAID = {"kind", "value", "children", "visits", "uct", "proven", "more", "hidden"}  # (said above, or drawn apart)


def tree_lines(tree: dict, depth: int = 3, width: int = 12) -> list[str]:
    """The tree as indented lines, `depth` levels and `width` children a node at most."""
    lines = [f"tree: {tree['kind']} node, {node_figures(tree)}"]

    def walk(n: dict, indent: int, left: int) -> None:
        if left <= 0:
            return
        for e in n["children"][:width]:
            child = e["node"]
            lines.append(f"{'  ' * indent}{edge_label(e)}: {child['kind']}, {node_figures(child)}")
            walk(child, indent + 1, left - 1)
        if len(n["children"]) > width:
            lines.append(f"{'  ' * indent}... {len(n['children']) - width} more")

    walk(tree, 1, depth)
    return lines
