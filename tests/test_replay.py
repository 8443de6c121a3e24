"""A runner's logged game played again (issue 63, the command-line part of its second half): every game of the
five, from its seed and its logged moves, ends where the log says it ended; part of a game stops at the move
asked; a log from before moves were kept, or a move that does not fit, is one line."""
import json

import pytest

from arcade.cli import main
from arcade.games import make_rules
from arcade.replay import ends_as_logged, replay
from arcade.runner import GameLog
from arcade.settings import Settings

AGENT = {"2048": "greedy", "tictactoe": "minimax", "dots": "greedy", "match3": "greedy", "blackjack": "random"}


@pytest.mark.parametrize("game", sorted(AGENT))
def test_every_logged_game_replays_to_its_logged_end(game, tmp_path, capsys):
    log = tmp_path / f"{game}.jsonl"
    assert main(["bench", game, "--agent", AGENT[game], "--games", "3", "--jobs", "1", "--log", str(log)]) == 0
    capsys.readouterr()
    rules = make_rules(game, Settings())
    for record in GameLog.open(log).records:
        session = replay(rules, record)
        assert ends_as_logged(rules, record, session), record["index"]
        assert len(json.dumps(record["actions"])) <= 16 * max(1, record["moves"])  # a few bytes a move
    assert main(["replay", str(log), "--index", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["as_logged"] is True and out["over"] and len(out["moves"]) == GameLog.open(log).records[2]["moves"]


def test_part_of_a_game_stops_at_the_move_asked(tmp_path, capsys):
    log = tmp_path / "2048.jsonl"
    assert main(["bench", "2048", "--agent", "greedy", "--games", "1", "--jobs", "1", "--log", str(log)]) == 0
    capsys.readouterr()
    record = GameLog.open(log).records[0]
    rules = make_rules("2048", Settings())
    session = replay(rules, record, 5)
    assert session.moves == 5 and not session.over
    assert main(["replay", str(log), "--to", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"] == rules.format_state(session.state) and out["as_logged"] is None and len(out["moves"]) == 5


def test_what_cannot_be_replayed_is_one_line(tmp_path, capsys):
    log = tmp_path / "old.jsonl"
    assert main(["bench", "tictactoe", "--agent", "random", "--games", "1", "--jobs", "1", "--log", str(log)]) == 0
    lines = log.read_text().splitlines()
    old = json.loads(lines[1])
    del old["actions"]
    log.write_text(lines[0] + "\n" + json.dumps(old) + "\n")
    capsys.readouterr()
    assert main(["replay", str(log)]) == 2
    assert "before the runner kept its moves" in capsys.readouterr().err
    assert main(["replay", str(log), "--index", "4"]) == 2
    assert "no such game" in capsys.readouterr().err
    with pytest.raises(ValueError, match="not legal"):
        replay(make_rules("tictactoe", Settings()), {**old, "actions": [4, 4]})
