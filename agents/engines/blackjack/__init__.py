"""Blackjack's fast engine: a round played to the end by uniformly random actions, compiled (kernels, playouts).

The rules it copies (arcade/games/blackjack.py, the course's BlackjackMDP: take, peek, quit; the deck's
counts drawn by probability; a bust over the threshold), held to them by tests/test_engines.py (the
playouts' mean against the MDP's exact worth of random play).
"""
from __future__ import annotations

from agents.engines import Engine, declare
from agents.engines.blackjack import playouts

ENGINE = declare(Engine(game="blackjack", package=__name__, members=playouts, order=40,
                        copies=("arcade.games.blackjack.BlackjackMDP.succ_and_prob_reward",)))
