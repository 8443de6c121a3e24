"""Perfect tic-tac-toe by retrograde analysis over all reachable states (the test oracle too).

The value of a state is for the side to move: a finished game with a winner is
worth -(1 + empty cells) to the side to move (it lost; the earlier the loss the
worse), a draw 0, otherwise the max over moves of minus the successor's value.
So the player prefers the fastest win and the slowest loss. Computed once,
layer by layer from full boards back to the empty one, with numpy.
"""
from __future__ import annotations

import functools

import numpy as np

from agents.base import best_action, register, STRONGEST
from agents.search_tree import edge, node
from arcade.games.tictactoe import N_STATES, reachable_states, tables


@functools.lru_cache(maxsize=None)
def solve() -> np.ndarray:
    """Value of every reachable state for the side to move (other entries are 0)."""
    t = tables()
    values = np.zeros(N_STATES)
    states = reachable_states()
    ends = states[t.terminal[states]]
    values[ends] = np.where(t.winner[ends] != 0, -(1.0 + 9 - t.pieces[ends]), 0.0)
    for pieces in range(8, -1, -1):
        layer = states[(t.pieces[states] == pieces) & ~t.terminal[states]]
        succ = t.successor[layer]
        child = np.where(succ >= 0, -values[np.maximum(succ, 0)], -np.inf)
        values[layer] = child.max(axis=1)
    values.flags.writeable = False
    return values


def move_values(state: int) -> dict[int, float]:
    """Minimax value of each legal move for the side to move."""
    succ = tables().successor[state]
    values = solve()
    return {int(k): float(-values[succ[k]]) + 0.0 for k in np.flatnonzero(succ >= 0)}  # + 0.0: no -0.0


def _minimax_tree(state: int, sign: float, depth: int) -> dict:
    """The node of `state`, valued for the root's mover (sign -1 where the other side moves here)."""
    values = move_values(state)
    if not values:  # the game is over: its value for the side to move, turned to the root's mover
        return node("leaf", sign * float(solve()[state]) + 0.0)
    succ = tables().successor[state]
    best = max(values.values())
    edges = []
    for a, v in values.items():
        if depth > 1 or (v == best and not any(e["node"]["value"] == sign * best for e in edges)):
            child = _minimax_tree(int(succ[a]), -sign, depth - 1)
        else:
            replies = int((tables().successor[int(succ[a])] >= 0).sum())  # cut here: how many it had
            child = node("min" if sign > 0 else "max", sign * v + 0.0, more=replies) if replies \
                else node("leaf", sign * v + 0.0)
        child["value"] = sign * v + 0.0
        edges.append(edge(child, action=a))
    value = sign * best + 0.0
    return node("max" if sign > 0 else "min", value, edges)


@register("minimax", ("tictactoe",), "perfect play: retrograde minimax, fastest win and slowest loss", order=20,
          about="Minimax over every reachable board, solved backwards from the finished ones: a win is worth "
                "more the sooner it comes, a loss less the later. It never loses; against it, a draw is the "
                "best there is.", group=STRONGEST, title="Minimax (perfect play)")
class Minimax:
    """Perfect tic-tac-toe from the solved table: fastest win, slowest loss, ties at random."""

    name = "minimax"

    def __init__(self, rules, settings):
        self.rules = rules
        solve()

    def explain(self, state: int) -> dict[int, float]:
        """{cell: minimax value for the mover}: 1 + empty cells left for a win, 0 a draw, negative a loss."""
        return move_values(state)

    def value_legend(self, mover: str) -> str:
        return (f"The numbers: {self.name}'s value of each move for {mover}: above 0 wins, "
                "0 draws, below 0 loses; the bigger, the sooner.")

    def act(self, state: int, rng) -> int:
        return best_action(move_values(state), rng)

    TREE_DEPTH = 2  # every reply this deep; below, the principal variation alone

    def tree(self, state: int, rng=None) -> dict:
        """The minimax tree of `state` from the solved table: every move and every reply to it (TREE_DEPTH
        plies), then the principal variation (both sides' best) to the end of the game; values for the side to
        move at the root, so its moves are max nodes' children and the replies min nodes'."""
        return _minimax_tree(state, 1.0, self.TREE_DEPTH)
