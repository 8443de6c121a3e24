"""Dots on every board up to 5x5, the chain analysis, alpha-beta and mcts (checked against the exact solver)."""
import time

import numpy as np
import pygame
import pytest

from agents.alphabeta_dots import AlphaBetaDots
from agents.engines.dots.board import Position, geometry, loony_value, quiet_position, simple_loony
from agents.dots_solver import margins, move_values
from agents.greedy import GreedyDots
from agents.mcts import MCTS
from arcade.cli import main
from arcade.games.dots import Board, DotsRules, DotsState, gain, parse_size
from tests.helpers import key, ticks, wait_for
from tests.test_dots_screen import open_dots


def random_position(rows, cols, rng, undrawn_max=None):
    board = Board(rows, cols)
    undrawn = int(rng.integers(1, (undrawn_max or board.n_lines) + 1))
    lines = 0
    for bit in rng.permutation(board.n_lines)[undrawn:]:
        lines |= 1 << int(bit)
    return DotsState(rows, cols, lines, (0, 0), 0)


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 5), (3, 2), (4, 4), (5, 5), (4, 5)])
def test_every_board_up_to_5x5(rows, cols):
    board = Board(rows, cols)
    assert board.n_lines == (rows + 1) * cols + rows * (cols + 1)
    masks = board.box_masks()
    assert len(masks) == rows * cols and all(m.bit_count() == 4 for m in masks)
    rules = DotsRules(rows, cols)
    rng = np.random.default_rng(rows * 10 + cols)
    state = rules.new_state()
    while not rules.is_terminal(state):
        state = rules.step(state, int(rng.choice(rules.legal_actions(state))), rng)
    assert sum(state.scores) == rows * cols
    assert rules.parse_state(rules.format_state(state), board=(rows, cols)).lines == state.lines


def test_board_sizes_and_bit_counts_are_checked():
    assert parse_size("4x4") == (4, 4) and parse_size(" 2X3 ") == (2, 3)
    for bad in ("6x4", "0x2", "4", "axb", "4x4x4", "４x4"):
        with pytest.raises(ValueError):
            parse_size(bad)
    with pytest.raises(ValueError, match="24 line bits but a 4x4 board has 40"):
        DotsRules(4, 4).parse_state("0" * 24, board=(4, 4))
    assert DotsRules().parse_state("0" * 60).rows == 5  # 60 bits: the 5x5 board of the screen


def test_position_tracks_sides_and_gains_like_the_rules():
    rng = np.random.default_rng(0)
    for rows, cols in ((4, 4), (5, 5), (2, 5)):
        board = Board(rows, cols)
        pos = Position(geometry(rows, cols), 0)
        drawn = []
        for bit in rng.permutation(board.n_lines):
            bit = int(bit)
            expected = gain(board, pos.lines, bit)
            assert pos.draw(bit) == expected
            drawn.append(bit)
        for bit in reversed(drawn[10:]):
            pos.undo(bit)
        fresh = Position(geometry(rows, cols), pos.lines)
        assert pos.sides == fresh.sides


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (1, 4)])
def test_loony_endgame_count_equals_the_exact_solver(rows, cols):
    margin = margins(rows, cols)
    geo = geometry(rows, cols)
    checked = 0
    for lines in range(1 << geo.n_lines):
        pos = Position(geo, lines)
        components = pos.loony_components()
        if components is not None and simple_loony(*components) and any(components):
            assert loony_value(*components) == margin[lines], (lines, components)
            checked += 1
    assert checked > 0


def test_loony_value_by_hand():
    assert loony_value((3,), ()) == -3  # one 3-chain: the opener gives all three away
    # two 3-chains: the controller takes 1, hands back 2, and gets the second chain: -1 + 2 - 3 = -2
    assert loony_value((3, 3), ()) == -2
    assert loony_value((), (4,)) == -4
    # a 3-chain and a 4-loop: opening the loop first costs 1 (taking all 4 then opening the chain gives
    # -4 + 3; handing the 4 back gives 4 - 3), opening the chain first costs 3
    assert loony_value((3,), (4,)) == -1
    assert not simple_loony((2, 3), ()) and simple_loony((3,), (4,))


