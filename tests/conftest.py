"""Test set-up: SDL runs headless (dummy video and audio), and every test gets its own data folder."""
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pytest  # noqa: E402

from arcade import notices  # noqa: E402
from arcade.games.tictactoe import TicTacToeSettings  # noqa: E402
from arcade.settings import AgentSettings, DataSettings, SeedSettings, Settings  # noqa: E402


@pytest.fixture
def settings(tmp_path):
    """Default settings with the data folder in a temp dir, fixed seeds and no agent delay."""
    notices.clear()
    return Settings(data=DataSettings(folder=str(tmp_path / "data")), seeds=SeedSettings(game=3, agent=5),
                    agents=AgentSettings(delay_ms=0), tictactoe=TicTacToeSettings(episodes=3000),
                    base_dir=str(tmp_path))


@pytest.fixture
def app(settings):
    from arcade.app import App
    from arcade.screens.launcher import LauncherScreen

    application = App(settings, size=(1024, 720))
    application.push(LauncherScreen(application))
    yield application
    application.close()


def with_table(settings, attr, **changes):
    """A copy of settings with some fields of one table changed."""
    return settings.with_table(attr, **changes)
