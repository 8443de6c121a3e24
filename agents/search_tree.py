"""A search tree as an agent shows it: the plain data the tree view draws and `decide --tree --json` prints.

A NODE is a dict {"kind": "max" | "min" | "chance" | "leaf", "value": v, "children": [EDGE, ...]} plus the
figures of its kind (an MCTS node's "visits", "uct", "proven"; a node cut off below the asked depth its
"more": how many children it had). An EDGE is {"action": a} (a move, from a max or min node) or {"outcome": o}
(what chance did, from a chance node), with "p" (its probability where chance chose it) and "node": NODE.
Values are for the side to move at the root, so a max node's value is its largest child's and a min node's its
smallest. Agents build trees with `node` and `edge`; nothing here knows a game.
"""
from __future__ import annotations

from typing import Callable

KINDS = ("max", "min", "chance", "leaf")


def node(kind: str, value: float, children: list | tuple = (), **figures) -> dict:
    """A NODE of `kind` worth `value` (for the root's mover) with its EDGEs and figures."""
    if kind not in KINDS:
        raise ValueError(f"a tree node's kind is one of {', '.join(KINDS)}, not {kind!r}")
    return {"kind": kind, "value": float(value), "children": list(children), **figures}


def edge(child: dict, action=None, outcome=None, p: float | None = None, state=None) -> dict:
    """An EDGE to `child`: by the move `action`, or by chance's `outcome` (with its probability `p`); `state`:
    the position it leads to, where the agent has it and the rules alone could not give it (the tree view
    draws it; JSON leaves it out)."""
    out: dict = {"action": action} if outcome is None else {"outcome": outcome}
    if p is not None:
        out["p"] = float(p)
    if state is not None:
        out["state"] = state
    out["node"] = child
    return out


def one_ply(values: dict, **figures) -> dict:
    """An agent's one ply as a tree: a max node over its moves, each a leaf worth explain's value (with
    `figures`, what the value is: learnt="V of the afterstate" for what learns, meaning="the score right after
    the move" for what computes it); a leaf where there is no move."""
    if not values:
        return node("leaf", 0.0)
    return node("max", max(values.values()), [edge(node("leaf", v, **figures), action=a) for a, v in values.items()])


def cut(tree: dict, depth: int | None) -> dict:
    """A copy of `tree` down to `depth` edges from the root (None: all of it); a node whose children were left
    out says how many it had ("more")."""
    out = {k: v for k, v in tree.items() if k != "children"}
    children = tree["children"]
    if depth is not None and depth <= 0:
        out["children"] = []
        if children:
            out["more"] = len(children) + tree.get("more", 0)
        return out
    out["children"] = [{**e, "node": cut(e["node"], None if depth is None else depth - 1)} for e in children]
    return out


def prune(tree: dict, max_nodes: int) -> dict:
    """A copy of `tree` with at most `max_nodes` nodes, kept level by level from the root (the root's children
    always, whatever the budget); a node whose children were left out says how many it had ("more")."""
    out = {k: v for k, v in tree.items() if k != "children"}
    kept, level = 1, [(tree, out)]
    while level:
        below = []
        for original, copy in level:
            children = original["children"]
            if kept + len(children) > max_nodes and copy is not out:
                copy["children"] = []
                if children:
                    copy["more"] = len(children) + original.get("more", 0)
                continue
            copy["children"] = []
            for e in children:
                child = {k: v for k, v in e["node"].items() if k != "children"}
                copy["children"].append({**e, "node": child})
                below.append((e["node"], child))
            kept += len(children)
        level = below
    return out


def size(tree: dict) -> int:
    """How many nodes the tree holds."""
    return 1 + sum(size(e["node"]) for e in tree["children"])


def depth_of(tree: dict) -> int:
    """The longest path from the root, in edges."""
    return max((1 + depth_of(e["node"]) for e in tree["children"]), default=0)


def best_edge(tree: dict) -> dict | None:
    """The edge the search follows from this node: a max node's largest value, a min node's smallest, a chance
    node's most probable outcome (first listed on ties); None at a leaf."""
    children = tree["children"]
    if not children:
        return None
    if tree["kind"] == "chance":
        return max(children, key=lambda e: e.get("p", 0.0))
    if all("visits" in e["node"] for e in children):  # a sampled search follows its most visited move
        return max(children, key=lambda e: e["node"]["visits"])
    pick = max if tree["kind"] == "max" else min
    return pick(children, key=lambda e: e["node"]["value"])


def principal_line(tree: dict) -> list[dict]:
    """The edges followed from the root by best_edge, down to a leaf."""
    line, at = [], tree
    while (e := best_edge(at)) is not None:
        line.append(e)
        at = e["node"]
    return line


def check(tree: dict, tolerance: float = 1e-9) -> None:
    """Raise ValueError where a node's value is not what its children give: a max node's largest, a min node's
    smallest, a chance node's probability-weighted mean (nodes cut short, with "more", nodes searched again
    from their own position, with "searched", and learnt estimates, with "estimate", are not checked against
    their children)."""
    children = tree["children"]
    for e in children:
        check(e["node"], tolerance)
    if not children or tree.get("more") or tree.get("searched") or tree.get("estimate"):
        return  # (a node searched again from its position, or a learnt estimate, is not its children's backup)
    values = [e["node"]["value"] for e in children]
    if tree["kind"] == "chance":
        want = sum(e["p"] * v for e, v in zip(children, values, strict=True))
    elif tree["kind"] in ("max", "min"):
        want = max(values) if tree["kind"] == "max" else min(values)
    else:
        raise ValueError("a leaf has no children")
    if abs(want - tree["value"]) > tolerance * max(1.0, abs(want)):
        raise ValueError(f"a {tree['kind']} node worth {tree['value']} where its children give {want}")


def as_json(tree: dict, action_text: Callable | None = None, outcome_text: Callable | None = None) -> dict:
    """The tree ready for JSON: each move as the game's action and, where action_text is given, as its name in
    the game's notation ("move"); each outcome as text where outcome_text is given."""
    out = {k: v for k, v in tree.items() if k != "children"}
    kids = []  # (an edge's state, a position for the tree view, is not printed)
    for e in tree["children"]:
        if "action" in e:
            label = {"action": e["action"], **({"move": action_text(e["action"])} if action_text else {})}
        else:
            label = {"outcome": outcome_text(e["outcome"]) if outcome_text else e["outcome"]}
        if "p" in e:
            label["p"] = e["p"]
        kids.append({**label, "node": as_json(e["node"], action_text, outcome_text)})
    out["children"] = kids
    return out