def test_capture_pruning_never_drops_the_best_line():
    rng = np.random.default_rng(3)
    margin = margins(2, 3)
    geo = geometry(2, 3)
    pruned = 0
    for _ in range(3000):
        state = random_position(2, 3, rng)
        if state.lines == state.board.full:
            continue
        choices = Position(geo, state.lines).capture_choices()
        if choices is None:
            continue
        exact = move_values(state, margin)
        assert max(exact[a] for a in choices) == max(exact.values())
        pruned += 1
    assert pruned > 100


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (1, 4)])
def test_alpha_beta_values_equal_the_solver_when_it_reaches_the_end(rows, cols, settings):
    margin = margins(rows, cols)
    # counted, not timed: positions enough to reach the end on these boards whatever the machine's load
    agent = AlphaBetaDots(DotsRules(rows, cols), settings.with_agent("alpha-beta", game="dots",
                                                                     position_budget=10_000_000))
    rng = np.random.default_rng(rows * cols)
    for _ in range(40):
        state = random_position(rows, cols, rng, undrawn_max=12)
        if state.lines == state.board.full:
            continue
        values = agent.explain(state)
        assert agent.figures()["exact"] == "yes"
        assert {a: int(v) for a, v in values.items()} == move_values(state, margin)
        best = agent.act(state)
        assert move_values(state, margin)[best] == max(move_values(state, margin).values())


def test_alpha_beta_keeps_its_time_budget_on_5x5(settings):
    agent = AlphaBetaDots(DotsRules(5, 5), settings.with_agent("alpha-beta", game="dots", time_budget_ms=200))
    state = DotsRules(5, 5).new_state()
    start = time.perf_counter()
    line = agent.act(state)
    assert time.perf_counter() - start < 5.0  # 0.2 s planned; a generous bound for a busy machine
    assert line in DotsRules(5, 5).legal_actions(state) and agent.figures()["depth"] >= 1


def test_alpha_beta_beats_greedy_on_4x4(settings):
    """(In positions, not time: the same games on a busy machine; at 150 ms of wall clock it once drew.)"""
    rules = DotsRules(4, 4)
    agent = AlphaBetaDots(rules, settings.with_agent("alpha-beta", game="dots", position_budget=20_000))
    greedy = GreedyDots(rules, settings)
    for seat in (0, 1):
        rng = np.random.default_rng(seat)
        state = rules.new_state()
        while not rules.is_terminal(state):
            player = agent if state.mover == seat else greedy
            state = rules.step(state, player.act(state, rng), rng)
        assert state.scores[seat] > state.scores[1 - seat]


def test_mcts_takes_a_free_box_and_replays(settings):
    rules = DotsRules(2, 2)
    agent = MCTS(rules, settings.with_agent("mcts", simulations=1000).with_table("agents", budget_clock="none"))
    state = DotsState(2, 2, 325 & ~1, (0, 0), 0)  # box 0 has three sides; line 0 takes it
    assert agent.act(state, np.random.default_rng(0)) == 0
    values = agent.explain(state)
    assert values == agent.explain(state)  # seeded by the position
    assert all(-1.0 <= v <= 1.0 for v in values.values()) and max(values, key=values.get) == 0
    big = DotsRules(5, 5)
    line = MCTS(big, settings.with_agent("mcts", simulations=50)).act(big.new_state(), np.random.default_rng(1))
    assert line in big.legal_actions(big.new_state())


