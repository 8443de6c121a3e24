"""The compiled 2048 search (agents/engines/twenty48/kernels.py behind expectimax_strong.Search) gives the values of the
plain definition of expectimax: the numpy search it replaced (its values kept as fixtures, made by that
search before it was removed), and a plain recursive expectimax on the rules' own array boards written
here. A player node is the best legal move, with a game-over value below every live board's evaluation
when there is none; checked on late boards too, where the heuristic goes negative and games end inside
the search."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.base import best_action
from agents.expectimax_strong import Search, game_over_value, heuristic_values, line_scores, line_table
from agents.ntuple_net import NTupleNetwork
from agents.engines.twenty48 import board64
from arcade.games.twenty48 import move_all

FIXTURES = np.load(Path(__file__).parent / "fixtures" / "numpy_search_values.npz")
BOARDS = board64.unpack(FIXTURES["boards"])  # 40 mid-game boards (the benchmark's), then 60 late boards
MID, LATE = BOARDS[:40], BOARDS[40:]


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


def as_rows(values: dict) -> np.ndarray:
    row = np.full(4, np.nan)
    for d, v in values.items():
        row[d] = v
    return row


def test_the_fixture_boards_are_the_late_boards_this_file_makes():
    assert (LATE == np.array(late_boards(60))).all()


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_heuristic_values_equal_the_numpy_search_without_a_cut_off(depth):
    expected = FIXTURES[f"heuristic_p0_d{depth}"]
    search = Search(0.1, 0.0)
    for board, row in zip(BOARDS[:len(expected)], expected, strict=True):  # deeper fixtures: fewer boards
        got = as_rows(search.root(board, depth))
        assert (np.isnan(got) == np.isnan(row)).all()
        assert np.allclose(got[~np.isnan(row)], row[~np.isnan(row)], rtol=1e-12, atol=0)


@pytest.mark.parametrize("depth", [1, 2])
def test_network_values_equal_the_numpy_search_without_a_cut_off(depth):
    net = NTupleNetwork("3x4", FIXTURES["net_weights"].copy())  # random weights: every table read matters
    search = Search(0.1, 0.0, net)
    for board, row in zip(BOARDS, FIXTURES[f"learned_p0_d{depth}"], strict=True):
        got = as_rows(search.root(board, depth))
        assert (np.isnan(got) == np.isnan(row)).all()
        assert np.allclose(got[~np.isnan(row)], row[~np.isnan(row)], rtol=1e-9, atol=1e-6)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_with_the_cut_off_the_moves_are_the_numpy_searchs(depth):
    # with a cut-off the numpy search expanded a board if its likeliest copy in a layer was likely enough;
    # depth first, each copy is judged on its own path: the values differ a little from depth 4 on
    expected = FIXTURES[f"heuristic_p1e-4_d{depth}"]
    search = Search(0.1, 1e-4)
    for board, row in zip(BOARDS[:len(expected)], expected, strict=True):  # deeper fixtures: fewer boards
        got = as_rows(search.root(board, depth))
        assert np.nanargmax(got) == np.nanargmax(row)
        assert np.allclose(got[~np.isnan(row)], row[~np.isnan(row)], rtol=1e-3)


# --- a plain expectimax on the rules' array boards -------------------------------------------------------

def plain_heuristic(board: np.ndarray) -> float:
    """The sum of the table's score of every row and column (the table holds line_scores in float32)."""
    weights = 16 ** np.arange(4)
    table = line_table().astype(np.float64)
    return float(table[board.astype(np.int64) @ weights].sum() + table[board.T.astype(np.int64) @ weights].sum())


