"""Blackjack's engine members (agents/engines EngineMembers): random playouts for the searches, compiled
(kernels.random_playouts), read by agents/game_search.playout_returns: a batch of rounds
played to the end by uniformly random actions in one call, each card drawn from the search's own Generator.
"""
from __future__ import annotations

import numpy as np


def kernels():
    """The engine's kernels (imported at first use: numba loads with them)."""
    from agents.engines.blackjack import kernels

    return kernels


def warm() -> None:
    """Compile (or load) the playout kernel now, not inside a timed decision."""
    out = np.zeros(1)
    kernels().random_playouts(np.zeros(1, np.int64), np.full(1, -1, np.int64), np.ones((1, 2), np.int64),
                              np.zeros(1), np.array([1, 5], np.int64), 10, 1.0, 10, np.random.default_rng(0), out)


def warm_steps(playing_only: bool) -> list:
    return [warm]


def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list[tuple[float]]:
    """Each state's round reward (a 1-tuple) after a random playout of at most max_moves actions (the reward so
    far where it stops early; a finished round's own)."""
    live = [k for k, s in enumerate(states) if not s.over]
    out = [(float(s.reward),) for s in states]  # a finished round: its own reward
    if live:
        mdp, rounds = rules.mdp, [states[k] for k in live]
        values = np.empty(len(rounds))
        kernels().random_playouts(
            np.array([s.mdp_state.total for s in rounds], np.int64),
            np.array([-1 if s.mdp_state.peeked is None else s.mdp_state.peeked for s in rounds], np.int64),
            np.array([s.mdp_state.counts for s in rounds], np.int64), np.array([s.reward for s in rounds], float),
            np.array(mdp.card_values, np.int64), int(mdp.threshold), float(mdp.peek_cost), int(max_moves), rng,
            values)
        for k, v in zip(live, values.tolist(), strict=True):
            out[k] = (v,)
    return out
