"""Peeking blackjack: the course's examples exactly, the MDP's invariants, value iteration, Q-learning."""
import json
import math

import numpy as np
import pytest

from agents.blackjack_q import (FixedRLAlgorithm, QLearningAlgorithm, blackjack_feature_extractor, blackjack_is_end,
                              identity_feature_extractor)
from agents.value_iteration import ValueIteration
from arcade.cli import main
from arcade.games.blackjack import (BlackjackMDP, BlackjackRules, RoundState, counterexample_mdp, large_mdp,
                                    peeking_mdp, small_mdp, standard_mdp)
from arcade.games.mdp import NoisyMDP, compute_states, simulate

SEED_DECK = BlackjackMDP([1, 2, 3], 1, 4, 1)


def test_seed_start_state_and_take():
    assert SEED_DECK.start_state() == (0, None, (1, 1, 1))
    assert SEED_DECK.succ_and_prob_reward((0, None, (1, 1, 1)), "Take") == [
        ((1, None, (0, 1, 1)), 1 / 3, 0), ((2, None, (1, 0, 1)), 1 / 3, 0), ((3, None, (1, 1, 0)), 1 / 3, 0)]


def test_seed_peek_then_take():
    assert SEED_DECK.succ_and_prob_reward((0, None, (1, 1, 1)), "Peek") == [
        ((0, 0, (1, 1, 1)), 1 / 3, -1), ((0, 1, (1, 1, 1)), 1 / 3, -1), ((0, 2, (1, 1, 1)), 1 / 3, -1)]
    assert SEED_DECK.succ_and_prob_reward((0, 0, (1, 1, 1)), "Take") == [((1, None, (0, 1, 1)), 1, 0)]


def test_seed_peek_twice_is_nothing():
    assert SEED_DECK.succ_and_prob_reward((0, 0, (1, 1, 1)), "Peek") == []


def test_seed_quit_and_bust():
    assert SEED_DECK.succ_and_prob_reward((0, None, (1, 1, 1)), "Quit") == [((0, None, None), 1, 0)]
    assert SEED_DECK.succ_and_prob_reward((3, None, (1, 1, 0)), "Quit") == [((3, None, None), 1, 3)]
    assert SEED_DECK.succ_and_prob_reward((3, None, (1, 1, 0)), "Take") == [
        ((4, None, (0, 1, 0)), 0.5, 0), ((5, None, None), 0.5, 0)]


def test_end_states_have_no_successors():
    for action in ("Take", "Peek", "Quit"):
        assert SEED_DECK.succ_and_prob_reward((5, None, None), action) == []


def test_last_card_pays_unless_it_busts():
    mdp = BlackjackMDP([1, 5], 1, 10, 1)
    assert mdp.succ_and_prob_reward((5, None, (1, 0)), "Take") == [((6, None, None), 1.0, 6)]
    bust = BlackjackMDP([1, 5], 1, 5, 1)
    assert bust.succ_and_prob_reward((1, None, (0, 1)), "Take") == [((6, None, None), 1.0, 0)]


@pytest.mark.parametrize("make", [small_mdp, large_mdp, peeking_mdp, standard_mdp, lambda: SEED_DECK])
def test_probabilities_and_rewards_on_every_reachable_state(make):
    mdp = make()
    for state in compute_states(mdp):
        for action in mdp.actions(state):
            transitions = mdp.succ_and_prob_reward(state, action)
            if not transitions:
                continue
            assert math.isclose(sum(p for _, p, _ in transitions), 1.0)
            assert all(p > 0 for _, p, _ in transitions)
            order = [s[1] if action == "Peek" else None for s, _, _ in transitions]
            assert order == sorted(order, key=lambda x: -1 if x is None else x)  # ascending card index
            for nxt, _, reward in transitions:
                if action == "Peek":
                    assert reward == -mdp.peek_cost
                elif nxt[2] is not None:
                    assert reward == 0  # no reward until the game ends
                else:
                    assert reward == (0 if nxt[0] > mdp.threshold else nxt[0])


