"""Every game of the catalogue against the rules protocol (arcade/games/base.py), in the spirit of
OpenSpiel's random simulation test: random playouts from many seeds, with the contract checked at
every step."""
import copy

import numpy as np
import pytest

from arcade.games import GAMES, make_rules
from arcade.games.base import ListsChance, has_chance, seat_score
from arcade.settings import Settings

PLAYABLE = [g.id for g in GAMES]
SEEDS = range(12)


def _snapshot(state):
    """A deep copy to compare against after step (states are values: step must not change its input)."""
    return copy.deepcopy(state)


def _same(a, b) -> bool:
    return a == b if not isinstance(a, np.ndarray) else np.array_equal(a, b)


def _playout(rules, seed: int, max_moves: int = 5000):
    rng = np.random.default_rng(seed)
    state = rules.new_state(rng)
    states = [state]
    for _ in range(max_moves):
        if rules.is_terminal(state):
            break
        actions = list(rules.legal_actions(state))
        assert actions, "no legal action before the end of the game"
        assert 0 <= rules.to_move(state) < rules.players
        if rules.players == 1:
            assert rules.to_move(state) == 0
        before = _snapshot(state)
        state = rules.step(state, actions[int(rng.integers(len(actions)))], rng)
        assert _same(states[-1], before), "step changed the state it was given"
        states.append(state)
    else:
        pytest.fail(f"no end after {max_moves} random moves")
    assert not list(rules.legal_actions(state)), "legal actions left in a finished game"
    return states


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_random_playouts_keep_the_contract(game_id):
    rules = make_rules(game_id, Settings())
    assert rules.game_id == game_id and rules.players in (1, 2) and len(rules.seat_names) == rules.players
    for seed in SEEDS:
        states = _playout(rules, seed)
        outcome = rules.outcome(states[-1])
        if rules.players == 1:
            assert isinstance(outcome["score"], (int, float)) and "scores" not in outcome
        else:
            assert len(outcome["scores"]) == 2 and outcome["winner"] in (None, 0, 1)
            a, b = outcome["scores"]
            assert outcome["winner"] == (None if a == b else (0 if a > b else 1))
        for seat in range(rules.players):
            assert seat_score(rules, outcome, seat) is not None


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_equal_seeds_replay_equal_games(game_id):
    rules = make_rules(game_id, Settings())
    for seed in (0, 7):
        first, second = _playout(rules, seed), _playout(rules, seed)
        assert len(first) == len(second) and all(_same(a, b) for a, b in zip(first, second, strict=True))


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_state_text_round_trips(game_id):
    """format_state then parse_state gives a state with the same text, on every state of playouts."""
    rules = make_rules(game_id, Settings())
    checked = 0
    for seed in range(4):
        for state in _playout(rules, seed):
            if rules.is_terminal(state) and game_id == "blackjack":
                continue  # a finished round has no deck, so no text form (format_state says so)
            text = rules.format_state(state)
            assert rules.format_state(rules.parse_state(text)) == text
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_format_action_names_every_legal_action_differently(game_id):
    rules = make_rules(game_id, Settings())
    state = rules.new_state(np.random.default_rng(1))
    names = [rules.format_action(a) for a in rules.legal_actions(state)]
    assert len(set(names)) == len(names) and all(isinstance(n, str) and n for n in names)
    assert not any(n.replace(",", "").replace("-", "").isdigit() for n in names)  # (never a bare index: a name)


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_decide_names_its_move_in_the_games_notation(game_id, capsys):
    """Issue 74: `decide` printed dots lines as "3", match-3 swaps as "0,2-0,3" and tic-tac-toe cells as "1,1".
    Its text names the move as the rules do (the window's replay and tree use the same function), its JSON the
    action and that name."""
    import json

    from arcade.cli import main

    rules = make_rules(game_id, Settings())
    state = rules.new_state(np.random.default_rng(1))
    argv = ["decide", game_id, "--agent", "random", "--state", rules.format_state(state)]
    if game_id == "blackjack":  # (blackjack's agents: no random one)
        argv[3] = "value-iteration"
    assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    action = tuple(out["action"]) if isinstance(out["action"], list) else out["action"]
    assert out["move"] == rules.format_action(action) and action in rules.legal_actions(state)
    assert main(argv) == 0
    assert f"plays {out['move']}" in capsys.readouterr().out


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_chance_is_declared_listed_where_it_can_be_and_step_draws_from_the_list(game_id):
    """Games with chance say so; where they list the outcomes (2048 placements, blackjack cards), the
    probabilities sum to 1 and step draws exactly those states. Games without chance step the same whatever
    the generator."""
    rules = make_rules(game_id, Settings())
    rng = np.random.default_rng(11)
    states = _playout(rules, 4)[:-1][:40]
    if not has_chance(rules):
        for state in states[:10]:
            for a in rules.legal_actions(state):
                one, other = rules.step(state, a, np.random.default_rng(1)), rules.step(state, a, np.random.default_rng(2))
                assert _same(one, other), "a game without chance stepped differently with another generator"
        return
    if not isinstance(rules, ListsChance):
        assert game_id == "match3"  # its refills are too many to list; it still samples them in step
        return
    for state in states:
        for a in rules.legal_actions(state):
            outcomes = rules.chance_outcomes(state, a)
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-12 and all(p > 0 for _, p in outcomes)
            drawn = rules.step(state, a, rng)
            assert any(_same(drawn, s) for s, _ in outcomes), "step drew a state the list does not have"


@pytest.mark.parametrize("game_id", [g for g in PLAYABLE if isinstance(make_rules(g, Settings()), ListsChance)])
def test_step_draws_the_listed_outcomes_with_their_probabilities(game_id):
    """2,000 draws from one state and action: each listed outcome's share is within 4 points of its
    probability (about 4.5 standard deviations at these sizes)."""
    rules = make_rules(game_id, Settings(), **({"preset": "large"} if game_id == "blackjack" else {}))
    state = rules.new_state(np.random.default_rng(5))
    action = rules.legal_actions(state)[0]
    outcomes = rules.chance_outcomes(state, action)
    assert len(outcomes) > 1
    rng = np.random.default_rng(8)
    counts = np.zeros(len(outcomes))
    for _ in range(2000):
        drawn = rules.step(state, action, rng)
        counts[next(k for k, (s, _) in enumerate(outcomes) if _same(drawn, s))] += 1
    assert np.abs(counts / 2000 - np.array([p for _, p in outcomes])).max() < 0.04
