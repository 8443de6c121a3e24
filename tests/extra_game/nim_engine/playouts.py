"""Nim's engine members (agents.engines.EngineMembers): the compiled tree and its playouts."""
from __future__ import annotations

import functools

import numpy as np

from agents.engines.uct_tree import CompiledTree, playout_returns as on_trees

KEY = ("tree",)


class NimTree(CompiledTree):
    def __init__(self):
        super().__init__(4, 0b1110, max_length=99)  # (moves: bits 1 to 3; a game: a move a stone at most)

    def positions(self):
        from tests.extra_game.nim_engine import tree_positions

        return tree_positions

    def position(self, state) -> tuple[int, int, int]:
        return state.stones, state.last, state.mover


@functools.lru_cache(maxsize=1)
def _tree() -> NimTree:
    return NimTree()


def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list | None:
    return on_trees(lambda s: _tree(), states, rng) if max_moves >= rules.heap else None


def tree_board(state, max_moves: int):
    return KEY if max_moves >= state.stones else None


def compiled_tree(key) -> NimTree:
    return NimTree()


def warm() -> None:
    from tests.extra_game.nim import NimState

    _tree().warm(NimState(5))


def warm_steps(playing_only: bool) -> list:
    return [warm]
