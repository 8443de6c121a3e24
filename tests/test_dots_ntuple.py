"""The dots learner (agents/dots_ntuple.py, agents/engines/dots/kernels.py): the compiled network against a plain
reading of its tables, the rules' gains, exact values where the network can hold them, and the Trains
contract (curve, save, load, a bad file set aside)."""
import numpy as np
import pytest

from agents.dots_ntuple import DotsNTuple, Network, file_name, layout, optimal_share
from agents.dots_solver import margins, move_values as solved_values
from arcade.games.dots import DotsRules, DotsState, gain, line_symmetries
from arcade.settings import Settings


def plain_value(net: Network, lines: int) -> float:
    """The network's value read the long way: every tuple through every symmetry (a tuple of the whole board
    once, at the least of its images' indexes, its weight S times), base 2 for lines and base 5 (drawn sides)
    for boxes, the layer's weight and the summary's."""
    lay = net.layout
    board = DotsRules(lay.rows, lay.cols).new_state().board
    syms = line_symmetries(lay.rows, lay.cols)
    total = net.weights[lay.layer_at + bin(lines).count("1")]
    for t, tup in enumerate(lay.tuples.tolist()):
        indexes = [sum(((lines >> perm[b]) & 1) << k for k, b in enumerate(x for x in tup if x >= 0))
                   for perm in syms]
        if len([x for x in tup if x >= 0]) == board.n_lines:  # the whole board: its least image, S times
            total += len(syms) * net.weights[lay.offsets[t * len(syms)] + min(indexes)]
            continue
        for s, index in enumerate(indexes):
            total += net.weights[lay.offsets[t * len(syms) + s] + index]
    masks = board.box_masks()
    for r in range(lay.counts.shape[0]):
        boxes = [b for b in lay.counts[r].tolist() if b >= 0]
        total += net.weights[lay.count_offsets[r] + sum(bin(lines & masks[b]).count("1") * 5 ** j
                                                         for j, b in enumerate(boxes))]
    sides = [bin(lines & m).count("1") for m in masks]
    safe = sum(1 for a in range(board.n_lines) if not (lines >> a) & 1
               and all(bin(lines & m).count("1") != 2 for _, m in board.line_boxes[a]))
    summary = (min(safe, 31) * 32 + min(sides.count(2), 31)) * 4 + min(sides.count(3), 3)
    return total + net.weights[lay.layer_at + board.n_lines + 1 + summary]


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 3), (4, 4), (5, 5)])
def test_the_compiled_network_reads_what_a_plain_reading_reads(rows, cols):
    lay = layout(rows, cols)
    rng = np.random.default_rng(rows * 10 + cols)
    net = Network(rows, cols, rng.normal(size=lay.size))
    n_lines = lay.n_lines
    for _ in range(10):
        lines = int(rng.integers(0, 1 << n_lines)) & ~(1 << int(rng.integers(n_lines)))  # one line free at least
        worth = net.move_values(lines)
        for a in range(n_lines):
            if (lines >> a) & 1:
                assert worth[a] == -np.inf
                continue
            after = lines | 1 << a
            g = gain(DotsState(rows, cols).board, lines, a)
            v = 0.0 if after == (1 << n_lines) - 1 else plain_value(net, after)
            assert worth[a] == pytest.approx(g + v if g else -v, abs=1e-9)


def test_a_symmetric_position_has_the_value_of_its_images():
    rng = np.random.default_rng(3)
    net = Network(3, 3, rng.normal(size=layout(3, 3).size))
    for _ in range(20):
        lines = int(rng.integers(0, 1 << 24))
        values = {round(plain_value(net, sum(1 << p[b] for b in range(24) if (lines >> b) & 1)), 9)
                  for p in line_symmetries(3, 3)}
        assert len(values) == 1