def plain_chance(board, depth, prob, p_four, min_prob, memo) -> float:
    """Expectimax by its definition, in the compiled search's order (the cut-off before the memo)."""
    if depth == 0 or prob < min_prob:
        return plain_heuristic(board)
    key = (board.tobytes(), depth)
    if key in memo:
        return memo[key]
    empty = list(zip(*np.nonzero(board == 0), strict=True))
    total = 0.0
    for cell in empty:
        for tile, p in ((1, (1 - p_four) / len(empty)), (2, p_four / len(empty))):
            if p == 0:
                continue
            kid = board.copy()
            kid[cell] = tile
            after, _, legal = move_all(kid[None])
            values = [plain_chance(after[0, d], depth - 1, prob * p, p_four, min_prob, memo)
                      for d in range(4) if legal[0, d]]
            total += p * (max(values) if values else game_over_value(4))
    memo[key] = total
    return total


def plain_root(board, depth, p_four, min_prob) -> dict:
    after, _, legal = move_all(board[None])
    memo: dict = {}
    return {d: plain_chance(after[0, d], depth, 1.0, p_four, min_prob, memo) for d in range(4) if legal[0, d]}


@pytest.mark.parametrize("p_four, min_prob, depth", [(0.1, 0.0, 2), (0.0, 0.0, 2), (0.5, 0.0, 2),
                                                     (0.1, 3e-3, 3), (0.1, 3e-3, 2)])
def test_values_equal_a_plain_expectimax_on_the_rules(p_four, min_prob, depth):
    search = Search(p_four, min_prob)
    step = 2 if depth >= 3 else 1  # the plain search at depth 3 is slow: half the boards
    boards = list(LATE[::6 * step]) + list(MID[::10 * step])
    for board in boards:
        got, plain = search.root(board, depth), plain_root(board, depth, p_four, min_prob)
        assert got.keys() == plain.keys()
        for d in got:
            assert got[d] == pytest.approx(plain[d], rel=1e-12), (board.tolist(), d)


def test_the_compiled_heuristic_is_the_line_scores_summed():
    rng = np.random.default_rng(0)
    boards = rng.integers(0, 16, size=(300, 4, 4)).astype(np.uint8)
    boards[rng.random(boards.shape) < 0.3] = 0
    direct = [float(line_scores(b).sum() + line_scores(b.T).sum()) for b in boards]
    assert np.allclose(heuristic_values(board64.pack(boards)), direct, rtol=1e-6)  # (the table is float32)
    assert np.allclose(heuristic_values(board64.pack(boards)), [plain_heuristic(b) for b in boards], rtol=1e-14)
    assert line_table().dtype == np.float32 and line_table().shape == (1 << 16,)


# --- positions, the cap, game over -----------------------------------------------------------------------

def test_a_search_counts_positions_in_python_ints_as_the_cpp_program_counts_them():
    # (they go into JSON: a runner's figures, a benchmark child's report)
    search = Search(0.1, 0.0)
    search.root(MID[0], 1)
    after, _, legal = move_all(MID[0][None])
    kids = sum(2 * int((after[0, d] == 0).sum()) for d in range(4) if legal[0, d])  # a 2 or a 4 in each empty cell
    assert type(search.positions) is int and search.positions == 4 + 4 * kids  # every move tried, each node


