"""What an agent believes, on every screen: `v` values (drawn, and the same numbers as `decide --json`),
`.` one move, `i` the agent panel, `k` statistics kept across runs, and Tab skipping an agent that cannot
play the board."""
import json

import pygame
import pytest

from agents import Explains, agents_for
from arcade.cli import main
from arcade.games import GAMES
from arcade.games.tictactoe import X, decode
from arcade.screens import open_game
from arcade.settings import load_settings
from arcade.screens.overlays import AgentPanel, StatisticsView, agent_panel_lines
from arcade.statistics import Statistics
from tests.helpers import key, ticks, wait_for

PLAYABLE = [g.id for g in GAMES]
EXPLAINERS = [(g, s.name) for g in PLAYABLE for s in agents_for(g, Explains)]


@pytest.fixture
def file_settings(tmp_path):
    """Settings read from a file, so the window and the CLI (--settings) use exactly the same ones."""
    path = tmp_path / "settings.toml"
    # no clock (budget_clock "none"): every agent stops on its counted work, so the window's decision and
    # decide's are one search however loaded the machine (a budget of a minute still bound under heavy load)
    path.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n[agents]\ndelay_ms = 0\nbudget_clock = "none"\n'
                    '[agents.mcts]\nsimulations = 100\ncompiled_simulations = 300\n'
                    '[agents.expectiminimax]\nmax_depth = 1\nchance_samples = 2\n')
    return path, load_settings(path)


@pytest.fixture
def window(file_settings):
    from arcade.app import App
    from arcade.screens.launcher import LauncherScreen

    app = App(file_settings[1], size=(1024, 720))
    app.push(LauncherScreen(app))
    yield app
    app.close()


def _decide_json(settings_path, game, agent, state, rules, capsys) -> dict:
    args = ["--settings", str(settings_path), "decide", game, "--agent", agent, "--state", rules.format_state(state),
            "--json"]  # (the state's text carries a 2048 score, match-3 turns left)
    capsys.readouterr()
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("game, agent", EXPLAINERS)
def test_value_view_draws_the_numbers_decide_prints(window, file_settings, capsys, game, agent):
    screen = open_game(window, game, seed=11)
    window.push(screen)
    screen.controller.select(agent)
    if screen.values.on:  # blackjack starts with its values shown: off first, to see them drawn
        key(window, pygame.K_v)
    ticks(window, 2)
    before = pygame.surfarray.array3d(window.surface).copy()
    key(window, pygame.K_v)
    state = screen.shown_state()
    assert screen.values.on and state is not None
    assert wait_for(window, lambda: screen.values.current(state) is not None, seconds=180), screen.values.status(screen.shown_state())
    ticks(window, 2)
    after = pygame.surfarray.array3d(window.surface)
    assert (before != after).any(axis=2).sum() > 500  # the values are drawn, not just known
    shown = {screen.rules.format_action(a): v for a, v in screen.values.current(state).items()}
    printed = _decide_json(file_settings[0], game, agent, state, screen.rules, capsys)
    assert set(shown) == set(printed["values"]) and shown == pytest.approx(printed["values"])
    assert screen.values.legend == printed["legend"]


def test_an_agent_without_values_says_so(window):
    screen = open_game(window, "tictactoe", seed=1)
    window.push(screen)
    screen.controller.select("random")
    key(window, pygame.K_v)
    ticks(window, 3)
    assert "has no values" in screen.values.status(screen.shown_state()) and screen.values.values is None


@pytest.mark.parametrize("game", ["2048", "match3", "tictactoe"])
def test_period_makes_exactly_one_move(window, game):
    screen = open_game(window, game, seed=5)
    window.push(screen)
    screen.controller.select(screen.controller.specs[-1].name)  # a quick agent (random)
    moves = {"2048": lambda: len(screen.game.history),
             "match3": lambda: screen.rules.turns - screen.state.turns_left,
             "tictactoe": lambda: sum(1 for c in decode(screen.state) if c == X)}[game]  # your (X's) moves
    key(window, pygame.K_PERIOD, unicode=".")
    assert wait_for(window, lambda: moves() == 1)
    ticks(window, 60)  # no second move follows (in tic-tac-toe only the opponent answers)
    assert moves() == 1 and not screen.controller.enabled and not screen.stepping


def test_agent_panel_and_statistics_view_draw(window):
    screen = open_game(window, "match3", seed=5)
    window.push(screen)
    screen.controller.select("q-rollouts")
    key(window, pygame.K_i)
    assert isinstance(window.top, AgentPanel) and window.top.under is screen
    name, about, params, _, _, table = agent_panel_lines(screen)
    assert name == "Q-learning from rollouts (the course's) - q-rollouts" and "rollouts" in about and table == "[match3.q-rollouts]"
    assert ("rollouts", "25", True) in params  # the course's value, marked as such
    screen.controller.select("monte-carlo")  # a timed agent: its own time a move, or the shared one's
    assert ("time_budget_ms", "300", False) in agent_panel_lines(screen)[2]
    screen.controller.select("mcts")
    shared = f"0: the [agents] one, {screen.settings.agents.time_budget_ms} ms"  # (its 0 said, with its value)
    assert ("time_budget_ms", shared, False) in agent_panel_lines(screen)[2]
    ticks(window, 2)
    key(window, pygame.K_SPACE)  # any key closes it
    assert window.top is screen
    key(window, pygame.K_k)
    assert isinstance(window.top, StatisticsView)
    ticks(window, 2)