def test_self_play_learns_the_exact_margins_where_the_network_can_hold_them(tmp_path):
    """On 2x2 the line tuple is the whole board: TD(0) self-play must find the margin the solver finds in
    every position (within 0.05 box; 0.003 measured) and play an optimal move in every one of them."""
    settings = Settings().with_table("data", folder=str(tmp_path))
    agent = DotsNTuple(DotsRules(2, 2), settings)
    points = []
    agent.train(60_000, np.random.default_rng(5), from_scratch=True, checkpoint=lambda done, f: points.append(f))
    net = agent._net(2, 2)[0]
    exact = margins(2, 2)
    for lines in range((1 << 12) - 1):
        worth = net.move_values(lines)
        solved = solved_values(DotsState(2, 2, lines), exact)
        best = max(solved.values())
        assert max(w for w in worth if np.isfinite(w)) == pytest.approx(best, abs=0.05), lines
        assert solved[int(np.argmax(worth))] == best, lines
    assert optimal_share(net, tmp_path) == (1.0, 1.0)
    assert points[0]["optimal moves"] < 1.0 and points[-1]["optimal moves"] == 1.0  # the curve shows it learn


def test_the_learner_keeps_its_network_per_board_and_sets_a_bad_file_aside(tmp_path):
    settings = Settings().with_table("data", folder=str(tmp_path))
    agent = DotsNTuple(DotsRules(2, 3), settings)
    assert agent.describe()[0].startswith("network: ") and "weights" in agent.describe()[1]
    agent.train(300, np.random.default_rng(1))
    assert agent.save() and (tmp_path / file_name(2, 3)).exists()
    again = DotsNTuple(DotsRules(2, 3), settings)
    assert again.describe()[0] == f"network: trained ({file_name(2, 3)})"
    assert np.allclose(again._net(2, 3)[0].weights, agent._net(2, 3)[0].weights, atol=1e-6)
    assert "trained 300 games" in again.describe()[2]
    state = DotsRules(2, 3).new_state()
    assert again.act(state) in DotsRules(2, 3).legal_actions(state)
    assert set(again.explain(state)) == set(DotsRules(2, 3).legal_actions(state))
    from agents.dots_ntuple import FORMAT_VERSION
    from arcade.foundation.storage import save_npz

    lay = layout(2, 3)  # a network of another shape: set aside, not trusted
    save_npz(tmp_path / file_name(2, 3), FORMAT_VERSION, weights=np.zeros(7), tuples=lay.tuples, boxes=lay.boxes,
             games=np.array(1), moves=np.array(1))
    fresh = DotsNTuple(DotsRules(2, 3), settings)
    assert fresh.describe()[0] == "network: untrained"  # (no 2x3 network ships)
    assert (tmp_path / (file_name(2, 3) + ".corrupt")).exists() and not (tmp_path / file_name(2, 3)).exists()


def test_agents_reading_one_network_file_share_its_weights_and_a_file_written_since_is_read_again(tmp_path):
    settings = Settings().with_table("data", folder=str(tmp_path))
    shipped = [DotsNTuple(DotsRules(3, 3), settings)._net(3, 3)[0] for _ in range(2)]
    assert shipped[0] is shipped[1]  # (3x3's is 150 MB: ntuple, alpha-beta-ntuple and mcts-ntuple read it)
    agent = DotsNTuple(DotsRules(2, 2), settings)
    agent.train(50, np.random.default_rng(1))
    assert agent.save()
    first = DotsNTuple(DotsRules(2, 2), settings)._net(2, 2)[0]
    assert DotsNTuple(DotsRules(2, 2), settings)._net(2, 2)[0] is first
    before = first.weights.copy()
    agent.train(50, np.random.default_rng(2))
    assert agent.save()
    again = DotsNTuple(DotsRules(2, 2), settings)._net(2, 2)[0]
    assert again is not first and not np.array_equal(again.weights, before)
    assert np.array_equal(first.weights, before)  # training worked on its copy, the shared network unchanged
    import copy

    reader = DotsNTuple(DotsRules(2, 2), settings)
    twin = copy.deepcopy(reader)  # (the game runner's copy a game)
    assert twin._net(2, 2)[0] is reader._net(2, 2)[0] is again and twin is not reader
    trained = copy.deepcopy(agent)  # a network trained in memory is the agent's own: copied
    assert trained._net(2, 2)[0] is not agent._net(2, 2)[0]
    assert np.array_equal(trained._net(2, 2)[0].weights, agent._net(2, 2)[0].weights)


