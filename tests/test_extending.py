"""Adding a game is its rules module (ending in its declaration) and its view package (declaring itself);
adding an agent is one module with @register. This registers a tiny game (tests/extra_game) and an agent for it, then uses them
everywhere a person would: settings, the CLI, the launcher, the game screen with the agent playing."""
import pygame
import pytest

from agents import Explains, agents_for, register
from agents.base import best_action, unregister
from arcade.cli import main
from arcade.games import GAMES, add_game, make_rules, remove_game
from arcade.settings import Settings, parse_settings
from tests.extra_game.nim import GAME as NIM, NimSettings
from arcade.foundation.storage import load_json
from arcade.screens.overlays import agent_panel_lines
from arcade.screens.shell_keys import LAB_HEADING, help_line_of
from tests.helpers import key, wait_for


class TakeOne:
    """The extra agent: always takes one stone, and says what it thinks of each move."""

    def __init__(self, rules, settings):
        self.rules = rules

    def explain(self, state) -> dict:
        return {k: float(k == 1) for k in self.rules.legal_actions(state)}

    def value_legend(self, mover: str) -> str:
        return "1 for the move it likes"

    def act(self, state, rng):
        return best_action(self.explain(state))


@pytest.fixture
def nim():
    import importlib

    add_game(NIM)
    importlib.import_module("tests.extra_game.nim_view")  # its view declares itself (as the arcade's own do)
    register("take-one", ("nim",), "takes one stone, always")(TakeOne)
    yield
    unregister("take-one", "nim")
    remove_game("nim")


def test_the_new_game_and_agent_are_known_everywhere(nim, capsys):
    # random, mcts and expectiminimax play every game, with no code of the game's own
    assert [s.name for s in agents_for("nim")] == ["mcts", "expectiminimax", "take-one", "random"]
    assert [s.name for s in agents_for("nim", Explains)] == ["mcts", "expectiminimax", "take-one"]
    assert Settings().for_game("nim") == NimSettings() and Settings().nim.heap == 10
    assert parse_settings("[nim]\nheap = 7\n").nim.heap == 7
    assert "[nim] heap = 500" in parse_settings("[nim]\nheap = 500\n", strict=False).warnings[0]
    assert make_rules("nim", Settings()).heap == 10

    assert main(["agents"]) == 0
    assert "take-one" in capsys.readouterr().out
    assert main(["bench", "nim", "--agent", "take-one", "--games", "4"]) == 0
    assert "4 games" in capsys.readouterr().out
    assert main(["decide", "nim", "--agent", "take-one", "--state", "5", "--json"]) == 0
    assert '"move": "take 1"' in capsys.readouterr().out


def test_the_launcher_opens_the_new_game_and_its_agent_plays(nim, settings):
    from arcade.app import App
    from arcade.screens.launcher import LauncherScreen

    app = App(settings, size=(1024, 720))
    try:
        app.push(LauncherScreen(app))
        app.tick(16)
        assert len(GAMES) == 6
        key(app, pygame.K_6, frames=2)  # the sixth card's number key, from the catalogue
        screen = app.top
        assert screen.info.id == "nim" and screen.controller.name == "mcts"
        screen.controller.select("take-one")
        key(app, pygame.K_RETURN)  # the agent plays both sides until the heap is empty
        assert wait_for(app, lambda: screen.state.stones == 0)
        assert screen.state.last in (0, 1)
        key(app, pygame.K_h)  # the shared help overlay draws with the new game's keys
        app.tick(16)
    finally:
        app.close()


@pytest.fixture
def nim_learners(nim):
    from tests.extra_game.nim_agents import NimLearner, NimTrainer

    register("nim-trainer", ("nim",), "learns nim's rule by training", order=20)(NimTrainer)
    register("nim-learner", ("nim",), "counts what it sees while learning", order=30)(NimLearner)
    yield
    unregister("nim-trainer", "nim")
    unregister("nim-learner", "nim")


def _open_nim(app):
    from arcade.screens.launcher import LauncherScreen

    app.push(LauncherScreen(app))
    app.tick(16)
    key(app, pygame.K_6, frames=2)
    return app.top


def test_t_trains_any_trainer_with_a_learning_curve_on_a_screen_that_names_none(nim_learners, settings):
    """The Nim screen has no training code: t, the bar and the curve come from the shared screen, the curve
    mixes points the host measured with the trainer's own figures, and the new table plays afterwards."""
    from arcade.app import App
    from arcade.ui.curve_series import curve_series

    app = App(settings, size=(1024, 720))
    try:
        screen = _open_nim(app)
        line, rows = help_line_of(screen.all_keys()), screen.help_entries()
        assert "train" not in line and "learning" not in line  # the lab's keys are in the help, not the footer
        lab = [k[0] for k in rows[rows.index(LAB_HEADING) + 1:]]
        assert "t / Shift+t" in lab and "l" in lab and any("train" in k[1] for k in screen.all_keys())
        screen.controller.select("nim-learner")  # not a trainer: t trains the game's trainer all the same
        key(app, pygame.K_t)
        assert screen.trainer.job is not None and screen.trainer.job.name == "nim-trainer" and screen.busy()
        watched = []  # the training games drawn beside the curve, by Nim's painter (the frames draw them)
        assert wait_for(app, lambda: watched.append(getattr(screen.trainer.job, "watched", None))
                        or screen.trainer.job is None, 120)
        assert any(s is not None and s.stones < 10 for s in watched)
        assert len(screen.trainer.curve) == 4 and [p[0] for p in screen.trainer.curve] == [100, 200, 300, 400]
        measured = screen.trainer.curve[1][1]  # at 200 the host played 40 games against the weakest and strongest
        assert {"won v random", "drawn v random", "lost v random"} < set(measured) and len(measured) == 6
        assert measured["won v random"] + measured["drawn v random"] + measured["lost v random"] == pytest.approx(1)
        assert screen.trainer.curve[0][1] == {"won v random": 0.25, "lost v random": 0.0}  # the trainer's own figures
        assert [s.label for s in curve_series(screen.trainer.curve)][:2] == ["won v random", "lost v random"]
        assert (settings.data_dir / "nim_trainer.json").exists()
        assert "trained 400 games" in screen.toast[0]
        screen.controller.select("nim-trainer")
        assert wait_for(app, lambda: screen.controller.cached_agent(build=True).trained == 400, 10)
        screen.draw(app.surface)
    finally:
        app.close()


