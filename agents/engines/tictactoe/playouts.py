"""Tic-tac-toe's engine members (agents/engines EngineMembers): mcts's whole tree compiled (tree.TicTacToeTree on
X's and O's cells as bits), and the same compiled random playouts for a search that asks for playouts alone.
"""
from __future__ import annotations

import functools

import numpy as np

KEY = ("tree",)  # (one tree serves every position)


@functools.lru_cache(maxsize=1)
def _playout_tree():
    return compiled_tree(KEY)


def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list[tuple[float, float]] | None:
    """Each state's result for both seats (+1 / 0 / -1) after a uniformly random playout to the end; None where
    max_moves could stop one early (fewer than 9: the caller plays those by the rules)."""
    if max_moves < 9:
        return None
    from agents.engines.uct_tree import playout_returns as on_trees

    return on_trees(lambda s: _playout_tree(), states, rng)


def tree_board(state, max_moves: int) -> tuple[str] | None:
    """The one compiled tree every position uses; None where max_moves could cut a playout (the Python tree
    takes those)."""
    return KEY if max_moves >= 9 else None


def compiled_tree(key: tuple[str]):
    """mcts's whole tree compiled (tree.TicTacToeTree)."""
    from agents.engines.tictactoe.tree import TicTacToeTree

    return TicTacToeTree()


def warm() -> None:
    """Compile (or load) the compiled tree's kernels."""
    compiled_tree(KEY).warm(0)


def warm_steps(playing_only: bool) -> list:
    return [warm]
