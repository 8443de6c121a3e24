"""Match-3: line detection, gravity, an exact cascade score, legality, reshuffles, replay, the agents."""
import json

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from agents.greedy import GreedyCascade, GreedyMatch3
from agents.qrollouts import QRollouts
from arcade.cli import main
from arcade.games.match3 import (EMPTY, Match3Rules, Match3State, apply_swap, find_matches, gravity, has_line,
                                 legal_swaps, parse_board, random_board, reshuffle, resolve)
from arcade.settings import Settings

DEFAULTS = Settings()  # agents always receive settings; these are the defaults


def b(text):
    return parse_board(text)


def test_lines_in_rows_and_columns():
    board = b("0001/1230/2301/3012")
    mask = find_matches(board)
    assert mask[0, :3].all() and not mask[0, 3] and mask.sum() == 3
    board = b("0123/0231/0312/1230")
    assert find_matches(board)[:3, 0].all() and find_matches(board).sum() == 3


def test_lines_of_four_and_five_and_l_t_shapes():
    assert find_matches(b("00000/12341/23412/34123/41234")).sum() == 5
    assert find_matches(b("11112/23423/34234/42342/23423")).sum() == 4
    l_shape = b("00012/01234/02341/13412/24123")  # an L: row 0 (3) + column 0 (3), sharing the corner
    assert find_matches(l_shape).sum() == 5
    t_shape = b("00012/10234/20341/13412/24123")  # a T: row 0 (3) + column 1 (3)
    assert find_matches(t_shape).sum() == 5


def test_has_line_agrees_with_the_mask():
    rng = np.random.default_rng(0)
    boards = rng.integers(0, 4, size=(300, 6, 6)).astype(np.int8)
    assert np.array_equal(has_line(boards), find_matches(boards).reshape(300, -1).any(axis=1))


def test_gravity_keeps_the_gems_of_each_column():
    board = b("0123/1230/2301/3012")
    board[1, 1] = EMPTY
    board[3, 1] = EMPTY
    fallen, source = gravity(board)
    assert (fallen[:2, 1] == EMPTY).all() and list(fallen[2:, 1]) == [1, 3]
    assert source[2, 1] == 0 and source[3, 1] == 2 and source[0, 1] < 0
    for c in range(4):
        assert sorted(fallen[:, c][fallen[:, c] != EMPTY]) == sorted(board[:, c][board[:, c] != EMPTY])


CASCADE = "123456/134562/045623/056234/062345/123456"


def test_a_hand_made_cascade_scores_exactly():
    # Column 0 reads 1 1 0 0 0 1 from the top and nothing else lines up. Clearing the three 0s
    # (level 1: 3 gems x 10 = 30) lets the two 1s fall onto the bottom 1: 1 1 1 in rows 3-5, a
    # cascade at level 2 (3 gems x 10 x 2 = 60). Refills unknown (None): the column then stays empty.
    stages = resolve(b(CASCADE), 7, None)
    assert [(st.level, int(st.cleared.sum()), st.points) for st in stages] == [(1, 3, 30), (2, 3, 60)]


def test_legal_swaps_and_a_board_with_none():
    board = b("0102/1313/2020/3131")
    legal = {tuple(s) for s in legal_swaps(board).tolist()}
    for swap in legal:
        assert find_matches(apply_swap(board, swap)).any()
    assert legal == {(0, 1, 1, 1)}  # the 1 moves down: row 1 reads 1 1 1 3
    assert len(legal_swaps(b("0123/2301/0123/2301"))) == 0


def test_reshuffle_keeps_gems_and_makes_a_move():
    board = b("012012/120120/201201/012012/120120/201201")
    assert len(legal_swaps(board)) == 0  # stuck: this is what triggers a reshuffle
    new = reshuffle(board, np.random.default_rng(1))
    assert sorted(new.ravel()) == sorted(board.ravel())
    assert not find_matches(new).any() and len(legal_swaps(new))


def test_random_board_has_no_line_and_a_move():
    rng = np.random.default_rng(5)
    for _ in range(20):
        board = random_board(9, 5, rng)
        assert not find_matches(board).any() and len(legal_swaps(board))


def test_illegal_swap_is_refused():
    rules = Match3Rules()
    state = rules.new_state(np.random.default_rng(2))
    illegal = next((r, c, r, c + 1) for r in range(9) for c in range(8)
                   if (r, c, r, c + 1) not in rules.legal_actions(state))
    with pytest.raises(ValueError, match="no line"):
        rules.step(state, illegal, np.random.default_rng(0))


def test_a_seeded_game_replays_identically():
    rules = Match3Rules()

    def game(seed):
        rng = np.random.default_rng(seed)
        state = rules.new_state(rng)
        boards = []
        while not rules.is_terminal(state):
            actions = rules.legal_actions(state)
            state = rules.step(state, actions[len(boards) % len(actions)], rng)
            boards.append(state.board.copy())
        return state.score, boards

    s1, b1 = game(11)
    s2, b2 = game(11)
    assert s1 == s2 and all(np.array_equal(x, y) for x, y in zip(b1, b2, strict=True))
    assert s1 > 0 and len(b1) == 50


