"""The batched match-3 engine against the single-board rules, and the agents that run on it."""
import numpy as np
import pytest

from agents.greedy import GreedyCascade
from agents.monte_carlo import MonteCarlo
from agents.qrollouts import QRollouts
from arcade.games import match3_batch as mb
from arcade.games.match3 import Match3Rules, all_swaps, has_line, legal_swaps, random_board
from arcade.settings import Settings

DEFAULTS = Settings()


def swapped_stack(board: np.ndarray, swaps: np.ndarray) -> np.ndarray:
    """One copy of the board per swap, with that swap made (the plain way to test swaps: the tests' oracle)."""
    stack = np.broadcast_to(board, (len(swaps),) + board.shape).copy()
    idx = np.arange(len(swaps))
    r1, c1, r2, c2 = swaps.T
    stack[idx, r1, c1] = board[r2, c2]
    stack[idx, r2, c2] = board[r1, c1]
    return stack


@pytest.mark.parametrize("size, colours", [(9, 5), (6, 4), (4, 3), (12, 7), (9, 8)])
def test_legal_masks_are_the_plain_swap_test_on_hundreds_of_boards(size, colours):
    rng = np.random.default_rng(size * 10 + colours)
    boards = np.stack([random_board(size, colours, rng) for _ in range(200)])
    mask = mb.legal_mask(boards)
    swaps = all_swaps(size)
    for board, row in zip(boards, mask, strict=True):
        plain = has_line(swapped_stack(board, swaps))  # every swap made on a copy, then tested for a line
        assert np.array_equal(row, plain)
        assert np.array_equal(legal_swaps(board), swaps[row])


def test_a_batch_of_one_plays_the_rules_whole_games_exactly():
    rules = Match3Rules()
    for seed in range(24):
        rng_rules, rng_batch, pick = (np.random.default_rng(seed), np.random.default_rng(seed),
                                      np.random.default_rng(seed + 100))
        state = rules.new_state(rng_rules)
        boards = rules.new_state(rng_batch).board[None].copy()
        score, left = 0, rules.turns
        index = {tuple(s): i for i, s in enumerate(all_swaps(9).tolist())}
        while not rules.is_terminal(state):
            legal = state.swaps()
            swap = tuple(legal[int(pick.integers(len(legal)))].tolist())
            assert mb.legal_mask(boards)[0, index[swap]]
            state = rules.step(state, swap, rng_rules)
            boards, points = mb.play(boards, np.array([index[swap]]), mb.RngRefill(rng_batch, 5))
            left -= 1
            mb.settle(boards, left, rng_batch)
            score += int(points[0])
            assert np.array_equal(boards[0], state.board) and score == state.score


def test_batched_turns_score_as_the_rules_on_hundreds_of_boards():
    rules = Match3Rules(size=8, colours=6)
    rng = np.random.default_rng(3)
    for _ in range(150):
        state = rules.new_state(rng)
        swap = state.swaps()[0]
        index = int(np.flatnonzero((all_swaps(8) == swap).all(axis=1))[0])
        seed = int(rng.integers(1 << 30))
        result = rules.play(state, tuple(swap), np.random.default_rng(seed))
        boards, points = mb.play(state.board[None], np.array([index]), mb.RngRefill(np.random.default_rng(seed), 6))
        assert points[0] == result.points
        if not result.reshuffled:
            assert np.array_equal(boards[0], result.state.board)


def test_tapes_give_every_board_of_a_rollout_the_same_new_gems():
    rng = np.random.default_rng(1)
    board = random_board(9, 5, rng)
    swap = np.flatnonzero(mb.legal_mask(board[None])[0])[:1]
    tapes = rng.integers(0, 5, size=(2, 500), dtype=np.int8)
    boards = np.repeat(board[None], 3, axis=0)
    after, points = mb.play(boards, np.repeat(swap, 3), mb.TapeRefill(tapes, [0, 0, 1]))
    assert np.array_equal(after[0], after[1]) and points[0] == points[1]  # one tape, one future
    assert not np.array_equal(after[0], after[2])  # another tape, other new gems


def test_batched_greedy_cascade_is_the_agents_choice():
    rules = Match3Rules()
    agent = GreedyCascade(rules, DEFAULTS)
    rng = np.random.default_rng(5)
    states = [rules.new_state(rng) for _ in range(40)]
    boards = np.stack([s.board for s in states])
    choice, score = mb.greedy_cascade(boards, mb.legal_mask(boards))
    for s, c, sc in zip(states, choice, score, strict=True):
        values = agent.explain(s)
        assert sc == max(values.values()) and values[tuple(all_swaps(9)[c])] == sc


def test_q_rollouts_batch_keeps_the_course_decisions_fixed_by_seed():
    rules = Match3Rules()
    state = rules.new_state(np.random.default_rng(4))
    picks = {QRollouts(rules, DEFAULTS).act(state, np.random.default_rng(8)) for _ in range(2)}
    assert len(picks) == 1 and picks.pop() in rules.legal_actions(state)
    agent = QRollouts(rules, DEFAULTS)
    agent.act(state, np.random.default_rng(8))
    assert agent.simulated_moves == DEFAULTS.agent_params("match3", "q-rollouts").rollouts * state.turns_left  # every episode to the end


