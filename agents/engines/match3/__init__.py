"""Match-3's fast engine: turns, random playouts and greedy rollouts compiled (kernels, playouts).

The rules it copies (arcade/games/match3.py and its batched form arcade/games/match3_batch.py: a swap that
makes a line, matches cleared and scored, gems falling, new gems drawn, cascades, the reshuffle of a board
with no swap), held equal draw for draw by tests/test_engines.py.
"""
from __future__ import annotations

from agents.engines import Engine, declare
from agents.engines.match3 import playouts

ENGINE = declare(Engine(game="match3", package=__name__, members=playouts, order=50,
                        copies=("arcade.games.match3.Match3Rules.step", "arcade.games.match3.Match3Rules.legal_actions")))
