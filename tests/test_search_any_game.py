"""The search algorithms written once (agents/mcts.py, agents/expectiminimax.py) against known values,
on every game of the catalogue, and the dots playout hook against a plain playout."""
import numpy as np
import pytest

from agents import agents_for
from agents.expectiminimax import Expectiminimax
from agents.game_search import random_positions
from agents.mcts import MCTS
from arcade.games import GAMES, make_rules
from arcade.games.dots import DotsRules
from arcade.games.tictactoe import decode
from arcade.settings import Settings

FAST = Settings().with_agent("mcts", simulations=200, compiled_simulations=200).with_agent("expectiminimax", max_depth=2).with_table("agents", budget_clock="none")


@pytest.mark.parametrize("game_id", [g.id for g in GAMES])
def test_both_are_registered_for_every_game_and_play_a_legal_move(game_id):
    names = [s.name for s in agents_for(game_id)]
    assert "mcts" in names and "expectiminimax" in names
    rules = make_rules(game_id, Settings())
    state = rules.new_state(np.random.default_rng(2))
    for cls in (MCTS, Expectiminimax):
        settings = FAST.with_agent("mcts", simulations=60, compiled_simulations=60).with_agent(
            "expectiminimax", max_depth=1, chance_samples=2)
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
    agent = Expectiminimax(rules, Settings().with_agent("expectiminimax", max_depth=9).with_table("agents", budget_clock="none"))
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
    state = rules.parse_state("2,2,0/4,0,0/0,0,2 score=8")
    agent = Expectiminimax(rules, Settings().with_agent("expectiminimax", max_depth=2).with_table("agents", budget_clock="none"))

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
    deep = Expectiminimax(rules, Settings().with_agent("expectiminimax", max_depth=12).with_table("agents", budget_clock="none"))
    vi = find("blackjack", "value-iteration").create(rules, Settings())
    ours, exact = deep.explain(state), vi.explain(state)
    assert set(ours) == set(exact)
    for a in ours:
        assert ours[a] == pytest.approx(exact[a], abs=1e-3)


def test_mcts_finds_the_winning_move_and_blocks_on_tictactoe():
    rules = make_rules("tictactoe", Settings())
    agent = MCTS(rules, Settings().with_agent("mcts", simulations=2000).with_table("agents", budget_clock="none"))
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
    state = rules.parse_state("1024,1024,0,0/2,4,8,16/0,0,0,0/0,0,0,0")
    agent = MCTS(rules, Settings().with_agent("mcts", simulations=400, rollout_moves=20).with_table("agents", budget_clock="none"))
    values = agent.explain(state, np.random.default_rng(0))
    f = agent.figures()
    assert all(f["lowest final score"] <= v <= f["highest final score"] for v in values.values())
    assert max(values, key=values.get) in (2, 3)  # left or right merges the two 1024s (2048 points)
    assert min(values[2], values[3]) >= 2048  # their games' final scores hold those points


def _plain_2048_playout(rules, state, rng):
    """A random playout by the rules, drawing as the kernel does: one uniform picks among the legal moves
    (in the order up, down, left, right), then two place the tile (the cell among the empty ones in reading
    order, a 4 below the rules' probability)."""
    from arcade.games.twenty48 import State2048

    while not rules.is_terminal(state):
        legal = sorted(rules.legal_actions(state))
        after = rules.after_move(state, legal[min(int(rng.random() * len(legal)), len(legal) - 1)])
        empty = [i for i in range(16) if after.board.flat[i] == 0]
        board = after.board.copy()
        cell = empty[min(int(rng.random() * len(empty)), len(empty) - 1)]
        board.flat[cell] = 2 if rng.random() < rules.spawn_four_probability else 1
        state = State2048(board, after.score)
    return state.score


