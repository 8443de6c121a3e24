"""Every declared engine (agents/engines) held equal to its game's rules, one test parametrised over them: its
step and legal moves draw for draw, its compiled tree's position operations move for move, its playouts from a
finished game exact; the rules functions each engine lists as copied exist; the tree kernels' copies are what
the template writes. 2048's tile spawn, written in the rules once and copied by its engine, is checked copy by
copy, and a test changes the rule to show each check fails until its copy follows. Nim, the add-a-game
example, gets a compiled engine and mcts's compiled tree by its engine package alone (tests/extra_game)."""
from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import numpy as np
import pytest

from agents.engines import engine_for, engines
from agents.engines import tree_kernels
from agents.game_search import fast_playouts, terminal_returns, walk_moves
from arcade.games import add_game, game_ids, make_rules, remove_game
from arcade.settings import Settings

ENGINES = [e.game for e in engines()]
VARIANTS = {"2048": [Settings().with_table("game2048", spawn_four_probability=0.1),
                     Settings().with_table("game2048", size=3, spawn_four_probability=0.1),
                     Settings().with_table("game2048", size=5, spawn_four_probability=0.1)],
            "dots": [Settings().with_table("dots", rows=r, cols=c) for r, c in ((2, 2), (2, 3), (3, 3), (5, 5))],
            "match3": [Settings(), Settings().with_table("match3", size=6, colours=4, turns=20)]}


def _rules_of(game: str) -> list:
    return [make_rules(game, s) for s in VARIANTS.get(game, [Settings()])]


def _same(a, b) -> bool:
    """Two states equal field by field (arrays by value; private fields, a state's caches, left out)."""
    if dataclasses.is_dataclass(a):
        return type(a) is type(b) and all(_same(getattr(a, f.name), getattr(b, f.name))
                                          for f in dataclasses.fields(a) if not f.name.startswith("_"))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _random_game(rules, seed: int, moves: int = 400):
    """The states of one game of uniformly random moves by the rules (at most `moves` moves)."""
    rng = np.random.default_rng(seed)
    state = rules.new_state(rng)
    states = [state]
    for _ in range(moves):
        if rules.is_terminal(state):
            break
        legal = rules.legal_actions(state)
        state = rules.step(state, legal[int(rng.integers(len(legal)))], rng)
        states.append(state)
    return states


def step_mismatches(rules, games: int = 4, seed: int = 0) -> int:
    """Moves where the engine's step or legal moves differ from the rules' on random games, each side drawing
    from its own twin of one Generator (a difference in what either drew counts too)."""
    step, legal_of = walk_moves(rules)  # (the engine's where it has them: what a search's walk uses)
    wrong = 0
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        state = rules.new_state(rng)
        for _ in range(300):
            if rules.is_terminal(state):
                wrong += legal_of(state) != []
                break
            legal = rules.legal_actions(state)
            wrong += legal_of(state) != legal
            action = legal[int(rng.integers(len(legal)))]
            mine, theirs = np.random.default_rng(seed + 1000 + g), np.random.default_rng(seed + 1000 + g)
            want, got = rules.step(state, action, mine), step(state, action, theirs)
            wrong += not _same(want, got) or mine.random() != theirs.random()
            state = want
    return wrong


def tree_mismatches(rules, games: int = 20, seed: int = 0) -> int:
    """Positions where the compiled tree's moves, step or result differ from the rules' on random games."""
    api = fast_playouts(rules)
    wrong = 0
    for g in range(games):
        states = _random_game(rules, seed + g)
        tree = api.compiled_tree(api.tree_board(states[0], 10**6))
        k = tree.positions()
        for state, after in zip(states, states[1:] + [None], strict=True):
            a, b, c = (np.int64(x) for x in tree.position(state))
            legal = [] if rules.is_terminal(state) else rules.legal_actions(state)
            wrong += int(k.moves(a, b, c, tree.full)) != sum(1 << m for m in legal)
            if after is None:
                wrong += int(k.result_of(a, b, c)) != terminal_returns(rules, state)[0]
                continue
            move = next(m for m in legal if _same(rules.step(state, m, None), after))
            stepped = tuple(int(x) for x in k.step(a, b, c, move, tree.board_a, tree.board_b))
            wrong += stepped != tuple(int(x) for x in tree.position(after))
    return wrong


