"""Dots' engine members (agents/engines EngineMembers): mcts's whole tree compiled (compiled_tree: tree.DotsTree,
the walk and its playouts without Python), the same compiled random playouts one state at a time for any
other search (playout_returns), and the warm-up of every dots kernel.
"""
from __future__ import annotations

import functools

import numpy as np



def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list[tuple[float, float]] | None:
    """Each state's result for both seats (+1 / 0 / -1) after a random playout to the end on its board's compiled
    tree; None where a playout would stop early (max_moves shorter than a game's free lines: the caller plays
    those by the rules)."""
    if any(s.board.n_lines - s.lines.bit_count() > max_moves for s in states):
        return None
    from agents.engines.uct_tree import playout_returns as on_trees

    return on_trees(lambda s: _playout_tree((s.rows, s.cols)), states, rng)


@functools.lru_cache(maxsize=None)
def _playout_tree(board: tuple[int, int]):
    return compiled_tree(board)


def tree_board(state, max_moves: int) -> tuple[int, int] | None:
    """Which compiled tree a state needs (its board's size); None where playouts of max_moves moves would stop
    before the end (the compiled tree plays them to the end: the Python tree takes those)."""
    return (state.rows, state.cols) if max_moves >= state.board.n_lines else None


def compiled_tree(board: tuple[int, int]):
    """mcts's whole tree compiled for a board of this size (tree.DotsTree)."""
    from agents.engines.dots.tree import DotsTree

    return DotsTree(*board)


def warm() -> None:
    """Compile (or load) the compiled tree's kernels."""
    from arcade.games.dots import DotsState

    compiled_tree((1, 1)).warm(DotsState(1, 1))


def warm_steps(playing_only: bool) -> list:
    """The compiled tree's kernels (the network, the alpha-beta and the learner declare theirs)."""
    return [warm]
