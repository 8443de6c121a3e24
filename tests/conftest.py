"""Test set-up: SDL runs headless (dummy video and audio), and every test gets its own data folder."""
import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
os.environ.setdefault("ARCADE_KERNELS_WARMED", "1")  # (make test warms them first: a window a test opens starts no warm-up)

import pytest  # noqa: E402

from arcade import agent_process  # noqa: E402
from arcade.foundation import notices  # noqa: E402
from arcade.settings import AgentSettings, DataSettings, SeedSettings, Settings  # noqa: E402


@pytest.fixture
def settings(tmp_path):
    """Default settings with the data folder in a temp dir, fixed seeds, no agent delay and a short time a move
    (a screen's agent thinks for its budget on every move the test lets it make: 1 s by default)."""
    notices.clear()
    return Settings(data=DataSettings(folder=str(tmp_path / "data")), seeds=SeedSettings(game=3, agent=5),
                    agents=AgentSettings(delay_ms=0, time_budget_ms=50), base_dir=str(tmp_path),
                    agent_tables=(("tictactoe", "td-value", (("episodes", 3000),)),))


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


@pytest.fixture(autouse=True)
def cli_data_in_tmp(tmp_path_factory, monkeypatch):
    """main() without --settings reads the arcade's own settings.toml: here a copy whose data folder (bench
    logs, trained tables) is the test's temp folder, so no test writes into the working tree."""
    from arcade import cli
    from arcade.settings import ARCADE_SETTINGS

    folder = tmp_path_factory.mktemp("cli")  # beside the test's own tmp_path, which some tests list
    text = ARCADE_SETTINGS.read_text(encoding="utf-8")
    copy = folder / "settings.toml"
    copy.write_text(text.replace('folder = "data"', f'folder = "{folder / "data"}"', 1), encoding="utf-8")
    monkeypatch.setattr(cli, "DEFAULT_SETTINGS", copy)


# The longest tests (over ten seconds on an idle 2-core machine): started first, so that on every core
# (pytest-xdist) they run beside the many short ones instead of making a tail after them.
LONG_FIRST = ("test_twenty_thousand_random_events", "test_a_killed_training_leaves_a_whole_checkpoint",
              "test_the_wheel_installs_and_runs", "test_the_example_trains_and_its_agent_plays",
              "test_values_come_back_after_the_opponent_replies", "test_bench_dots_strong_stops_on_sigint",
              "test_a_learners_policy_strip_follows", "test_an_editable_install_runs",
              "test_the_soak_in_small_plays", "test_the_arena_ranks_perfect_play", "test_ray_plays_the_same_games")


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: not item.name.startswith(LONG_FIRST))  # (a stable sort: the rest keep their order)


# The agent process outlives a test's App when nothing is left running in it, as one arcade keeps it from
# screen to screen: starting it costs about half a CPU second, and some sixty tests open an App whose agent
# decides there. One still deciding is stopped as App.close stops it, so no test waits behind another's
# search. Agents there are keyed by their controller's uuid, so no test meets another's agent.
_stop_agent_process = agent_process.shutdown


def _keep_the_idle_agent_process() -> None:
    if not agent_process.idle():
        _stop_agent_process()


agent_process.shutdown = _keep_the_idle_agent_process


# The checkout's own data folder is the user's: a test that writes there (a settings file naming no data
# folder keeps its data beside settings.toml) fails the run, named by what it left.
_CHECKOUT_DATA = Path(__file__).resolve().parent.parent / "data"


def _data_files() -> dict[str, int]:
    if not _CHECKOUT_DATA.is_dir():
        return {}
    return {str(p.relative_to(_CHECKOUT_DATA)): p.stat().st_mtime_ns for p in _CHECKOUT_DATA.rglob("*")
            if p.is_file()}


def pytest_sessionstart(session):
    session.config._data_before = _data_files()


def pytest_sessionfinish(session, exitstatus):
    _stop_agent_process()
    if hasattr(session.config, "workerinput"):
        return  # the controller checks once, after every worker
    before, after = session.config._data_before, _data_files()
    touched = sorted(name for name, mtime in after.items() if before.get(name) != mtime)
    if touched:
        session.config.pluginmanager.get_plugin("terminalreporter").write_line(
            f"the suite wrote into the checkout's data folder {_CHECKOUT_DATA}: {', '.join(touched[:5])}", red=True)
        session.exitstatus = 1