@pytest.mark.parametrize("game", ENGINES)
def test_the_engine_is_declared_for_a_game_and_the_rules_it_copies_exist(game):
    engine = engine_for(game)
    assert engine.game == game and game in game_ids() and engine.copies
    for copied in engine.copies:
        parts = copied.split(".")
        for cut in range(len(parts) - 1, 0, -1):  # the longest importable prefix, then attributes
            try:
                found = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for name in parts[cut:]:
                found = getattr(found, name)
            assert callable(found), copied
            break
        else:
            pytest.fail(f"{copied}: no such module")
    api = engine.api()
    assert callable(api.playout_returns) and callable(api.warm) and api.warm_steps(True) is not None


@pytest.mark.parametrize("game", ENGINES)
def test_the_engine_equals_its_rules_draw_for_draw(game):
    api = engine_for(game).api()
    checked = 0
    for rules in _rules_of(game):
        if hasattr(api, "step") or hasattr(api, "legal_actions"):
            assert step_mismatches(rules) == 0
            checked += 1
        if hasattr(api, "compiled_tree"):
            assert tree_mismatches(rules) == 0
            checked += 1
        finished = [_random_game(rules, seed, 5000)[-1] for seed in range(3)]
        finished = [s for s in finished if rules.is_terminal(s)]
        assert finished  # (random games end within the cap)
        got = api.playout_returns(rules, finished, np.random.default_rng(1), 10**6)
        assert got is None or got == [terminal_returns(rules, s) for s in finished]
        checked += got is not None
    assert checked  # every engine is held to its rules one way at least


def test_the_tree_kernels_are_one_source_with_no_copies_and_each_engine_its_own_machine_code():
    """mcts's compiled tree is one module (agents/engines/tree_kernels.py) specialised per engine by numba
    overloads on a type a positions module: no file copies it, and two engines' trees compile apart."""
    import ast

    from agents.engines.dots.tree import DotsTree
    from agents.engines.tictactoe.tree import TicTacToeTree

    root = Path(tree_kernels.__file__).resolve().parent.parent.parent
    defs = {n.name for n in ast.parse(Path(tree_kernels.__file__).read_text()).body if isinstance(n, ast.FunctionDef)}
    for path in [*root.glob("agents/**/*.py"), *root.glob("tests/extra_game/**/*.py")]:
        if path.resolve() != Path(tree_kernels.__file__).resolve():
            found = {n.name for n in ast.parse(path.read_text()).body if isinstance(n, ast.FunctionDef)}
            assert not {"simulate", "_prove", "_back_minimax"} & found, path
    assert {"simulate", "reset", "_prove", "root_children"} <= defs
    dots, ttt = DotsTree(2, 2), TicTacToeTree()
    assert tree_kernels.positions(dots.positions()) is dots.pos and dots.pos is not ttt.pos
    from numba import typeof

    assert typeof(dots.pos) != typeof(ttt.pos)


# --- 2048's tile spawn: one rule (arcade/games/twenty48.py), its copies in the engine ---------------------------

def _boards(count: int, seed: int, size: int = 4) -> list[np.ndarray]:
    rules = make_rules("2048", Settings().with_table("game2048", size=size))
    return [s.board for g in range(count) for s in _random_game(rules, seed + g, 60)[5::11]]


