"""Each game declares itself (id, seats, chance, rules parameters); a variant is named one way everywhere,
`dots(rows=4,cols=4)`, and checked against the declared parameters' ranges with one clear error."""
import json

import pytest

from arcade.cli import main
from arcade.games import (GAMES, UnknownGame, VariantError, format_variant, game_info, make_rules, parse_variant,
                          settings_variant, variant_slug)
from arcade.runner import GameLog, RunSpec
from arcade.settings import Settings


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
def test_the_rules_read_what_the_declaration_says(info):
    rules = make_rules(info.id, Settings())
    assert rules.game is info and rules.game_id == info.id and rules.players == info.players
    assert rules.seat_names == info.seat_names and rules.has_chance == info.has_chance
    assert len(info.seat_names) == info.players
    text = settings_variant(info.id, Settings())
    assert format_variant(*parse_variant(text)) == text  # the default variant's text reads back the same


@pytest.mark.parametrize("text, check", [
    ("dots(rows=4,cols=3)", lambda r: (r.rows, r.cols) == (4, 3)),
    ("dots( cols = 5 )", lambda r: (r.rows, r.cols) == (2, 5)),
    ("2048(size=5,spawn_four_probability=0.1)", lambda r: (r.size, r.spawn_four_probability) == (5, 0.1)),
    ("2048(spawn_four_probability=1)", lambda r: r.spawn_four_probability == 1.0),
    ("match3(colours=3,turns=7)", lambda r: (r.colours, r.turns, r.size) == (3, 7, 9)),
    ("blackjack(preset=large)", lambda r: r.preset == "large"),
    ("tictactoe", lambda r: r.game_id == "tictactoe"),
    ("tictactoe()", lambda r: r.game_id == "tictactoe"),
])
def test_a_variant_builds_its_rules(text, check):
    game_id, params = parse_variant(text)
    assert check(make_rules(game_id, Settings(), **params))


@pytest.mark.parametrize("text, words", [
    ("dots(rows=9)", "dots: rows must be an integer from 1 to 5, got 9"),
    ("dots(rows=2.5)", "dots: rows takes an integer; got '2.5'"),
    ("dots(size=4)", "dots has no parameter 'size'; its parameters: rows, cols"),
    ("tictactoe(size=4)", "tictactoe has no parameter 'size'; it takes none"),
    ("2048(spawn_four_probability=nan)", "spawn_four_probability must be a number from 0.0 to 1.0"),
    ("blackjack(preset=huge)", "blackjack: preset takes one of small, large, standard, peeking; got 'huge'"),
    ("dots(rows=4", "is not a game"),
    ("dots(rows)", "rules parameters are name=value"),
    ("dots(rows=3,rows=4)", "rows is given twice"),
])
def test_a_wrong_variant_is_one_line_naming_the_problem(text, words):
    with pytest.raises(VariantError, match=None) as caught:
        parse_variant(text)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_an_unknown_game_names_the_games():
    with pytest.raises(UnknownGame, match="choose one of: 2048, tictactoe, dots, match3, blackjack"):
        parse_variant("chess(rows=8)")


def test_the_command_line_takes_a_variant_wherever_a_game_is_named(capsys, tmp_path):
    settings = tmp_path / "s.toml"
    settings.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n')
    base = ["--settings", str(settings)]
    assert main(base + ["bench", "match3(size=5,turns=3)", "--agent", "greedy", "--games", "2", "--jobs", "1",
                        "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert all(g["moves"] == 3 for g in out["per_game"])  # three turns a game
    (log,) = (tmp_path / "data" / "runs").glob("*.jsonl")
    assert log.name.startswith("match3-size5-turns3-greedy")  # what differs from the defaults
    assert GameLog.open(log).spec.variant == "match3(size=5,colours=5,turns=3)"
    assert main(base + ["bench", "--resume", str(log), "--jobs", "1"]) == 0  # the log's variant comes back
    assert "0 to play (2 already in the log)" in capsys.readouterr().err
    assert main(base + ["bench", "match3(turns=4)", "--resume", str(log)]) == 2
    assert "match3(turns=4) does not match" in capsys.readouterr().err
    assert main(base + ["bench", "match3(turns=3)", "--resume", str(log), "--jobs", "1"]) == 0  # part of it: agrees
    capsys.readouterr()
    assert main(base + ["decide", "2048(size=3)", "--agent", "greedy", "--state", "2,2,0/0,0,0/0,0,0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["move"] == "left"
    assert main(base + ["agents"]) == 0
    assert "rules parameters: rows 1..5 (default 2); cols 1..5 (default 2)" in capsys.readouterr().out


def test_a_log_written_before_variants_still_resumes(tmp_path, capsys):
    """Today's logs name a dots board as "board": "4x4" and other games' as null."""
    settings_file = tmp_path / "s.toml"
    settings_file.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n')
    base = ["--settings", str(settings_file)]
    assert main(base + ["bench", "dots(rows=3,cols=2)", "--agent", "greedy", "--games", "4", "--jobs", "1",
                        "--log", str(tmp_path / "new.jsonl")]) == 0
    capsys.readouterr()
    lines = (tmp_path / "new.jsonl").read_text().splitlines()
    head = json.loads(lines[0])
    head["run"]["board"] = "3x2"
    del head["run"]["variant"]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head), *lines[1:3]]) + "\n")  # stopped after two games
    assert GameLog.open(old).spec.variant == "dots(rows=3,cols=2)"
    assert main(base + ["bench", "--resume", str(old), "--jobs", "1"]) == 0
    assert "2 to play (2 already in the log)" in capsys.readouterr().err
    assert len(old.read_text().splitlines()) == 5
    spec = RunSpec.of("2048", "greedy", None, 3, 0, Settings())
    before = RunSpec(**{**spec.__dict__, "variant": None})  # another game's log of before: no board
    assert before.stands_to(spec, 1) == "same settings"  # the same run: its header is written anew


def test_a_file_name_names_what_differs_from_the_defaults():
    assert variant_slug("dots", "dots(rows=4,cols=4)") == "dots-rows4-cols4"
    assert variant_slug("dots", "dots(rows=2,cols=2)") == "dots"
    assert variant_slug("2048", "2048(size=4,spawn_four_probability=0.1)") == "2048-spawn_four_probability0.1"
    assert variant_slug("dots", "3x3-won-openings") == "dots-3x3-won-openings"
    assert variant_slug("dots", None) == "dots"


def test_a_declaration_must_be_whole():
    from arcade.games.declare import GameType
    from arcade.games.dots import DotsSettings

    with pytest.raises(ValueError, match="2 players but seat names"):
        GameType("x", "X", "", 2, seat_names=("one",))
    with pytest.raises(ValueError, match="not fields of its settings table"):
        GameType("x", "X", "", 1, settings=DotsSettings, parameters=("size",))
    assert game_info("dots").parameters == ("rows", "cols")
