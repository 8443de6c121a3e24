"""Every game's GameInfo (its rules' info(), what searches read) holds on random games: no game longer than
its max_length, no more legal actions than its action count, every final result within its utility."""
from __future__ import annotations

import numpy as np
import pytest

from agents.game_search import terminal_returns
from arcade.games import GAMES, make_rules
from arcade.games.declare import GameInfo
from arcade.settings import Settings

VARIANTS = [(g.id, Settings()) for g in GAMES] + [
    ("dots", Settings().with_table("dots", rows=3, cols=3)), ("match3", Settings().with_table("match3", size=6, turns=8)),
    ("blackjack", Settings().with_table("blackjack", preset="large")), ("2048", Settings().with_table("game2048", size=3))]


@pytest.mark.parametrize("game, settings", VARIANTS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(VARIANTS)])
def test_random_games_keep_within_the_declared_info(game, settings):
    rules = make_rules(game, settings)
    info = rules.info()
    assert isinstance(info, GameInfo) and info.actions >= 1
    assert (info.utility is None) == (game in ("2048", "match3"))  # the scores with no bound
    finals = []
    for seed in range(30 if game != "2048" else 4):
        rng = np.random.default_rng(seed)
        state, moves = rules.new_state(rng), 0
        while not rules.is_terminal(state):
            legal = rules.legal_actions(state)
            assert 1 <= len(legal) <= info.actions
            state = rules.step(state, legal[int(rng.integers(len(legal)))], rng)
            moves += 1
        assert info.max_length is None or moves <= info.max_length
        finals.append(terminal_returns(rules, state))
    if info.utility is not None:
        low, high = info.utility
        assert all(low <= r <= high for result in finals for r in result)
    if rules.players == 2:
        assert info.utility == (-1.0, 1.0)
