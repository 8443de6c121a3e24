"""Tic-tac-toe's compiled UCT tree (agents/engines/uct_tree.CompiledTree on this engine's tree_positions)."""
from __future__ import annotations

import numpy as np

from agents.engines.uct_tree import CompiledTree


class TicTacToeTree(CompiledTree):
    """Tic-tac-toe: (X's cells as bits, O's cells, the mover: X is seat 0)."""

    def __init__(self):
        super().__init__(9, (1 << 9) - 1)

    def positions(self):
        from agents.engines.tictactoe import tree_positions

        return tree_positions

    def position(self, state) -> tuple[int, int, int]:
        from arcade.games.tictactoe import O, X, decode, tables

        cells = decode(state)
        bits = 1 << np.arange(9)
        return int(bits[cells == X].sum()), int(bits[cells == O].sum()), 0 if tables().to_move[state] == X else 1
