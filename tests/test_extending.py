"""Adding a game is one catalogue entry plus its rules and screen; adding an agent is one module
with @register. This registers a tiny game (tests/extra_game) and an agent for it, then uses them
everywhere a person would: settings, the CLI, the launcher, the game screen with the agent playing."""
import pygame
import pytest

from agents import Explains, agents_for, register
from agents.base import best_action, unregister
from arcade.cli import main
from arcade.games import GAMES, GameInfo, add_game, make_rules, remove_game
from arcade.settings import Settings, parse_settings
from tests.extra_game.nim import NimSettings
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
    add_game(GameInfo("nim", "Nim", "Take 1-3 stones; the last one wins.", 2, NimSettings,
                      rules="tests.extra_game.nim", screen="tests.extra_game.nim_screen"))
    register("take-one", ("nim",), "takes one stone, always")(TakeOne)
    yield
    unregister("take-one", "nim")
    remove_game("nim")


def test_the_new_game_and_agent_are_known_everywhere(nim, capsys):
    assert [s.name for s in agents_for("nim")] == ["take-one", "random"]  # random plays every game
    assert agents_for("nim", Explains)[0].name == "take-one"
    assert Settings().for_game("nim") == NimSettings() and Settings().nim.heap == 10
    assert parse_settings("[nim]\nheap = 7\n").nim.heap == 7
    assert "[nim] heap = 500" in parse_settings("[nim]\nheap = 500\n", strict=False).warnings[0]
    assert make_rules("nim", Settings()).heap == 10

    assert main(["agents"]) == 0
    assert "take-one" in capsys.readouterr().out
    assert main(["bench", "nim", "--agent", "take-one", "--games", "4"]) == 0
    assert "4 games" in capsys.readouterr().out
    assert main(["decide", "nim", "--agent", "take-one", "--state", "5", "--json"]) == 0
    assert '"action": "take 1"' in capsys.readouterr().out


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
        assert screen.info.id == "nim" and screen.controller.name == "take-one"
        key(app, pygame.K_RETURN)  # the agent plays both sides until the heap is empty
        assert wait_for(app, lambda: screen.state.stones == 0)
        assert screen.state.last in (0, 1)
        key(app, pygame.K_h)  # the shared help overlay draws with the new game's keys
        app.tick(16)
    finally:
        app.close()