def test_the_compiled_2048_playouts_are_the_rules_game_with_the_same_draws():
    """The kernel (agents/engines/twenty48/playouts, declared by the game) against a playout by the rules drawing from the
    same Generator in the same order: the same final score, game by game, for a batch played at once."""
    from agents.game_search import fast_playouts
    from agents.engines.twenty48.playouts import playout_returns

    rules = make_rules("2048", Settings().with_table("game2048", spawn_four_probability=0.1))
    assert fast_playouts(rules).playout_returns is playout_returns
    rng = np.random.default_rng(3)
    states = []
    for _ in range(12):
        state = rules.new_state(rng)
        for _ in range(int(rng.integers(0, 200))):
            if rules.is_terminal(state):
                break
            state = rules.step(state, rules.legal_actions(state)[int(rng.integers(len(rules.legal_actions(state))))], rng)
        states.append(state)
    fast = playout_returns(rules, states, np.random.default_rng(9), 10_000)
    plain_rng = np.random.default_rng(9)
    plain = [(float(_plain_2048_playout(rules, s, plain_rng)),) for s in states]
    assert fast == plain and all(f[0] >= s.score for f, s in zip(fast, states, strict=True))
    # other sizes: tests/test_playouts_2048.py holds the any-size kernel to the rules draw for draw


@pytest.mark.parametrize("size", [(3, 3), (2, 3), (4, 4), (5, 5)])
def test_the_compiled_dots_playouts_score_as_the_rules_play_the_same_lines(size):
    """The compiled tree's playout (its step on line bits: a box to the mover who completes it, who moves again)
    against the rules stepping the same free lines in the same order, from positions part-way through games;
    and its random orders are permutations of the free lines."""
    from agents.engines.dots import tree_positions as k
    from agents.engines.dots.board import board_arrays

    box_lines, line_boxes = board_arrays(*size)
    rules = DotsRules(*size)
    rng = np.random.default_rng(sum(size))
    for _ in range(64):
        state = rules.new_state()
        for _ in range(int(rng.integers(0, state.board.n_lines))):
            legal = rules.legal_actions(state)
            state = rules.step(state, legal[int(rng.integers(len(legal)))])
        order = rng.permutation(rules.legal_actions(state)).astype(np.int64)
        margin = k.play_order(np.int64(state.lines), np.int64(state.scores[0] - state.scores[1]),
                                   np.int64(state.mover), order, order.size, box_lines, line_boxes)
        for line in order.tolist():
            state = rules.step(state, line)
        assert rules.is_terminal(state) and margin == state.scores[0] - state.scores[1]
    scratch = np.zeros(rules.new_state().board.n_lines, np.int64)
    free = rules.legal_actions(state := rules.step(rules.new_state(), 3))
    result = k.playout(np.int64(state.lines), np.int64(0), np.int64(state.mover),
                            np.int64(state.board.full), scratch, box_lines, line_boxes, rng)
    assert result in (-1, 0, 1) and sorted(scratch[:len(free)].tolist()) == free


def _walk(node):
    yield node
    for child in node.kids:
        yield from _walk(child)


@pytest.mark.parametrize("batch", [1, 16])
def test_mcts_leaves_no_virtual_loss_and_its_choice_arrays_match_its_children(batch):
    """After a search every walk's virtual loss is taken back: each child's mean and visits are what its
    parent chooses by, results stay in [-1, 1], and a node's visits cover its children's."""
    rules = DotsRules(3, 3)
    settings = FAST.with_agent("mcts", simulations=3000, batch=batch)
    agent = MCTS(rules, settings, plain=True)  # (the Python tree: dots' own fast engine is the compiled tree)
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
                assert node.w[ch.slot] == pytest.approx(settings.agent_params(rules.game_id, "mcts").exploration / np.sqrt(ch.visits))
            else:
                assert node.q[ch.slot] == ch.proven[node.mover] and node.w[ch.slot] == 0
    assert nodes > 1000


