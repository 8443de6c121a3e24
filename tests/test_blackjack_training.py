"""Blackjack's q-learning trains on its deck (the shared `Trains` path: the screen's train key, `main.py
train`): its curve is the exact expected return of its greedy policy against value iteration's optimum, and
its table is kept per deck."""
import numpy as np
import pygame

from agents.blackjack_q import QLearningAgent
from agents.value_iteration import policy_value, solved
from arcade.games import make_rules
from arcade.settings import Settings
from arcade.foundation.storage import load_json
from tests.helpers import key, wait_for


def test_policy_value_is_value_iterations_optimum_for_its_policy_and_zero_for_quitting():
    for preset in ("small", "large"):
        mdp = make_rules("blackjack", Settings(), preset=preset).mdp
        vi = solved(mdp, 1e-10)
        assert abs(policy_value(mdp, lambda s, actions, pi=vi.pi: pi[s]) - vi.V[mdp.start_state()]) < 1e-6
        assert policy_value(mdp, lambda s, actions: "Quit" if "Quit" in actions else actions[0]) == 0.0


def test_training_from_scratch_reaches_the_optimum_on_the_courses_deck_and_is_kept_per_deck(settings):
    rules = make_rules("blackjack", settings)  # the course's small deck
    agent = QLearningAgent(rules, settings)
    curve = []
    agent.train(6000, np.random.default_rng(0), checkpoint=lambda done, figures: curve.append((done, figures)))
    shares = [f["share of the optimum's return"] for _, f in curve]
    assert len(curve) == 30 and curve[-1][0] == 6000
    assert shares[-1] >= 0.98 and shares[0] < shares[-1]  # it learns: the first point is below the last
    assert abs(agent.greedy_return() - shares[-1] * agent.optimum()) < 1e-9
    assert agent.save()
    saved = load_json(agent.default_path(), {})
    assert saved["deck"]["card_values"] == list(rules.mdp.card_values) and len(saved["weights"]) == len(agent.ql.weights)
    again = QLearningAgent(rules, settings)  # a new agent for this deck plays from the table
    assert again.ql.weights == agent.ql.weights and again.greedy_return() == agent.greedy_return()
    assert "trained" in again.describe()[0]
    large = QLearningAgent(make_rules("blackjack", settings, preset="large"), settings)
    assert large.ql.weights == {} and large.default_path() != agent.default_path()  # another deck: its own file


def test_a_table_of_another_deck_is_set_aside_in_one_line(settings):
    from arcade.foundation import notices

    small = QLearningAgent(make_rules("blackjack", settings), settings)
    small.train(300, np.random.default_rng(1))
    large_rules = make_rules("blackjack", settings, preset="large")
    target = QLearningAgent(large_rules, settings).default_path()
    assert small.save(target)  # the small deck's table, under the large deck's name
    agent = QLearningAgent(large_rules, settings)
    assert agent.ql.weights == {} and not target.exists()
    assert any("another deck" in n for n in notices.recent())


def test_the_train_key_on_the_table_trains_q_learning_with_a_curve_and_the_table_plays_after(app):
    from arcade.screens import open_game

    settings = app.settings
    app.settings = settings.with_agent("q-learning", game="blackjack", trials=3000)
    screen = open_game(app, "blackjack", seed=3)
    app.push(screen)
    screen.controller.select("q-learning")
    key(app, pygame.K_y)
    assert screen.trainer.running
    assert wait_for(app, lambda: not screen.trainer.running, 120)
    assert screen.trainer.curve and "share of the optimum's return" in screen.trainer.curve[-1][1]
    assert "trained 3,000 games" in screen.toast[0]
    agent = screen.controller.cached_agent(build=True)
    assert agent.source.startswith("trained (q_learning_blackjack_small")
    app.settings = settings


def test_the_rules_are_sent_to_another_process_while_a_thread_fills_their_cache():
    """Training (or the agent process) pickles the rules while the screen's threads fill the MDP's transitions
    cache: that raised "dictionary changed size during iteration" (issue: the policy strip's red error, and
    a training that never started). The cache is not sent; the copy starts with its own."""
    import pickle
    import threading

    from agents.value_iteration import ValueIteration

    rules = make_rules("blackjack", Settings(), preset="large")
    done = threading.Event()
    filler = threading.Thread(target=lambda: (ValueIteration().solve(rules.mdp, 1e-4), done.set()))
    filler.start()
    copies = 0
    while not done.is_set():
        copy = pickle.loads(pickle.dumps(rules))
        assert copy.mdp._succ == {} and copy.mdp.card_values == rules.mdp.card_values
        copies += 1
    filler.join()
    assert copies > 0 and len(rules.mdp._succ) > 1000
