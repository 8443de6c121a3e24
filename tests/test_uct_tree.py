"""mcts's compiled tree (agents/engines/tree_kernels.py, agents/engines/uct_tree.py) on dots: the tree's counts add up, it grows
past its first arrays, the clock stops it between slices, it agrees with the exact solver and with the
Python tree it replaces, and its kernels' cache is dropped when a kernel it calls changes."""
import os
from pathlib import Path

import numpy as np
import pytest

from agents.engines import compiled, uct_tree
from agents.engines.dots.tree import DotsTree
from agents.base import Deadline
from agents.game_search import random_positions
from agents.mcts import MCTS
from arcade.games.dots import DotsRules
from arcade.settings import Settings

SETTINGS = Settings().with_table("agents", budget_clock="none")


def _mid_game(rules, seed, lines):
    return random_positions(rules, 1, seed, (lines, lines))[0]


def test_the_compiled_trees_counts_add_up_and_it_grows_past_its_first_arrays():
    """Every simulation adds one node until the root is proven; a child's total lies within its visits; the
    root's visits are its children's; more simulations than the first arrays hold make them grow intact."""
    rules = DotsRules(4, 4)
    state = _mid_game(rules, 3, 8)
    sims = uct_tree.START_NODES + 5000
    agent = MCTS(rules, SETTINGS.with_agent("mcts", compiled_simulations=sims))
    root = agent.search(state, np.random.default_rng(1))
    tree = agent._trees[(4, 4)]
    figures = agent.figures()
    assert figures["simulations"] == sims == root.visits and tree.used == sims + 1
    assert tree.nodes.shape[0] > uct_tree.START_NODES
    assert sum(ch.visits for ch in root.kids) == sims
    assert set(root.children) <= set(rules.legal_actions(state))
    assert all(-ch.visits <= ch.total <= ch.visits for ch in root.kids)
    nodes, k = tree.nodes[:tree.used], tree.k
    # every node but the root is some node's child, once; a node's visits cover its children's
    children = nodes[1:, k.ACTION] >= 0
    assert children.all()
    seen = np.zeros(tree.used, int)
    for parent in range(tree.used):
        child, below = nodes[parent, k.FIRST], 0
        while child >= 0:
            seen[child] += 1
            below += nodes[child, k.VISITS]
            child = nodes[child, k.NEXT]
        assert nodes[parent, k.VISITS] >= below
    assert seen[0] == 0 and (seen[1:] == 1).all()


def test_the_compiled_tree_stops_at_its_deadline_between_slices():
    """The kernel cannot read the clock: the driver looks between slices. A clock that moves a second each look
    stops a 2.5 s budget after a few slices, far short of its simulations."""
    rules = DotsRules(4, 4)
    tree = DotsTree(4, 4)
    tree.reset(rules.new_state())
    ticks = iter(range(10**6))
    done = uct_tree.run(tree, 10**6, 2.0, Deadline(lambda: float(next(ticks)), 2.5), np.random.default_rng(0))
    assert 0 < done < 10**4


@pytest.mark.parametrize("size", [(2, 2), (2, 3)])
def test_the_compiled_tree_proves_endgames_exactly_as_the_solver(size):
    """Positions 5-7 lines before the end: the compiled tree's proven root (its search stops early) has the sign
    of the exact result, every root child it proves has its exact value's sign, and the move it plays wins,
    draws or loses as the best move does."""
    from agents.dots_solver import margins, move_values

    table = margins(*size)
    rules = DotsRules(*size)
    n = rules.new_state().board.n_lines
    proven = checked = 0
    for seed in range(25):
        state = _mid_game(rules, seed, n - 5 - seed % 3)
        agent = MCTS(rules, SETTINGS.with_agent("mcts", compiled_simulations=200_000))
        root = agent.search(state, np.random.default_rng(seed))
        lead = state.scores[state.mover] - state.scores[1 - state.mover]
        exact = move_values(state, table)
        if root.proven is not None:
            proven += 1
            assert root.proven[state.mover] == np.sign(lead + int(table[state.lines]))
            assert agent.figures()["simulations"] < 200_000
        for line, child in root.children.items():
            if child.proven is not None:
                checked += 1
                assert child.proven[state.mover] == np.sign(lead + exact[line])
        line = agent.act(state, np.random.default_rng(0))
        assert np.sign(lead + exact[line]) == np.sign(lead + max(exact.values()))
    assert proven >= 15 and checked >= 40


