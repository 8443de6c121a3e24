"""What the search algorithms written once (mcts, expectiminimax) need of any game, and the playouts a
fast engine offers. No pygame; games are used only through the Rules contract.

- `terminal_returns(rules, state)`: a finished game's result for each seat. Two players: +1 win, -1 loss,
  0 draw (OpenSpiel's convention). One player: the score.
- `leaf_values(rules, state)`: an unfinished state's worth for each seat where a search stops: the
  score so far for one player; for two, the margin so far squashed into (-0.5, 0.5), below any decided
  result. Rules with an `evaluate(state)` of their own (a tuple per seat) are asked instead.
- Playouts: `playout_returns` plays a batch of uniformly random playouts and gives each one's result per
  seat. A game whose fast engine plays them faster (agents/engines: an engine declared for its id, its
  members as agents.engines.EngineMembers says) plays them there; otherwise, and where the engine answers
  None, `rules_playout` plays them with the rules themselves. `fast_playouts(rules)` gives the engine's
  members (None: no engine), `walk_moves(rules)` the step and legal moves a search should use.
"""
from __future__ import annotations

import functools
import hashlib
import math

import numpy as np

def fast_playouts(rules):
    """The members of the game's fast engine (agents.engines.EngineMembers), or None where it has none."""
    from agents.engines import engine_for

    engine = engine_for(getattr(rules, "game_id", ""))
    return engine.api() if engine is not None else None


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


def walk_moves(rules, fast: bool = True):
    """(step(state, action, rng), legal(state)) for a search's walk: the game's declared fast ones where it
    has them (and `fast`), else the rules' own. legal gives [] once the game is over (a fast one must too)."""
    fast = fast_playouts(rules) if fast else None
    step, legal = getattr(fast, "step", None), getattr(fast, "legal_actions", None)
    legal = functools.partial(_rules_legal if legal is None else legal, rules)  # (partials pickle; closures not)
    return rules.step if step is None else functools.partial(step, rules), legal


def _rules_legal(rules, state) -> list:
    return [] if rules.is_terminal(state) else rules.legal_actions(state)


def playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list[tuple[float, ...]]:
    """Random playouts from each of `states` (at most max_moves moves each): each one's result per seat,
    by the game's declared fast playouts where it has them, else by the rules."""
    fast = fast_playouts(rules)
    if fast is not None:
        results = fast.playout_returns(rules, states, rng, max_moves)
        if results is not None:
            return results
    return plain_playout_returns(rules, states, rng, max_moves)


def plain_playout_returns(rules, states: list, rng: np.random.Generator, max_moves: int) -> list[tuple[float, ...]]:
    """playout_returns by the rules alone (what the fast playouts are measured and tested against)."""
    return [leaf_values(rules, rules_playout(rules, s, rng, max_moves)) for s in states]


def rules_playout(rules, state, rng: np.random.Generator, max_moves: int):
    """The plain playout: random legal moves through the rules themselves (every game has it)."""
    for _ in range(max_moves):
        if rules.is_terminal(state):
            break
        actions = rules.legal_actions(state)
        state = rules.step(state, actions[int(rng.integers(len(actions)))], rng)
    return state


def random_positions(rules, count: int, seed: int, moves: tuple[int, int]) -> list:
    """`count` unfinished states, each a new game played on by a random number of random moves in [low, high]
    of `moves`; attempt k draws everything from Generator(seed + k) (a finished game is skipped), so a
    position does not depend on how many come before it."""
    low, high = moves
    out, k = [], seed
    while len(out) < count:
        rng = np.random.default_rng(k)
        k += 1
        state = rules_playout(rules, rules.new_state(rng), rng, int(rng.integers(low, high + 1)))
        if not rules.is_terminal(state):
            out.append(state)
    return out


def decision_rng(rng, rules, state) -> np.random.Generator:
    """The Generator of a search: the one given, else one seeded by the position (explain replays)."""
    if rng is not None:
        return rng
    try:
        text = rules.format_state(state).split(" ", 1)[0]  # (the board alone, as before states wrote figures
    except ValueError:  # a state without a text form                  # after it: seeded searches replay)
        text = ""
    # a digest, not hash(): str hashes differ between processes, and the CLI must replay the screen
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little"))