def _batched_rollouts(board, candidates, tapes, depth, turns_left, rng):
    """Monte-Carlo's rollouts on the batched engine, one board at a time (so its reshuffles draw in the
    compiled loop's order): (totals, final boards, boards reshuffled)."""
    totals = np.zeros((len(candidates), len(tapes)), np.int64)
    finals = np.zeros(totals.shape + board.shape, np.int8)
    reshuffled = 0
    for a, swap in enumerate(candidates):
        for j in range(len(tapes)):
            refill = mb.TapeRefill(tapes[j:j + 1], np.zeros(1, int))
            boards, points = mb.play(board[None].copy(), np.array([swap]), refill)
            total, left = int(points[0]), turns_left - 1
            for _ in range(min(depth, left)):
                reshuffled += not mb.legal_mask(boards)[0].any()
                choice, _ = mb.greedy_cascade(boards, mb.settle(boards, left, rng))
                boards, points = mb.play(boards, choice, refill)
                total, left = total + int(points[0]), left - 1
            totals[a, j], finals[a, j] = total, boards[0]
    return totals, finals, reshuffled


def test_the_compiled_rollouts_are_the_batched_engines_rollout_by_rollout():
    """Every rollout's points and last board equal, reshuffles (drawn from the same Generator) included: small
    boards of few colours run out of swaps often."""
    from agents.engines.match3 import playouts as playout_match3

    seen_reshuffles = 0
    for size, colours, seed in [(9, 5, 1), (5, 5, 2), (6, 6, 3), (4, 4, 4), (5, 4, 5)]:
        rules = Match3Rules(size=size, colours=colours, turns=20)
        rng = np.random.default_rng(seed)
        board = np.array(rules.new_state(rng).board)
        candidates = np.flatnonzero(mb.legal_mask(board[None])[0]).astype(np.int64)
        tapes = rng.integers(0, colours, size=(6, 4 * 4 * size * size), dtype=np.int8)
        want = _batched_rollouts(board, candidates, tapes, 6, 20, np.random.default_rng(seed + 10))
        totals = np.empty((len(candidates), 6), np.int64)
        finals = np.empty((len(candidates), 6, size, size), np.int8)
        got = playout_match3.greedy_rollouts(board, candidates, tapes, 6, 20, np.random.default_rng(seed + 10),
                                             totals, finals)
        assert np.array_equal(totals, want[0]) and np.array_equal(finals, want[1]) and got == want[2]
        assert (totals > 0).all()
        seen_reshuffles += got
    assert seen_reshuffles > 0


def test_monte_carlo_is_fixed_by_its_seed_and_explains_with_means():
    rules = Match3Rules()
    settings = DEFAULTS.with_agent("monte-carlo", game="match3", rollouts=4, depth=1, time_budget_ms=10)
    state = rules.new_state(np.random.default_rng(2))
    agent = MonteCarlo(rules, settings)
    fixed = agent.values(state, np.random.default_rng(3), batches=2)  # a count of batches, not a time
    assert fixed == MonteCarlo(rules, settings).values(state, np.random.default_rng(3), batches=2)
    first = agent.act(state, np.random.default_rng(3))
    values = agent.explain(state)
    assert first == max(values, key=values.get)
    assert set(values) == set(rules.legal_actions(state)) and min(values.values()) > 0  # every swap scores
    totals = agent.sample(state, np.random.default_rng(0), 3)
    assert totals.shape == (len(values), 3) and (totals > 0).all()


def test_monte_carlo_runs_batches_while_its_time_lasts():
    """A decision used to stop after one batch whatever its budget (the batch counter took the name of the
    batches asked for): it now runs batches until another would not fit."""
    rules = Match3Rules()
    settings = DEFAULTS.with_agent("monte-carlo", game="match3", rollouts=2, depth=0, time_budget_ms=300)
    state = rules.new_state(np.random.default_rng(2))
    agent = MonteCarlo(rules, settings)
    agent.act(state, np.random.default_rng(3))
    assert agent.figures()["rollouts per swap"] >= 3 * 2


@pytest.mark.parametrize("depth", [0, 2])
def test_monte_carlo_with_a_learnt_leaf_adds_the_worth_of_the_board_each_rollout_ends_on(depth):
    """leaf = "td-value": every rollout's total gains td-value's worth of its last board. With weights of
    a bias alone that worth is the bias on every board with turns to come, so the totals are the plain
    search's (the same Generator) plus exactly that; zero weights give the plain totals."""
    rules = Match3Rules()
    settings = DEFAULTS.with_agent("monte-carlo", game="match3", rollouts=4, depth=depth, time_budget_ms=10)
    state = rules.new_state(np.random.default_rng(5))
    plain = MonteCarlo(rules, settings).sample(state, np.random.default_rng(9), 6)
    leafed = MonteCarlo(rules, settings.with_agent("monte-carlo", game="match3", leaf="td-value"))
    assert leafed.leaf is not None and "td-value" in leafed.value_legend("you")
    leafed.leaf.weights = np.zeros_like(leafed.leaf.weights)
    assert np.array_equal(leafed.sample(state, np.random.default_rng(9), 6), plain)
    leafed.leaf.weights[0] = 250.0
    assert np.allclose(leafed.sample(state, np.random.default_rng(9), 6), plain + 250.0)
    last = Match3Rules(turns=1)
    one_left = last.new_state(np.random.default_rng(5))  # the swap is the last turn: nothing left to value
    assert np.array_equal(leafed.sample(one_left, np.random.default_rng(9), 6),
                          MonteCarlo(last, settings).sample(one_left, np.random.default_rng(9), 6))
