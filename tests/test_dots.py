"""Dots and boxes: the course's masks and encoding, scoring and extra moves, policy iteration, the solver."""
import functools
import json

import numpy as np
import pytest

from agents.dots_solver import DotsSolver, retrograde
from agents.policy_iteration import (PolicyIterationAgent, evaluate, improve, optimal_action, optimal_value,
                                     q_values, solve)
from arcade.cli import main
from arcade.games.dots import SIZES, Board, DotsRules, DotsState, box_counts, parse_lines, transition_tables
from arcade.settings import Settings

DEFAULTS = Settings()  # agents always receive settings; these are the defaults

FULL22 = (1 << 12) - 1


def test_seed_box_masks_and_layout():
    assert Board(2, 2).box_masks() == [325, 1290, 660, 2600]
    b = Board(2, 2)
    assert [b.h(0, 0), b.h(0, 1), b.h(2, 1)] == [0, 1, 5]  # horizontal lines first, top row first
    assert [b.v(0, 0), b.v(1, 0), b.v(0, 2)] == [6, 7, 10]


@pytest.mark.parametrize("rows, cols", SIZES)
def test_masks_on_every_board(rows, cols):
    b = Board(rows, cols)
    masks = b.box_masks()
    assert len(masks) == rows * cols and all(bin(m).count("1") == 4 for m in masks)
    used = np.zeros(b.n_lines, int)
    for m in masks:
        for bit in range(b.n_lines):
            used[bit] += (m >> bit) & 1
    assert used.min() >= 1 and used.max() == 2  # border lines in one box, inner lines in two
    assert used.sum() == 4 * rows * cols
    for bit in range(b.n_lines):  # every line joins two neighbouring dots
        (r1, c1), (r2, c2) = b.line_ends(bit)
        assert abs(r1 - r2) + abs(c1 - c2) == 1


@pytest.mark.parametrize("rows, cols", SIZES)
def test_bit_string_round_trip(rows, cols):
    b = Board(rows, cols)
    rng = np.random.default_rng(rows * 10 + cols)
    for _ in range(20):
        lines = int(rng.integers(0, 1 << b.n_lines))
        textual = "".join("1" if (lines >> i) & 1 else "0" for i in range(b.n_lines))
        board, parsed = parse_lines(textual)
        assert (board.rows, board.cols) == (rows, cols) and parsed == lines
    with pytest.raises(ValueError, match="fit no board"):
        parse_lines("0" * 13)
    with pytest.raises(ValueError, match="0 and 1"):
        parse_lines("0102")


def test_one_box_scores_and_moves_again():
    rules = DotsRules()
    state = DotsState(2, 2, 325 & ~1, (0, 0), 0)  # box 0 lacks only line 0
    after = rules.step(state, 0)
    assert after.scores == (1, 0) and after.mover == 0
    other = rules.step(state, 11)  # no box: the turn passes
    assert other.scores == (0, 0) and other.mover == 1


def test_two_boxes_with_one_line():
    rules = DotsRules()
    lines = (325 | 1290) & ~(1 << 8)  # line 8 is shared by boxes 0 and 1
    after = rules.step(DotsState(2, 2, lines, (1, 0), 1), 8)
    assert after.scores == (1, 2) and after.mover == 1


def test_game_end_and_outcome():
    rules = DotsRules()
    state = DotsState(2, 2, FULL22 & ~(1 << 5), (2, 1), 0)
    end = rules.step(state, 5)
    assert rules.is_terminal(end) and end.scores == (3, 1) and rules.outcome(end)["winner"] == 0
    assert rules.legal_actions(end) == []
    with pytest.raises(ValueError):
        rules.step(end, 5)


def test_box_counts_table():
    counts = box_counts(2, 2)
    assert counts[0] == 0 and counts[FULL22] == 4 and counts[325] == 1 and counts[325 | 2600] == 2


# a hand-made position: box 0 open on lines 0 and 6, box 3 open on line 5, boxes 1 and 2 closed
THREE_FREE = FULL22 & ~(1 << 0 | 1 << 6 | 1 << 5)
TWO_FREE = THREE_FREE | 1 << 5


