"""The search algorithms written once (agents/mcts.py, agents/expectiminimax.py) against known values,
on every game of the catalogue, and the dots playout hook against a plain playout."""
import numpy as np
import pytest

from agents import agents_for
from agents.dots_engine import Position, geometry, random_playout
from agents.expectiminimax import Expectiminimax
from agents.mcts import MCTS
from arcade.games import GAMES, make_rules
from arcade.games.dots import DotsRules, DotsState
from arcade.games.tictactoe import decode
from arcade.settings import Settings

FAST = Settings().with_table("search", mcts_simulations=200, max_depth=2, time_budget_ms=60_000)


@pytest.mark.parametrize("game_id", [g.id for g in GAMES])
def test_both_are_registered_for_every_game_and_play_a_legal_move(game_id):
    names = [s.name for s in agents_for(game_id)]
    assert "mcts" in names and "expectiminimax" in names
    rules = make_rules(game_id, Settings())
    state = rules.new_state(np.random.default_rng(2))
    for cls in (MCTS, Expectiminimax):
        settings = FAST.with_table("search", mcts_simulations=60, max_depth=1, chance_samples=2)
        agent = cls(rules, settings)
        action = agent.act(state, np.random.default_rng(1))
        assert action in rules.legal_actions(state)
        values = agent.explain(state)
        assert set(values) <= set(rules.legal_actions(state)) and values
        if cls is MCTS:  # two players: results in [-1, 1]; one player: mean final scores, on the game's scale
            f = agent.figures()
            low, high = (-1.0, 1.0) if rules.players == 2 else (f["lowest final score"], f["highest final score"])
            assert all(low - 1e-9 <= v <= high + 1e-9 for v in values.values())
            assert f["simulations"] == 60


def _board(text):
    """Tic-tac-toe state id of a 3x3 text board (X moves first)."""
    from arcade.games.tictactoe import encode

    return encode([{"X": 1, "O": 2, ".": 0}[c] for c in text.replace("/", "")])


def test_expectiminimax_is_minimax_on_tictactoe():
    """Depth 9 from a midgame equals the retrograde solver: the winning move scores +1, losing ones -1."""
    from agents.minimax import solve

    rules = make_rules("tictactoe", Settings())
    agent = Expectiminimax(rules, Settings().with_table("search", max_depth=9, time_budget_ms=60_000))
    state = _board("XX./OO./...")  # X to move: 2 wins at once
    values = agent.explain(state)
    assert values[2] == 1.0 and agent.act(state, None) == 2
    assert agent.figures()["depth"] == 9
    solved = solve()
    from arcade.games.tictactoe import tables

    succ = tables().successor[state]
    for cell, v in values.items():  # the sign of every move agrees with perfect play
        exact = -solved[succ[cell]]
        assert np.sign(v) == np.sign(exact), (cell, v, exact)
    assert decode(state)[2] == 0


def test_expectiminimax_on_2048_equals_a_plain_expectimax_with_listed_chance():
    """Depth 2 on a 3x3 2048 board: each move's value is the exact expectation of the best next score,
    computed here by a plain recursion over chance_outcomes."""
    rules = make_rules("2048", Settings(), size=3)
    state = rules.parse_state("2,2,0/4,0,0/0,0,2", score=8)
    agent = Expectiminimax(rules, Settings().with_table("search", max_depth=2, time_budget_ms=60_000))

    def plain(s, depth):
        if rules.is_terminal(s) or depth == 0:
            return s.score
        return max(sum(p * plain(k, depth - 1) for k, p in rules.chance_outcomes(s, a)) for a in rules.legal_actions(s))

    values = agent.explain(state)
    for a, v in values.items():
        assert v == pytest.approx(sum(p * plain(k, 1) for k, p in rules.chance_outcomes(state, a)), rel=1e-12)


def test_expectiminimax_on_blackjack_small_deck_equals_value_iteration():
    """Deep enough to reach every round's end, its values are the MDP's Q values (value iteration)."""
    from agents import find

    rules = make_rules("blackjack", Settings(), preset="small")
    state = rules.new_state()
    deep = Expectiminimax(rules, Settings().with_table("search", max_depth=12, time_budget_ms=60_000))
    vi = find("blackjack", "value-iteration").create(rules, Settings())
    ours, exact = deep.explain(state), vi.explain(state)
    assert set(ours) == set(exact)
    for a in ours:
        assert ours[a] == pytest.approx(exact[a], abs=1e-3)


def test_mcts_finds_the_winning_move_and_blocks_on_tictactoe():
    rules = make_rules("tictactoe", Settings())
    agent = MCTS(rules, Settings().with_table("search", mcts_simulations=2000, time_budget_ms=60_000))
    assert agent.act(_board("XX./OO./..."), np.random.default_rng(0)) == 2  # win now
    assert agent.act(_board("X../OO./X.."), np.random.default_rng(0)) == 5  # X must block O's row
    values = agent.explain(_board("XX./OO./..."))
    assert values[2] == pytest.approx(1.0)  # every playout through the winning move is a win


