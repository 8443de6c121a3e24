"""One definition of a player node's value in both strong-expectimax searches: the best legal move, and a
game-over value below every live board's evaluation when there is none. Checked on late boards, where
the heuristic goes negative and games end inside the search."""
from __future__ import annotations

import numpy as np
import pytest

from agents.base import best_action
from agents.expectimax_strong import ArraySearch, BitSearch, evaluate, game_over_value
from arcade.games import board64
from arcade.games.twenty48 import move_all


def late_boards(count: int, seed: int = 5) -> list[np.ndarray]:
    """4x4 exponent boards as a game's end has them: large tiles, 1-3 empty cells, a legal move left.
    Tiles up to 4096, so no search of depth 4 makes two tiles of 32768 (which the uint64 board keeps apart)."""
    rng = np.random.default_rng(seed)
    boards = []
    while len(boards) < count:
        board = rng.choice(np.arange(1, 13), size=16, p=np.r_[np.full(6, 0.2), np.full(6, 0.8)] / 6).astype(np.uint8)
        board[rng.choice(16, size=rng.integers(1, 4), replace=False)] = 0
        board = board.reshape(4, 4)
        if move_all(board[None])[2].any():
            boards.append(board)
    return boards


BOARDS = late_boards(300)


def test_the_late_boards_are_what_the_check_needs():
    values = evaluate(np.array(BOARDS))
    assert np.mean(values < 0) > 0.5  # the heuristic is negative on most of them
    lost_inside = sum(min(BitSearch(0.1, 1e-4).root(b, 2).values()) < -8e6 for b in BOARDS)
    assert lost_inside > 30  # a game over inside the search (no live board evaluates this low)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_the_uint64_and_array_searches_give_equal_values(depth):
    boards = BOARDS if depth < 4 else BOARDS[:120]
    for board in boards:
        bit = BitSearch(0.1, 1e-4).root(board, depth)
        arr = ArraySearch(0.1, 1e-4).root(board, depth)
        assert bit.keys() == arr.keys()
        for d in bit:
            assert bit[d] == pytest.approx(arr[d], rel=1e-9, abs=1e-6), (board.tolist(), depth, d)


def test_game_over_is_worth_less_than_any_live_board():
    # every 4x4 line the tables hold, at its worst: 8 of the worst line is below every live board
    from agents.expectimax_strong import _line_table

    assert game_over_value(4) < 8 * float(_line_table(4)[0].min())
    worst = np.full((1, 4, 4), 15, np.uint8)
    worst[0, :, 2] = 1
    assert game_over_value(4) < evaluate(worst)[0] < 0


def test_a_move_into_a_lost_board_is_never_preferred_to_a_live_one():
    # one empty cell and tiles of 8 or more: most moves fill the board for good, the odd one merges
    rng = np.random.default_rng(9)
    lost_value = game_over_value(4)
    found = 0
    for _ in range(600):
        board = rng.integers(3, 13, 16).astype(np.uint8)
        board[rng.integers(16)] = 0
        board = board.reshape(4, 4)
        for search in (BitSearch(0.1, 1e-4), ArraySearch(0.1, 1e-4)):
            values = search.root(board, 1)
            lost = [d for d, v in values.items() if v == pytest.approx(lost_value, rel=1e-12)]  # every tile loses
            live = [d for d in values if d not in lost]
            if lost and live:
                found += 1
                assert best_action(values) in live
                assert min(values[d] for d in live) > lost_value
    assert found >= 50  # the situation does occur among these boards


def test_the_bit_search_packs_these_boards():
    assert all(board64.fits(b) for b in BOARDS)
