"""Bad input a user can cause: every setting wrong in turn, unwritable data, corrupt files. One line each."""
import dataclasses

import pygame
import pytest

from arcade.foundation import notices
from arcade.settings import SettingsError, every_table, parse_settings
from tests.helpers import key, ticks


def wrong_values():
    """For every setting: a value of the wrong type, and one out of range where it has a range."""
    cases = []
    for table, cls in every_table().items():
        for f in dataclasses.fields(cls):
            wrong_type = '"x"' if f.type in ("int", "float", "bool") else "3"
            cases.append((table, f.name, wrong_type))
            if "max" in f.metadata:
                cases.append((table, f.name, str(f.metadata["max"] * 2 + 1)))
            if "choices" in f.metadata:
                cases.append((table, f.name, '"nonsense"'))
    return cases


def header(table: str) -> str:
    """The TOML header of a table named as written ("2048.expectimax": a game's agent's)."""
    return "[" + ".".join(f'"{part}"' for part in table.split(".")) + "]"


@pytest.mark.parametrize("table, name, value", wrong_values())
def test_every_setting_wrong_in_turn(table, name, value):
    with pytest.raises(SettingsError) as err:
        parse_settings(f'{header(table)}\n{name} = {value}\n', name="settings.toml")
    message = str(err.value)
    assert f"[{table}] {name} = " in message and "expected" in message and "\n" not in message


@pytest.mark.parametrize("table, name, value", wrong_values())
def test_every_setting_wrong_in_turn_keeps_its_default_when_the_arcade_loads(tmp_path, table, name, value):
    from arcade.settings import Settings, load_settings

    path = tmp_path / "settings.toml"
    path.write_text(f'{header(table)}\n{name} = {value}\n')
    settings = load_settings(path)
    defaults = Settings()
    for attr in ("window", "agents", "audio", "seeds", "data"):
        assert getattr(settings, attr) == getattr(defaults, attr)
    from arcade.games import game_ids

    assert all(settings.for_game(g) == defaults.for_game(g) for g in game_ids())
    assert all(not items for _, _, items in settings.agent_tables)
    assert len(settings.warnings) == 1
    line = settings.warnings[0]
    assert f"[{table}] {name} = " in line and "expected" in line and "using the default" in line and "\n" not in line


def test_arcade_starts_with_every_setting_wrong_at_once(tmp_path):
    """One line per wrong setting, then the launcher and every game open with the defaults."""
    from arcade.app import App
    from arcade.screens import open_game
    from arcade.screens.launcher import LauncherScreen
    from arcade.settings import load_settings

    lines = []
    for table, cls in every_table().items():
        lines.append(header(table))
        for f in dataclasses.fields(cls):
            lines.append(f'{f.name} = {"3" if f.type == "str" else chr(34) + "x" + chr(34)}')
    path = tmp_path / "settings.toml"
    path.write_text("\n".join(lines) + "\n")
    settings = load_settings(path)
    n_fields = sum(len(dataclasses.fields(cls)) for cls in every_table().values())
    assert len(settings.warnings) == n_fields and all("\n" not in w for w in settings.warnings)
    app = App(settings, size=(800, 600))
    try:
        app.push(LauncherScreen(app))
        ticks(app, 2)
        for game in ("2048", "tictactoe", "dots", "match3", "blackjack"):
            app.push(open_game(app, game, seed=1))
            ticks(app, 2)
            app.pop()
        assert app.running
    finally:
        app.close()


def test_unreadable_or_unparsable_settings_file_means_defaults_and_one_line(tmp_path):
    from arcade.settings import Settings, load_settings

    path = tmp_path / "settings.toml"
    path.write_text("[window\nwidth = 3\n")
    s = load_settings(path)
    assert s.window == Settings().window and len(s.warnings) == 1 and "TOML syntax error" in s.warnings[0]
    path.write_bytes(b"\xff\xfe\x00garbage")
    s = load_settings(path)
    assert len(s.warnings) == 1 and "cannot be read" in s.warnings[0] and "\n" not in s.warnings[0]


