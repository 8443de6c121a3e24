"""The compiled random playouts of the peeking-blackjack round (numba), by the rules of arcade/games/blackjack.py:
each step a uniformly random legal action of Take, Peek (not twice in a row) and Quit, in that order; a Take
draws the peeked card, else a card with the chance of its count in the deck; over the threshold the round
ends with nothing, an empty deck ends it with the total, Quit with the total; Peek costs peek_cost and shows
the next card. No Python objects in the loop; randomness from the numpy Generator passed in (one uniform an
action, one a card).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from agents.engines.compiled import keep_cache_fresh

TAKE, PEEK, QUIT = 0, 1, 2


@njit(cache=True, inline="always")
def _draw(deck, left, u):
    """The card a uniform u in [0, 1) picks, each card with the chance count / left (numpy's choice with p:
    the first whose cumulative share exceeds u)."""
    acc = 0.0
    last = 0
    for i in range(deck.size):
        if deck[i] > 0:
            last = i
            acc += deck[i] / left
            if u < acc:
                return i
    return last


@njit(cache=True)
def random_playouts(totals, peeked, decks, rewards, values, threshold, peek_cost, max_moves, rng, out):
    """out[i]: the round's reward at the end of a random playout from state i (total, peeked card or -1, the
    deck's counts, the reward so far), or where max_moves actions have been played, the reward so far."""
    deck = np.empty(decks.shape[1], np.int64)
    for i in range(totals.size):
        total, seen, reward = totals[i], peeked[i], rewards[i]
        deck[:] = decks[i]
        left = deck.sum()
        for _ in range(max_moves):
            n_actions = 3 if seen < 0 else 2
            pick = min(np.int64(rng.random() * n_actions), n_actions - 1)
            action = QUIT if pick == n_actions - 1 else pick
            if action == QUIT:
                reward += total
                break
            if action == PEEK:
                reward -= peek_cost
                seen = _draw(deck, left, rng.random())
                continue
            card = seen if seen >= 0 else _draw(deck, left, rng.random())
            seen = -1
            total += values[card]
            if total > threshold:
                break
            deck[card] -= 1
            left -= 1
            if left == 0:
                reward += total
                break
        out[i] = reward


keep_cache_fresh(__name__)  # (last: its kernels' cache dropped where a kernel module it imports changed)
