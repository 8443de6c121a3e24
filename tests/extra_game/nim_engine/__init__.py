"""Nim's fast engine, added as a package of its own and nothing else (tests/test_engines.py): mcts's whole tree
compiled on (stones, the seat that took the last, the mover): the shared tree kernels
(agents/engines/tree_kernels.py) on its positions module (tree_positions.py here).

The rules it copies (tests/extra_game/nim.py: take 1 to 3 stones, who takes the last wins): tree_positions'
moves, step and result_of, held equal by tests/test_engines.py.
"""
from __future__ import annotations

from agents.engines import Engine, declare
from tests.extra_game.nim_engine import playouts

ENGINE = declare(Engine(game="nim", package=__name__, members=playouts,
                        copies=("tests.extra_game.nim.NimRules.step", "tests.extra_game.nim.NimRules.outcome")))
