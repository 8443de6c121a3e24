"""2048's fast engine: 4x4 boards packed in 64 bits (board64), the compiled expectimax search, n-tuple network and
TD learner (kernels), the compiled playouts, step and legal moves on any size (playout_kernels, playouts).

The rules it copies (arcade/games/twenty48.py), each copy held equal by tests/test_engines.py:
- the slide and merge of a row (slide_rows_left): board64.row_tables / gain_tables (the row tables every
  kernel reads), playout_kernels.move_cells (any size);
- the tile spawn (Rules2048.spawn: a uniformly drawn empty cell, a 4 with spawn_four_probability): board64.spawn
  and spawn_children, kernels.spawn_tile and _spawn_probability (the search's chance nodes, the learner's games),
  playout_kernels.spawn_cells and step_cells (draw for draw: cell by rng.random(), then the 4 by rng.random());
- the legal moves and the end (Rules2048.legal_actions, is_terminal): playout_kernels.legal_directions.
The bit tricks on packed boards (transpose, mirror) are board64's and kernels'; agents/ntuple_net reads them
from board64.
"""
from __future__ import annotations

from agents.engines import Engine, declare
from agents.engines.twenty48 import playouts

ENGINE = declare(Engine(game="2048", package=__name__, members=playouts, order=10, copies=(
    "arcade.games.twenty48.slide_rows_left", "arcade.games.twenty48.Rules2048.spawn",
    "arcade.games.twenty48.Rules2048.step", "arcade.games.twenty48.Rules2048.legal_actions")))