def test_the_compiled_tree_and_the_python_tree_value_moves_alike():
    """The same search: on two 3x3 mid-game positions, 2 searches of 5,000 simulations by each tree, the mean
    result of the root and of each move both visited often, pooled over the searches, agree (in [-1, 1]; the
    randomness differs, the algorithm does not), and where one move stands out (position 42: line 5) both
    trees find it. The Python tree is given the same
    compiled playouts as its evaluator (a given evaluator keeps mcts on the Python tree)."""
    from agents.mcts import RandomRollouts

    rules = DotsRules(3, 3)
    settings = SETTINGS.with_agent("mcts", simulations=5_000, compiled_simulations=5_000, batch=1)
    for seed in (40, 42):
        state = _mid_game(rules, seed, 6)
        pooled = [{}, {}]  # move -> [visits, total], per tree
        for k in range(2):
            python_tree = MCTS(rules, settings, evaluator=RandomRollouts(rules, 10_000))
            for pool, agent in zip(pooled, (MCTS(rules, settings), python_tree), strict=True):
                root = agent.search(state, np.random.default_rng(k))
                for a, ch in root.children.items():
                    pool.setdefault(a, [0, 0.0])
                    pool[a][0] += ch.visits
                    pool[a][1] += ch.total
            assert "tree nodes" not in python_tree.figures()
        assert set(pooled[0]) == set(pooled[1]) == set(rules.legal_actions(state))
        means = [{a: t / n for a, (n, t) in pool.items()} for pool in pooled]
        often = [a for a in means[0] if min(pooled[0][a][0], pooled[1][a][0]) >= 450]
        assert often and max(abs(means[0][a] - means[1][a]) for a in often) < 0.1
        root = [sum(t for _, t in pool.values()) / sum(n for n, _ in pool.values()) for pool in pooled]
        assert abs(root[0] - root[1]) < 0.05
        if seed == 42:
            assert max(means[0], key=means[0].get) == max(means[1], key=means[1].get) == 5


def test_a_kernel_modules_cache_is_dropped_when_a_kernel_it_calls_is_newer(tmp_path, monkeypatch):
    """numba checks only a kernel's own file: the tree kernels call an engine's positions (dots': which call
    dots' kernels and search kernels), so their cache files older than one of those are removed before they
    load; newer ones stay, and so do another module's of the same file name."""
    import numba

    from agents.engines import tree_kernels
    from agents.engines.dots import tree_positions
    from agents.engines.twenty48 import kernels as twenty48_kernels

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    folder = compiled.cache_folders(tree_kernels)[1]
    other = compiled.cache_folders(tree_positions)[1]
    folder.mkdir(parents=True)
    other.mkdir(parents=True)
    newest = Path(tree_positions.__file__).stat().st_mtime
    old = [folder / "tree_kernels.simulate-80.py311.nbi", folder / "tree_kernels.simulate-80.py311.1.nbc"]
    new = [folder / "tree_kernels.reset-70.py311.nbi", folder / "tree_kernels.reset-70.py311.1.nbc"]
    elsewhere = [other / "tree_kernels.simulate-80.py311.nbi"]
    for f in old + new + elsewhere:
        f.write_bytes(b"x")
    for f in old + elsewhere:
        os.utime(f, (newest - 60, newest - 60))
    for f in new:
        os.utime(f, (newest + 60, newest + 60))
    removed = compiled.keep_cache_fresh(tree_kernels.__name__, also=(tree_positions,))
    assert set(removed) == set(old) and all(f.exists() for f in new + elsewhere) and not any(f.exists() for f in old)
    assert compiled.keep_cache_fresh(twenty48_kernels.__name__) == []  # calls no other kernel file