class HandMDP:
    """A: x ends with 5; y pays 1 and reaches B half the time (else ends with 0). B: x ends with 10."""

    def start_state(self):
        return "A"

    def actions(self, state):
        return ["x", "y"] if state == "A" else ["x"] if state == "B" else []

    def discount(self):
        return 1

    def succ_and_prob_reward(self, state, action):
        if state == "A":
            return [("end", 1.0, 5)] if action == "x" else [("B", 0.5, 1), ("end", 0.5, 0)]
        if state == "B":
            return [("end", 1.0, 10)]
        return []


def test_value_iteration_by_hand():
    # V(B) = 10; Q(A, x) = 5; Q(A, y) = 0.5 (1 + 10) + 0.5 * 0 = 5.5, so V(A) = 5.5 and pi(A) = y.
    vi = ValueIteration().solve(HandMDP())
    assert vi.V["B"] == 10 and vi.V["A"] == pytest.approx(5.5) and vi.V["end"] == 0
    assert vi.Q["A"] == pytest.approx({"x": 5.0, "y": 5.5}) and vi.pi == {"A": "y", "B": "x"}


def test_value_iteration_matches_a_plain_loop_on_blackjack():
    mdp = small_mdp()
    states = compute_states(mdp)
    V = {s: 0.0 for s in states}
    for _ in range(100):
        V = {s: max((sum(p * (r + V[t]) for t, p, r in mdp.succ_and_prob_reward(s, a))
                     for a in mdp.actions(s) if mdp.succ_and_prob_reward(s, a)), default=0.0) for s in states}
    vi = ValueIteration().solve(mdp, 1e-10)
    assert all(vi.V[s] == pytest.approx(V[s]) for s in states)


def test_q_learning_update_by_hand():
    ql = QLearningAlgorithm(lambda s: ["a", "b"], 1.0, identity_feature_extractor, 0.0,
                            np.random.default_rng(0), is_end=lambda s: s == "end")
    ql.get_action("s0")  # one action chosen: step size 1 / sqrt(1) = 1
    ql.incorporate_feedback("s0", "a", 2, "s1")  # target 2 + max(0, 0) = 2; prediction 0
    assert ql.weights[("s0", "a")] == 2.0
    ql.weights[("s1", "b")] = 3.0
    ql.get_action("s1")  # step size 1 / sqrt(2)
    ql.incorporate_feedback("s0", "a", 0, "s1")  # target 0 + 3 = 3; prediction 2
    assert ql.weights[("s0", "a")] == pytest.approx(2 + 1 / math.sqrt(2))
    ql.incorporate_feedback("s1", "b", 4, "end")  # the value of an end state is 0: target 4
    assert ql.weights[("s1", "b")] == pytest.approx(3 - (3 - 4) / math.sqrt(2))
    assert ql.get_action("s0") == "a"


def test_blackjack_features():
    assert blackjack_feature_extractor((5, None, (1, 2)), "Take") == [
        (("Take", 5), 1), (("Take", (1, 1)), 1), (("Take", 0, 1), 1), (("Take", 1, 2), 1)]
    assert blackjack_feature_extractor((12, None, None), "Quit") == [(("Quit", 12), 1)]
    assert identity_feature_extractor("s", "a") == [(("s", "a"), 1)]


def test_q_learning_learns_the_small_mdp():
    mdp = small_mdp()
    ql = QLearningAlgorithm(mdp.actions, 1, identity_feature_extractor, 0.2, np.random.default_rng(0),
                            is_end=blackjack_is_end)
    rewards = simulate(mdp, ql, 30000, rng=np.random.default_rng(1))
    assert len(rewards) == 30000
    ql.epsilon = 0
    pi = ValueIteration().solve(mdp).pi
    assert sum(ql.get_action(s) != a for s, a in pi.items()) <= 4  # of 18 states


def test_fixed_policy_and_unseen_states():
    fixed = FixedRLAlgorithm({"s": "Take"})
    assert fixed.get_action("s") == "Take" and fixed.get_action("t") == "Quit" and fixed.unseen == 1


def test_noise_raises_the_counterexample_value():
    mdp = counterexample_mdp()
    v1 = ValueIteration().solve(mdp).V[mdp.start_state()]
    v2 = ValueIteration().solve(NoisyMDP(mdp)).V[mdp.start_state()]
    assert v1 == pytest.approx(10) and v2 == pytest.approx(30) and v2 > v1


