"""What the search algorithms written once (mcts, expectiminimax) need of any game, and the hooks a fast
engine plugs in through. No pygame; games are used only through the Rules contract.

- `terminal_returns(rules, state)`: a finished game's result for each seat. Two players: +1 win, -1 loss,
  0 draw (OpenSpiel's convention). One player: the score.
- `leaf_values(rules, state)`: an unfinished state's worth for each seat where a search stops: the
  score so far for one player; for two, the margin so far squashed into (-0.5, 0.5), below any decided
  result. Rules with an `evaluate(state)` of their own (a tuple per seat) are asked instead.
- Playouts: `random_playout` plays uniformly random legal moves to the end with the rules themselves;
  a game whose engine does it faster registers `register_playout(game_id, fn)` and every search uses it
  (dots: the line bitboards, a permutation of the free lines; 2048: 64-bit boards as Python ints).
  `playout_returns` plays a batch of playouts and gives each one's result per seat; a game whose engine
  plays many at once registers `register_playouts(game_id, fn)` (dots: numpy over the batch).
"""
from __future__ import annotations

import hashlib
import math
from typing import Callable

import numpy as np

_PLAYOUTS: dict[str, Callable] = {}  # filled by the engines' modules as agents.base.discover() imports them
_BATCH_PLAYOUTS: dict[str, Callable] = {}


def register_playout(game_id: str, playout: Callable) -> None:
    """playout(rules, state, rng, max_moves) -> the state at the end (or after max_moves moves)."""
    _PLAYOUTS[game_id] = playout


def register_playouts(game_id: str, playouts: Callable) -> None:
    """playouts(rules, states, rng, max_moves) -> each state's result per seat after a random playout (as
    `leaf_values` gives it where the playout stopped), or None where it cannot (then one by one)."""
    _BATCH_PLAYOUTS[game_id] = playouts


def terminal_returns(rules, state) -> tuple[float, ...]:
    """The result of a finished game for each seat (see the module docstring)."""
    outcome = rules.outcome(state)
    if rules.players == 1:
        return (float(outcome["score"]),)
    winner = outcome["winner"]
    return (0.0, 0.0) if winner is None else ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))


def leaf_values(rules, state) -> tuple[float, ...]:
    """Each seat's worth of a state where a search stops (finished or not)."""
    if rules.is_terminal(state):
        return terminal_returns(rules, state)
    evaluate = getattr(rules, "evaluate", None)
    if evaluate is not None:
        return tuple(float(v) for v in evaluate(state))
    outcome = rules.outcome(state)
    if rules.players == 1:
        return (float(outcome.get("score", 0.0)),)
    scores = outcome.get("scores")
    if not scores:
        return (0.0, 0.0)
    margin = 0.5 * math.tanh((scores[0] - scores[1]) / 2.0)
    return (margin, -margin)


def random_playout(rules, state, rng: np.random.Generator, max_moves: int):
    """Uniformly random legal moves until the game ends or max_moves are played; the state reached."""
    _read_hooks()
    fast = _PLAYOUTS.get(rules.game_id)
    if fast is not None:
        return fast(rules, state, rng, max_moves)
    return rules_playout(rules, state, rng, max_moves)


def _read_hooks() -> None:
    if not _PLAYOUTS:
        from agents.base import discover

        discover()  # the engines register their hooks when the agents package is read


def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list[tuple[float, ...]]:
    """Random playouts from each of `states` (at most max_moves moves each): each one's result per seat."""
    _read_hooks()
    batch = _BATCH_PLAYOUTS.get(rules.game_id)
    if batch is not None:
        results = batch(rules, states, rng, max_moves)
        if results is not None:
            return results
    return [leaf_values(rules, random_playout(rules, s, rng, max_moves)) for s in states]


def rules_playout(rules, state, rng: np.random.Generator, max_moves: int):
    """The plain playout: random legal moves through the rules themselves (every game has it)."""
    for _ in range(max_moves):
        if rules.is_terminal(state):
            break
        actions = rules.legal_actions(state)
        state = rules.step(state, actions[int(rng.integers(len(actions)))], rng)
    return state


def decision_rng(rng, rules, state) -> np.random.Generator:
    """The Generator of a search: the one given, else one seeded by the position (explain replays)."""
    if rng is not None:
        return rng
    try:
        text = rules.format_state(state)
    except ValueError:  # a state without a text form
        text = ""
    # a digest, not hash(): str hashes differ between processes, and the CLI must replay the screen
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little"))