def test_tictactoe_random_playouts_end_as_random_play_is_known_to():
    """Uniformly random tic-tac-toe from the empty board is known to end 58.5% X, 28.8% O, 12.7% drawn (every
    move equally likely); 20,000 compiled playouts land within 1.5 points of each (4 standard errors)."""
    from agents.engines.tictactoe.tree import TicTacToeTree

    tree = TicTacToeTree()
    rng = np.random.default_rng(7)
    k, args = tree.positions(), (np.int64(0), np.int64(0), np.int64(0), tree.full, tree.order, tree.board_a, tree.board_b, rng)
    assert tree.playout(0, rng) in (-1, 0, 1)
    results = np.array([k.playout(*args) for _ in range(20_000)])
    assert abs((results == 1).mean() - 0.585) < 0.015
    assert abs((results == -1).mean() - 0.288) < 0.015
    assert abs((results == 0).mean() - 0.127) < 0.015


def test_tictactoe_compiled_tree_proves_positions_as_minimax_and_plays_its_moves():
    """Every reachable position with 3 to 6 empty cells (not finished), 60 of them: the compiled tree proves the
    root (stopping early) with minimax's result for the side to move, and its move keeps that result."""
    from agents.minimax import move_values, solve
    from arcade.games.tictactoe import TicTacToeRules, reachable_states, tables

    rules, t, values = TicTacToeRules(), tables(), solve()
    pool = [s for s in reachable_states() if 3 <= 9 - t.pieces[s] <= 6 and not t.terminal[s]]
    rng = np.random.default_rng(3)
    agent = MCTS(rules, SETTINGS.with_agent("mcts", compiled_simulations=100_000))
    for state in rng.choice(pool, 60, replace=False).tolist():
        root = agent.search(state, np.random.default_rng(state))
        assert "tree nodes" in agent.figures() and agent.figures()["simulations"] < 100_000
        exact = np.sign(values[state])
        assert root.proven is not None and root.proven[rules.to_move(state)] == exact
        move = agent.act(state, np.random.default_rng(state))
        assert np.sign(move_values(state)[move]) == exact


@pytest.mark.parametrize("exact_lines", [0, 12])
def test_the_compiled_network_leaves_value_as_the_python_evaluator(exact_lines):
    """mcts-ntuple's leaves in the kernels (the tree kernels' evaluated_leaf with NetworkLeaves.compiled_leaf) equal the
    Python evaluator's on 3x3 positions: the network's squashed margin, and with exact_lines the solver's exact
    result where the leaf is small enough; mcts-ntuple searches on the compiled tree."""
    from agents.dots_network_agents import NetworkLeaves
    from agents.dots_ntuple import DotsNTuple

    rules = DotsRules(3, 3)
    leaves = NetworkLeaves(DotsNTuple(rules, SETTINGS), exact_lines, 20_000)
    tree = DotsTree(3, 3)
    states = random_positions(rules, 40, 5, (4, 20))
    exact = 0
    for state, (want, _) in zip(states, leaves.evaluate(states, np.random.default_rng(0)), strict=True):
        a, b, c = (np.int64(x) for x in tree.position(state))
        got = tree.k.evaluated_leaf(tree.pos, a, b, c, tree.full, leaves.compiled_leaf(state), tree.work, tree.order,
                                  tree.board_a, tree.board_b, np.random.default_rng(0))
        assert got == pytest.approx(want, abs=1e-9)
        exact += 24 - state.lines.bit_count() <= exact_lines
    assert exact_lines == 0 or exact >= 5
    agent = find_agent(rules)
    agent.act(states[0], np.random.default_rng(1))
    assert "tree nodes" in agent.figures()


