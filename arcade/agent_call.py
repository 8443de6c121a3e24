"""Asking an agent one thing and what comes back: the one place an agent's method is called for a host.

`call(agent, method, state, rng, rules)` runs act / decide / decide_tree / decide_tree_shown / explain /
explain_all / tree / tree_shown / build and returns an `Answer`
(the value, the agent's figures of that work, the milliseconds, the legend of explained values). The
deciders (a worker thread, the agent process) and the CLI all go through it. No pygame.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents import Explains, Reports, decide

METHODS = ("act", "decide", "decide_tree", "decide_tree_shown", "explain", "explain_all", "tree", "tree_shown", "build")
SHOWN_NODES = 2000  # a tree sent to a window: its top levels up to this many nodes (a 13,000-node tree took
#                     66 ms to unpickle on the frame loop; the view opens one level at a time)


def draws(method: str) -> bool:
    """Whether `method` is a decision that draws from a Generator (an act or a decide)."""
    return method == "act" or method.startswith("decide")


def decision_seed(rng: np.random.Generator) -> int:
    """The seed of one decision's Generator, drawn from the host's `rng` (a controller's running one, or a
    fresh one of a seed): a decision made in this process, in the agent process or by `decide` on the command
    line draws from np.random.default_rng(this), so one seed gives one decision wherever it is asked."""
    return int(rng.integers(2**63))


def decision_rng(rng: np.random.Generator) -> np.random.Generator:
    """The Generator one decision draws from (see decision_seed)."""
    return np.random.default_rng(decision_seed(rng))


@dataclass(frozen=True)
class Answer:
    """What an agent said: the value (an action, {action: value}, a list of those, or None), the
    figures it reports of that work (Reports), and the milliseconds it took where it ran."""

    value: Any
    figures: dict = field(default_factory=dict)
    ms: float = 0.0
    legend: str = ""  # with explain: what the numbers mean, for the side to move


def call(agent, method: str, state, rng, rules=None) -> Answer:
    """agent.act(state, rng), agent.explain(state), [agent.explain(s) for s in state] ("explain_all"), the
    search tree of a decision (agent.tree(state, rng): "tree"; its top SHOWN_NODES nodes for a window:
    "tree_shown"), or nothing ("build": the agent is built); "decide": one decision (agents.decide: the
    action, the values it was chosen on, from one search), "decide_tree" with that search's tree too,
    "decide_tree_shown" with its top SHOWN_NODES nodes; timed, with the agent's figures."""
    t0 = time.perf_counter()
    if method == "act":
        value = agent.act(state, rng)
    elif method.startswith("decide"):
        value = decide(agent, state, rng, tree=method != "decide")
        if method == "decide_tree_shown" and value.tree is not None:
            from dataclasses import replace

            from agents.search_tree import prune

            value = replace(value, tree=prune(value.tree, SHOWN_NODES))
    elif method == "explain":
        value = agent.explain(state)
    elif method == "explain_all":
        value = [agent.explain(s) for s in state]
    elif method == "tree":
        value = agent.tree(state, rng)
    elif method == "tree_shown":
        from agents.search_tree import prune

        value = prune(agent.tree(state, rng), SHOWN_NODES)
    elif method == "build":
        value = None
    else:
        raise ValueError(f"unknown agent method '{method}'; one of {', '.join(METHODS)}")
    ms = (time.perf_counter() - t0) * 1000
    figures = agent.figures() if method != "build" and isinstance(agent, Reports) else {}
    legend = ""
    if (method == "explain" or method.startswith("decide")) and rules is not None and isinstance(agent, Explains):
        legend = agent.value_legend(rules.seat_names[rules.to_move(state)])
    return Answer(value, figures, ms, legend)
