"""settings.toml validation: good file, every kind of bad value, syntax errors, missing file."""
import dataclasses
from pathlib import Path

import pytest

from agents.base import ANY_GAME, all_specs
from arcade.games import game_ids
from arcade.settings import Settings, SettingsError, load_settings, parse_settings

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_file_equals_defaults():
    shipped = load_settings(ROOT / "settings.toml")
    defaults = Settings()
    for table in ("window", "agents", "seeds", "data", "game2048", "tictactoe", "dots", "match3", "blackjack"):
        assert getattr(shipped, table) == getattr(defaults, table), table
    for spec in all_specs():
        for game in (game_ids() if ANY_GAME in spec.games else spec.games):
            assert shipped.agent_params(game, spec.name) == defaults.agent_params(game, spec.name), spec.name
    assert shipped.warnings == ()


def test_shipped_file_shows_exactly_the_dataclass_defaults():
    """Every table and key of the dataclasses appears in settings.toml with its default value, and
    nothing else: the dataclasses are the one source, and the file a person reads says the same."""
    import dataclasses
    import tomllib

    from arcade.settings import every_table, tables

    raw = tomllib.loads((ROOT / "settings.toml").read_text(encoding="utf-8"))
    expected = {table: {} for table in tables()}  # (a game whose table holds only its agents' tables too)
    for name, cls in every_table().items():  # each agent's parameters: [agents.NAME] or [GAME.NAME]
        table, _, agent = name.partition(".")
        place = expected[table].setdefault(agent, {}) if agent else expected[table]
        place.update({f.name: f.default for f in dataclasses.fields(cls)})
    assert set(raw) == set(expected)
    for table in expected:
        assert raw[table] == expected[table], table


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
    assert parse_settings("[match3.q-rollouts]\ndiscount = 1\n").agent_params("match3", "q-rollouts").discount == 1.0


def test_an_agent_s_table_sets_its_parameters_on_one_game_or_on_every_game():
    s = parse_settings("[agents]\ntime_budget_ms = 400\n[agents.mcts]\nsimulations = 50\nbatch = 2\n"
                       "[dots.mcts]\nsimulations = 70\n[match3.monte-carlo]\ndepth = 5\n", strict=True)
    assert s.agent_params("dots", "mcts").simulations == 70 and s.agent_params("dots", "mcts").batch == 2
    assert s.agent_params("2048", "mcts").simulations == 50  # [agents.mcts]: every game without its own
    assert s.agent_params("match3", "monte-carlo").depth == 5 and s.warnings == ()
    from agents.base import time_budget

    assert time_budget(s, s.agent_params("2048", "mcts")) == 0.4  # 0: the one [agents] time a move
    assert time_budget(s, s.agent_params("match3", "monte-carlo")) == 0.3  # its own
    assert time_budget(s, s.agent_params("2048", "expectimax")) == 0.1
    assert s.agent_params("2048", "random") is None  # an agent without parameters


def test_agent_tables_that_do_not_fit_are_one_warning_each():
    s = parse_settings("[2048.expectimx]\nmax_depth = 3\n[dots.alpha-beta]\nspeed = 3\n"
                       "[agents.mcts]\nsimulations = 0\n", name="my.toml", strict=False)
    assert len(s.warnings) == 3, s.warnings
    assert "[2048.expectimx] ignored: no agent 'expectimx'" in s.warnings[0] and "expectimax" in s.warnings[0]
    assert "unknown key [dots.alpha-beta] speed" in s.warnings[1]
    assert "[agents.mcts] simulations = 0: expected an integer from 1" in s.warnings[2]
    assert s.agent_params("dots", "mcts").simulations == 1000
    with pytest.raises(SettingsError, match=r"\[agents.mcts\] simulations = 0"):
        parse_settings("[agents.mcts]\nsimulations = 0\n", strict=True)
    with pytest.raises(TypeError, match="no parameter depth"):
        Settings().with_agent("mcts", depth=3)


def test_a_key_in_a_table_it_left_is_one_warning_and_not_read():
    """The previous round's places of agents' parameters ([search], the games' tables) are read no more
    (issue 75 asked the migration layer away): each such key or table is one warning naming what is known,
    and the agent keeps its default."""
    s = parse_settings("[search]\nmcts_simulations = 50\n[2048]\nstrong_max_depth = 5\n")
    assert s.agent_params("dots", "mcts").simulations == 1000
    assert s.agent_params("2048", "expectimax").max_depth == 8
    assert len(s.warnings) == 2 and all("\n" not in w for w in s.warnings)
    assert "unknown table [search] ignored" in s.warnings[0] and "unknown key [2048] strong_max_depth" in s.warnings[1]


def test_a_runs_fingerprint_covers_its_own_agents_and_still_knows_the_every_agent_one():
    """A parameter of an agent that does not play (mcts gaining one) leaves a logged run continuable; one of
    the run's own agents, or its opponent's, does not; a log fingerprinted over every agent still continues."""
    from arcade.run_log import RunSpec, settings_key

    s = Settings().with_table("agents", budget_clock="cpu")
    run = RunSpec.of("2048", "expectimax-ntuple", None, 12, 1000, s)
    other = RunSpec.of("2048", "expectimax-ntuple", None, 12, 1000, s.with_agent("mcts", game="2048", simulations=7))
    own = RunSpec.of("2048", "expectimax-ntuple", None, 12, 1000,
                     s.with_agent("expectimax-ntuple", game="2048", max_depth=3))
    assert other.settings_key == run.settings_key and own.settings_key != run.settings_key
    dots = RunSpec.of("dots", "mcts-ntuple", "mcts", 10, 0, s)
    assert RunSpec.of("dots", "mcts-ntuple", "mcts", 10, 0, s.with_agent("mcts", simulations=7)).settings_key \
        != dots.settings_key
    logged = dataclasses.replace(run, settings_key=settings_key(s, "2048"))
    assert logged.stands_to(run, 1) == "same settings"
    changed = settings_key(s.with_agent("mcts", simulations=7), "2048")
    assert dataclasses.replace(run, settings_key=changed).stands_to(run, 1) is None


@pytest.mark.parametrize("text, expected", [
    ('[window]\nwidth = "wide"\n', '[window] width = "wide": expected an integer from 640 to 7680'),
    ("[window]\nwidth = 10\n", "[window] width = 10: expected an integer from 640 to 7680"),
    ("[window]\nwidth = 800.5\n", "expected an integer"),
    ("[window]\nfullscreen = 1\n", "[window] fullscreen = 1: expected true or false"),
    ("[agents]\ndelay_ms = true\n", "[agents] delay_ms = true: expected an integer"),
    ("[match3.q-rollouts]\nepsilon = 1.5\n", "[match3.q-rollouts] epsilon = 1.5: expected a number from 0.0 to 1.0"),
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
    assert s.agent_params("dots", "alpha-beta").time_budget_ms == 0 and len(s.warnings) == 1
    assert "alphabeta_ms" in s.warnings[0]


def test_a_settings_file_that_names_no_data_folder_uses_the_arcades_not_one_beside_it(tmp_path):
    """`--settings docs/training/X.toml` grew a docs/training/data folder in the checkout: a file that only
    sets training parameters keeps the arcade's data folder; one that names a folder has it beside itself."""
    from arcade.settings import ARCADE_SETTINGS, Settings, load_settings

    arcade_data = ARCADE_SETTINGS.parent / "data"
    only_training = tmp_path / "coherent.toml"
    only_training.write_text('[2048.ntuple]\nrates = "coherent"\n')
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