@pytest.mark.parametrize("share", [0.25, 1.0])
def test_a_network_leaf_with_a_playout_share_mixes_the_guess_with_a_random_playout(share):
    """playout_share: a guessed leaf is (1 - share) the network's squashed margin + share a random playout's
    result, the playout the one the same Generator plays alone; the Python evaluator mixes alike (a playout is
    +-1 or 0, so its values sit at the guess shifted by share, share times -1, 0 or +1); a solved leaf stays
    exact."""
    from agents.dots_network_agents import NetworkLeaves
    from agents.dots_ntuple import DotsNTuple

    rules = DotsRules(3, 3)
    guessed = NetworkLeaves(DotsNTuple(rules, SETTINGS))
    mixed = NetworkLeaves(guessed.learner, 0, 20_000, share)
    solved = NetworkLeaves(guessed.learner, 24, 10**6, share)
    tree = DotsTree(3, 3)
    states = random_positions(rules, 20, 7, (4, 20))
    plain = guessed.evaluate(states, np.random.default_rng(0))
    python = mixed.evaluate(states, np.random.default_rng(0))
    for state, (guess, _), (got_python, _) in zip(states, plain, python, strict=True):
        a, b, c = (np.int64(x) for x in tree.position(state))
        kernel = [tree.k.evaluated_leaf(tree.pos, a, b, c, tree.full, leaves.compiled_leaf(state), tree.work, tree.order,
                                      tree.board_a, tree.board_b, np.random.default_rng(3))
                  for leaves in (mixed, solved)]
        played = tree.positions().playout(a, b, c, tree.full, tree.order, tree.board_a, tree.board_b,
                                     np.random.default_rng(3))
        assert kernel[0] == pytest.approx((1 - share) * guess + share * played, abs=1e-9)
        assert min(abs(got_python - (1 - share) * guess - share * z) for z in (-1, 0, 1)) < 1e-9
        assert kernel[1] in (-1.0, 0.0, 1.0)  # solved: exact, no playout mixed in
        assert kernel[1] == solved.evaluate([state], np.random.default_rng(0))[0][0]


def find_agent(rules):
    from agents import find

    return find("dots", "mcts-ntuple").create(rules, SETTINGS.with_agent("mcts-ntuple", game="dots",
                                                                            compiled_simulations=500))


def test_the_compiled_tree_runs_the_same_batches_however_the_clock_slices_them():
    """Slices hold whole batches (8 walks with a virtual loss), so a search cut into slices by the clock is the
    same search as one uncut call: the root's children come out identical."""
    rules = DotsRules(3, 3)
    state = _mid_game(rules, 9, 5)
    whole, sliced = DotsTree(3, 3), DotsTree(3, 3)
    whole.reset(state)
    sliced.reset(state)
    assert whole.simulate(3000, 2.0, np.random.default_rng(4), 8) == 3000
    ticks = iter(np.arange(10**6) * 1.5e-3)  # (slices of 64, then 213 rounded down to whole batches, ...)
    assert uct_tree.run(sliced, 3000, 2.0, Deadline(lambda: float(next(ticks)), 10**6), np.random.default_rng(4), 8) == 3000
    assert whole.children() == sliced.children()


def test_an_mcts_sent_to_another_process_makes_its_kernels_ready_before_its_first_deadline(monkeypatch):
    """Unpickled (a runner's worker, a Ray task), mcts warms its compiled tree before the first decision's clock
    starts, and only then: a compile inside the decision once cut it to its first slice."""
    import pickle

    from arcade.games.tictactoe import TicTacToeRules

    rules = TicTacToeRules()
    agent = pickle.loads(pickle.dumps(MCTS(rules, SETTINGS.with_agent("mcts", compiled_simulations=3000))))
    warmed = []
    real = MCTS.warm_tree
    monkeypatch.setattr(MCTS, "warm_tree", lambda self, state: (warmed.append(state), real(self, state)))
    agent.act(0, np.random.default_rng(0))
    agent.act(0, np.random.default_rng(0))
    assert warmed == [0] and agent.figures()["simulations"] == 3000


