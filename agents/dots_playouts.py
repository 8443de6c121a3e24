"""The fast engine dots declares for the searches (its GameType's `playouts`; agents/game_search.py says what a
fast engine offers): mcts's whole tree compiled (compiled_tree: agents/uct_tree.py, the walk and its playouts
without Python), and the same compiled random playouts one state at a time for any other search
(playout_returns).
"""
from __future__ import annotations

import numpy as np

from agents.compiled import kernels
from agents.dots_engine import board_arrays



def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list[tuple[float, float]] | None:
    """Each state's result for both seats (+1 / 0 / -1) after a random playout to the end (agents/kernels/uct.py's
    playout); None where a playout would stop early (max_moves shorter than a game's free lines: the caller
    plays those by the rules)."""
    if any(s.board.n_lines - s.lines.bit_count() > max_moves for s in states):
        return None
    k = kernels(name="uct")
    out = []
    for s in states:
        box_lines, line_boxes = board_arrays(s.rows, s.cols)
        n = line_boxes.shape[0]
        m = float(k.playout(k.DOTS, np.int64(s.lines), np.int64(s.scores[0] - s.scores[1]), np.int64(s.mover),
                            np.int64((1 << n) - 1), np.empty(n, np.int64), box_lines, line_boxes, rng))
        out.append((m, -m))
    return out


def tree_board(state, max_moves: int) -> tuple[int, int] | None:
    """Which compiled tree a state needs (its board's size); None where playouts of max_moves moves would stop
    before the end (the compiled tree plays them to the end: the Python tree takes those)."""
    return (state.rows, state.cols) if max_moves >= state.board.n_lines else None


def compiled_tree(board: tuple[int, int]):
    """mcts's whole tree compiled for a board of this size (agents/uct_tree.DotsTree)."""
    from agents.uct_tree import DotsTree

    return DotsTree(*board)


def warm() -> None:
    """Compile (or load) the compiled tree's kernels."""
    from arcade.games.dots import DotsState

    compiled_tree((1, 1)).warm(DotsState(1, 1))