def test_policy_evaluation_on_a_hand_computed_position():
    nxt, gains, free = transition_tables(2, 2)
    policy = solve(2, 2).policy.copy()
    V, W, _ = evaluate(policy, nxt, gains, free)
    # two free lines, both on box 0: whoever draws the first hands the box to the other side.
    assert V[TWO_FREE] == pytest.approx(0.0) and W[TWO_FREE] == pytest.approx(1.0)
    # three free: line 5 closes box 3 (+1), then the agent must open box 0 for the opponent: V = 1.
    # The random opponent first: line 5 (1/3) closes box 3 for it and it must then open box 0 to us (1);
    # line 0 or 6 (2/3) leaves us both boxes (2). W = (1 + 2 + 2) / 3.
    assert V[THREE_FREE] == pytest.approx(1.0) and W[THREE_FREE] == pytest.approx(5 / 3)
    q = q_values(V, W, nxt[THREE_FREE][None], gains[THREE_FREE][None], free[THREE_FREE][None])[0]
    assert q[5] == pytest.approx(1.0) and q[0] == pytest.approx(0.0) and q[6] == pytest.approx(0.0)
    assert policy[THREE_FREE] == 5 and optimal_action(THREE_FREE) == 5 and optimal_value(THREE_FREE) == 1.0


def test_improvement_is_never_worse():
    nxt, gains, free = transition_tables(2, 2)
    policy = np.where(free.any(axis=1), np.argmax(free, axis=1), -1)
    V, W, _ = evaluate(policy, nxt, gains, free)
    for _ in range(4):
        better = improve(policy, V, W, nxt, gains, free)
        V2, W2, _ = evaluate(better, nxt, gains, free)
        assert (V2 >= V - 1e-9).all()
        policy, V, W = better, V2, W2


def test_policy_iteration_converges_and_is_optimal_against_random():
    sol = solve(2, 2)
    nxt, gains, free = transition_tables(2, 2)
    q = q_values(sol.V, sol.W, nxt, gains, free)
    assert np.allclose(sol.V, np.where(free.any(1), q.max(1), 0))  # Bellman optimality
    assert 0 < sol.V[0] <= 4 and sol.iterations >= 2


def test_plays_the_expected_boxes_against_random():
    from agents.baselines import RandomAgent
    from arcade.runner import play_games

    rules = DotsRules()
    records = play_games(rules, PolicyIterationAgent(rules, DEFAULTS), RandomAgent(rules, DEFAULTS), games=300, seed=4)
    first = [r.score for r in records if r.agent_seat == 0]
    assert abs(np.mean(first) - solve(2, 2).V[0]) < 3 * np.std(first) / np.sqrt(len(first)) + 0.05


def plain_minimax_22():
    counts = box_counts(2, 2)

    @functools.lru_cache(maxsize=None)
    def m(lines):
        if lines == FULL22:
            return 0
        best = None
        for a in range(12):
            if not (lines >> a) & 1:
                t = lines | 1 << a
                g = int(counts[t]) - int(counts[lines])
                v = g + m(t) if g else -m(t)
                best = v if best is None else max(best, v)
        return best

    return m


def test_solver_matches_plain_minimax_on_every_2x2_state():
    m = plain_minimax_22()
    margin = retrograde(2, 2)
    assert all(margin[s] == m(s) for s in range(1 << 12))
    assert margin[0] == 2  # the first player wins 3-1 on 2x2


def test_solver_values_and_move(settings):
    rules = DotsRules()
    solver = DotsSolver(rules, settings)
    state = DotsState(2, 2, THREE_FREE, (1, 1), 0)
    assert solver.value(state) == 0  # +1 for box 3, then box 0 goes to the opponent
    assert solver.act(state) == 5
    assert retrograde(2, 3)[0] == -2  # 2x3: the second player wins by 2


