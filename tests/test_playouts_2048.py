"""The compiled any-size 2048 playouts (agents/engines/twenty48/playout_kernels: move_cells, spawn_cells,
random_playouts_cells) against the rules they copy (arcade/games/twenty48.py), draw for draw."""
import numpy as np
import pytest

from agents.engines.twenty48 import playout_kernels
from agents.engines.twenty48.playouts import playout_returns
from arcade.games.twenty48 import Rules2048, State2048


def _k():
    return playout_kernels


def _boards(size, count, seed):
    rng = np.random.default_rng(seed)
    boards = rng.integers(0, 6, size=(count, size, size)).astype(np.uint8)
    boards[rng.random(boards.shape) < 0.3] = 0
    return boards


@pytest.mark.parametrize("size", [2, 3, 5, 6])
def test_the_kernels_slide_is_the_rules_slide(size):
    rules = Rules2048(size=size)
    out = np.empty((size, size), dtype=np.uint8)
    checked = 0
    for board in _boards(size, 300, size):
        state = State2048(board, 0)
        legal = rules.legal_actions(state)
        for d in range(4):
            gained = _k().move_cells(board, d, out)
            if d not in legal:
                assert gained == -1
                continue
            moved = rules.after_move(state, d)
            assert gained == moved.score
            np.testing.assert_array_equal(out, moved.board)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("p_four", [0.0, 0.1, 0.5])
def test_the_kernels_spawn_is_the_rules_spawn(p_four):
    rules = Rules2048(size=3, spawn_four_probability=p_four)
    for i, board in enumerate(_boards(3, 200, 7)):
        if not (board == 0).any():
            continue
        expected = rules.spawn(board, np.random.default_rng(i))
        u = np.random.default_rng(i).random(2)
        cells = board.copy()
        assert _k().spawn_cells(cells, u[0], u[1], p_four)
        np.testing.assert_array_equal(cells, expected)


def _plain_playout(rules, state, rng, max_moves):
    """The kernel's draws in its order, through the rules: one uniform picks the move among the legal ones
    (in direction order), then the rules' spawn draws its two."""
    for _ in range(max_moves):
        legal = rules.legal_actions(state)
        if not legal:
            break
        k = min(int(rng.random() * len(legal)), len(legal) - 1)
        state = rules.step(state, legal[k], rng)
    return state.score


@pytest.mark.parametrize("size,p_four", [(3, 0.0), (3, 0.1), (5, 0.1)])
def test_a_compiled_playout_on_any_size_is_the_rules_playout_draw_for_draw(size, p_four):
    rules = Rules2048(size=size, spawn_four_probability=p_four)
    states = [rules.new_state(np.random.default_rng(s)) for s in range(6)]
    got = playout_returns(rules, states, np.random.default_rng(42), 400)
    rng = np.random.default_rng(42)
    want = [_plain_playout(rules, s, rng, 400) for s in states]
    assert [g[0] for g in got] == want
    assert max(want) > 0


