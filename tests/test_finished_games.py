"""Every game finished in the window is kept and replays exactly (issue 63, its window part): a session records
the generator at its start and every move, undo rewinds chance too, so the kept moves rebuild the same game on
all five games, whatever was undone on the way; a resumed game stays replayable until undone past its resume;
`replay --kept` prints one from the command line; a screen keeps each game it records."""
from __future__ import annotations

import json

import numpy as np
import pytest

from arcade.cli import main
from arcade.finished_games import keep, kept, played_by
from arcade.games import GAMES, make_rules
from arcade.session import GameSession, decode_state, encode_state
from arcade.settings import Settings


def _play_out(session: GameSession, rng: np.random.Generator, undo_every: int = 7) -> None:
    """Random moves to the end, undoing one now and then (and playing another move instead)."""
    for k in range(5000):
        if session.over:
            return
        legal = session.legal_actions()
        session.play(legal[int(rng.integers(len(legal)))])
        if k % undo_every == undo_every - 1:
            session.undo()
    raise AssertionError("a random game did not end")


@pytest.mark.parametrize("game", [g.id for g in GAMES])
def test_a_finished_game_with_undos_replays_to_the_same_end(game, tmp_path):
    rules = make_rules(game, Settings())
    session = GameSession(rules, seed=11)
    if game == "blackjack":
        _play_out(session, np.random.default_rng(1))
        session.next_game()  # (the next round, drawn from the running generator)
    _play_out(session, np.random.default_rng(2))
    assert keep(tmp_path, game, session, {}, "you")
    record = kept(tmp_path, game)[0]
    again = GameSession.replayed(rules, record)
    assert _same(rules, again.state, session.state) and again.outcome() == session.outcome()
    assert again.moves == session.moves and again.over and again.movers == session.movers
    assert again.seed == session.seed == 11  # (the HUD names the seed it was dealt from, not 0)
    middle = GameSession.replayed(rules, record, session.moves // 2)
    assert _same(rules, middle.state, session.history[session.moves // 2])


def _same(rules, a, b) -> bool:
    try:
        return encode_state(rules, a) == encode_state(rules, b)
    except ValueError:  # (a finished blackjack round has no text form: the states themselves)
        return a == b


def test_undo_then_the_same_move_draws_the_same_tile():
    rules = make_rules("2048", Settings())
    session = GameSession(rules, seed=3)
    move = session.legal_actions()[0]
    session.play(move)
    first = encode_state(rules, session.state)
    session.undo()
    session.play(move)
    assert encode_state(rules, session.state) == first


def test_a_resumed_game_replays_until_it_is_undone_past_its_resume(tmp_path):
    rules = make_rules("2048", Settings())
    session = GameSession(rules, seed=5)
    for _ in range(20):
        session.play(session.legal_actions()[0])
    resumed = GameSession.restore(rules, json.loads(json.dumps(session.snapshot())))
    resumed.play(resumed.legal_actions()[0])
    record = resumed.record()
    assert record is not None and record["moves"] == 21
    assert encode_state(rules, GameSession.replayed(rules, record).state) == encode_state(rules, resumed.state)
    resumed.undo()
    resumed.undo()  # past the resume: that move's chance cannot be drawn again
    assert resumed.record() is None and not keep(tmp_path, "2048", resumed, {}, "you")
    shown = GameSession(rules, seed=1)
    shown.show(decode_state(rules, encode_state(rules, session.state)))
    assert shown.record() is None  # a state put on the board: no start to replay from


def test_replay_kept_prints_a_kept_game_and_says_it_ends_as_kept(tmp_path, capsys):
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n[dots]\nrows = 2\ncols = 2\n')
    rules = make_rules("dots", Settings().with_table("dots", rows=2, cols=2))
    session = GameSession(rules, seed=4)
    _play_out(session, np.random.default_rng(4), undo_every=3)
    assert keep(tmp_path / "data", "dots", session, {"rows": 2, "cols": 2}, "you vs greedy")
    assert main(["--settings", str(settings_file), "replay", "dots", "--kept", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["as_kept"] is True and out["over"] and len(out["moves"]) == 12 and out["player"] == "you vs greedy"
    assert main(["--settings", str(settings_file), "replay", "dots", "--kept", "--to", "5"]) == 0
    assert "5 of 12 moves replayed" in capsys.readouterr().out
    assert main(["--settings", str(settings_file), "replay", "dots", "--kept", "--index", "3"]) == 2
    assert "--index 3: 1 dots games are kept" in capsys.readouterr().err
    assert main(["--settings", str(settings_file), "replay", "nogame", "--kept"]) == 2


def test_replay_kept_replays_a_tictactoe_game_a_game_without_a_rules_table(tmp_path, capsys):
    """Issue 73 item 11: tic-tac-toe has no rules-settings table; its kept games replay all the same."""
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n')
    session = GameSession(make_rules("tictactoe", Settings()), seed=2)
    _play_out(session, np.random.default_rng(2), undo_every=4)
    assert keep(tmp_path / "data", "tictactoe", session, {}, "you vs minimax")
    assert main(["--settings", str(settings_file), "replay", "tictactoe", "--kept", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["as_kept"] is True


def test_a_game_played_by_more_than_its_credited_player_names_every_mover_with_its_moves():
    mixed = {"player": "expectimax (4x4)", "movers": ["you"] * 3 + ["expectimax"] * 5}
    assert played_by(mixed) == "expectimax (4x4); moves: you 3, expectimax 5"
    two_sided = {"player": "you vs minimax", "movers": ["you", "minimax", "you"]}
    assert played_by(two_sided) == "you vs minimax"
    assert played_by({"player": "you", "movers": []}) == "you"


def test_a_line_that_does_not_read_is_skipped(tmp_path):
    rules = make_rules("tictactoe", Settings())
    session = GameSession(rules, seed=0)
    _play_out(session, np.random.default_rng(0))
    keep(tmp_path, "tictactoe", session, {}, "you")
    with open(tmp_path / "finished" / "tictactoe.jsonl", "a") as out:
        out.write("{not json\n")
    assert len(kept(tmp_path, "tictactoe")) == 1


def test_a_screen_keeps_each_game_it_records(app):
    from arcade.screens import open_game

    screen = open_game(app, "tictactoe")
    rng = np.random.default_rng(8)
    _play_out(screen.session, rng)
    screen.record_game("you vs random", 1.0, "win", "win")
    record = kept(app.settings.data_dir, "tictactoe")[0]
    assert record["player"] == "you vs random" and record["moves"] == screen.session.moves
    assert GameSession.replayed(screen.rules, record).state == screen.session.state


@pytest.mark.parametrize("game", ["2048", "dots"])
def test_shift_k_lists_the_finished_games_replays_one_and_plays_on_from_a_move(app, game):
    import pygame

    from arcade.screens import open_game
    from arcade.screens.replay_view import ReplayView
    from tests.helpers import key

    screen = open_game(app, game)
    app.push(screen)
    key(app, pygame.K_k, mod=pygame.KMOD_SHIFT)
    view = app.top
    assert isinstance(view, ReplayView) and "no finished game" in " ".join(view.draw_over(app.surface))
    key(app, pygame.K_ESCAPE)
    assert app.top is screen
    _play_out(screen.session, np.random.default_rng(6), undo_every=5)
    final = screen.session.state
    screen.record_game("you", 1.0)
    key(app, pygame.K_k, mod=pygame.KMOD_SHIFT)
    view = app.top
    assert "you" in view.draw_over(app.surface)[1]
    key(app, pygame.K_RETURN)  # the newest: replayed
    assert view.states is not None and view.move == 0
    key(app, pygame.K_END)
    assert view.states[view.move] == final or game == "2048" and (view.states[view.move].board == final.board).all()
    assert "the end" in " ".join(view.draw_over(app.surface))
    key(app, pygame.K_HOME)
    for _ in range(3):
        key(app, pygame.K_RIGHT)
    key(app, pygame.K_PAGEDOWN)
    key(app, pygame.K_LEFT)
    at = min(13, len(view.states) - 1) - 1  # (a small board's game may end before move 13)
    assert view.move == at and f"move {at} of" in view.draw_over(app.surface)[0]
    key(app, pygame.K_RETURN)  # play on from there
    assert app.top is screen and screen.session.moves == at and not screen.session.over
    assert encode_state(screen.rules, screen.session.state) == encode_state(screen.rules, view.states[at])


def test_a_kept_move_the_rules_refuse_is_one_line():
    rules = make_rules("tictactoe", Settings())
    session = GameSession(rules, seed=0)
    session.play(4)
    record = session.record()
    record["actions"].append(4)  # the same cell again
    with pytest.raises(ValueError, match="move 2 .* is not legal in the replayed position"):
        GameSession.replayed(rules, record)


@pytest.mark.parametrize("game, agent", [("2048", "expectimax-3"), ("dots", "solver")])
def test_v_in_a_replay_shows_the_agents_values_at_each_move_and_shift_v_its_tree_there(app, game, agent):
    import pygame

    from agents import find
    from arcade.screens import open_game
    from arcade.screens.replay_view import ReplayView
    from arcade.screens.tree_view import TreeView
    from tests.helpers import key, wait_for

    screen = open_game(app, game, agent=agent)
    app.push(screen)
    _play_out(screen.session, np.random.default_rng(3), undo_every=9)
    screen.record_game("you", 1.0)
    key(app, pygame.K_k, mod=pygame.KMOD_SHIFT)
    view = app.top
    assert isinstance(view, ReplayView)
    key(app, pygame.K_RETURN)
    for _ in range(4):
        key(app, pygame.K_RIGHT)
    key(app, pygame.K_v)
    direct = find(game, agent).create(screen.rules, app.settings)
    for move in (4, 5):
        assert wait_for(app, lambda move=move: view.values is not None and view.values.get("move") == move, seconds=120)
        assert view.values["values"] == pytest.approx(direct.explain(view.states[move]))  # worked out there
        played = screen.rules.format_action(view.record["actions"][move])
        lines = view.draw_over(app.surface)
        assert f"{agent}'s values here:" in lines and any(line.endswith("<- played") and line.startswith(played + ":")
                                                          for line in lines), "\n".join(lines)
        key(app, pygame.K_RIGHT)
    key(app, pygame.K_LEFT)
    key(app, pygame.K_v, mod=pygame.KMOD_SHIFT)  # the tree at the move shown, over the replay
    tree_view = app.top
    assert isinstance(tree_view, TreeView) and tree_view.root_state == view.states[5]
    assert wait_for(app, lambda: tree_view.tree is not None, seconds=120) and not tree_view.problem
    assert {e["action"]: e["node"]["value"] for e in tree_view.tree["children"]} == pytest.approx(
        direct.explain(view.states[5]))
    key(app, pygame.K_ESCAPE)
    assert app.top is view and view.values_on
    key(app, pygame.K_v)
    assert not view.values_on and not any("values here" in line for line in view.draw_over(app.surface))