def test_a_training_whose_values_ran_away_stops_and_says_so(tmp_path):
    from agents.base import TrainingDiverged
    from agents.dots_ntuple import kernels

    settings = Settings().with_table("data", folder=str(tmp_path))
    agent = DotsNTuple(DotsRules(2, 2), settings)
    lay = layout(2, 2)
    weights = np.zeros(lay.size)
    weights[lay.layer_at] = np.nan  # the empty board's count weight: read by every game's first position
    net = Network(2, 2, weights)
    assert kernels().self_play(net.args(), 5, 0.1, 0.0, lay.n_lines, lay.box_lines, lay.line_boxes,
                               np.random.default_rng(1), 0, 0.0) == -1
    agent._nets[(2, 2)] = (Network(2, 2, weights), {"games": 0, "moves": 0}, "trained (unsaved)")
    with pytest.raises(TrainingDiverged, match="ran away after"):
        agent.train(20, np.random.default_rng(1))
    weights[lay.layer_at] = 1e7  # (not a NaN: a value past any margin)
    assert kernels().self_play(Network(2, 2, weights).args(), 5, 0.1, 0.0, lay.n_lines, lay.box_lines,
                               lay.line_boxes, np.random.default_rng(1), 0, 0.0) == -1


def test_a_stop_ends_training_early_and_a_watched_game_is_a_position_of_the_board(tmp_path):
    import threading

    settings = Settings().with_table("data", folder=str(tmp_path))
    agent = DotsNTuple(DotsRules(3, 3), settings)
    stop, seen, done = threading.Event(), [], []
    stop.set()
    agent.train(1_000_000, np.random.default_rng(1), stop=stop, progress=done.append)
    assert done == []  # stopped before the first stretch
    stop.clear()
    agent.train(500, np.random.default_rng(1), watch=seen.append, progress=done.append)
    assert done[-1] == 500 and seen and all(isinstance(s, DotsState) and (s.rows, s.cols) == (3, 3) for s in seen)


def test_mcts_with_the_network_values_its_leaves_by_it(tmp_path):
    """mcts-ntuple: a leaf's result is tanh((boxes ahead + the network's value for the side to move) / 2)
    for seat 0 and its negation for seat 1; a finished game its exact result; it plays legal lines."""
    from agents.base import find
    from agents.dots_network_agents import NetworkLeaves

    settings = Settings().with_table("data", folder=str(tmp_path)).with_agent("mcts-ntuple", game="dots",
                                                                              compiled_simulations=200)
    rules = DotsRules(3, 3)
    learner = DotsNTuple(rules, settings)
    net = learner._net(3, 3)[0]
    leaves = NetworkLeaves(learner)
    rng = np.random.default_rng(2)
    state = rules.new_state(rng)
    states = []
    while not rules.is_terminal(state):
        states.append(state)
        state = rules.step(state, rules.legal_actions(state)[int(rng.integers(len(rules.legal_actions(state))))], rng)
    got = leaves.evaluate(states + [state], rng)
    for s, (first, second) in zip(states, got, strict=False):
        v = plain_value(net, s.lines) * (1 if s.mover == 0 else -1)
        assert first == pytest.approx(np.tanh((s.scores[0] - s.scores[1] + v) / 2)) and second == -first
    won = np.sign(state.scores[0] - state.scores[1])
    assert got[-1] == (won, -won)
    agent = find("dots", "mcts-ntuple").create(rules, settings)
    assert agent.act(states[5], rng) in rules.legal_actions(states[5])
    assert agent.figures()["simulations"] <= 200 and "tree nodes" in agent.figures()  # (the compiled tree)
    assert "played out at random" in agent.value_legend("first") and "25%" in agent.value_legend("first")
    valued = find("dots", "mcts-ntuple").create(rules, settings.with_agent("mcts-ntuple", game="dots", minimax=0.0))
    assert valued.act(states[5], rng) in rules.legal_actions(states[5])
    assert "valued by the learnt network" in valued.value_legend("first")
    assert "random" not in valued.value_legend("first")


def test_on_a_board_the_solver_does_not_know_the_curve_is_wins_against_greedy_and_alpha_beta(tmp_path, monkeypatch):
    import agents.dots_ntuple as learner

    monkeypatch.setattr(learner, "CURVE_GAMES", 10)  # (40 and 20 on the screen: seconds this test need not take)
    monkeypatch.setattr(learner, "CURVE_SEARCH_GAMES", 2)
    agent = DotsNTuple(DotsRules(4, 4), Settings().with_table("data", folder=str(tmp_path)))
    shipped = agent.measure(agent._net(4, 4)[0])
    assert set(shipped) == {"wins against greedy", "wins against alpha-beta"}
    untrained = learner.wins_against(Network(4, 4), 10, learner.TEST_SEED, agent.settings)
    assert shipped["wins against greedy"] >= 0.8 > untrained  # (0.96 and 0.06 measured over 400 games)


