"""Bad input a user can cause: every setting wrong in turn, unwritable data, corrupt files. One line each."""
import dataclasses

import pygame
import pytest

from arcade import notices
from arcade.settings import _TABLES, SettingsError, parse_settings
from tests.helpers import key, ticks


def wrong_values():
    """For every setting: a value of the wrong type, and one out of range where it has a range."""
    cases = []
    for table, (_, cls) in _TABLES.items():
        for f in dataclasses.fields(cls):
            wrong_type = '"x"' if f.type in ("int", "float", "bool") else "3"
            cases.append((table, f.name, wrong_type))
            if "max" in f.metadata:
                cases.append((table, f.name, str(f.metadata["max"] * 2 + 1)))
            if "choices" in f.metadata:
                cases.append((table, f.name, '"nonsense"'))
    return cases


@pytest.mark.parametrize("table, name, value", wrong_values())
def test_every_setting_wrong_in_turn(table, name, value):
    with pytest.raises(SettingsError) as err:
        parse_settings(f'["{table}"]\n{name} = {value}\n', name="settings.toml")
    message = str(err.value)
    assert f"[{table}] {name} = " in message and "expected" in message and "\n" not in message


def test_unwritable_data_folder_plays_on_with_one_notice(app, monkeypatch):
    from arcade.screens import open_game

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("arcade.storage.tempfile.mkstemp", refuse)
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


def test_truncated_solver_cache_is_set_aside_and_solved_again(settings, monkeypatch):
    """Only 3x3 is cached (the small boards solve in milliseconds); the solve itself is stubbed here."""
    import numpy as np

    from agents import dots_solver

    settings.data_dir.mkdir(parents=True)
    cache = settings.data_dir / "dots_solver_3x3.npz"
    cache.write_bytes(b"PK\x03\x04 truncated")
    monkeypatch.setattr(dots_solver, "retrograde", lambda rows, cols: np.full(1 << 24, 7, dtype=np.int8))
    monkeypatch.setattr(dots_solver, "_SOLVED", {})
    notices.clear()
    margin = dots_solver.margins(3, 3, settings.data_dir)
    assert margin[0] == 7 and len(notices.recent()) == 1 and "dots_solver_3x3.npz" in notices.recent()[0]
    assert (settings.data_dir / "dots_solver_3x3.npz.corrupt").exists() and cache.exists()  # solved and saved