def _minimax_tree(weight, c, exact_lines=8, lines=6, seed=2):
    """The compiled tree after 3,000 simulations from a 3x3 game `lines` lines in with the network's values
    backed up as implicit minimax (weight w), leaves of exact_lines free lines or fewer solved."""
    from agents.dots_network_agents import NetworkLeaves
    from agents.dots_ntuple import DotsNTuple

    rules = DotsRules(3, 3)
    leaves = NetworkLeaves(DotsNTuple(rules, SETTINGS), exact_lines, 20_000, 0.0, weight)
    state = _mid_game(rules, seed, lines)
    tree = DotsTree(3, 3)
    tree.reset(state)
    tree.leaf = leaves.compiled_leaf(state)
    tree.simulate(3000, c, np.random.default_rng(seed), 8)
    return tree


@pytest.mark.parametrize("exact_lines, lines, seed", [(8, 6, 2), (0, 16, 4)])
def test_implicit_minimax_keeps_each_nodes_value_the_best_of_its_childrens(exact_lines, lines, seed):
    """With a minimax weight, every node with children holds the best of its children's minimax values (a proven
    child's exact result) for its mover, turned to the player who moved into it; a new leaf's is the network's
    squashed guess (within [-1, 1]); results still come from playouts or solves (whole numbers, a child's total
    within its visits). Without solves, 8 lines from the end (this seed's walks reach a finished game and prove
    the root by it), a finished game's result differs from the guess its parent had, so a parent must take it up
    when that child is added."""
    tree = _minimax_tree(0.5, 2.0, exact_lines, lines, seed)
    k, nodes, minimax = tree.k, tree.nodes[:tree.used], tree.minimax[:tree.used]
    assert tree.used > 1000 and np.all(np.abs(minimax) <= 1.0)
    movers = nodes[:, k.MOVER]
    parents = np.full(tree.used, -1)
    for node in range(tree.used):
        child = nodes[node, k.FIRST]
        while child >= 0:
            parents[child] = node
            child = nodes[child, k.NEXT]
    checked = 0
    for node in range(tree.used):
        child, best = nodes[node, k.FIRST], -np.inf
        while child >= 0:
            p = nodes[child, k.PROVEN]
            best = max(best, minimax[child] if p == k.UNKNOWN else float(p))
            child = nodes[child, k.NEXT]
        if best == -np.inf:
            continue
        if node > 0 and movers[parents[node]] != movers[node]:
            best = -best
        assert minimax[node] == pytest.approx(best, abs=1e-12), node
        checked += 1
    assert checked > 100
    played = tree.total[1:tree.used]
    assert np.all(np.abs(played) <= nodes[1:, k.VISITS])
    assert np.all(played == np.round(played))  # sums of playouts' and solves' -1, 0, +1: no guess among them


def test_implicit_minimax_at_full_weight_without_exploration_walks_to_the_best_minimax_child():
    """w = 1 and c = 0: a walk's choice at the root is the child of the highest minimax value, so once every
    root move has a child the visits pile onto the child that is best when the search ends; with w = 0 the
    same search follows the playouts' means instead and spreads differently."""
    tree = _minimax_tree(1.0, 0.0)
    children = tree.children()
    k = tree.k
    best_minimax, node = -np.inf, tree.nodes[0, k.FIRST]
    while node >= 0:
        if tree.nodes[node, k.PROVEN] == k.UNKNOWN and tree.minimax[node] > best_minimax:
            best_minimax, best_move = tree.minimax[node], tree.nodes[node, k.ACTION]
        node = tree.nodes[node, k.NEXT]
    most = max(children, key=lambda ch: ch[1])
    assert most[0] == best_move and most[1] > 3000 // 2
    plain = _minimax_tree(0.0, 0.0)
    assert plain.children() != children
