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


def test_a_search_counts_its_positions_in_python_ints():
    # (they go into JSON: a runner's figures, a benchmark child's report)
    for learned in (None, lambda boards: np.zeros(len(boards))):
        search = BitSearch(0.1, 1e-4, learned=learned)
        search.root(BOARDS[0], 2)
        assert type(search.positions) is int and search.positions > 0


def test_the_last_layer_valued_a_chunk_at_a_time_gives_the_same_values(monkeypatch):
    import agents.expectimax_strong as strong

    whole = [BitSearch(0.1, 1e-4).root(b, 3) for b in BOARDS[:40]]
    monkeypatch.setattr(strong, "LEAF_CHUNK", 40)  # a few boards a chunk, the last chunk short
    for board, expected in zip(BOARDS[:40], whole):
        search = BitSearch(0.1, 1e-4)
        assert search.root(board, 3) == expected
    assert search.layers[1] > 8  # the last layer did span several chunks (2 boards a chunk)


def test_a_last_layer_running_past_its_deadline_stops_between_chunks(monkeypatch):
    import agents.expectimax_strong as strong

    monkeypatch.setattr(strong, "LEAF_CHUNK", 40)  # 2 boards placed on a chunk
    search = BitSearch(0.1, 1e-4)
    seconds = iter(range(1, 1000))
    search.clock = lambda: float(next(seconds))  # every look at the clock: a second later
    search.per_position = 0.0  # every layer predicted to take no time: only the clock can stop it
    search.at = 4.5  # past after the two layers' checks, the last layer's own and its first chunk's
    with pytest.raises(strong.OutOfTime):
        search.root(BOARDS[0], 2)
    assert next(seconds) == 6  # stopped at its second chunk, not after all of them


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


# --- budgets that hold -------------------------------------------------------------------------------

class StepClock:
    """A fake clock: every reading advances it by `step` seconds (the search reads it at every layer part)."""

    def __init__(self, step: float):
        self.t, self.step = 0.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


class JumpClock:
    """A fake clock that stands still for its first readings, then moves a second a reading."""

    def __init__(self, fast_readings: int):
        self.readings, self.fast = 0, fast_readings

    def __call__(self) -> float:
        self.readings += 1
        return max(0, self.readings - self.fast) * 1.0


def _strong(settings, budget_ms=100):
    from agents.expectimax_strong import StrongExpectimax
    from arcade.games.twenty48 import Rules2048

    return StrongExpectimax(Rules2048(spawn_four_probability=0.1),
                            settings.with_table("game2048", time_budget_ms=budget_ms))


MID_GAME = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [2, 0, 3, 0], [0, 1, 0, 0]], np.uint8)


def test_a_pass_still_running_at_the_deadline_is_dropped_and_the_last_finished_one_answers(settings):
    from arcade.games.twenty48 import from_values

    agent = _strong(settings, budget_ms=100)
    agent.clock = JumpClock(fast_readings=22)  # passes 1-3 take no time; the fourth stalls a second a layer part
    values = agent.explain(from_values(2 ** MID_GAME.astype(np.int64) * (MID_GAME > 0)))
    figures = agent.figures()
    assert figures["pass stopped"] == f"depth {figures['depth'] + 1} at the deadline"
    assert 1 <= figures["depth"] < figures["target depth"]
    assert values == BitSearch(0.1, agent.min_probability).root(MID_GAME, figures["depth"])


def test_a_pass_predicted_not_to_fit_is_not_started(settings):
    from arcade.games.twenty48 import from_values

    agent = _strong(settings, budget_ms=100)
    # every reading 0.1 ms: depth 1 reads the clock a handful of times, so it "takes" well under a ms,
    # and the passes grow by the branching they measured until the next would pass the budget
    agent.clock = StepClock(0.0001)
    agent.explain(from_values(2 ** MID_GAME.astype(np.int64) * (MID_GAME > 0)))
    figures = agent.figures()
    assert "pass stopped" not in figures
    assert figures["depth"] >= 2


def test_tables_are_built_with_the_agent_not_inside_its_first_budget(settings):
    from agents import expectimax_strong

    expectimax_strong._line_table64.cache_clear()
    _strong(settings)
    assert expectimax_strong._line_table64.cache_info().currsize == 1


def test_the_cpu_clock_is_the_threads_own_time(settings):
    import time

    from agents.base import budget_clock

    assert budget_clock(settings) is time.perf_counter
    assert budget_clock(settings.with_table("search", budget_clock="cpu")) is time.thread_time
    assert _strong(settings.with_table("search", budget_clock="cpu")).clock is time.thread_time