def test_statistics_survive_a_restart_and_a_corrupt_file(tmp_path):
    stats = Statistics(tmp_path)
    stats.record("2048", "you (4x4)", 1200, bucket="128")
    stats.record("2048", "you (4x4)", 3000, bucket="256")
    stats.record("tictactoe", "you vs minimax", 0.5, "draw", "draw")
    again = Statistics(tmp_path).of("2048")["you (4x4)"]
    assert (again.games, again.mean, again.best, again.histogram) == (2, 2100, 3000, {"128": 1, "256": 1})
    assert Statistics(tmp_path).of("tictactoe")["you vs minimax"].draws == 1
    (tmp_path / "statistics.json").write_text("{ not json")
    fresh = Statistics(tmp_path)
    assert fresh.of("2048") == {} and (tmp_path / "statistics.json.corrupt").exists()
    fresh.record("2048", "you (4x4)", 10)
    assert Statistics(tmp_path).of("2048")["you (4x4)"].games == 1


def test_a_finished_game_is_in_the_statistics_view(window):
    screen = open_game(window, "tictactoe", seed=5)
    window.push(screen)
    screen.controller.select("minimax")
    key(window, pygame.K_RETURN)
    assert wait_for(window, lambda: screen.over)
    assert Statistics(screen.settings.data_dir).of("tictactoe")["minimax vs itself (X's results)"].draws == 1


def test_tab_skips_an_agent_that_cannot_play_the_board(window):
    screen = open_game(window, "dots", seed=5)
    window.push(screen)
    key(window, pygame.K_3)  # 3x3: policy iteration's tables do not fit
    names, toasts = set(), []
    for _ in range(len(screen.controller.specs)):
        key(window, pygame.K_TAB)
        names.add(screen.controller.name)
        toasts.append(screen.toast[0])
    assert "policy-iteration" not in names and len(names) == len(screen.controller.specs) - 1
    assert any("skipped: policy-iteration plays 2x2 and 2x3 boards only" in t for t in toasts)


def test_values_after_the_game_say_it_is_over(window):
    from arcade.games.dots import DotsState

    screen = open_game(window, "dots", seed=1)
    window.push(screen)
    screen.show_state(DotsState(2, 2, (1 << 12) - 1, (3, 1), 0))
    key(window, pygame.K_v)
    ticks(window, 3)
    assert "nothing is left to decide" in screen.values.status(screen.shown_state())


def test_after_tab_no_figures_of_the_previous_agent_are_shown(window):
    """Issue 25 #6: the panel line and the controller's last figures belong to the selected agent only."""
    screen = open_game(window, "2048", seed=3)
    window.push(screen)
    screen.controller.select("greedy")
    key(window, pygame.K_v)
    assert wait_for(window, lambda: screen.values.values is not None)
    key(window, pygame.K_PERIOD)  # greedy plays one move: its figures are the last decision's
    assert wait_for(window, lambda: screen.controller.last_ms is not None)
    key(window, pygame.K_TAB, mod=pygame.KMOD_SHIFT)  # back to expectiminimax, which explains too
    assert screen.controller.name == "expectiminimax"
    assert screen.controller.last_ms is None and screen.controller.last_figures == {}
    status = screen.values.status(screen.shown_state())
    shown = screen.controller.spec.shown  # (the window names an agent by its title)
    assert status.startswith(shown) and "reedy" not in status
    assert status == f"{shown} is working out its values..." or screen.values.agent == "expectiminimax"
    assert wait_for(window, lambda: screen.values.agent == "expectiminimax")
    assert "depth" in screen.values.status(screen.shown_state())  # now its own figures


def test_values_come_back_after_the_opponent_replies_while_the_window_rests(settings):
    """Issue 25 #4: with v on, after the opponent's reply the values of the new position are asked for
    even though nothing moves on screen (the window used to go to sleep first, and `v` twice woke it)."""
    import time

    import pygame

    from arcade.app import App
    from arcade.screens import open_game
    from arcade.screens.launcher import LauncherScreen
    from tests.helpers import key

    # the default pause between moves; the agent's seed of the walk that showed it (its game is not over yet)
    app = App(settings.with_table("agents", delay_ms=200).with_table("seeds", agent=1), size=(1024, 720))
    app.push(LauncherScreen(app))
    screen = open_game(app, "tictactoe", seed=5)
    app.push(screen)
    key(app, pygame.K_TAB)  # td-value -> minimax: the agent that answers your moves, and whose values v shows
    assert screen.controller.name == "minimax"
    key(app, pygame.K_v, "v")
    key(app, pygame.K_o, "o")  # play O: minimax opens as X

    def rest_until(condition, seconds=60.0):  # real frames: the window may sleep between them, as for a person
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not condition():
            app.tick()
        return condition()

    for cell in (pygame.K_1, pygame.K_6):
        rest_until(lambda: False, 1.0)
        key(app, cell, pygame.key.name(cell))
    rest_until(lambda: False, 1.0)
    assert rest_until(lambda: screen.shown_state() is None or (screen.rules.to_move(screen.shown_state()) == 1
                                                               and screen.values.current(screen.shown_state())))
    state = screen.shown_state()
    assert state is not None and screen.rules.to_move(state) == 1  # your turn again, the game goes on
    assert set(screen.values.current(state)) == set(screen.rules.legal_actions(state))
    app.close()