def test_unwritable_data_folder_plays_on_with_one_notice(app, monkeypatch):
    from arcade.screens import open_game

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("arcade.foundation.storage.tempfile.mkstemp", refuse)
    notices.clear()
    screen = open_game(app, "2048", seed=1)
    app.push(screen)
    for k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN) * 3:
        key(app, k)
    key(app, pygame.K_r)  # a new game writes the best score
    ticks(app, 3)
    assert screen.best.get("2048/4x4") > 0 and app.running
    assert notices.recent() and all("could not save" in n and "\n" not in n for n in notices.recent())


def test_garbage_best_scores_do_not_stop_the_game(app, settings):
    from arcade.screens import open_game

    settings.data_dir.mkdir(parents=True)
    (settings.data_dir / "best_scores.json").write_bytes(b"\x00\xff garbage")
    notices.clear()
    app.push(open_game(app, "match3", seed=1))
    ticks(app, 3)
    assert app.running and len(notices.recent()) == 1
    assert (settings.data_dir / "best_scores.json.corrupt").read_bytes() == b"\x00\xff garbage"


def test_truncated_solver_cache_is_set_aside_and_the_table_comes_from_elsewhere(settings, monkeypatch, tmp_path):
    """A broken 3x3 cache is set aside with one line; the shipped table plays, and where none ships the table
    is solved again (stubbed here) and saved."""
    import numpy as np

    from agents import dots_solver

    settings.data_dir.mkdir(parents=True)
    cache = settings.data_dir / "dots_solver_3x3.npz"
    cache.write_bytes(b"PK\x03\x04 truncated")
    monkeypatch.setattr(dots_solver, "retrograde", lambda rows, cols: np.full(1 << 24, 7, dtype=np.int8))
    monkeypatch.setattr(dots_solver, "_SOLVED", {})
    notices.clear()
    margin = dots_solver.margins(3, 3, settings.data_dir)
    assert margin[0] == -3 and len(notices.recent()) == 1 and "dots_solver_3x3.npz" in notices.recent()[0]
    assert (settings.data_dir / "dots_solver_3x3.npz.corrupt").exists() and not cache.exists()

    monkeypatch.setattr(dots_solver, "SHIPPED", tmp_path / "none_ships.npz")
    monkeypatch.setattr(dots_solver, "_SOLVED", {})
    cache.write_bytes(b"PK\x03\x04 truncated")
    margin = dots_solver.margins(3, 3, settings.data_dir)
    assert margin[0] == 7 and cache.exists()  # solved and saved


# --- saved files: truncated, garbage, unwritable, a full disk -------------------------------------

def _one_clear_line(before: int):
    from arcade.foundation import notices as n

    new = n.recent()[-(n.count() - before):] if n.count() > before else []
    assert len(new) == 1, new
    assert "\n" not in new[0]
    return new[0]


@pytest.mark.parametrize("content", [b"PK\x03\x04\x14\x00 truncated zip", b"\x00\x01 not a table at all", b""])
def test_broken_td_table_is_set_aside_and_the_shipped_one_plays(app, settings, content):
    from arcade.screens import open_game

    settings.data_dir.mkdir(parents=True)
    table = settings.data_dir / "tictactoe_td.npz"
    table.write_bytes(content)
    before = notices.count()
    screen = open_game(app, "tictactoe", seed=1)
    app.push(screen)
    screen.controller.warm_up().future.result(timeout=120)
    agent = screen.controller.cached_agent()
    ticks(app, 3)
    line = _one_clear_line(before)
    assert "tictactoe_td.npz" in line and "kept as tictactoe_td.npz.corrupt" in line
    assert agent.source.startswith("shipped") and app.running
    assert (settings.data_dir / "tictactoe_td.npz.corrupt").read_bytes() == content  # nothing is lost