def test_the_variant_names_the_board_and_the_old_board_option_says_so(capsys):
    for game in (["dots(rows=4,cols=4)"], ["dots(cols=4,rows=4)"]):
        assert main(["decide", *game, "--agent", "greedy", "--state", "0" * 40]) == 0
        assert main(["decide", *game, "--agent", "greedy", "--state", "0" * 24]) == 2
        assert "that state is not one of dots(rows=4,cols=4)" in capsys.readouterr().err
    assert main(["bench", "dots", "--board", "4x4", "--games", "1"]) == 2
    assert "--board is gone: name the variant instead: GAME(rows=R,cols=C)" in capsys.readouterr().err
    assert main(["bench", "2048(rows=4)", "--games", "1"]) == 2
    assert "2048 has no parameter 'rows'" in capsys.readouterr().err
    for game in (["dots(rows=7,cols=7)"], ["dots(rows=7)"]):
        assert main(["bench", *game, "--games", "1"]) == 2
        assert "dots: rows must be an integer from 1 to 5, got 7" in capsys.readouterr().err
    # the 3x2 and 2x3 boards have the same number of lines: the rules' own board decides
    assert (DotsRules(3, 2).parse_state("0" * 17).rows, DotsRules(2, 3).parse_state("0" * 17).rows) == (3, 2)
    assert main(["bench", "dots(rows=4,cols=4)", "--agent", "solver", "--games", "1"]) == 2
    assert "solver plays boards up to 3x3" in capsys.readouterr().err
    assert main(["bench", "dots(rows=3,cols=2)", "--agent", "greedy", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "  margin " in out


def test_screen_sizes_4x4_and_5x5_with_alpha_beta_values(app):
    screen = open_dots(app)
    screen.controller.select("solver")
    key(app, pygame.K_5)
    assert (screen.state.rows, screen.state.cols) == (5, 5)
    assert screen.controller.name != "solver"  # it cannot play 5x5: the screen moved on and said why
    screen.controller.select("alpha-beta")
    key(app, pygame.K_v)
    assert wait_for(app, lambda: screen.values.shown(screen.state))
    values = screen.values.shown(screen.state)
    assert set(values) == set(DotsRules(5, 5).legal_actions(screen.state))
    key(app, pygame.K_4)
    assert (screen.state.rows, screen.state.cols) == (4, 4)
    ox, oy, gap = screen._geometry()
    x, y = screen._dot(4, 4)
    assert gap > 20 and x <= app.surface.get_width() and y <= app.surface.get_height()
    ticks(app, 3)


def test_environments_on_big_boards():
    import gymnasium

    import arcade.envs  # noqa: F401  (registers the environments)

    env = gymnasium.make("arcade/DotsAndBoxes-v0", rows=5, cols=5, opponent="greedy")
    obs, info = env.reset(seed=0)
    assert obs.shape == (60 + 3,)  # the lines, then the boxes of each side and whose turn it is
    total = 0.0
    while True:
        line = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, done, truncated, info = env.step(line)
        total += reward
        if done or truncated:
            break
    assert -25 <= total <= 25
    with pytest.raises(ValueError, match="1x1 up to 5x5"):
        DotsRules(6, 6)


@pytest.mark.parametrize("rows,cols", [(3, 3), (2, 3), (4, 4), (1, 4)])
def test_board_symmetries_map_lines_to_lines_and_boxes_to_boxes(rows, cols):
    from arcade.games.dots import board_of, line_symmetries, map_lines

    board = board_of(rows, cols)
    perms = line_symmetries(rows, cols)
    assert len(perms) == (8 if rows == cols else 4) and perms[0] == tuple(range(board.n_lines))
    assert len(set(perms)) == len(perms)
    boxes = set(board.box_masks())
    for perm in perms:
        assert sorted(perm) == list(range(board.n_lines))
        assert {map_lines(m, perm) for m in boxes} == boxes


@pytest.mark.parametrize("rows,cols", [(3, 3), (4, 4), (2, 3)])
def test_alpha_beta_gives_symmetric_lines_one_value(rows, cols, settings):
    """Issue 25 #9: on the empty 3x3 board one line was -2 and 23 were +2, though all are alike under the
    board's symmetries. Lines one of the position's own symmetries maps onto each other get one value."""
    from arcade.games.dots import line_symmetries, map_lines

    rules = DotsRules(rows, cols)
    agent = AlphaBetaDots(rules, settings.with_agent("alpha-beta", game="dots", time_budget_ms=300))
    states = [rules.new_state()]
    lines = 0
    for perm in line_symmetries(rows, cols)[1:]:  # a drawn line and its mirror image: a symmetric position
        if perm[0] != 0:
            lines = (1 << 0) | (1 << perm[0])
            break
    states.append(DotsState(rows, cols, lines, (0, 0), 0))
    for state in states:
        values = agent.explain(state)
        for perm in line_symmetries(rows, cols):
            if map_lines(state.lines, perm) == state.lines:
                for line, v in values.items():
                    assert values[perm[line]] == v, (state.lines, line, perm[line])
        assert len(values) == state.board.n_lines - state.lines.bit_count()


def test_symmetric_root_lines_share_one_search_whatever_the_search_below_says(monkeypatch):
    """The guarantee behind issue 25 #9, made to fail without it: a search below the root that (like a
    transposition table filled in a different order) answers differently for mirror images cannot give
    mirror-image root lines different values, because only one line of each class is searched."""
    from agents import alphabeta_dots
    from arcade.games.dots import line_symmetries

    monkeypatch.setattr(alphabeta_dots.Search, "line_value", lambda self, lines, line, depth, lo: (line * 7) % 5 - 2)
    search = alphabeta_dots.Search(3, 3)
    values, _ = search.root_values(0, 2, every=True)
    assert len(values) == 24
    for perm in line_symmetries(3, 3):
        assert all(values[perm[line]] == v for line, v in values.items())


# --- the compiled search against the plain one it replaced (benchmarks/baselines/alphabeta_dots_python.py) ---
def test_compiled_alpha_beta_values_equal_the_plain_search_at_every_depth():
    """Same values (every root line exact) as the plain Python search at depths 1-4 on 4x4 and 5x5 positions,
    quiet and with captures pending, and the same count of positions within a few (the table's slots lose
    an entry now and then; the plain one's dict does not)."""
    from agents.alphabeta_dots import Search
    from benchmarks.baselines.alphabeta_dots_python import Search as PlainSearch

    rng = np.random.default_rng(41)
    checked = 0
    for rows, cols in ((4, 4), (5, 5), (3, 5)):
        for drawn in (10, 18, 26):
            lines = quiet_position(rows, cols, drawn, rng)
            for extra in (0, 2):  # 2 more random lines: often a box to take
                for line in rng.permutation(geometry(rows, cols).n_lines)[:extra]:
                    lines |= 1 << int(line)
                for depth in (1, 3):
                    compiled, plain = Search(rows, cols), PlainSearch(rows, cols)
                    values, best = compiled.root_values(lines, depth, True)
                    expected, _ = plain.root_values(lines, depth, True)
                    assert values == {a: float(v) for a, v in expected.items()}, (rows, cols, lines, depth)
                    assert values[best] == max(values.values())
                    assert abs(compiled.nodes - plain.nodes) <= 0.02 * plain.nodes + 5
                    checked += 1
    assert checked == 36


def _played(rows, cols, rng, games):
    """The positions of `games` games where each move takes a box if it can, else draws a safe line if there
    is one, else any line: endgames of long chains and loops come up often."""
    out = []
    for _ in range(games):
        pos = Position(geometry(rows, cols), 0)
        while free := pos.free_lines():
            out.append(pos.lines)
            most = {line: max(pos.sides[b] for b in pos.geo.line_boxes[line]) for line in free}
            takes, safe = [a for a in free if most[a] == 3], [a for a in free if most[a] < 2]
            pos.draw(int(rng.choice(takes or safe or free)))
    return out


def test_compiled_chain_analysis_equals_the_plain_one():
    """capture_moves, loony_components and loony_value of the kernel against agents/engines/dots/board on random
    positions of every kind (boxes to take, loony endgames, neither)."""
    from agents.alphabeta_dots import Search, kernels

    k = kernels()
    rng = np.random.default_rng(7)
    seen = {"captures": 0, "loony": 0}
    for rows, cols in ((2, 3), (3, 3), (4, 4), (5, 5)):
        search = Search(rows, cols)
        box_lines, line_boxes, _ = search.arrays
        scratch, sides, out = search.scratch, search.sides, search.moves
        for lines in [random_position(rows, cols, rng).lines for _ in range(200)] + _played(rows, cols, rng, 10):
            if lines == Board(rows, cols).full:
                continue
            pos = Position(search.geo, lines)
            k.box_sides(np.int64(lines), box_lines, sides)
            assert list(sides) == pos.sides
            n = k.capture_moves(np.int64(lines), sides, box_lines, line_boxes, scratch[1], out)
            expected = pos.capture_choices()
            assert (list(out[:n]) if n else None) == expected, (rows, cols, lines)
            seen["captures"] += n > 0
            simple = k.loony_components(np.int64(lines), sides, box_lines, line_boxes, *scratch[2:5])
            components = pos.loony_components()
            assert (simple == -1) == (components is None)
            if components is not None:
                chains, loops = components
                assert [n for n, c in enumerate(scratch[3]) for _ in range(c)] == list(chains)
                assert [n for n, c in enumerate(scratch[4]) for _ in range(c)] == list(loops)
                assert simple == simple_loony(chains, loops)
                if simple:
                    assert k.loony_value(scratch[3], scratch[4], scratch[6], scratch[7]) == loony_value(chains, loops)
                    seen["loony"] += 1
    assert seen["captures"] > 200 and seen["loony"] > 10


def test_a_depth_cut_into_slices_gives_the_values_of_one_search():
    """The clock is read between slices of a depth; a pass stopped at its cap and run again (its finished
    parts in the table) ends with the values of an uncut search, and says it was stopped by OutOfTime."""
    from agents.alphabeta_dots import Search
    from agents.base import OutOfTime

    lines = quiet_position(4, 4, 10, np.random.default_rng(3))
    whole = Search(4, 4).root_values(lines, 5, True)
    sliced, stops = Search(4, 4), 0
    while True:
        sliced.cap = 2_000
        try:
            found = sliced.root_values(lines, 5, True)
            break
        except OutOfTime:
            stops += 1
    assert found == whole and stops >= 3


def test_a_position_budget_makes_the_moves_independent_of_the_clock(settings):
    """With position_budget set, the same game gives the same moves and depths whatever the machine's speed:
    a clock that runs 1,000 times faster changes nothing."""
    rules = DotsRules(4, 4)
    counted = settings.with_agent("alpha-beta", game="dots", position_budget=20_000)
    played = []
    for speed in (1.0, 1000.0):
        agent = AlphaBetaDots(rules, counted)
        agent.clock = lambda clock=agent.clock, speed=speed: clock() * speed
        rng, state, record = np.random.default_rng(5), rules.new_state(), []
        while not rules.is_terminal(state) and len(record) < 16:
            line = agent.act(state)
            record.append((line, agent.figures()["depth"], agent.figures()["positions"]))
            state = rules.step(state, line, rng)
        played.append(record)
    assert played[0] == played[1]
    assert all(0 < positions <= 20_000 for _, _, positions in played[0])
