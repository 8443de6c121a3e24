"""Parameters changed live (issue 64, its first part): Shift+i edits the selected agent's declared parameters
on screen, within their ranges; the next decision uses them; they are kept per game and agent in the data
folder (never settings.toml) and come back with the screen; the command line reads them only with --kept."""
import json

import numpy as np
import pygame
import pytest

from arcade import kept_params
from arcade.cli import main
from arcade.screens import open_game
from arcade.screens.params_view import ParamsView, step_of
from arcade.settings import ARCADE_SETTINGS
from tests.helpers import key, ticks, wait_for


def _editor(app, game, agent):
    screen = open_game(app, game, agent=agent, seed=3)
    app.push(screen)
    screen.controller.set_enabled(False)
    ticks(app)
    key(app, pygame.K_i, mod=pygame.KMOD_SHIFT, unicode="I")
    assert isinstance(app.top, ParamsView)
    return screen, app.top


def _select(view, name):
    while view.fields[view.selected].name != name:
        key(view.app, pygame.K_DOWN)


def _type(app, text):
    for ch in text:
        key(app, getattr(pygame, f"K_{ch}") if ch.isdigit() else pygame.K_PERIOD, unicode=ch)
    key(app, pygame.K_RETURN)


def _decision_figures(app, screen):
    state = screen.shown_state()
    request = screen.controller.ask(state, "act", np.random.default_rng(1))
    assert wait_for(app, request.done, seconds=120)
    return screen.controller.collect(request).figures


def test_a_typed_integer_changes_the_next_decision_and_an_out_of_range_one_is_refused(app):
    before = ARCADE_SETTINGS.read_bytes()
    screen, view = _editor(app, "tictactoe", "mcts")
    _select(view, "compiled_simulations")
    _type(app, "321")
    assert screen.settings.agent_params("tictactoe", "mcts").compiled_simulations == 321
    assert "321" in view.line and "next decision" in view.line
    assert _decision_figures(app, screen)["simulations"] <= 321
    _type(app, "0")  # below its range
    assert view.line.startswith("refused:") and "from 1 to 1000000000" in view.line
    assert screen.settings.agent_params("tictactoe", "mcts").compiled_simulations == 321
    lines = view.draw_over(app.surface)
    assert any(line.startswith("compiled_simulations | 321  (changed here)") for line in lines)
    from arcade.screens.overlays import agent_panel_lines

    assert ("compiled_simulations", "321 (changed here)", False) in agent_panel_lines(screen)[2]  # `i` says so
    assert ARCADE_SETTINGS.read_bytes() == before  # the shipped settings are never written
    kept = json.loads((screen.settings.data_dir / kept_params.FILE).read_text())
    assert kept == {"tictactoe": {"mcts": {"compiled_simulations": 321}}}


def test_a_float_steps_within_its_range_and_c_d_u_set_the_course_the_default_and_the_file(app):
    screen, view = _editor(app, "tictactoe", "td-value")
    _select(view, "draw_value")
    assert screen.settings.agent_params("tictactoe", "td-value").draw_value == 0.5
    key(app, pygame.K_c)  # the course's value (the notebook's 0 for a draw)
    assert screen.settings.agent_params("tictactoe", "td-value").draw_value == 0.0
    key(app, pygame.K_LEFT)  # at the bottom of its range: stays
    assert screen.settings.agent_params("tictactoe", "td-value").draw_value == 0.0
    key(app, pygame.K_RIGHT)
    assert screen.settings.agent_params("tictactoe", "td-value").draw_value == pytest.approx(0.01)
    key(app, pygame.K_d)
    assert screen.settings.agent_params("tictactoe", "td-value").draw_value == 0.5
    # the default is no change: not marked, not in the file, not a second entrant in the arena
    assert kept_params.kept(app.settings, "tictactoe") == {}
    assert not any("(changed here)" in line for line in view.draw_over(app.surface))
    assert "td-value" not in json.loads((screen.settings.data_dir / kept_params.FILE).read_text()).get("tictactoe", {})
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_u)
    assert kept_params.kept(app.settings, "tictactoe") == {}


def test_a_value_equal_to_the_base_is_no_change_and_an_entrant_is_its_own_parameters(app, tmp_path):
    """Item 1 and 3 of issue 73: the arena's "alpha-beta" is settings.toml's, whatever was changed here; a kept
    value equal to settings.toml's (an older file) is not offered as a second entrant."""
    from arcade.screens.arena_view import ArenaView
    from arcade.foundation.storage import save_json

    save_json(app.settings.data_dir / kept_params.FILE,
              {"dots": {"alpha-beta": {"position_budget": 50}, "mcts": {"exploration": 2.0}}})
    screen = open_game(app, "dots", agent="alpha-beta", seed=3)
    app.push(screen)
    assert screen.settings.agent_params("dots", "alpha-beta").position_budget == 50  # the screen plays it
    arena = ArenaView(app, screen)
    labels = dict(arena.choices)
    assert labels["alpha-beta"] == "alpha-beta"
    assert labels["alpha-beta (changed here: position_budget 50)"] == "alpha-beta:position_budget=50"
    assert not any(label.startswith("mcts (") for label in labels)  # 2.0 is mcts's own exploration
    from arcade.arena import parse_entrants

    entrants = parse_entrants("dots", "alpha-beta,alpha-beta:position_budget=50")
    base = arena.base_settings()
    assert entrants[0].settings(base, "dots").agent_params("dots", "alpha-beta").position_budget == 0
    assert entrants[1].settings(base, "dots").agent_params("dots", "alpha-beta").position_budget == 50


