"""Dots and boxes' fast engine: the board for searches (board: drawn sides per box, chain analysis), the learnt
network and its self-play (kernels), the alpha-beta (search_kernels), mcts's compiled tree (tree,
tree_positions and its copy of the tree kernels) and the playouts (playouts).

The rules it copies (arcade/games/dots.py), each copy held equal by tests/test_engines.py:
- a line drawn and the boxes it completes, the turn kept by the player who completes one (DotsRules.step,
  dots.gain): kernels.gain, tree_positions.step, search_kernels' moves, board.Position.draw;
- the end and its result (DotsRules.is_terminal, outcome: the margin decides): tree_positions.moves and
  result_of.
"""
from __future__ import annotations

from agents.engines import Engine, declare
from agents.engines.dots import playouts

ENGINE = declare(Engine(game="dots", package=__name__, members=playouts, order=20, copies=(
    "arcade.games.dots.DotsRules.step", "arcade.games.dots.gain", "arcade.games.dots.DotsRules.outcome")))