@hsettings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_no_line_is_left_after_a_turn(seed):
    rules = Match3Rules(size=7, colours=4, turns=5)
    rng = np.random.default_rng(seed)
    state = rules.new_state(rng)
    while not rules.is_terminal(state):
        actions = rules.legal_actions(state)
        before = state
        state = rules.step(state, actions[int(rng.integers(len(actions)))], rng)
        assert not find_matches(state.board).any()
        assert state.score > before.score and (state.board != EMPTY).all()
        counts_ok = state.turns_left == 0 or len(legal_swaps(state.board)) > 0
        assert counts_ok


class SteadyRefills:
    """A generator whose refills are a fixed function of how many gems are needed (so a swap always
    leads to the same next board), while the agent's own choices stay random."""

    def __init__(self, seed=0):
        self.real = np.random.default_rng(seed)

    def integers(self, low, high=None, size=None):
        if size is None:
            return self.real.integers(low, high)
        return np.random.default_rng(int(np.prod(size))).integers(low, high, size=size)

    def random(self, size=None):
        return self.real.random(size)

    def permutation(self, x):
        return np.asarray(x)


# Two turns left on this board, refills fixed as above (colours 0-5). Worked out by playing every swap
# and the best reply: (2,2)-(3,2) scores the most now, 180, and leaves at best 240; (0,3)-(1,3) scores
# only 30 but sets up 800. With discount 0.5: 180 + 0.5 * 240 = 300 against 30 + 0.5 * 800 = 430,
# and every other swap is worth less; with discount 0 the immediate 180 wins.
SETUP = "203230/212312/002122/310010/011231/203031"


def two_turn_values(discount):
    rules = Match3Rules(size=6, colours=6, turns=2)
    state = Match3State(parse_board(SETUP), 2, 0, 0, 6)
    values = {}
    for a in rules.legal_actions(state):
        first = rules.play(state, a, SteadyRefills())
        replies = [rules.play(first.state, r, SteadyRefills()).points for r in rules.legal_actions(first.state)]
        values[a] = first.points + discount * max(replies)
    return rules, state, values


def test_the_worked_case():
    _, _, values = two_turn_values(0.5)
    assert values[(2, 2, 3, 2)] == 300 and values[(0, 3, 1, 3)] == 430
    assert max(values, key=values.get) == (0, 3, 1, 3)
    _, _, immediate = two_turn_values(0.0)
    assert max(immediate, key=immediate.get) == (2, 2, 3, 2) and immediate[(2, 2, 3, 2)] == 180


@pytest.mark.parametrize("discount, expected", [(0.5, (0, 3, 1, 3)), (0.0, (2, 2, 3, 2))])
def test_q_rollouts_prefers_what_its_discount_says(discount, expected):
    rules, state, _ = two_turn_values(discount)
    agent = QRollouts(rules, DEFAULTS.with_agent("q-rollouts", game="match3", epsilon=0.5, step_size=0.2, discount=discount, rollouts=400))
    assert agent.act(state, SteadyRefills(seed=3)) == expected


def test_q_rollouts_fixed_seed_fixed_decision():
    rules = Match3Rules()
    state = rules.new_state(np.random.default_rng(4))
    picks = {QRollouts(rules, DEFAULTS.with_agent("q-rollouts", game="match3", rollouts=10)).act(state, np.random.default_rng(8)) for _ in range(2)}
    assert len(picks) == 1 and picks.pop() in rules.legal_actions(state)


def test_q_rollouts_never_touches_the_game_generator():
    rules = Match3Rules()
    game_rng = np.random.default_rng(4)
    state = rules.new_state(game_rng)
    before = game_rng.bit_generator.state
    QRollouts(rules, DEFAULTS.with_agent("q-rollouts", game="match3", rollouts=3)).act(state, np.random.default_rng(1))
    assert game_rng.bit_generator.state == before


def test_greedy_agents_on_the_cascade():
    # The only legal swap, (3,0)-(3,1), brings a 0 into column 0 and starts the cascade above:
    # greedy counts its own line (30), greedy-cascade the whole turn (30 + 60).
    rules = Match3Rules(size=6, colours=7)
    state = rules.parse_state("123456/134562/045623/506234/062345/123456 turns=3")
    assert state.turns_left == 3 and rules.format_state(state).endswith(" turns=3")
    assert rules.legal_actions(state) == [(3, 0, 3, 1)]
    assert GreedyCascade(rules, DEFAULTS).explain(state) == {(3, 0, 3, 1): 90.0}
    assert GreedyMatch3(rules, DEFAULTS).explain(state) == {(3, 0, 3, 1): 30.0}


def test_greedy_ties_are_broken_at_random():
    rules = Match3Rules()
    state = rules.new_state(np.random.default_rng(6))
    values = GreedyMatch3(rules, DEFAULTS).explain(state)
    ties = [a for a, v in values.items() if v == max(values.values())]
    picks = {GreedyMatch3(rules, DEFAULTS).act(state, np.random.default_rng(k)) for k in range(40)}
    assert picks <= set(ties) and (len(picks) > 1 or len(ties) == 1)


def test_decide_match3(capsys, tmp_path):
    colours = tmp_path / "seven.toml"  # the board has colours 0-6: the game's settings must allow them
    colours.write_text("[match3]\ncolours = 7\n")
    code = main(["--settings", str(colours), "decide", "match3", "--state",
                 "123456/134562/045623/506234/062345/123456 turns=3", "--agent", "greedy-cascade", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["action"] == [3, 0, 3, 1] and data["move"] == "row 4 col 1 right"
    assert data["values"] == {"row 4 col 1 right": 90.0}
