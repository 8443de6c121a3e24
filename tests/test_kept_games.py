"""What a game screen keeps across runs (arcade.kept_games): the game in progress with the variant it is
played under, resumed on the next visit; snapshots of the earlier format still load; a kept game that does
not fit is dropped with one line, never half restored."""
import dataclasses

import numpy as np
import pytest

from arcade.games import make_rules
from arcade.kept_games import PROGRESS_FILE, variant_of
from arcade.session import GameSession
from arcade.settings import SeedSettings
from arcade.foundation.storage import PerGame


@pytest.fixture
def player_app(settings):
    """An app with fresh seeds, as a player's arcade has (fixed seeds never resume a kept game)."""
    from arcade.app import App

    application = App(dataclasses.replace(settings, seeds=SeedSettings(game=-1, agent=5)), size=(1024, 720))
    yield application
    application.close()


def played(rules, moves: int, seed: int = 7) -> GameSession:
    session = GameSession(rules, seed)
    for _ in range(moves):
        session.play(session.legal_actions()[0])
    return session


def test_a_kept_game_records_its_variant_and_resumes_under_it(player_app):
    from arcade.screens import open_game

    screen = open_game(player_app, "2048")
    screen.new_game(5)
    for _ in range(3):
        screen.do_move(screen.game.legal_actions()[0])
    board = screen.game.state.board.copy()
    screen.close()  # the game and the choices are kept
    kept = PerGame(player_app.settings.data_dir, PROGRESS_FILE).get("2048")
    assert kept["variant"] == {"size": 5, "spawn_four_probability": screen.rules.spawn_four_probability}
    again = open_game(player_app, "2048")
    assert again.rules.size == 5 and np.array_equal(again.game.state.board, board) and again.game.moves == 3
    again.close()


def test_a_snapshot_of_the_earlier_format_still_resumes(player_app):
    """Before variants a 2048 snapshot named its size beside the session ("size": 5)."""
    from arcade.screens import open_game

    session = played(make_rules("2048", player_app.settings, size=5), 4)
    PerGame(player_app.settings.data_dir, PROGRESS_FILE).put("2048", {"session": session.snapshot(), "size": 5})
    screen = open_game(player_app, "2048")
    assert screen.rules.size == 5 and np.array_equal(screen.game.state.board, session.state.board)
    assert "back where you left it" in screen.toast[0]
    screen.close()


@pytest.mark.parametrize("broken", ["over", "other rules"])
def test_a_kept_game_that_does_not_fit_is_dropped_in_one_line(player_app, broken):
    """A finished game is never kept, so one in the file is damaged; match-3's screen cannot change its
    rules, so a game kept under 3 turns (not its 50) is not restored under them."""
    from arcade.games import game_info
    from arcade.screens import open_game

    short = make_rules("match3", player_app.settings, turns=3)
    session = played(short, 3 if broken == "over" else 1)
    shown = short if broken == "other rules" else make_rules("match3", player_app.settings)
    PerGame(player_app.settings.data_dir, PROGRESS_FILE).put(
        "match3", {"session": session.snapshot(), "variant": variant_of(game_info("match3"), shown)})
    screen = open_game(player_app, "match3")
    assert "could not be resumed" in screen.toast[0] and screen.session.moves == 0
    assert screen.rules.turns == 50
    screen.close()


def test_a_saved_match3_board_without_a_swap_is_refused():
    """The game reshuffles a board with no swap left, so a kept one is damaged (the screen checked this
    itself; the rules' decoding does now, for every reader)."""
    from arcade.settings import Settings

    rules = make_rules("match3", Settings())
    data = rules.encode_state(rules.new_state(np.random.default_rng(1)))
    stripes = [[(r + c) % 3 for c in range(rules.size)] for r in range(rules.size)]  # no swap makes a line
    assert not len(rules.decode_state({**data, "board": stripes, "turns_left": 0}).swaps())  # (over: allowed)
    with pytest.raises(ValueError, match="no swap"):
        rules.decode_state({**data, "board": stripes})
    assert len(rules.decode_state(data).swaps())  # the new game's own board reads back