def test_t_again_stops_the_training_and_keeps_what_it_learnt(nim_learners, settings):
    from arcade.app import App

    app = App(settings, size=(640, 480))
    try:
        screen = _open_nim(app)
        key(app, pygame.K_t)
        assert wait_for(app, lambda: screen.trainer.job is None or screen.trainer.job.done > 0, 60)
        key(app, pygame.K_t)  # stop: what it learnt so far is saved
        assert wait_for(app, lambda: screen.trainer.job is None, 60)
        saved = load_json(settings.data_dir / "nim_trainer.json", {})
        assert 0 < saved["episodes"] < 400, saved
    finally:
        app.close()


def test_l_and_i_work_for_a_learner_on_a_screen_that_names_none(nim_learners, settings):
    """l switches learning; the learner sees every state the session reaches (its own moves and yours);
    the shared i panel shows what it says of itself."""
    from arcade.app import App

    app = App(settings, size=(1024, 720))
    try:
        screen = _open_nim(app)
        screen.controller.select("nim-learner")
        key(app, pygame.K_l)
        agent = screen.controller.cached_agent()
        assert agent.is_learning() and "learning on" in screen.toast[0]
        key(app, pygame.K_2)  # your move: the learner sees it
        assert agent.seen and agent.seen[0].stones == 8  # 10 stones, you took 2
        assert wait_for(app, lambda: screen.state.mover == 0 and len(agent.seen) >= 2, 30)  # its reply too
        key(app, pygame.K_i)
        assert agent_panel_lines(screen)[4] == [f"states seen while learning: {len(agent.seen)}"]
        screen.draw(app.surface)
        key(app, pygame.K_ESCAPE)  # closes the panel
        key(app, pygame.K_l)
        assert not agent.is_learning()
        seen = len(agent.seen)
        key(app, pygame.K_1)
        assert len(agent.seen) == seen  # learning off: nothing is taken in
        screen.controller.select("random")
        key(app, pygame.K_l)
        assert "Tab to nim-learner first" in screen.toast[0]
    finally:
        app.close()


def test_a_screen_without_trainers_shows_no_t_and_the_help_line_is_built_once(nim, settings):
    from arcade.app import App

    app = App(settings, size=(1024, 720))
    try:
        screen = _open_nim(app)
        line = help_line_of(screen.all_keys())
        assert line.startswith("1/2/3: take") and "t: train" not in line and "Esc: back" in line
        key(app, pygame.K_t)
        assert screen.trainer.job is None
    finally:
        app.close()


def test_the_algorithms_written_once_solve_the_new_game(nim, settings):
    """Nim with 10 stones: the first player wins by leaving a multiple of 4 (take 2). Both generic searches
    find it, with no code of the game's own."""
    import numpy as np

    from agents import find

    rules = make_rules("nim", settings)
    deep = settings.with_agent("expectiminimax", max_depth=10).with_agent("mcts", simulations=3000).with_table("agents", budget_clock="none")
    state = rules.new_state()
    assert find("nim", "expectiminimax").create(rules, deep).act(state, None) == 2
    assert find("nim", "mcts").create(rules, deep).act(state, np.random.default_rng(0)) == 2


def test_an_environment_renders_the_new_game_with_its_painter(nim):
    """Its view's painter draws the frame, as on its screen: a game that forgets its painter fails here."""
    import numpy as np

    from arcade.screens.env_render import ScreenRenderer
    from arcade.screens import paint_state

    rules = make_rules("nim", Settings())
    renderer = ScreenRenderer("nim", rules, "rgb_array")
    full, fewer = renderer.frame(rules.new_state()), renderer.frame(rules.step(rules.new_state(), 3))
    assert full.shape[2] == 3 and full.dtype == np.uint8
    assert (full != fewer).any(axis=2).sum() > 100  # three stones fewer are drawn
    import dataclasses

    from arcade.screens import _VIEWS, declare_view

    add_game(dataclasses.replace(NIM, id="nim2"))
    declare_view("nim2", "tests.extra_game")  # a view folder without a painter
    try:
        with pytest.raises(ModuleNotFoundError, match="tests.extra_game.painter"):
            paint_state(pygame.Surface((100, 100)), pygame.Rect(0, 0, 100, 100), "nim2", rules, rules.new_state())
    finally:
        remove_game("nim2")
        _VIEWS.pop("nim2", None)