def test_a_search_stopped_at_its_cap_says_so_and_the_next_starts_afresh():
    search = Search(0.1, 1e-4)
    whole = search.root(MID[5], 3)
    assert search.root(MID[5], 3, cap=search.positions // 3) is None
    assert search.root(MID[5], 3) == whole  # nothing of the stopped search left in the table
    assert search.root(MID[5], 3, cap=10 * search.positions) == whole


def test_game_over_is_worth_less_than_any_live_board():
    # every 4x4 line the table holds, at its worst: 8 of the worst line is below every live board
    assert game_over_value(4) < 8 * float(line_table().min())
    worst = np.full((4, 4), 15, np.uint8)
    worst[:, 2] = 1
    assert game_over_value(4) < plain_heuristic(worst) < 0


def test_the_late_boards_are_what_the_checks_need():
    assert np.mean([plain_heuristic(b) < 0 for b in LATE]) > 0.5  # the heuristic is negative on most
    search = Search(0.1, 1e-4)
    lost_inside = sum(min(search.root(b, 2).values()) < -8e6 for b in late_boards(300))
    assert lost_inside > 30  # a game over inside the search (no live board evaluates this low)


def test_a_move_into_a_lost_board_is_never_preferred_to_a_live_one():
    # one empty cell and tiles of 8 or more: most moves fill the board for good, the odd one merges
    rng = np.random.default_rng(9)
    lost_value = game_over_value(4)
    search = Search(0.1, 1e-4)
    found = 0
    for _ in range(600):
        board = rng.integers(3, 13, 16).astype(np.uint8)
        board[rng.integers(16)] = 0
        board = board.reshape(4, 4)
        values = search.root(board, 1)
        lost = [d for d, v in values.items() if v == pytest.approx(lost_value, rel=1e-12)]  # every tile loses
        live = [d for d in values if d not in lost]
        if lost and live:
            found += 1
            assert best_action(values) in live
            assert min(values[d] for d in live) > lost_value
    assert found >= 50  # the situation does occur among these boards


# --- budgets that hold -----------------------------------------------------------------------------------

class StepClock:
    """A fake clock: every reading advances it by `step` seconds."""

    def __init__(self, step: float):
        self.t, self.step = 0.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def _strong(settings, budget_ms=100, **params):
    from agents.expectimax_strong import StrongExpectimax
    from arcade.games.twenty48 import Rules2048

    return StrongExpectimax(Rules2048(spawn_four_probability=0.1),
                            settings.with_agent("expectimax", game="2048", time_budget_ms=budget_ms, **params))


def _state(board):
    from arcade.games.twenty48 import from_values

    return from_values(2 ** board.astype(np.int64) * (board > 0))


def test_a_pass_past_its_cap_is_dropped_and_the_last_finished_one_answers(settings):
    from agents.expectimax_strong import FIRST_GROWTH, SLACK

    search = Search(0.1, 1e-4)
    sizes = [(search.root(MID[3], d), search.positions)[1] for d in (1, 2)]
    affordable = (sizes[0] * FIRST_GROWTH + sizes[1] / SLACK) / 2  # depth 2 predicted to fit, but it does not
    assert sizes[0] * FIRST_GROWTH < affordable < sizes[1] / SLACK
    agent = _strong(settings, budget_ms=100)
    agent.clock = StepClock(0.0)  # time stands still: only the cap can stop a pass
    agent.per_position = 0.1 / affordable
    values = agent.explain(_state(MID[3]))
    figures = agent.figures()
    assert figures["pass stopped"] == f"depth {figures['depth'] + 1} at the deadline"
    assert 1 <= figures["depth"] < figures["target depth"]
    assert values == Search(0.1, agent.min_probability).root(MID[3], figures["depth"])


def test_a_pass_predicted_not_to_fit_is_not_started(settings):
    agent = _strong(settings, budget_ms=100)
    agent.clock = StepClock(0.002)  # every reading 2 ms: depth 1 "takes" 2 ms, so depth 3 would not fit
    agent.explain(_state(MID[3]))
    figures = agent.figures()
    assert "pass stopped" not in figures
    assert 1 <= figures["depth"] < figures["target depth"]


def test_with_time_enough_it_searches_its_target_depth_and_reports_its_figures(settings):
    agent = _strong(settings, budget_ms=60_000, max_depth=3)  # a minute for a depth-3 pass of milliseconds
    values = agent.explain(_state(MID[7]))
    figures = agent.figures()
    assert figures["depth"] == figures["target depth"] == 3
    assert figures["positions"] > 0 and figures["cache hits"] >= 0
    assert values == Search(0.1, agent.min_probability).root(MID[7], 3)


def test_the_cpu_clock_is_the_threads_own_time(settings):
    import time

    from agents.base import budget_clock

    assert budget_clock(settings) is time.perf_counter
    assert budget_clock(settings.with_table("agents", budget_clock="cpu")) is time.thread_time
    assert _strong(settings.with_table("agents", budget_clock="cpu")).clock is time.thread_time