def test_alpha_beta_with_the_network_stops_on_the_networks_value(tmp_path):
    """alpha-beta-ntuple's horizon is the network's value of the position (the plain one's is the parity of
    the safe lines left): at depth 1 on an open 4x4 board every line's value is minus the network's value
    of the position it leaves."""
    from agents.alphabeta_dots import Search
    from agents.base import find

    settings = Settings().with_table("data", folder=str(tmp_path))
    agent = find("dots", "alpha-beta-ntuple").create(DotsRules(4, 4), settings)
    search = agent._search(DotsRules(4, 4).new_state())
    net = agent.learner._net(4, 4)[0]
    values, _ = search.root_values(0, 1, True)
    for line, v in values.items():
        assert v == pytest.approx(-plain_value(net, 1 << line)), line
    plain = Search(4, 4)
    assert all(abs(v) == 2 for v in plain.root_values(0, 1, True)[0].values())  # the parity's +-2
    state = DotsRules(4, 4).new_state()
    assert agent.act(state, np.random.default_rng(1)) in DotsRules(4, 4).legal_actions(state)


def _played_states(rows, cols, seed, games):
    """Every state of `games` random games (scores and mover kept)."""
    rules, rng, out = DotsRules(rows, cols), np.random.default_rng(seed), []
    for _ in range(games):
        state = rules.new_state()
        while not rules.is_terminal(state):
            out.append(state)
            legal = rules.legal_actions(state)
            state = rules.step(state, legal[int(rng.integers(len(legal)))], rng)
    return out


def test_exact_value_is_the_solvers_margin_or_none_past_its_positions(tmp_path):
    """alpha-beta's exact_value of a position is the solver's best margin for the player to move; with too
    few positions allowed it says None rather than a guess."""
    from agents.alphabeta_dots import Search

    table = margins(2, 3, tmp_path)
    search = Search(2, 3)
    checked = 0
    for state in _played_states(2, 3, 5, 20)[::2]:
        exact = max(solved_values(state, table).values())
        assert search.exact_value(state.lines, 10**9) == exact, state.lines
        checked += 1
    assert checked > 100
    assert Search(2, 3).exact_value(0, 100) is None  # the empty 2x3 board takes far more than 100 positions


def test_mcts_ntuple_solves_its_small_leaves_and_guesses_the_rest(tmp_path):
    """NetworkLeaves with exact_lines: a leaf with that many free lines or fewer scores its exact result (a
    win, draw or loss by the solver's margin plus the boxes already taken), a larger one the network's
    squashed guess, strictly inside (-1, 1); a finished game its result."""
    from agents.dots_network_agents import NetworkLeaves

    settings = Settings().with_table("data", folder=str(tmp_path))
    rules = DotsRules(2, 3)
    table = margins(2, 3, tmp_path)
    leaves = NetworkLeaves(DotsNTuple(rules, settings), exact_lines=8, exact_positions=10**9)
    states = _played_states(2, 3, 9, 10)
    results = leaves.evaluate(states, np.random.default_rng(0))
    solved = guessed = 0
    for state, (r0, r1) in zip(states, results, strict=True):
        assert r0 == -r1
        free = state.board.n_lines - state.lines.bit_count()
        if free <= 8:
            best = max(solved_values(state, table).values())
            margin = state.scores[0] - state.scores[1] + (best if state.mover == 0 else -best)
            assert r0 == np.sign(margin), (state.lines, state.scores, state.mover)
            solved += 1
        else:
            assert -1 < r0 < 1
            guessed += 1
    assert solved > 20 and guessed > 20
    never = NetworkLeaves(DotsNTuple(rules, settings), exact_lines=0)
    assert all(-1 < r < 1 for r, _ in never.evaluate([s for s in states if s.lines.bit_count() > 10],
                                                     np.random.default_rng(0)))


