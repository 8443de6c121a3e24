"""2048 rules: slides and merges on hand-made rows, score, spawns, legality, undo, batched moves."""
import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from arcade.games.twenty48 import (DOWN, LEFT, RIGHT, UP, Rules2048, from_values, move_all, move_batch,
                                   slide_paths, State2048)


def values_after(rows, direction):
    state = from_values(rows)
    boards, gains, changed = move_batch(state.board[None], direction)
    out = np.where(boards[0] > 0, 1 << boards[0].astype(np.int64), 0)
    return out.tolist(), int(gains[0]), bool(changed[0])


def square(row, size):
    """A board with `row` on top and zeros below."""
    return [list(row)] + [[0] * size for _ in range(size - 1)]


@pytest.mark.parametrize("row, expected, gain", [
    ([2, 2, 2, 2], [4, 4, 0, 0], 8),
    ([4, 4, 8, 0], [8, 8, 0, 0], 8),  # no double merge: the new 8 does not merge again
    ([2, 0, 0, 2], [4, 0, 0, 0], 4),
    ([2, 2, 4, 4], [4, 8, 0, 0], 12),
    ([8, 4, 2, 2], [8, 4, 4, 0], 4),
    ([2, 4, 8, 16], [2, 4, 8, 16], 0),
    ([0, 0, 0, 2], [2, 0, 0, 0], 0),
    ([4, 2, 2, 0], [4, 4, 0, 0], 4),
])
def test_left_slides_and_merges(row, expected, gain):
    out, g, _ = values_after(square(row, 4), LEFT)
    assert out[0] == expected and g == gain


@pytest.mark.parametrize("size", [3, 4, 5, 6, 7])
def test_every_direction_every_size(size):
    row = [2, 2] + [0] * (size - 3) + [4]
    expect_left = [4, 4] + [0] * (size - 2)
    out, gain, changed = values_after(square(row, size), LEFT)
    assert out[0] == expect_left and gain == 4 and changed
    out, gain, _ = values_after(square(row, size), RIGHT)
    assert out[0] == [0] * (size - 2) + [4, 4] and gain == 4
    column = [[v] + [0] * (size - 1) for v in row]  # the same line as the first column
    out, gain, _ = values_after(column, UP)
    assert [r[0] for r in out] == expect_left and gain == 4
    out, gain, _ = values_after(column, DOWN)
    assert [r[0] for r in out] == [0] * (size - 2) + [4, 4] and gain == 4


def test_large_boards_use_the_array_path_and_agree(monkeypatch):
    rng = np.random.default_rng(4)
    boards = rng.integers(0, 5, size=(50, 4, 4)).astype(np.uint8)
    table = [move_batch(boards, d) for d in range(4)]
    monkeypatch.setattr("arcade.games.twenty48._TABLE_MAX_SIZE", 0)
    for d in range(4):
        plain = move_batch(boards, d)
        for a, b in zip(table[d], plain, strict=True):
            assert np.array_equal(a, b)


def test_high_tiles_beyond_the_table():
    out, gain, _ = values_after(square([32768, 32768, 2, 0], 4), LEFT)
    assert out[0] == [65536, 2, 0, 0] and gain == 65536


def test_unchanged_move_is_not_legal():
    rules = Rules2048(size=3)
    state = from_values([[2, 4, 8], [4, 8, 16], [8, 16, 0]])
    assert rules.legal_actions(state) == [DOWN, RIGHT]
    with pytest.raises(ValueError, match="not a legal move"):
        rules.after_move(state, LEFT)


def test_game_over_when_no_move():
    rules = Rules2048(size=3)
    state = from_values([[2, 4, 2], [4, 2, 4], [2, 4, 2]])
    assert rules.legal_actions(state) == [] and rules.is_terminal(state)


@hsettings(max_examples=400, deadline=None)
@given(size=st.integers(3, 5), data=st.data())
def test_the_game_is_over_exactly_when_no_move_changes_the_board(size, data):
    """is_terminal reads the board (no empty cell, no equal neighbours); legal_actions slides it four ways."""
    cells = data.draw(st.lists(st.integers(0, 8), min_size=size * size, max_size=size * size)
                      .filter(any))  # a game's board always holds a tile
    state = State2048(np.array(cells, dtype=np.uint8).reshape(size, size), 0)
    rules = Rules2048(size=size)
    assert rules.is_terminal(state) == (rules.legal_actions(state) == [])


def test_chance_outcomes_sum_to_one():
    state = from_values([[0, 2, 0], [0, 4, 0], [0, 0, 8]])  # left: 2 . . / 4 . . / 8 . .
    for p4 in (0.0, 0.1, 1.0):
        outs = Rules2048(size=3, spawn_four_probability=p4).chance_outcomes(state, LEFT)
        assert sum(p for _, p in outs) == pytest.approx(1.0)
        placed = set()
        for kid, p in outs:
            values = kid.values()
            assert values[:, 0].tolist() == [2, 4, 8] and kid.score == 0
            (r, c), = zip(*np.nonzero(values[:, 1:]), strict=True)
            placed.add(((int(r), int(c) + 1), int(values[r, c + 1])))
            assert p == pytest.approx((1 - p4 if values[r, c + 1] == 2 else p4) / 6)
        assert {cell for cell, _ in placed} == {(r, c) for r in range(3) for c in (1, 2)}
        assert {tile for _, tile in placed} == ({2} if p4 == 0 else {4} if p4 == 1 else {2, 4})