def test_peeking_deck_makes_peek_best_in_ten_percent_of_states():
    mdp = peeking_mdp()
    assert (mdp.threshold, mdp.peek_cost) == (20, 1)
    vi = ValueIteration().solve(mdp)
    states = compute_states(mdp)
    peeks = sum(vi.pi.get(s) == "Peek" for s in states)
    assert peeks / len(states) >= 0.10


def test_rules_round_and_state_text():
    rules = BlackjackRules(SEED_DECK)
    state = rules.new_state()
    assert rules.legal_actions(state) == ["Take", "Peek", "Quit"]
    peeked = rules.step(state, "Peek", np.random.default_rng(0))
    assert peeked.reward == -1 and rules.legal_actions(peeked) == ["Take", "Quit"]
    done = rules.step(peeked, "Quit", np.random.default_rng(0))
    assert rules.is_terminal(done) and rules.outcome(done)["score"] == -1
    assert rules.parse_state("3|-|1,1,0") == RoundState((3, None, (1, 1, 0)), deck=(1, 1, 0))
    for bad in ("3|x|1,1,0", "3|-|1,1", "9|-|1,1,0", "3|2|1,1,0", "3-1"):
        with pytest.raises(ValueError):
            rules.parse_state(bad)


def test_decide_and_bench_blackjack(capsys, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n[blackjack]\npreset = "peeking"\n')
    assert main(["--settings", str(path), "decide", "blackjack", "--state", "3|3|2,1,2,2", "--agent",
                 "value-iteration", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["move"] == data["action"] == "Quit" and data["values"]["Take"] == 0.0 and data["values"]["Quit"] == 3.0
    assert main(["--settings", str(path), "bench", "blackjack", "--agent", "value-iteration", "--games", "200",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = ValueIteration().solve(peeking_mdp()).V[peeking_mdp().start_state()]
    assert abs(data["summary"]["score"]["mean"] - expected) < 1.0


def test_the_course_experiment_report(capsys, tmp_path):
    """The course's experiments run from examples/ (out of the framework package)."""
    from examples.blackjack_report import main as report_main

    path = tmp_path / "s.toml"
    path.write_text("[blackjack.q-learning]\ntrials = 300\n")
    assert report_main(["--settings", str(path)]) == 0
    out = capsys.readouterr().out
    assert "300 trials each" in out and "What it means" in out and "threshold 15" in out


def test_value_iteration_describes_itself_not_the_screen():
    """Issue 25 #15: with v off the panel still said "Q(s, a) shown"."""
    from agents import find
    from arcade.games import make_rules
    from arcade.settings import Settings

    rules = make_rules("blackjack", Settings())
    lines = find("blackjack", "value-iteration").create(rules, Settings()).describe()
    assert lines[0] == "value iteration: the optimal Q(s,a)" and not any("shown" in line for line in lines)


def test_a_decks_value_iteration_is_solved_once_a_process_and_is_the_plain_solve(settings):
    """Switching decks back and forth rebuilt value-iteration and solved the same MDP again each time."""
    from agents import find, value_iteration
    from agents.value_iteration import ValueIteration
    from arcade.games import make_rules

    rules = make_rules("blackjack", settings.with_table("blackjack", preset="large"))
    first = find("blackjack", "value-iteration").create(rules, settings)
    again = find("blackjack", "value-iteration").create(make_rules("blackjack", settings.with_table(
        "blackjack", preset="large")), settings)
    assert again.solution is first.solution  # not solved a second time
    plain = ValueIteration().solve(rules.mdp, settings.agent_params("blackjack", "value-iteration").tolerance)
    assert plain.V == first.solution.V and plain.pi == first.solution.pi
    assert len(value_iteration._SOLVED) >= 1


def test_the_cards_in_hand_are_read_off_the_rounds_states():
    from arcade.games import make_rules
    from arcade.games.blackjack import PEEK, TAKE, hand
    from arcade.settings import Settings

    rules = make_rules("blackjack", Settings())
    rng = np.random.default_rng(1)
    state, states, cards = rules.new_state(), [], []
    for action in (PEEK, TAKE, TAKE):
        if action not in rules.legal_actions(state):
            break
        states.append(state)
        state = rules.step(state, action, rng)
        if state.drawn is not None:
            cards.append(rules.mdp.card_values[state.drawn])
    assert hand(rules, [*states, state]) == cards and sum(cards) == state.mdp_state.total and len(cards) >= 1
