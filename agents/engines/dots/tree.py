"""Dots' compiled UCT tree (agents/engines/uct_tree.CompiledTree on this engine's tree_positions): one board size a tree."""
from __future__ import annotations

from agents.engines.dots.board import board_arrays
from agents.engines.uct_tree import CompiledTree


class DotsTree(CompiledTree):
    """Dots on one board size: (lines, seat 0's box margin, the mover)."""

    def __init__(self, rows: int, cols: int):
        box_lines, line_boxes = board_arrays(rows, cols)
        n = line_boxes.shape[0]
        super().__init__(n, (1 << n) - 1, box_lines, line_boxes)

    def positions(self):
        from agents.engines.dots import tree_positions

        return tree_positions

    def position(self, state) -> tuple[int, int, int]:
        return state.lines, state.scores[0] - state.scores[1], state.mover