def test_td_table_of_the_wrong_shape_is_set_aside(settings):
    import numpy as np

    from agents.td_value import FORMAT_VERSION, TDValueAgent
    from arcade.games import make_rules
    from arcade.foundation.storage import save_npz

    path = settings.data_dir / "tictactoe_td.npz"
    assert save_npz(path, FORMAT_VERSION, values=np.zeros((2, 7)))
    before = notices.count()
    agent = TDValueAgent(make_rules("tictactoe", settings), settings)
    assert "shape (2, 7)" in _one_clear_line(before) and agent.source.startswith("shipped")
    assert (settings.data_dir / "tictactoe_td.npz.corrupt").exists()


@pytest.mark.parametrize("content", [b'{"2048/4x4": 1200, "match3": 90', b"\xff\xfe garbage", b"[1, 2, 3]"])
def test_broken_best_scores_file_is_set_aside_and_the_arcade_starts(app, settings, content):
    from arcade.screens import open_game

    settings.data_dir.mkdir(parents=True)
    (settings.data_dir / "best_scores.json").write_bytes(content)
    before = notices.count()
    for game in ("2048", "match3"):
        app.push(open_game(app, game, seed=1))
        ticks(app, 3)
        app.pop()
    assert "best_scores.json" in _one_clear_line(before) and app.running
    assert (settings.data_dir / "best_scores.json.corrupt").read_bytes() == content


def _full_disk(monkeypatch):
    real_fdopen = __import__("os").fdopen

    class FullFile:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr("arcade.foundation.storage.os.fdopen", lambda fd, mode: FullFile(real_fdopen(fd, mode)))


def test_full_disk_keeps_the_old_best_scores_and_says_so_once(app, settings, monkeypatch):
    from arcade.screens import open_game
    from arcade.foundation.storage import BestScores

    old = BestScores(settings.data_dir)
    old.offer("2048/4x4", 4)
    assert old.flush()
    saved = (settings.data_dir / "best_scores.json").read_bytes()
    _full_disk(monkeypatch)
    screen = open_game(app, "2048", seed=1)
    app.push(screen)
    for k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN) * 4:
        key(app, k)
    before = notices.count()
    key(app, pygame.K_r)  # a new game writes the best score: the disk is full
    line = _one_clear_line(before)
    assert "No space left on device" in line and "previous file is unchanged" in line
    assert screen.toast and "No space left" in screen.toast[0]  # the player sees it in the game too
    assert (settings.data_dir / "best_scores.json").read_bytes() == saved
    assert sorted(p.name for p in settings.data_dir.iterdir()) == ["best_scores.json"]  # no temp file left
    assert app.running


def test_full_disk_while_saving_a_trained_table_keeps_the_old_one(settings, monkeypatch):
    import numpy as np

    from agents.td_value import TDValueAgent
    from arcade.games import make_rules

    agent = TDValueAgent(make_rules("tictactoe", settings), settings)
    agent.train(200, np.random.default_rng(0))
    assert agent.save()
    saved = agent.default_path().read_bytes()
    agent.train(200, np.random.default_rng(1))
    _full_disk(monkeypatch)
    before = notices.count()
    assert agent.save() is False
    assert "No space left on device" in _one_clear_line(before)
    assert agent.default_path().read_bytes() == saved
    monkeypatch.undo()
    assert TDValueAgent(make_rules("tictactoe", settings), settings).source.startswith("trained")


def test_read_only_data_folder_at_start_up(app, settings, monkeypatch):
    """A data folder that cannot even be created: the arcade starts and plays; saving says why, once."""
    from arcade.screens import open_game

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("arcade.foundation.storage.Path.mkdir", refuse)
    before = notices.count()
    for game in ("2048", "tictactoe", "dots", "match3", "blackjack"):
        app.push(open_game(app, game, seed=1))
        ticks(app, 3)
        app.pop()
    assert notices.count() == before and app.running  # reading a missing folder is not an error
    screen = open_game(app, "2048", seed=1)
    app.push(screen)
    for k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN) * 4:
        key(app, k)
    key(app, pygame.K_r)
    assert "Permission denied" in _one_clear_line(before)