def test_mcts_replays_with_a_seed_and_explain_is_seeded_by_the_position():
    rules = DotsRules(3, 3)
    agent = MCTS(rules, FAST)
    state = rules.new_state()
    assert agent.act(state, np.random.default_rng(4)) == agent.act(state, np.random.default_rng(4))
    assert agent.explain(state) == agent.explain(state)


def test_mcts_on_one_player_games_values_moves_in_points_and_prefers_the_merge():
    rules = make_rules("2048", Settings())
    state = rules.parse_state("1024,1024,0,0/2,4,8,16/0,0,0,0/0,0,0,0", score=0)
    agent = MCTS(rules, Settings().with_table("search", mcts_simulations=400, rollout_moves=20, time_budget_ms=60_000))
    values = agent.explain(state, np.random.default_rng(0))
    f = agent.figures()
    assert all(f["lowest final score"] <= v <= f["highest final score"] for v in values.values())
    assert max(values, key=values.get) in (2, 3)  # left or right merges the two 1024s (2048 points)
    assert min(values[2], values[3]) >= 2048  # their games' final scores hold those points


@pytest.mark.parametrize("seed", range(40))
def test_dots_playout_hook_equals_a_plain_playout(seed):
    """The hook plays the same game as the rules would with the same order of lines."""
    rules = DotsRules(3, 3)
    rng = np.random.default_rng(seed)
    state = rules.new_state()
    for _ in range(int(rng.integers(0, 20))):
        state = rules.step(state, rules.legal_actions(state)[int(rng.integers(len(rules.legal_actions(state))))])
    if rules.is_terminal(state):
        return
    end = random_playout(rules, state, np.random.default_rng(seed), 10_000)
    order = np.random.default_rng(seed).permutation(rules.legal_actions(state)).tolist()
    plain = state
    for line in order:
        plain = rules.step(plain, line)
    assert end == plain and rules.is_terminal(end)
    assert Position(geometry(3, 3), end.lines).free_lines() == []
    assert isinstance(end, DotsState)


def test_the_2048_playout_hook_plays_by_the_rules():
    """Every move of the 64-bit playout is one the rules allow, with the rules' points: replayed step by step
    (the hook's boards against the rules' moves), and a playout ends only when no move is left."""
    from agents.playout_2048 import moves, random_playout as fast_playout
    from arcade.games import board64
    from arcade.games.twenty48 import State2048

    rules = make_rules("2048", Settings())
    rng = np.random.default_rng(3)
    for _ in range(30):
        state = rules.new_state(rng)
        for _ in range(int(rng.integers(0, 60))):
            if rules.is_terminal(state):
                break
            state = rules.step(state, rules.legal_actions(state)[int(rng.integers(len(rules.legal_actions(state))))], rng)
        x = int(board64.pack(state.board))
        for d, (board, points) in enumerate(moves(x)):
            legal = d in rules.legal_actions(state)
            assert (board != x) == legal
            if legal:
                after = rules.after_move(state, d)
                assert board == int(board64.pack(after.board)) and points == after.score - state.score
        end = fast_playout(rules, state, np.random.default_rng(1), 10_000)
        assert isinstance(end, State2048) and rules.is_terminal(end) and end.score >= state.score
        assert int(end.board.astype(np.int64).clip(0).sum()) >= 0


@pytest.mark.parametrize("size", [(3, 3), (2, 3), (4, 4), (5, 5)])
def test_the_dots_batch_playouts_score_as_the_rules_play_the_lines_in_key_order(size):
    """The numpy batch (every box to the mover at the step its last side is drawn) against the rules stepping
    the free lines one by one in the order of the same keys, from positions part-way through games."""
    from agents.dots_playouts import playout_scores

    rules = DotsRules(*size)
    rng = np.random.default_rng(sum(size))
    states = []
    for _ in range(64):
        state = rules.new_state()
        for _ in range(int(rng.integers(0, state.board.n_lines))):
            legal = rules.legal_actions(state)
            state = rules.step(state, legal[int(rng.integers(len(legal)))])
        states.append(state)
    keys = rng.random((len(states), states[0].board.n_lines))
    got = playout_scores(size[0], size[1], np.array([s.lines for s in states], dtype=np.int64),
                         np.array([s.scores for s in states]), np.array([s.mover for s in states]), keys)
    for state, k, scores in zip(states, keys, got, strict=True):
        for line in sorted(rules.legal_actions(state), key=lambda b: k[b]):
            state = rules.step(state, line)
        assert rules.is_terminal(state) and tuple(scores) == state.scores


def _walk(node):
    yield node
    for child in node.kids:
        yield from _walk(child)


