"""Match-3's engine members (agents/engines EngineMembers): random playouts for the searches, compiled
(kernels.random_playouts), read by agents/game_search.playout_returns; step draw for draw with the rules. The kernel plays
the rules' game draw for draw; a whole game of 50 turns takes about a millisecond in Python's rules
and a few tens of microseconds here."""
from __future__ import annotations

import numpy as np

from agents.engines.compiled import warm as warm_kernels
from arcade.games.match3 import Match3State, swap_index


def _kernel():
    """The engine's kernels (imported at first use: numba loads with them)."""
    from agents.engines.match3 import kernels

    return kernels


def warm_step() -> None:
    """Tiny calls of the playout, turn and rollout kernels: compiled (or loaded from numba's cache) by them."""
    board = (np.arange(16, dtype=np.int8).reshape(4, 4) % 3)
    rng = np.random.default_rng(0)
    _kernel().random_playouts(board[None], np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), 3, rng, 0,
                              np.zeros(1))
    _kernel().play_turn(board.copy(), 0, 1, 3, rng, np.empty(24, dtype=np.int64))
    greedy_rollouts(board, np.zeros(0, dtype=np.int64), np.zeros((1, 1), dtype=np.int8), 0, 1, rng,
                    np.empty((0, 1), dtype=np.int64), np.empty((0, 1, 4, 4), dtype=np.int8))


def greedy_rollouts(board: np.ndarray, candidates: np.ndarray, tapes: np.ndarray, depth: int, turns_left: int,
                    rng: np.random.Generator, totals: np.ndarray, finals: np.ndarray) -> int:
    """Monte-Carlo's rollouts, compiled (agents/engines/match3/kernels.greedy_rollouts): each candidate swap (legal,
    all_swaps order, int64) on settled `board` (s x s int8) followed by up to `depth` greedy-cascade turns,
    rollout j's new gems from tapes[j] (n x T int8); totals (A x n int64) and finals (A x n x s x s int8)
    filled; returns how many boards were reshuffled."""
    return int(_kernel().greedy_rollouts(board, candidates, tapes, int(depth), int(turns_left), rng, totals, finals))


def warm() -> None:
    """Compile (or load) the playout kernels now, not inside a timed decision."""
    warm_kernels([warm_step])  # a progress bar says so while it compiles (the first time only)


def warm_steps(playing_only: bool) -> list:
    """The playouts', a turn's and the rollouts' kernels (monte-carlo loads them as it is made)."""
    return [] if playing_only else [warm_step]


def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list:
    """Each state's final score (a 1-tuple) after random swaps to the end of the game (at most max_moves)."""
    boards = np.stack([s.board for s in states]).astype(np.int8)
    turns = np.array([s.turns_left for s in states], dtype=np.int64)
    scores = np.array([s.score for s in states], dtype=np.int64)
    out = np.empty(len(states))
    _kernel().random_playouts(boards, turns, scores, int(rules.colours), rng, int(max_moves), out)
    return [(v,) for v in out.tolist()]


def step(rules, state, action, rng: np.random.Generator):
    """rules.step by the kernel, draw for draw: the state after one turn, its legal swaps worked out."""
    size = rules.size
    k = swap_index(size).get(tuple(int(v) for v in action))
    if state.turns_left <= 0 or k is None or not state.swap_mask[k]:
        return rules.step(state, action, rng)  # (the rules say what is wrong with it)
    board = state.board.astype(np.int8)  # a copy: the state's board is read-only
    swaps = np.empty(2 * size * (size - 1), dtype=np.int64)
    points, reshuffled, n = _kernel().play_turn(board, k, state.turns_left, rules.colours, rng, swaps)
    new = Match3State(board, state.turns_left - 1, state.score + points, state.shuffles + int(reshuffled),
                      state.colours)
    if n >= 0:  # the new state's legal swaps, as the rules' play leaves them (a cached property)
        mask = np.zeros(len(swap_index(size)), dtype=bool)
        mask[swaps[:n]] = True
        mask.flags.writeable = False
        object.__setattr__(new, "swap_mask", mask)
    return new
