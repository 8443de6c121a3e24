"""settings.toml validation: good file, every kind of bad value, syntax errors, missing file."""
import dataclasses
from pathlib import Path

import pytest

from arcade.settings import Settings, SettingsError, load_settings, parse_settings

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_file_equals_defaults():
    shipped = load_settings(ROOT / "settings.toml")
    defaults = Settings()
    for table in ("window", "agents", "seeds", "data", "game2048", "tictactoe", "dots", "match3", "blackjack"):
        assert getattr(shipped, table) == getattr(defaults, table), table
    assert shipped.warnings == ()


def test_shipped_file_shows_exactly_the_dataclass_defaults():
    """Every table and key of the dataclasses appears in settings.toml with its default value, and
    nothing else: the dataclasses are the one source, and the file a person reads says the same."""
    import dataclasses
    import tomllib

    from arcade.settings import tables

    raw = tomllib.loads((ROOT / "settings.toml").read_text(encoding="utf-8"))
    known = tables()
    assert set(raw) == set(known)
    for table, (_, cls) in known.items():
        defaults = {f.name: f.default for f in dataclasses.fields(cls)}
        assert raw[table] == defaults, table


def test_good_file_values_are_read(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[window]\nwidth = 800\nfullscreen = true\n[2048]\nspawn_four_probability = 0.1\n'
                    '[blackjack]\npreset = "large"\n[data]\nfolder = "saves"\n')
    s = load_settings(path)
    assert s.window.width == 800 and s.window.fullscreen is True
    assert s.game2048.spawn_four_probability == pytest.approx(0.1)
    assert s.blackjack.preset == "large"
    assert s.data_dir == tmp_path / "saves"
    assert s.for_game("2048") is s.game2048


def test_int_accepted_for_float_field():
    assert parse_settings("[match3]\ndiscount = 1\n").match3.discount == 1.0


@pytest.mark.parametrize("text, expected", [
    ('[window]\nwidth = "wide"\n', '[window] width = "wide": expected an integer from 640 to 7680'),
    ("[window]\nwidth = 10\n", "[window] width = 10: expected an integer from 640 to 7680"),
    ("[window]\nwidth = 800.5\n", "expected an integer"),
    ("[window]\nfullscreen = 1\n", "[window] fullscreen = 1: expected true or false"),
    ("[agents]\ndelay_ms = true\n", "[agents] delay_ms = true: expected an integer"),
    ("[match3]\nepsilon = 1.5\n", "[match3] epsilon = 1.5: expected a number from 0.0 to 1.0"),
    ('[blackjack]\npreset = "huge"\n', 'expected one of "small", "large", "standard", "peeking"'),
    ("[data]\nfolder = 3\n", "[data] folder = 3: expected a string"),
    ("window = 3\n", "[window] should be a table"),
])
def test_bad_values_name_file_key_found_and_allowed(text, expected):
    with pytest.raises(SettingsError) as err:
        parse_settings(text, name="my.toml")
    message = str(err.value)
    assert message.startswith("my.toml: ")
    assert expected in message
    assert "\n" not in message


def test_syntax_error_is_one_line_with_position():
    with pytest.raises(SettingsError) as err:
        parse_settings("[window\nwidth = 3\n", name="my.toml")
    message = str(err.value)
    assert message.startswith("my.toml: TOML syntax error") and "line 1" in message and "\n" not in message


def test_unknown_keys_and_tables_are_warnings():
    s = parse_settings("[window]\nwidht = 900\n[sound]\nvolume = 3\n", name="my.toml")
    assert s.window.width == 1024
    assert any("unknown key [window] widht" in w for w in s.warnings)
    assert any("unknown table [sound]" in w for w in s.warnings)


def test_missing_file_means_defaults(tmp_path):
    s = load_settings(tmp_path / "nope.toml")
    assert s.window == Settings().window and "missing" in s.source


def test_settings_are_frozen():
    s = Settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.window.width = 3


def test_a_key_no_longer_read_is_one_line_naming_it():
    """The previous round's renamed keys are not read any more (their notes were tombstones): one line each."""
    s = parse_settings("[dots]\nalphabeta_ms = 700\n", strict=False)
    assert s.dots.time_budget_ms == 1000 and len(s.warnings) == 1 and "alphabeta_ms" in s.warnings[0]


def test_a_settings_file_that_names_no_data_folder_uses_the_arcades_not_one_beside_it(tmp_path):
    """`--settings docs/training/X.toml` grew a docs/training/data folder in the checkout: a file that only
    sets training parameters keeps the arcade's data folder; one that names a folder has it beside itself."""
    from arcade.settings import ARCADE_SETTINGS, Settings, load_settings

    arcade_data = ARCADE_SETTINGS.parent / "data"
    only_training = tmp_path / "coherent.toml"
    only_training.write_text('[2048]\nntuple_rates = "coherent"\n')
    assert load_settings(only_training).data_dir == arcade_data
    assert Settings().data_dir == arcade_data  # not the working directory's
    naming = tmp_path / "own.toml"
    naming.write_text('[data]\nfolder = "mine"\n')
    assert load_settings(naming).data_dir == tmp_path / "mine"
    for shipped in (ARCADE_SETTINGS.parent / "docs" / "training").glob("*.toml"):
        assert load_settings(shipped).data_dir == arcade_data, shipped


def test_fit_network_never_replaces_a_file_unless_asked(tmp_path):
    import subprocess
    import sys

    from arcade.settings import ARCADE_SETTINGS

    out = tmp_path / "shipped.npz"
    out.write_bytes(b"the shipped network")
    done = subprocess.run([sys.executable, str(ARCADE_SETTINGS.parent / "tools" / "fit_network.py"),
                           str(tmp_path / "any.npz"), str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--replace" in done.stderr and out.read_bytes() == b"the shipped network"
