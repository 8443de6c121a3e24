"""Games' fast engines: a game's compiled kernels, packed boards and playouts, one package a game here, as its
view is one package in arcade/screens. Light on purpose: nothing here imports numba (agents.base.discover
imports this package as it finds the agents; an engine's kernels load when an agent needs them).

An engine package declares itself for its game as it is imported:

    from tests.extra_game.nim_engine import playouts
    ENGINE = declare(Engine(game="nim", package=__name__, members=playouts, copies=(...)))

and its members module (its `playouts`) gives what the shared searches use (the EngineMembers
protocol below). `engine_for(game_id)` finds a game's engine (None: the searches play through the rules),
`engines()` every declared one; the warm-up (agents/warm_kernels.py) and mcts (agents/game_search.py) loop
over them and name no game. Each package's docstring lists the rules it copies; tests/test_engines.py holds
every declared engine equal to its rules.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable, Protocol, runtime_checkable

LAYER = "engines"  # over the rules and the foundation (tests/test_layers.py)


@runtime_checkable
class EngineMembers(Protocol):
    """What an engine's members module gives (the optional ones may be missing).

    playout_returns(rules, states, rng, max_moves) -> [per-seat results] for each state after a uniformly
        random playout of at most max_moves moves, or None where it cannot (the caller plays by the rules);
        warm() compiles (or loads) them now, not in a timed decision.
    warm_steps(playing_only) -> [callable]: tiny calls that compile (or load) the engine's own kernels, with
        playing_only those a first move needs (the agents that call kernels declare theirs:
        agents.base.declare_warm_up).
    Optional: step(rules, state, action, rng) and legal_actions(rules, state), equal to the rules' own draw
    for draw (a search's walk uses them); tree_board(state, max_moves) and compiled_tree(key): mcts's whole
    tree compiled (agents/engines/uct_tree.CompiledTree), for a two-player game without chance.
    """

    def playout_returns(self, rules, states: list, rng, max_moves: int) -> list | None: ...

    def warm(self) -> None: ...

    def warm_steps(self, playing_only: bool) -> list[Callable[[], None]]: ...


@dataclass(frozen=True)
class Engine:
    """One game's engine. game: the game id. package: the engine's package (its __name__). members: its module
    with the EngineMembers (imported by the package that declares it). copies: the rules functions its kernels
    copy ("module.Class.function"), held equal by tests/test_engines.py. order: where its warm-up steps come
    (lower first: what a first move most likely needs)."""

    game: str
    package: str
    members: ModuleType
    copies: tuple[str, ...] = ()
    order: int = 50

    def api(self) -> EngineMembers:
        """The members module."""
        return self.members


_ENGINES: dict[str, Engine] = {}
_discovered = False


def declare(engine: Engine) -> Engine:
    """Register `engine` for its game (a second declaration for the game replaces the first)."""
    _ENGINES[engine.game] = engine
    return engine


def discover() -> None:
    """Import every engine package here (once) so their declarations run."""
    global _discovered
    if _discovered:
        return
    for mod in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda m: m.name):
        if mod.ispkg:
            importlib.import_module(f"{__name__}.{mod.name}")
    _discovered = True


def engine_for(game_id: str) -> Engine | None:
    """The engine declared for the game, or None."""
    discover()
    return _ENGINES.get(game_id)


def engines() -> list[Engine]:
    """Every declared engine, in warm-up order."""
    discover()
    return sorted(_ENGINES.values(), key=lambda e: (e.order, e.game))