def test_decide_dots_json(capsys):
    assert main(["decide", "dots", "--state", "000000000000", "--agent", "policy-iteration", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["values"]) == 12 and data["values"][data["move"]] == pytest.approx(max(data["values"].values()))
    assert "a1-b1" in data["values"] and "c2-c3" in data["values"]  # (lines by the dots they join)
    assert main(["decide", "dots", "--state", "0" * 17, "--agent", "solver", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["values"]) == 17 and max(data["values"].values()) == -2


def test_the_shipped_3x3_table_agrees_with_a_plain_solve():
    """Issue 25 #19: the 3x3 table ships built (tools/build_dots_table.py); its margins equal a plain recursive
    minimax on 300 random positions with up to 12 lines left, and the empty board is worth -3."""
    import functools

    from agents.dots_solver import FORMAT_VERSION, SHIPPED
    from arcade.games.dots import Board, gain
    from arcade.foundation.storage import load_npz

    margin = load_npz(SHIPPED, FORMAT_VERSION, required=("margin",))["margin"]
    board = Board(3, 3)
    assert margin.shape == (1 << 24,) and int(margin[0]) == -3

    @functools.lru_cache(maxsize=None)
    def plain(lines: int) -> int:
        best = None
        for a in range(24):
            if not (lines >> a) & 1:
                g = gain(board, lines, a)
                v = g + plain(lines | 1 << a) if g else -plain(lines | 1 << a)
                best = v if best is None else max(best, v)
        return 0 if best is None else best

    rng = np.random.default_rng(19)
    for _ in range(300):
        drawn = rng.choice(24, size=int(rng.integers(12, 24)), replace=False)
        lines = int(sum(1 << int(b) for b in drawn))
        assert int(margin[lines]) == plain(lines), lines


def test_3x3_opens_with_the_shipped_table_without_solving(tmp_path, monkeypatch):
    import agents.dots_solver as solver
    from arcade.settings import DataSettings, Settings

    monkeypatch.setattr(solver, "_SOLVED", {})
    monkeypatch.setattr(solver, "retrograde", lambda *a, **k: pytest.fail("solved again instead of loading"))
    settings = Settings(data=DataSettings(folder=str(tmp_path / "data")))
    agent = solver.DotsSolver(DotsRules(3, 3), settings)
    assert agent.value(DotsRules(3, 3).new_state()) == -3
    assert not (tmp_path / "data").exists()  # nothing written: the shipped file is read where it is


def test_the_2x3_policy_iteration_is_kept_in_the_data_folder_and_read_back_equal(tmp_path, monkeypatch):
    """A new process (an environment's opponent, the window's agent process) reads the 2x3 solution in
    moments instead of solving it for seconds; the file's values are the solve's."""
    from agents import policy_iteration as pi

    monkeypatch.setattr(pi, "_SOLVED", {})
    first = pi.solve_kept(2, 3, 1e-9, tmp_path)
    assert (tmp_path / "policy_iteration_2x3.npz").exists()
    monkeypatch.setattr(pi, "_SOLVED", {})
    monkeypatch.setattr(pi, "solve", lambda *a: pytest.fail("solved again"))
    again = pi.solve_kept(2, 3, 1e-9, tmp_path)
    assert np.array_equal(again.policy, first.policy) and np.array_equal(again.V, first.V)
    assert (again.iterations, again.sweeps) == (first.iterations, first.sweeps)
    monkeypatch.setattr(pi, "_SOLVED", {})
    with pytest.raises(pytest.fail.Exception):  # another tolerance: solved again, not read
        pi.solve_kept(2, 3, 1e-6, tmp_path)


def test_who_drew_each_line_and_took_each_box_is_read_off_the_games_states():
    """The display facts a state lacks come from the session's states (a resumed game and an environment's
    frame have them too): each seat's boxes as owned equal its score, every drawn line has its drawer."""
    from arcade.games.dots import DotsRules, completed_by, owners

    rules = DotsRules(3, 3)
    rng = np.random.default_rng(4)
    state, states, drawn_by, took = rules.new_state(), [], {}, {}
    while not rules.is_terminal(state):
        states.append(state)
        line = int(rng.choice(rules.legal_actions(state)))
        drawn_by[line] = state.mover
        took.update({box: state.mover for box in completed_by(state.board, state.lines, line)})
        state = rules.step(state, line, rng)
    line_owner, box_owner = owners([*states, state])
    assert line_owner == drawn_by and box_owner == took
    assert [sum(1 for s in box_owner.values() if s == seat) for seat in (0, 1)] == list(state.scores)
    assert owners([state]) == ({}, {})  # a position put on the board: nobody's lines