@pytest.mark.parametrize("batch, plain", [(1, False), (1, True), (16, True)])
def test_mcts_on_dots_endgames_agrees_with_the_exact_solver(batch, plain):
    """Five lines before the end of 2x2 games: a root the solver part proves has the exact result's sign (and
    the search stops early), and the move chosen wins, draws or loses as the best move does. Both trees: the
    compiled one (dots' fast engine) and the Python one (plain)."""
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
        agent = MCTS(rules, FAST.with_agent("mcts", simulations=5000, compiled_simulations=5000, batch=batch),
                     plain=plain)
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
    from agents.engines.dots.playouts import playout_returns

    rules = DotsRules(3, 3)
    state = rules.new_state()
    assert playout_returns(rules, [state], np.random.default_rng(0), 3) is None
    assert playout_returns(rules, [state], np.random.default_rng(0), 24) is not None
    agent = MCTS(rules, FAST.with_agent("mcts", rollout_moves=3, simulations=300))
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

    agent = MCTS(rules, FAST.with_agent("mcts", simulations=100), evaluator=XWins())
    values = agent.explain(state, np.random.default_rng(1))
    assert len(seen) == 100 and all(v == pytest.approx(1.0) for v in values.values())


def test_the_compiled_match3_playouts_are_the_rules_playouts():
    """The kernel's random playouts (agents/engines/match3/playouts, declared by the game) against the rules' playouts
    with the same Generator: the same final scores, game by game, for a batch played at once."""
    from agents.game_search import fast_playouts, plain_playout_returns

    rules = make_rules("match3", Settings())
    states = random_positions(rules, 10, 2, (0, 29))
    fast = fast_playouts(rules).playout_returns(rules, states, np.random.default_rng(4), 10_000)
    assert fast == plain_playout_returns(rules, states, np.random.default_rng(4), 10_000)
    short = fast_playouts(rules).playout_returns(rules, states, np.random.default_rng(4), 3)
    assert short == plain_playout_returns(rules, states, np.random.default_rng(4), 3)  # cut after 3 turns
    assert all(s[0] >= st.score for s, st in zip(short, states, strict=True))


@pytest.mark.parametrize("game", ["2048", "match3", "dots", "tictactoe", "blackjack"])
def test_mcts_with_its_game_engine_crosses_to_another_process(game):
    """The runner sends agents to its worker processes: mcts with the walk's step and legal moves must pickle
    (a closure there failed the README's bench command)."""
    import pickle

    rules = make_rules(game, Settings())
    search = MCTS(rules, Settings())
    copy = pickle.loads(pickle.dumps(search))
    state = rules.new_state(np.random.default_rng(0))
    assert copy.legal(state) == search.legal(state) == rules.legal_actions(state)


@pytest.mark.parametrize("preset", ["small", "large", "peeking"])
def test_the_compiled_blackjack_playouts_return_what_random_play_is_worth(preset):
    """The uniformly random policy's exact expected return from the first state (the MDP's transitions summed
    over every legal action), against the mean of 100,000 compiled playouts: within 4 standard errors. A
    finished round returns its own reward, and no action at all (max_moves 0) the reward so far."""
    import functools

    from agents.engines.blackjack.playouts import playout_returns

    rules = make_rules("blackjack", Settings().with_table("blackjack", preset=preset))
    mdp = rules.mdp

    @functools.lru_cache(maxsize=None)
    def worth(state) -> float:
        acts = [a for a in ("Take", "Peek", "Quit") if mdp.succ_and_prob_reward(state, a)]
        return 0.0 if not acts else sum(sum(p * (r + worth(n)) for n, p, r in mdp.succ_and_prob_reward(state, a))
                                        for a in acts) / len(acts)

    start = rules.new_state()
    got = np.array([r[0] for r in playout_returns(rules, [start] * 100_000, np.random.default_rng(1), 10_000)])
    assert abs(got.mean() - worth(start.mdp_state)) < 4 * got.std() / np.sqrt(got.size)
    peeked = rules.step(start, "Peek", np.random.default_rng(2))
    over = rules.step(start, "Quit", np.random.default_rng(2))
    assert playout_returns(rules, [over, peeked], np.random.default_rng(3), 0) == [(over.reward,), (peeked.reward,)]
    assert playout_returns(rules, [over], np.random.default_rng(3), 10) == [(over.reward,)]