def test_spawn_is_uniform_and_seeded():
    rules = Rules2048(size=3)
    empty = np.zeros((3, 3), np.uint8)
    counts = np.zeros(9)
    rng = np.random.default_rng(0)
    for _ in range(9000):
        board = rules.spawn(empty, rng)
        assert board.sum() == 1  # a 2-tile (exponent 1) with the course's rules
        counts += board.ravel()
    assert counts.min() > 850 and counts.max() < 1150
    a = rules.new_state(np.random.default_rng(5))
    b = rules.new_state(np.random.default_rng(5))
    assert a == b and np.count_nonzero(a.board) == 2


def test_four_probability_spawns_fours():
    rules = Rules2048(size=4, spawn_four_probability=0.5)
    rng = np.random.default_rng(1)
    tiles = [rules.spawn(np.zeros((4, 4), np.uint8), rng).max() for _ in range(2000)]
    assert 0.45 < np.mean(np.array(tiles) == 2) < 0.55


def test_step_adds_score_and_a_tile():
    rules = Rules2048()
    state = rules.parse_state("2,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0 score=10")
    after = rules.step(state, LEFT, np.random.default_rng(0))
    assert after.score == 14 and sorted(after.values()[after.board > 0].tolist()) == [2, 4]


def test_undo_back_to_the_start_restores_exactly():
    from arcade.session import GameSession

    game = GameSession(Rules2048(), 3)
    start = game.state
    states = [start]
    rng = np.random.default_rng(9)
    while len(states) < 30 and not game.over:
        legal = game.rules.legal_actions(game.state)
        assert game.play(legal[rng.integers(len(legal))])
        states.append(game.state)
    for expected in reversed(states[:-1]):
        assert game.undo()
        assert game.state == expected
    assert game.state == start and not game.undo()


def test_parse_state_errors():
    rules = Rules2048()
    for bad, why in [("2,2/2", "square"), ("3,0,0/0,0,0/0,0,0", "not a tile"), ("a,b/c,d", "comma-separated"),
                     ("2,0/0,0", "size must be 3 to 7")]:
        with pytest.raises(ValueError, match=why):
            rules.parse_state(bad)
    with pytest.raises(ValueError, match="'turns=3' is not part of a 2048 state"):
        rules.parse_state("0,0,0/0,0,0/0,0,2 turns=3")
    with pytest.raises(ValueError, match="score must be a whole number"):
        rules.parse_state("0,0,0/0,0,0/0,0,2 score=-1")
    state = rules.parse_state("0,0,0/0,0,0/0,0,2 score=12")
    assert state.score == 12 and rules.parse_state(rules.format_state(state)) == state


def test_slide_paths_match_the_move():
    rng = np.random.default_rng(2)
    for _ in range(200):
        board = rng.integers(0, 4, size=(4, 4)).astype(np.uint8)
        for d in range(4):
            moved = move_batch(board[None], d)[0][0]
            rebuilt = np.zeros_like(board)
            for _, to, exponent, merged in slide_paths(board, d):
                rebuilt[to] = exponent + 1 if merged else max(rebuilt[to], exponent)
            assert np.array_equal(rebuilt, moved)


boards = st.integers(3, 7).flatmap(
    lambda s: st.lists(st.integers(0, 11), min_size=s * s, max_size=s * s).map(
        lambda cells: np.array(cells, dtype=np.uint8).reshape(s, s)))


def tile_sum(board):
    return int(np.where(board > 0, 1 << board.astype(np.int64), 0).sum())


@hsettings(max_examples=150, deadline=None)
@given(boards, st.integers(0, 3))
def test_moves_keep_the_tile_sum_and_gain_matches(board, direction):
    moved, gains, changed = move_batch(board[None], direction)
    assert tile_sum(moved[0]) == tile_sum(board)
    # the gain equals the value of the tiles created by merging: tiles lost = merges
    assert int(gains[0]) >= 0
    assert changed[0] == (not np.array_equal(moved[0], board))
    again, gains2, _ = move_batch(moved, direction)
    # a second move the same way only adds new merges; without a merge it changes nothing
    if gains2[0] == 0:
        assert np.array_equal(again[0], moved[0])
    assert np.count_nonzero(again[0]) <= np.count_nonzero(moved[0])


@hsettings(max_examples=60, deadline=None)
@given(st.integers(3, 7), st.integers(0, 2**32 - 1))
def test_batched_moves_agree_with_single_moves(size, seed):
    rng = np.random.default_rng(seed)
    stack = rng.integers(0, 6, size=(8, size, size)).astype(np.uint8)
    for d in range(4):
        batch = move_batch(stack, d)
        for i in range(len(stack)):
            single = move_batch(stack[i:i + 1], d)
            assert np.array_equal(batch[0][i], single[0][0]) and batch[1][i] == single[1][0]
    all_boards, all_gains, all_changed = move_all(stack)
    assert all_boards.shape == (8, 4, size, size) and all_gains.shape == (8, 4)
    for d in range(4):
        single = move_batch(stack, d)
        assert np.array_equal(all_boards[:, d], single[0]) and np.array_equal(all_gains[:, d], single[1])
        assert np.array_equal(all_changed[:, d], single[2])
