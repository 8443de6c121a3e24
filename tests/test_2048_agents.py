"""2048 agents: expectimax-3 values worked out by hand, the strong agent, baselines."""
import numpy as np
import pytest

from agents.expectimax import Expectimax3
from agents.expectimax_strong import StrongExpectimax, heuristic_values, line_scores
from agents.greedy import Greedy2048
from arcade.games.twenty48 import DOWN, LEFT, RIGHT, Rules2048, from_values
from arcade.settings import Settings

DEFAULTS = Settings()  # agents always receive settings; these are the defaults


def test_one_empty_cell_3x3():
    # Only down and right are legal, both gain 0 and leave one empty cell, which gets a 2.
    # After right the board is 2 4 8 / 4 8 16 / 2 8 16: up (or down) merges 8+8 and 16+16 = 48.
    # The board is symmetric, so down is worth the same; the tie goes to down (before right).
    state = from_values([[2, 4, 8], [4, 8, 16], [8, 16, 0]], score=100)
    agent = Expectimax3(Rules2048(size=3), DEFAULTS)
    assert agent.explain(state) == {DOWN: 148.0, RIGHT: 148.0}
    assert agent.act(state) == DOWN


def test_two_empty_cells_3x3():
    # right -> 4 8 2 / 8 4 8 / 0 0 2; a 2 on either empty cell lets left or right merge 2+2: 4.
    # down  -> 4 0 0 / 8 8 2 / 2 4 8; after either spawn, left or right merges 8+8: 16.
    state = from_values([[4, 8, 2], [8, 4, 8], [2, 0, 0]])
    agent = Expectimax3(Rules2048(size=3), DEFAULTS)
    assert agent.explain(state) == {DOWN: 16.0, RIGHT: 4.0}
    assert agent.act(state) == DOWN


def test_four_spawns_mix_into_the_average():
    # right -> 4 8 2 / 8 4 8 / 0 0 2 with p(4) = 0.5: a 2 on (2,0) or (2,1) is worth 4 (as above);
    # a 4 on (2,0) allows no merge (0); a 4 on (2,1) gives up/down 4+4 = 8. Mean: (4+4+0+8)/4 = 4.
    state = from_values([[4, 8, 2], [8, 4, 8], [2, 0, 0]])
    agent = Expectimax3(Rules2048(size=3, spawn_four_probability=0.5), DEFAULTS)
    assert agent.explain(state)[RIGHT] == pytest.approx(4.0)


def test_leaf_when_player_has_no_move():
    # left merges 2+2 into 4 (s1 = 4); the spawn fills the last cell and no move is left: a leaf worth 4.
    state = from_values([[2, 2, 8], [16, 32, 64], [128, 256, 512]])
    values = Expectimax3(Rules2048(size=3), DEFAULTS).explain(state)
    assert values[LEFT] == 4.0


def test_seed_example_state():
    rules = Rules2048()
    state = rules.parse_state("2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,0")
    values = Expectimax3(rules, DEFAULTS).explain(state)
    assert set(values) == {DOWN, LEFT, RIGHT}  # up moves nothing
    assert values[LEFT] == values[RIGHT] == 12.0  # 2+2 now, then 4+4 after any spawn
    assert Expectimax3(rules, DEFAULTS).act(state) == LEFT


def test_greedy_takes_the_biggest_gain():
    state = from_values([[2, 2, 0], [8, 0, 8], [0, 0, 0]])
    agent = Greedy2048(Rules2048(size=3), DEFAULTS)
    assert agent.explain(state)[LEFT] == 20.0
    assert agent.act(state) == LEFT


def test_heuristic_prefers_monotonic_and_empty():
    from agents.engines.twenty48 import board64

    ordered = np.array([[1, 2, 3, 4]], np.uint8)
    zigzag = np.array([[4, 1, 3, 2]], np.uint8)
    assert line_scores(ordered)[0] > line_scores(zigzag)[0]
    full = np.full((4, 4), 3, np.uint8)
    sparse = np.zeros((4, 4), np.uint8)
    sparse[0, 0] = 3
    assert heuristic_values(board64.pack(sparse[None]))[0] > heuristic_values(board64.pack(full[None]))[0]


def test_strong_agent_plays_4x4_games(settings):
    rules = Rules2048()
    agent = StrongExpectimax(rules, settings.with_agent("expectimax", game="2048", time_budget_ms=20))
    rng = np.random.default_rng(4)
    state = rules.new_state(rng)
    for _ in range(30):
        if rules.is_terminal(state):
            break
        move = agent.act(state)
        assert move in rules.legal_actions(state)
        state = rules.step(state, move, rng)


def test_fixed_seed_gives_fixed_decisions(settings):
    rules = Rules2048()
    # no clock: the depth (and so the move) depends on the board alone
    unhurried = settings.with_table("agents", budget_clock="none")
    for agent in (Expectimax3(rules, DEFAULTS), StrongExpectimax(rules, unhurried)):
        rng_a, rng_b = np.random.default_rng(8), np.random.default_rng(8)
        a = rules.new_state(rng_a)
        b = rules.new_state(rng_b)
        for _ in range(20):
            da, db = agent.act(a), agent.act(b)
            assert da == db
            a, b = rules.step(a, da, rng_a), rules.step(b, db, rng_b)


def test_strong_beats_greedy_on_average(settings):
    from arcade.runner import play_games

    rules = Rules2048()
    quick = settings.with_agent("expectimax", game="2048", max_depth=1, time_budget_ms=5)  # one layer: seconds a game
    strong = play_games(rules, StrongExpectimax(rules, quick), games=2, seed=100)
    greedy = play_games(rules, Greedy2048(rules, DEFAULTS), games=2, seed=100)
    assert np.mean([r.score for r in strong]) > np.mean([r.score for r in greedy])


def test_the_course_expectimax_builds_its_tables_with_the_agent_not_in_its_first_decision():
    """Issue 25 #10: the first values after v took over 1.5 s: the tables were built inside the decision."""
    from agents import expectimax
    from arcade.games import twenty48

    for cache in (twenty48.line_tables, expectimax._python_tables, expectimax._placement_deltas):
        cache.cache_clear()
    agent = Expectimax3(Rules2048(size=4), Settings())
    built = [twenty48.line_tables.cache_info().currsize, expectimax._python_tables.cache_info().currsize,
             expectimax._placement_deltas.cache_info().currsize]
    assert built == [1, 1, 1]
    state = Rules2048(size=4).new_state(np.random.default_rng(0))
    agent.act(state, None)
    assert twenty48.line_tables.cache_info().misses == 1  # the decision built nothing more
