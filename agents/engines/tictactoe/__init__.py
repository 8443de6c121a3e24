"""Tic-tac-toe's fast engine: mcts's compiled tree on X's and O's cells as bits (tree, tree_positions and its copy of
the tree kernels) and the same compiled playouts (playouts).

The rules it copies (arcade/games/tictactoe.py: X first, a line of three wins, a full board draws), held equal
by tests/test_engines.py: tree_positions.moves, step and result_of.
"""
from __future__ import annotations

from agents.engines import Engine, declare
from agents.engines.tictactoe import playouts

ENGINE = declare(Engine(game="tictactoe", package=__name__, members=playouts, order=30, copies=(
    "arcade.games.tictactoe.TicTacToeRules.step", "arcade.games.tictactoe.TicTacToeRules.outcome")))
