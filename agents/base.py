"""The Agent protocol and the registry that discovers agents in this package.

An agent module registers a factory with `@register(name, games, summary)`;
`discover()` imports every module of the package once, so dropping a new
module in makes its agents appear in Tab and in `python main.py agents`.
No pygame here, ever.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable, Protocol


class Agent(Protocol):
    name: str

    def act(self, state, rng) -> Any:
        """A pure decision for the side to move; may take time (it runs in a worker)."""

    # Optional: explain(state) -> dict[action, float]  values shown in the HUD / `decide`
    # Optional: train(episodes, rng, progress) and save(path) for learners


@dataclass(frozen=True)
class AgentSpec:
    name: str
    games: tuple[str, ...]
    summary: str  # one line: how it works
    factory: Callable[..., Agent]  # factory(rules, settings) -> Agent
    order: int = 50  # position in Tab / listings; lower first
    process: bool = False  # decides in the agent process (long pure-Python work would stall the frames)

    def create(self, rules, settings) -> Agent:
        agent = self.factory(rules, settings)
        if not getattr(agent, "name", None):
            agent.name = self.name
        return agent


class UnknownAgent(ValueError):
    pass


_REGISTRY: list[AgentSpec] = []
_discovered = False


def register(name: str, games: tuple[str, ...] | list[str], summary: str, order: int = 50, process: bool = False):
    """Decorator for an agent factory (a class or a function taking (rules, settings)).

    process=True: the game screens run its decisions in the agent process. Only for agents whose
    screen never reads the instance (its values, its training), as that instance lives elsewhere.
    """

    def wrap(factory):
        for spec in _REGISTRY:
            if spec.name == name and set(spec.games) & set(games):
                raise ValueError(f"agent '{name}' is registered twice for {sorted(set(spec.games) & set(games))}")
        _REGISTRY.append(AgentSpec(name, tuple(games), summary, factory, order, process))
        return factory

    return wrap


def discover() -> None:
    """Import every module in the agents package (once) so their registrations run."""
    global _discovered
    if _discovered:
        return
    import agents as package

    for mod in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if mod.name != "base" and not mod.name.startswith("_"):
            importlib.import_module(f"agents.{mod.name}")
    _discovered = True


def agents_for(game_id: str) -> list[AgentSpec]:
    discover()
    specs = [s for s in _REGISTRY if game_id in s.games]
    return sorted(specs, key=lambda s: (s.order, s.name))


def find(game_id: str, name: str) -> AgentSpec:
    for spec in agents_for(game_id):
        if spec.name == name:
            return spec
    known = ", ".join(s.name for s in agents_for(game_id)) or "none"
    raise UnknownAgent(f"unknown agent '{name}' for {game_id}; choose one of: {known}")


def create(game_id: str, name: str, rules, settings) -> Agent:
    return find(game_id, name).create(rules, settings)


def best_action(values: dict, rng=None):
    """The action with the largest value. Ties go to the first listed (agents list actions in their
    tie-break order), or to a random one of them when a Generator is given."""
    if not values:
        raise ValueError("no legal move in this state")
    best = max(values.values())
    ties = [a for a, v in values.items() if v == best]
    if rng is None or len(ties) == 1:
        return ties[0]
    return ties[int(rng.integers(len(ties)))]
