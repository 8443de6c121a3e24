"""The game session (arcade/session.py) on every game of the catalogue: play, undo, listeners, and a
snapshot that survives JSON with its whole history, continuing the same game with the same chance."""
import json

import numpy as np
import pytest

from arcade.games import GAMES, make_rules
from arcade.session import GameSession
from arcade.settings import Settings


def _random_moves(session: GameSession, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(n):
        if session.over:
            break
        actions = session.legal_actions()
        assert session.play(actions[int(rng.integers(len(actions)))], by="you" if rng.random() < 0.5 else "bot")


@pytest.mark.parametrize("game_id", [g.id for g in GAMES])
def test_snapshot_through_json_continues_the_same_game(game_id):
    rules = make_rules(game_id, Settings())
    for seed in range(50):  # a game still going after a move or more (a blackjack round may end at once)
        session = GameSession(rules, 7)
        _random_moves(session, 6 if game_id != "blackjack" else 1, seed)
        if not session.over and session.moves:
            break
    assert not session.over and session.moves
    data = json.loads(json.dumps(session.snapshot()))
    again = GameSession.restore(rules, data)
    assert again.moves == session.moves and again.movers == session.movers and again.seed == 7
    assert rules.format_state(again.state) == rules.format_state(session.state)
    for a, b in zip(again.history, session.history, strict=True):
        assert rules.format_state(a) == rules.format_state(b)
    # the same generator state: the same next move gives the same chance outcome
    action = session.legal_actions()[0]
    assert session.play(action) and again.play(action)
    assert rules.format_state(again.state) == rules.format_state(session.state)
    while again.undo():
        pass
    assert again.moves == 0 and rules.format_state(again.state) == rules.format_state(session.history[0])


def test_the_whole_history_is_kept_not_the_last_200():
    rules = make_rules("2048", Settings())
    rng = np.random.default_rng(0)
    for seed in range(3, 40):  # corner play lasts longer than random play; the first game past 200 moves
        session = GameSession(rules, seed)
        while session.moves < 230 and not session.over:
            legal = session.legal_actions()
            session.play(next(a for a in (2, 0, 3, 1) if a in legal) if rng.random() < 0.9 else legal[-1])
        if session.moves > 200:
            break
    assert session.moves > 200
    again = GameSession.restore(rules, json.loads(json.dumps(session.snapshot())))
    assert again.moves == session.moves and again.state == session.state


def test_illegal_moves_change_nothing_and_listeners_see_each_new_state():
    rules = make_rules("tictactoe", Settings())
    session = GameSession(rules, 0)
    seen = []
    session.listen(seen.append)
    assert session.play(4, by="you") and not session.play(4, by="bot")
    assert session.play(0, by="bot")
    assert seen == session.history[1:] + [session.state] and session.movers == ["you", "bot"]
    assert session.played_by("you") == 1 and session.to_move == 0
    assert session.undo() and session.movers == ["you"] and len(seen) == 2  # undo is not a new state


def test_a_snapshot_that_does_not_fit_the_rules_is_refused():
    rules = make_rules("2048", Settings())
    data = GameSession(rules, 1).snapshot()
    data["state"]["board"] = [[0] * 5] * 5
    with pytest.raises(ValueError):
        GameSession.restore(rules, data)
    data = GameSession(rules, 1).snapshot()
    data["movers"] = ["you"]
    with pytest.raises(ValueError):
        GameSession.restore(rules, data)


def test_a_dots_game_kept_and_resumed_keeps_its_boxes_its_mover_and_who_drew_each_line():
    """Issue 73 item 10: a dots replay played on from move 6 drew all six lines in your colour. A state was
    kept as its text (its lines only): resumed, no box was anyone's and the first player moved."""
    import numpy as np

    from arcade.games import make_rules
    from arcade.games.dots import owners
    from arcade.settings import Settings
    from arcade.session import GameSession

    rules = make_rules("dots", Settings())
    session = GameSession(rules, seed=1)
    rng = np.random.default_rng(4)
    while session.state.scores == (0, 0) or session.moves < 6:
        legal = session.legal_actions()
        session.play(legal[int(rng.integers(len(legal)))])
    again = GameSession.restore(rules, session.snapshot())
    assert again.state == session.state and again.history == session.history
    assert owners([*again.history, again.state]) == owners([*session.history, session.state])
    assert len(set(owners([*again.history, again.state])[0].values())) == 2  # both players' lines
    old = dict(session.snapshot(), state=rules.format_state(session.state))  # (an earlier version's text)
    assert GameSession.restore(rules, old).state.lines == session.state.lines


@pytest.mark.parametrize("game", ["2048", "tictactoe", "dots", "match3", "blackjack"])
def test_every_game_restored_from_its_snapshot_is_the_same_game_state_for_state(game):
    """Issue 73 item 10: a blackjack replay played on drew an empty hand at "total 1 / 10" (its states were kept
    as text: the cards drawn and the reward so far were lost). A restored session equals the kept one, every
    state of its history included, and renders the same hand."""
    rules = make_rules(game, Settings())
    session = GameSession(rules, seed=3)
    rng = np.random.default_rng(5)
    for _ in range(12):
        if session.over:
            break
        legal = session.legal_actions()
        session.play(legal[int(rng.integers(len(legal)))])
    again = GameSession.restore(rules, json.loads(json.dumps(session.snapshot())))
    assert again.state == session.state and again.history == session.history