@pytest.mark.parametrize("batch", [1, 16])
def test_mcts_leaves_no_virtual_loss_and_its_choice_arrays_match_its_children(batch):
    """After a search every walk's virtual loss is taken back: each child's mean and visits are what its
    parent chooses by, results stay in [-1, 1], and a node's visits cover its children's."""
    rules = DotsRules(3, 3)
    settings = FAST.with_table("search", mcts_simulations=3000, mcts_batch=batch)
    agent = MCTS(rules, settings)
    state = rules.new_state()
    for line in (0, 5, 9, 14, 20):
        state = rules.step(state, line)
    root = agent.search(state, np.random.default_rng(2))
    assert agent.figures()["simulations"] == 3000 or root.proven is not None
    assert sum(ch.visits for ch in root.kids) == root.visits
    nodes = 0
    for node in _walk(root):
        nodes += 1
        assert node.visits >= sum(ch.visits for ch in node.kids)
        for ch in node.kids:
            assert -ch.visits - 1e-9 <= ch.total <= ch.visits + 1e-9
            if ch.proven is None:
                assert node.q[ch.slot] == pytest.approx(ch.total / ch.visits)
                assert node.w[ch.slot] == pytest.approx(settings.search.mcts_exploration / np.sqrt(ch.visits))
            else:
                assert node.q[ch.slot] == ch.proven[node.mover] and node.w[ch.slot] == 0
    assert nodes > 1000


@pytest.mark.parametrize("batch", [1, 16])
def test_mcts_on_dots_endgames_agrees_with_the_exact_solver(batch):
    """Five lines before the end of 2x2 games: a root the solver part proves has the exact result's sign (and
    the search stops early), and the move chosen wins, draws or loses as the best move does."""
    from agents.dots_solver import margins, move_values

    table = margins(2, 2)
    rules = DotsRules(2, 2)
    rng = np.random.default_rng(5)
    proven = 0
    for _ in range(30):
        state = rules.new_state()
        for _ in range(7):
            legal = rules.legal_actions(state)
            state = rules.step(state, legal[int(rng.integers(len(legal)))])
        agent = MCTS(rules, FAST.with_table("search", mcts_simulations=5000, mcts_batch=batch))
        root = agent.search(state, np.random.default_rng(0))
        lead = state.scores[state.mover] - state.scores[1 - state.mover]
        if root.proven is not None:
            proven += 1
            assert root.proven[state.mover] == np.sign(lead + int(table[state.lines]))
            assert agent.figures()["simulations"] < 5000
        exact = move_values(state, table)
        line = agent.act(state, np.random.default_rng(0))
        assert np.sign(lead + exact[line]) == np.sign(lead + max(exact.values()))
    assert proven >= 10


def test_dots_playouts_cut_short_fall_back_to_one_by_one_and_value_the_margin_so_far():
    """With rollout_moves shorter than the free lines the batch hook declines (None) and each playout stops
    early, valued by the squashed margin so far: results stay in [-1, 1] and the move is legal."""
    from agents.dots_playouts import random_playouts

    rules = DotsRules(3, 3)
    state = rules.new_state()
    assert random_playouts(rules, [state], np.random.default_rng(0), 3) is None
    assert random_playouts(rules, [state], np.random.default_rng(0), 24) is not None
    agent = MCTS(rules, FAST.with_table("search", rollout_moves=3, mcts_simulations=300))
    values = agent.explain(state, np.random.default_rng(1))
    assert values and all(-1.0 <= v <= 1.0 for v in values.values())
    assert agent.act(state, np.random.default_rng(1)) in rules.legal_actions(state)


def test_mcts_values_blackjack_moves_in_the_rounds_own_return():
    """Quitting at a total of 5 ends the round with 5 points: every imagined game through Quit says exactly 5."""
    rules = make_rules("blackjack", Settings(), preset="small")
    state = rules.parse_state("5|-|2,2")
    values = MCTS(rules, FAST).explain(state, np.random.default_rng(0))
    assert values["Quit"] == pytest.approx(5.0) and set(values) == set(rules.legal_actions(state))


def test_mcts_takes_its_leaf_evaluator_as_given():
    """OpenSpiel's shape: the evaluator is passed in. One that calls every leaf a win for X makes every move
    of X at the start look won (no game ends within the simulations' few moves)."""
    rules = make_rules("tictactoe", Settings())
    state = rules.new_state(np.random.default_rng(0))
    seen = []

    class XWins:
        def evaluate(self, states, rng):
            seen.extend(states)
            return [(1.0, -1.0)] * len(states)

    agent = MCTS(rules, FAST.with_table("search", mcts_simulations=100), evaluator=XWins())
    values = agent.explain(state, np.random.default_rng(1))
    assert len(seen) == 100 and all(v == pytest.approx(1.0) for v in values.values())