def test_a_whole_board_tuple_read_once_learns_as_its_images_read_one_by_one():
    """The canonical read (one weight a class of positions, counted S times) against the same network whose
    whole-board tuple is read through each symmetry into its own weight: self-play moves both alike, so after
    the same games every position has the same value, and the canonical table touched a class once."""
    import dataclasses

    from agents.dots_ntuple import kernels

    lay = layout(2, 2)
    assert (lay.offsets[1:len(line_symmetries(2, 2))] == -1).all()
    canonical = Network(2, 2)
    plain = Network(2, 2)
    plain.layout = dataclasses.replace(lay, offsets=np.where(lay.offsets < 0, lay.offsets[0], lay.offsets))
    for net in (canonical, plain):
        kernels().self_play(net.args(), 40, 0.3, 0.0, lay.n_lines, lay.box_lines, lay.line_boxes,
                            np.random.default_rng(8), 3, 0.5)
    everything = np.arange(1 << lay.n_lines, dtype=np.int64)
    assert np.allclose(canonical.values(everything), plain.values(everything), atol=1e-9)
    assert np.abs(canonical.values(everything)).max() > 0.1  # (it learnt something)
    table = canonical.weights[:1 << lay.n_lines]
    tup = lay.tuples[0].tolist()
    classes = {min(sum(((x >> p[b]) & 1) << k for k, b in enumerate(tup)) for p in line_symmetries(2, 2))
               for x in range(1 << lay.n_lines)}
    assert set(np.flatnonzero(table).tolist()) <= classes  # only a class's least image holds a weight


def test_training_on_two_threads_shares_one_network(tmp_path):
    settings = Settings().with_table("data", folder=str(tmp_path))
    agent = DotsNTuple(DotsRules(2, 2), settings)
    points = []
    agent.train(20_000, np.random.default_rng(5), from_scratch=True, jobs=2,
                checkpoint=lambda done, f: points.append((done, f)))
    assert points[-1][0] == 20_000 and agent.describe()[2].startswith("trained 20,000 games")
    assert points[-1][1]["optimal moves"] > points[0][1]["optimal moves"]


def test_alpha_beta_with_the_network_says_its_horizon_is_the_network(tmp_path):
    from agents.base import find

    settings = Settings().with_table("data", folder=str(tmp_path))
    rules = DotsRules(3, 3)
    plain, learnt = (find("dots", name).create(rules, settings).value_legend("first")
                     for name in ("alpha-beta", "alpha-beta-ntuple"))
    assert "last safe line" in plain and "last safe line" not in learnt and "learnt network" in learnt


@pytest.mark.parametrize("rows, cols", [(2, 2), (3, 3), (4, 4)])
def test_the_sparring_partner_plays_as_the_greedy_agent_does(rows, cols):
    """The self-play kernel's greedy seat (kernels' greedy_line) makes the greedy agent's moves: the same line
    where a box can be taken, else a line of the same pool (safe lines, else any), each of them drawn; at every
    position of games the greedy agent plays against itself (they pass through all three kinds)."""
    from agents.dots_ntuple import kernels
    from agents.greedy import GreedyDots

    rules, lay = DotsRules(rows, cols), layout(rows, cols)
    greedy = GreedyDots(rules, Settings())
    rng = np.random.default_rng(4)
    positions = []
    for _ in range(6):
        state = rules.new_state(rng)
        while not rules.is_terminal(state):
            positions.append(state)
            state = rules.step(state, greedy.act(state, rng), rng)
    taking = safe_only = forced = 0
    for state in positions:
        scores = greedy.explain(state)
        best = max(scores.values())
        pool = [a for a, v in scores.items() if v == best] if best > 0 else \
            [a for a, v in scores.items() if v == 0] or list(scores)
        drawn = {kernels().greedy_line(state.lines, lay.n_lines, lay.box_masks, lay.box_lines, lay.line_boxes,
                                          rng)
                 for _ in range(200)}
        if best > 0:
            taking += 1
            assert drawn == {greedy.act(state, rng)}
        else:
            safe_only += best == 0
            forced += best < 0
            assert drawn <= set(pool) and len(drawn) >= min(len(pool), 8)  # (200 draws: all of a pool of 8)
    assert taking and safe_only and forced  # (every kind of position was met)