def spawn_mismatches(p_four: float = 0.1) -> dict[str, int]:
    """Per copy of the spawn in 2048's engine, on boards of random games: how often it differs from the
    rules (Rules2048.spawn drawing from a twin Generator; spawn_children's placements and probabilities)."""
    from agents.engines.twenty48 import board64, kernels as k
    from agents.expectimax_strong import Search, game_over_value, heuristic_values
    from arcade.games import twenty48 as rules_module

    rules = rules_module.Rules2048(spawn_four_probability=p_four)
    wrong = dict.fromkeys(("board64.spawn", "board64.spawn_children", "kernels.spawn_tile",
                           "kernels._spawn_probability"), 0)
    for n, board in enumerate(b for b in _boards(8, 3) if (b == 0).any()):
        twin = np.random.default_rng(n)
        want = rules.spawn(board, np.random.default_rng(n))
        u = twin.random(2)
        wrong["board64.spawn"] += not np.array_equal(
            board64.unpack(board64.spawn(board64.pack(board[None]), u[:1], u[1:], p_four))[0], want)
        got = k.spawn_tile(board64.pack(board[None])[0], np.random.default_rng(n), p_four)
        wrong["kernels.spawn_tile"] += not np.array_equal(board64.unpack(np.array([got], np.uint64))[0], want)
        kids, _, probs = rules_module.spawn_children(board[None], p_four)
        packed_kids, _, packed_probs = board64.spawn_children(board64.pack(board[None]), p_four)
        wrong["board64.spawn_children"] += sorted(zip(board64.pack(kids).tolist(), np.round(probs, 12).tolist(), strict=True)) != \
            sorted(zip(packed_kids.tolist(), np.round(packed_probs, 12).tolist(), strict=True))
    # the search's chance nodes: one layer deep it is the rules' placements' mean of the best reply's heuristic
    search = Search(p_four, 0.0)
    for board in _boards(3, 40):
        state = rules_module.State2048(board, 0)
        for move, value in search.root(board, 1).items():
            total = 0.0
            for kid, p in rules.chance_outcomes(state, move):
                replies = rules.legal_actions(kid)
                after = [rules.after_move(kid, d).board for d in replies]
                total += p * (max(heuristic_values(board64.pack(np.stack(after)))) if replies else game_over_value(4))
            wrong["kernels._spawn_probability"] += not np.isclose(value, total, rtol=1e-9)
    return wrong


def test_every_copy_of_2048s_spawn_draws_as_the_rules_spawn():
    assert spawn_mismatches() == dict.fromkeys(spawn_mismatches(), 0)
    assert step_mismatches(make_rules("2048", Settings().with_table("game2048", spawn_four_probability=0.1))) == 0


def test_a_changed_spawn_rule_fails_every_copy_until_it_follows(monkeypatch):
    """The rule changed in the rules module alone (a 4 twice as likely): each copy's check now fails."""
    from arcade.games import twenty48 as rules_module

    original_spawn, original_children = rules_module.Rules2048.spawn, rules_module.spawn_children

    def spawn(self, board, rng):
        return original_spawn(dataclasses.replace(self, spawn_four_probability=2 * self.spawn_four_probability),
                              board, rng)

    monkeypatch.setattr(rules_module.Rules2048, "spawn", spawn)
    monkeypatch.setattr(rules_module, "spawn_children", lambda boards, p: original_children(boards, 2 * p))
    assert all(spawn_mismatches(0.3).values())
    assert step_mismatches(make_rules("2048", Settings().with_table("game2048", spawn_four_probability=0.3))) > 0


# --- Nim: an engine added as a package of its own --------------------------------------------------------------

@pytest.fixture
def nim_engine():
    from agents import engines as registry
    from tests.extra_game.nim import GAME

    add_game(GAME)
    importlib.import_module("tests.extra_game.nim_engine")
    yield engine_for("nim")
    registry._ENGINES.pop("nim", None)
    remove_game("nim")


def test_nim_gets_a_compiled_engine_and_tree_from_its_package_alone(nim_engine):
    from agents.base import find
    from agents.engines import declare
    from tests.extra_game.nim import NimState

    declare(nim_engine)  # (the package declared it as it was imported; a later test may import it again)
    settings = Settings().with_agent("mcts", compiled_simulations=4000).with_table("agents", budget_clock="none")
    rules = make_rules("nim", settings)
    assert tree_mismatches(rules) == 0
    mcts = find("nim", "mcts").create(rules, settings)
    assert mcts._compiled  # the whole search on nim's compiled tree
    for stones, winning in ((10, 2), (7, 3), (5, 1)):  # take to a multiple of 4
        assert mcts.act(NimState(stones), np.random.default_rng(stones)) == winning
        assert "tree nodes" in mcts.figures()  # (the compiled tree's figures)
