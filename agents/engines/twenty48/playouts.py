"""2048's engine members (agents/engines EngineMembers): random playouts for the searches, compiled
(playout_kernels.random_playouts), read by agents/game_search.playout_returns; step and legal moves draw for
draw with the rules; the warm-up of every 2048 kernel.

A playout is one board moved hundreds of times: in the kernel it is a uint64 (4 bits a cell, as
agents/engines/twenty48/board64.py packs it), each move four row-table lookups, each of the computer's tiles drawn
from the search's own Generator (so a seeded search replays). A whole random game takes a few
microseconds. Other sizes play on the rules' uint8 cells in the same kernel module (random_playouts_cells,
its slide and spawn held equal to the rules' by tests/test_playouts_2048.py); boards with two tiles of
32768 or more are left to the rules' playout.
"""
from __future__ import annotations

import functools

import numpy as np

from agents.engines.compiled import warm as warm_kernels
from agents.engines.twenty48 import board64
from arcade.games.twenty48 import State2048


@functools.lru_cache(maxsize=1)
def _kernels():
    from agents.engines.twenty48 import playout_kernels

    return playout_kernels


def warm_step() -> None:
    """Tiny calls of the playout kernels: compiled (or loaded from numba's cache) by them."""
    moves_t, gains_t = board64.move_tables()
    k, rng = _kernels(), np.random.default_rng(0)
    k.random_playouts(np.array([0x11], dtype=np.uint64), np.zeros(1, dtype=np.int64), rng, 0.0, 1, moves_t,
                      gains_t, np.zeros(1))
    board = np.zeros((4, 4), dtype=np.uint8)
    board[0, :2] = 1
    board.flags.writeable = False  # as a state's board is
    k.step_cells(board, 2, 0.5, 0.5, 0.0, moves_t, gains_t, np.empty((4, 4), dtype=np.uint8))
    k.legal_directions(board, moves_t, gains_t, np.zeros(4, dtype=np.bool_))
    small = np.zeros((1, 3, 3), dtype=np.uint8)
    small[0, 0, :2] = 1
    k.random_playouts_cells(small, np.zeros(1, dtype=np.int64), rng, 0.0, 1, np.zeros(1))
    small = small[0].copy()
    small.flags.writeable = False
    k.move_cells(small, 2, np.empty((3, 3), dtype=np.uint8))
    k.spawn_cells(small.copy(), 0.5, 0.5, 0.0)


def warm() -> None:
    """Compile (or load) the playout kernel now, not inside a timed decision."""
    warm_kernels([warm_step])  # a progress bar says so while it compiles (the first time only)


def warm_steps(playing_only: bool) -> list:
    """The playouts' kernels (the searches and the learner, which call the engine's kernels, declare theirs)."""
    return [] if playing_only else [warm_step]


def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list | None:
    """Each state's final score (a 1-tuple) after a random playout of at most max_moves moves; None where
    the kernel cannot play them (a 4x4 board it cannot pack: the caller plays those)."""
    scores = np.array([s.score for s in states], dtype=np.int64)
    out = np.empty(len(states))
    if rules.size != 4:
        if not all(s.board.max(initial=0) < 250 for s in states):  # (uint8 exponents, a merge adds one)
            return None
        _kernels().random_playouts_cells(np.stack([s.board for s in states]), scores, rng,
                                         float(rules.spawn_four_probability), int(max_moves), out)
        return [(v,) for v in out.tolist()]
    if not all(board64.fits(s.board) for s in states):
        return None
    boards = board64.pack(np.stack([s.board for s in states]))
    moves_t, gains_t = board64.move_tables()
    _kernels().random_playouts(boards, scores, rng, float(rules.spawn_four_probability), int(max_moves), moves_t,
                              gains_t, out)
    return [(v,) for v in out.tolist()]


def step(rules, state, action, rng: np.random.Generator):
    """rules.step by the kernel, draw for draw (the rules play a 4x4 board it cannot pack). The new state
    carries its legal moves where they were worked out in the same call (legal_actions reads them)."""
    if rules.size != 4:
        return _step_cells(rules, state, action, rng)
    legal = _packed_legal(rules, state)
    if legal is None or action not in legal:
        return rules.step(state, action, rng)  # (a board it does not pack, or an illegal move: the rules say so)
    out = np.empty((4, 4), dtype=np.uint8)
    moves_t, gains_t = board64.move_tables()
    u_cell, u_four = rng.random(), rng.random()  # (as rng.random(2) draws them, without the array)
    code = _kernels().step_cells(state.board, int(action), u_cell, u_four, float(rules.spawn_four_probability),
                                 moves_t, gains_t, out)
    out.flags.writeable = False
    new = _state(out, state.score + (code >> 5))
    if code & 16:  # the new board packs: its legal moves are known
        object.__setattr__(new, "_legal", list(_DIRECTIONS[code & 15]))
    return new


def _state(board: np.ndarray, score: int) -> State2048:
    """A state around a board already private and read-only (what State2048 would copy it to)."""
    new = object.__new__(State2048)
    object.__setattr__(new, "board", board)
    object.__setattr__(new, "score", score)
    return new


def _step_cells(rules, state, action, rng):
    """step on a board of another size, cell by cell (its slide and spawn are the rules', tested so)."""
    if state.board.max(initial=0) >= 250:  # (uint8 exponents: the rules refuse what does not fit)
        return rules.step(state, action, rng)
    out = np.empty_like(state.board)
    gained = _kernels().move_cells(state.board, int(action), out)
    if gained < 0:
        return rules.step(state, action, rng)  # (an illegal move: the rules say so)
    u_cell, u_four = rng.random(), rng.random()
    _kernels().spawn_cells(out, u_cell, u_four, float(rules.spawn_four_probability))
    out.flags.writeable = False
    return _state(out, state.score + int(gained))


_DIRECTIONS = tuple(tuple(d for d in range(4) if (mask >> d) & 1) for mask in range(16))  # by mask of legal moves


def _packed_legal(rules, state) -> list[int] | None:
    """The legal moves of a 4x4 board the kernels pack (as a state made by step carries them), else None."""
    known = state.__dict__.get("_legal")
    if known is not None:
        return known
    if rules.size != 4:
        scratch = np.empty_like(state.board)
        return [d for d in range(4) if _kernels().move_cells(state.board, d, scratch) >= 0]
    moves_t, gains_t = board64.move_tables()
    legal = np.zeros(4, dtype=np.bool_)
    if not _kernels().legal_directions(state.board, moves_t, gains_t, legal):
        return None
    return [d for d in range(4) if legal[d]]


def legal_actions(rules, state) -> list[int]:
    """rules.legal_actions by the kernel (the rules answer for boards it does not pack)."""
    legal = _packed_legal(rules, state)
    return rules.legal_actions(state) if legal is None else legal
