"""Tic-tac-toe: rules on the course's hash, minimax as the oracle, the TD agent's update and training."""
import json

import numpy as np
import pytest

from agents.baselines import RandomAgent
from agents.minimax import Minimax, move_values, solve
from agents.td_value import SHIPPED, TDValueAgent, initial_values, self_play, td_backup
from arcade.cli import main
from arcade.games.tictactoe import (LINES, O, X, TicTacToeRules, decode, encode, format_board, parse_board,
                                    reachable_states, tables)
from arcade.headless import summarize
from arcade.runner import play_games
from arcade.settings import Settings

DEFAULTS = Settings()  # agents always receive settings; these are the defaults

rules = TicTacToeRules()


def board(text):
    return parse_board(text)


def test_hash_is_the_seeds_base3_and_inverts():
    # cell k = 3*row + col, value 0 empty / 1 X / 2 O, hash = sum(v * 3**k)
    assert board("X../.../...") == 1
    assert board(".X./.../...") == 3
    assert board("XO./.../...") == 1 + 2 * 3
    rng = np.random.default_rng(0)
    for s in rng.choice(reachable_states(), 300):
        assert encode(decode(s)) == s
        assert parse_board(format_board(s)) == s


@pytest.mark.parametrize("line", range(8))
def test_every_line_wins_for_both(line):
    cells = [0] * 9
    for k in LINES[line]:
        cells[k] = X
    others = [k for k in range(9) if k not in LINES[line]][:2]
    for k in others:
        cells[k] = O
    s = encode(cells)
    assert rules.is_terminal(s) and rules.winner(s) == 0 and tables().winning_line[s] == line
    o_cells = [O if c == X else X if c == O else 0 for c in cells]
    extra = next(k for k in range(9) if o_cells[k] == 0)
    o_cells[extra] = X  # O wins after X's third mark elsewhere
    s = encode(o_cells)
    assert rules.is_terminal(s) and rules.winner(s) == 1


def test_full_board_without_line_is_a_draw():
    s = board("XOX/XOO/OXX")
    assert rules.is_terminal(s) and rules.winner(s) is None
    assert rules.outcome(s)["winner"] is None and rules.legal_actions(s) == []


def test_reachable_state_count():
    assert len(reachable_states()) == 5478
    assert tables().valid.sum() == 5478  # every valid board is reachable


def test_turns_and_moves():
    assert rules.to_move(0) == 0 and rules.legal_actions(0) == list(range(9))
    s = rules.step(0, 4)
    assert s == 3**4 and rules.to_move(s) == 1
    with pytest.raises(ValueError):
        rules.step(s, 4)


def test_parse_errors():
    for bad in ("XXX/OOO/...", "OO./.../...", "X.O/.X", "X.Z/.../...", "XXX/OO./..O"):
        with pytest.raises(ValueError):
            parse_board(bad)


def test_minimax_values():
    assert solve()[0] == 0  # perfect play draws
    win_in_one = board("XX./OO./...")
    values = move_values(win_in_one)
    assert values[2] == 5  # win now, four cells left: 1 + 4
    assert max(values, key=values.get) == 2
    block = board("XX./.O./...")  # O must block at cell 2, and then holds the draw
    values = move_values(block)
    assert values[2] == 0 and all(v == -5 for k, v in values.items() if k != 2)  # else X wins at once
    lost = board("XX./O../...")  # here blocking is not enough: X forks through the centre
    assert move_values(lost)[2] == -3
    fastest = board("X.X/OO./...")  # X to move: win now at 1 (value 5), not later
    assert Minimax(rules, DEFAULTS).act(fastest, np.random.default_rng(0)) == 1


def test_minimax_never_loses_to_random():
    records = play_games(rules, Minimax(rules, DEFAULTS), RandomAgent(rules, DEFAULTS), games=200, seed=3)
    assert summarize(records)["results"]["loss"] == 0


def test_initial_values_as_the_seed():
    v = initial_values(0.0)
    x_win, o_win, draw = board("XXX/OO./..."), board("XX./OOO/X.."), board("XOX/XOO/OXX")
    assert v[0, x_win] == 1 and v[1, x_win] == 0
    assert v[1, o_win] == 1 and v[0, o_win] == 0
    assert v[0, draw] == 0 and v[1, draw] == 0
    assert v[0, 0] == 0.5 and v[1, board("X../.../...")] == 0.5
    assert initial_values(0.5)[0, draw] == 0.5