def test_a_choice_cycles_and_the_agent_is_rebuilt_with_it(app):
    screen, view = _editor(app, "2048", "expectimax")
    _select(view, "pace")
    key(app, pygame.K_RIGHT)
    pace = screen.settings.agent_params("2048", "expectimax").pace
    assert pace != "budget" and screen.controller.settings.agent_params("2048", "expectimax").pace == pace
    figures = _decision_figures(app, screen)
    assert "C++" in figures.get("pace", "")  # the search says its pace where it is not the default


def test_kept_values_come_back_with_the_screen_and_only_with_kept_on_the_command_line(app, capsys):
    screen, view = _editor(app, "tictactoe", "mcts")
    _select(view, "compiled_simulations")
    _type(app, "77")
    key(app, pygame.K_ESCAPE)
    app.pop()
    again = open_game(app, "tictactoe", agent="mcts", seed=3)
    assert again.settings.agent_params("tictactoe", "mcts").compiled_simulations == 77
    again.close()
    settings_file = screen.settings.base_dir + "/cli.toml"
    with open(settings_file, "w", encoding="utf-8") as out:
        out.write(f'[data]\nfolder = "{screen.settings.data_dir}"\n[agents]\nbudget_clock = "none"\n')
    base = ["--settings", settings_file, "decide", "tictactoe", "--agent", "mcts", "--state", ".../.../...", "--json"]
    assert main(base) == 0
    plain = json.loads(capsys.readouterr().out)["decision"]["simulations"]
    assert main(base + ["--kept"]) == 0
    assert json.loads(capsys.readouterr().out)["decision"]["simulations"] <= 77 < plain


def test_a_kept_value_that_no_longer_fits_is_left_out(settings):
    from arcade.foundation.storage import save_json

    save_json(settings.data_dir / kept_params.FILE, {"tictactoe": {"mcts": {"compiled_simulations": 0, "nope": 1,
                                                                             "exploration": 0.5}, "gone": {"x": 1}}})
    assert kept_params.kept(settings, "tictactoe") == {"mcts": {"exploration": 0.5}}
    with pytest.raises(ValueError, match="from 1 to"):
        kept_params.keep(settings, "tictactoe", "mcts", "compiled_simulations", -3)


def test_steps_stay_in_range_and_wide_ranges_double():
    import dataclasses

    from agents.mcts import MCTSParams

    fields = {f.name: f for f in dataclasses.fields(MCTSParams)}
    assert step_of(fields["simulations"], 1000, True) == 2000 and step_of(fields["simulations"], 1, False) == 1
    assert step_of(fields["compiled_batch"], 1, True) == 2
    assert step_of(fields["exploration"], 2.0, True) == pytest.approx(2.5)
    assert step_of(fields["exploration"], 10.0, True) == 10.0


def test_bench_and_arena_with_kept_name_each_agent_with_what_it_plays_with_and_resume_by_that_name(settings, capsys,
                                                                                                     tmp_path):
    """Issue 73 item 10: `bench --kept` logged the agent by its bare name while it played with the kept
    parameters (the log and its summary named settings.toml's agent). A run names each player as the arena
    does, "NAME:param=value", and a resumed log rebuilds it from that name (without --kept)."""
    from arcade.foundation.storage import save_json

    save_json(settings.data_dir / kept_params.FILE, {"tictactoe": {"mcts": {"compiled_simulations": 40}}})
    settings_file = tmp_path / "cli.toml"
    settings_file.write_text(f'[data]\nfolder = "{settings.data_dir}"\n[agents]\nbudget_clock = "none"\n')
    log = tmp_path / "run.jsonl"
    bench = ["--settings", str(settings_file), "bench", "tictactoe", "--agent", "mcts", "--opponent", "random",
             "--games", "2", "--jobs", "1", "--json"]
    assert main(bench + ["--kept", "--log", str(log)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["agent"] == "mcts:compiled_simulations=40"
    header = json.loads(log.read_text().splitlines()[0])
    assert header["run"]["agent"] == "mcts:compiled_simulations=40"
    assert main(["--settings", str(settings_file), "bench", "--resume", str(log), "--json"]) == 0  # (no --kept)
    assert json.loads(capsys.readouterr().out)["agent"] == "mcts:compiled_simulations=40"
    arena = ["--settings", str(settings_file), "arena", "tictactoe", "--agents", "mcts,random", "--games", "2",
             "--jobs", "1", "--log-dir", str(tmp_path / "arena"), "--json"]
    assert main(arena + ["--kept"]) == 0
    assert "mcts:compiled_simulations=40" in capsys.readouterr().out


def test_a_time_budget_of_0_reads_as_the_shared_one_with_its_value(app):
    """Issue 74 item 3: the editor showed "time_budget_ms 0" where 0 means the [agents] setting, not said."""
    screen, view = _editor(app, "tictactoe", "mcts")
    row = next(line for line in view.draw_over(app.surface) if line.startswith("time_budget_ms |"))
    assert f"0: the [agents] one, {screen.settings.agents.time_budget_ms} ms" in row
