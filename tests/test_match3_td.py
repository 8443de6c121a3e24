"""Match-3's learnt evaluation (agents/match3_td.py): its features against a plain count, its swap values
against playing each swap by the rules, that training raises its 1-ply score, and its file."""
import numpy as np
import pytest

from agents.greedy import GreedyCascade
from agents.match3_td import FEATURES, FILENAME, SAMPLES, Match3TD, board_values, features, greedy_scores
from arcade.games import make_rules
from arcade.games.match3 import all_swaps, legal_mask
from arcade.settings import Settings


def test_the_features_are_what_a_plain_count_of_each_board_says():
    rules = make_rules("match3", Settings())
    rng = np.random.default_rng(4)
    boards = np.stack([rules.new_state(rng).board for _ in range(6)])
    mask, scores = greedy_scores(boards)
    phi = features(boards, mask, scores)
    greedy = GreedyCascade(rules, None)
    for b, board in enumerate(boards):
        state = rules.new_state(np.random.default_rng(4))
        legal = np.flatnonzero(legal_mask(board[None])[0])
        swaps = all_swaps(board.shape[0])[legal]
        own = [greedy.swap_score(type(state)(board, 50), tuple(sw)) for sw in swaps.tolist()]
        pairs = sum(board[r, c] == board[r, c + 1] for r in range(9) for c in range(8)) \
            + sum(board[r, c] == board[r + 1, c] for r in range(8) for c in range(9))
        expected = [1, len(legal) / 10, max(own) / 100, np.mean(own) / 100, sum(s >= 50 for s in own) / 5, pairs / 20]
        assert phi[b] == pytest.approx(expected), b
    assert phi.shape == (6, len(FEATURES))
    assert (board_values(np.ones(len(FEATURES)), boards, 0) == 0).all()  # no turn left: worth nothing


def test_a_swap_is_worth_its_points_plus_the_discounted_value_after_it(tmp_path):
    """swap_values against the rules: each swap played on SAMPLES twin futures by Match3Rules.step-like
    single-board play gives the same mean of points + discount * value."""
    from arcade.games import match3_batch as mb

    settings = Settings().with_table("data", folder=str(tmp_path))
    rules = make_rules("match3", settings)
    agent = Match3TD(rules, settings)
    agent.weights = np.array([50.0, 20.0, 90.0, 30.0, 10.0, 5.0])
    state = rules.new_state(np.random.default_rng(7))
    worth = agent.swap_values(state, np.random.default_rng(11))
    rng = np.random.default_rng(11)
    size = state.board.shape[0]
    tapes = rng.integers(0, state.colours, size=(SAMPLES, 4 * size * size), dtype=np.int8)
    legal = np.flatnonzero(legal_mask(state.board[None])[0])
    for i, k in enumerate(legal):
        total = 0.0
        for j in range(SAMPLES):
            after, points = mb.play(state.board[None].copy(), np.array([k]), mb.TapeRefill(tapes[j:j + 1], [0]))
            mb.settle(after, state.turns_left - 1, rng)
            total += points[0] + agent.discount * board_values(agent.weights, after, state.turns_left - 1)[0]
        assert worth[i] == pytest.approx(total / SAMPLES), i


def test_training_raises_its_score_and_its_weights_are_kept(tmp_path, monkeypatch):
    import agents.match3_td as learner

    monkeypatch.setattr(learner, "CURVE_POINTS", 3)  # (20 points of 8 games on the screen)
    monkeypatch.setattr(learner, "CURVE_GAMES", 3)
    settings = Settings().with_table("data", folder=str(tmp_path))
    rules = make_rules("match3", settings.with_table("match3", turns=10))
    agent = Match3TD(rules, settings)
    points = []
    agent.train(192, np.random.default_rng(3), from_scratch=True,
                checkpoint=lambda done, figures: points.append(figures["mean score at 1 ply"]))
    assert np.isfinite(agent.weights).all() and agent.weights[2] > 0  # a better next turn is worth more
    assert points[-1] > points[0]  # untrained (points alone) below trained
    assert agent.save() and (tmp_path / FILENAME).exists()
    again = Match3TD(rules, settings)
    assert np.array_equal(again.weights, agent.weights) and "trained 192 games" in again.describe()[0]
    state = rules.new_state(np.random.default_rng(1))
    assert again.act(state, np.random.default_rng(2)) in rules.legal_actions(state)
    assert again.explain(state) == again.explain(state)  # seeded by the board: the same numbers twice
    (tmp_path / FILENAME).write_bytes(b"not a table")
    assert not Match3TD(rules, settings).source.startswith("trained")  # set aside: the shipped weights play
    assert (tmp_path / (FILENAME + ".corrupt")).exists()


def test_a_stop_asked_while_a_curve_point_is_measured_ends_the_training_without_waiting_for_it(tmp_path):
    """Issue 61 #13: stopping match-3's training showed nothing for over 20 s: the loop waited for a curve
    point (games at 1 ply) before it looked at the stop. The measure now gives up at the next turn."""
    import threading

    settings = Settings().with_table("data", folder=str(tmp_path))
    agent = Match3TD(make_rules("match3", settings), settings)
    stop = threading.Event()
    stop.set()
    assert agent.mean_score(np.array(agent.weights), stop) is None
    points, before = [], agent.meta["games"]
    agent.train(200, np.random.default_rng(0), stop=stop, checkpoint=lambda d, f: points.append(d))
    assert points == [] and agent.meta["games"] == before


def test_the_training_bar_says_at_once_that_it_is_stopping_and_saving():
    from types import SimpleNamespace

    from arcade.screens.training_view import TrainingView

    view = TrainingView()
    view.job = SimpleNamespace(name="td-value", done=128, total=2000, stopping_since=None)
    assert view.caption("t") == "training td-value: 128 of 2,000 (t stops)"
    import time
    view.job.stopping_since = time.monotonic() - 3.2
    assert view.caption("t") == "stopping td-value after 128 games: saving what it learnt... 3 s"