def test_td_update_on_a_two_step_history():
    # history s1 -> s2 -> end (value 1); alpha 0.5, V(s1) = V(s2) = 0.5:
    # V(s2) <- 0.5 + 0.5 (1 - 0.5) = 0.75, then V(s1) <- 0.5 + 0.5 (0.75 - 0.5) = 0.625; V(end) stays 1.
    values = [0.5, 0.5, 1.0]
    td_backup(values, [0, 1, 2], alpha=0.5)
    assert values == [0.625, 0.75, 1.0]


def test_training_is_seeded_and_terminal_values_stay():
    start = initial_values(0.5)
    a = self_play(start, 2000, 0.1, 0.1, np.random.default_rng(7))
    b = self_play(start, 2000, 0.1, 0.1, np.random.default_rng(7))
    assert np.array_equal(a, b) and not np.array_equal(a, start)
    ends = tables().terminal
    assert np.array_equal(a[:, ends], start[:, ends])
    assert np.array_equal(start, initial_values(0.5))  # the input is not changed


def test_td_agent_save_and_load(settings):
    agent = TDValueAgent(rules, settings)
    agent.train(1000, np.random.default_rng(1), from_scratch=True)
    assert agent.save()
    again = TDValueAgent(rules, settings)
    assert np.allclose(again.values, agent.values) and again.source.startswith("trained")


def test_a_stopped_td_training_resumes_to_exactly_the_episodes_asked(settings, tmp_path, monkeypatch, capsys):
    """Ctrl-C (or kill) saves the last checkpoint; the same command then plays only the games left."""
    agent = TDValueAgent(rules, settings)

    def interrupt_at(done):
        if done == 2000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        agent.train(8000, np.random.default_rng(1), from_scratch=True, checkpoint=interrupt_at)
    assert agent.save()  # what the command line does on Ctrl-C
    import agents.td_value as td

    asked = []
    plain = td.self_play
    monkeypatch.setattr(td, "self_play", lambda start, episodes, *a, **k: asked.append(episodes) or
                        plain(start, episodes, *a, **k))
    settings_file = tmp_path / "s.toml"
    settings_file.write_text(f'[data]\nfolder = "{settings.data_dir}"\n')
    assert main(["--settings", str(settings_file), "train", "tictactoe", "--agent", "td-value",
                 "--episodes", "8000"]) == 0
    assert asked == [6000]  # not 8000 on top of the checkpoint
    again = TDValueAgent(rules, settings)
    assert again.run == {"run_games": 8000, "run_done": 8000} and not again.resumed_at(8000)
    assert "resuming the stopped run of 8,000 games" in capsys.readouterr().err


def test_corrupt_saved_table_falls_back_to_shipped(settings):
    path = settings.data_dir / "tictactoe_td.npz"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a table")
    agent = TDValueAgent(rules, settings)
    assert agent.source.startswith("shipped") and (settings.data_dir / "tictactoe_td.npz.corrupt").exists()


@pytest.mark.skipif(not SHIPPED.exists(), reason="no shipped table")
def test_shipped_table_draws_minimax_from_both_sides(settings):
    agent = TDValueAgent(rules, settings)
    assert agent.source.startswith("shipped")
    records = play_games(rules, agent, Minimax(rules, DEFAULTS), games=40, seed=9)
    assert summarize(records)["results"]["loss"] == 0


def test_decide_minimax_json(capsys, settings):
    assert main(["decide", "tictactoe", "--state", "X.O/.X./..O", "--agent", "minimax", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["values"]) == {"top middle (8)", "middle left (4)", "middle right (6)", "bottom left (1)",
                                   "bottom middle (2)"}  # (the cells by their names and keys, as a player reads them)
    assert data["values"][data["move"]] == max(data["values"].values())
    assert TicTacToeRules().format_action(data["action"]) == data["move"]


def test_bench_reports_each_side(capsys):
    assert main(["bench", "tictactoe", "--agent", "minimax", "--opponent", "random", "--games", "10",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    sides = data["summary"]["results_by_side"]
    assert sides["as_seat0"]["loss"] == 0 and sides["as_seat1"]["loss"] == 0
    assert sum(sides["as_seat0"].values()) == 5 and sum(sides["as_seat1"].values()) == 5
