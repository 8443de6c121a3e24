"""Shift+a on a game screen (issue 64, the window's arena): the game's agents chosen with Space, the games a
pairing with left / right, Enter runs the pairings in the background while frames go on, and the table (ratings
with intervals, each pair's results) fills in; Esc stops a running one, whose logs then continue."""
import pygame

from arcade import runner
from arcade.screens import open_game
from arcade.screens.arena_view import ArenaView
from tests.helpers import key, wait_for


def _arena(app, game):
    screen = open_game(app, game)
    app.push(screen)
    key(app, pygame.K_a, mod=pygame.KMOD_SHIFT)
    view = app.top
    assert isinstance(view, ArenaView)
    return screen, view


def test_an_arena_of_two_dots_agents_fills_its_table_and_ranks_greedy_above_random(app, monkeypatch):
    monkeypatch.setattr(runner, "default_jobs", lambda: 1)  # (one worker: every core but one, at least one)
    app.settings = app.settings.with_table("dots", rows=2, cols=2)
    screen, view = _arena(app, "dots")
    labels = [label for label, _ in view.choices]
    view.chosen = {labels.index("greedy"), labels.index("random")}
    key(app, pygame.K_LEFT)
    key(app, pygame.K_LEFT)  # 4 games a pairing
    assert "games a pairing: 4" in " ".join(view.draw_over(app.surface))
    key(app, pygame.K_RETURN)
    assert wait_for(app, lambda: view.finished, 120), view.problem
    ratings = view.table["ratings"]
    assert [r["entrant"] for r in ratings] == ["greedy", "random"] and all(r["games"] == 4 for r in ratings)
    assert ratings[0]["low"] < ratings[0]["rating"] < ratings[0]["high"]
    drawn = " ".join(view.draw_over(app.surface))
    assert "greedy vs random" in drawn and "any key: close" in drawn
    key(app, pygame.K_SPACE)
    assert app.top is screen and screen.arena is None  # over: the next Shift+a sets up a new one
    assert list((app.settings.data_dir / "runs" / "arena").glob("*.jsonl"))  # its log, to continue from


def test_a_key_but_esc_leaves_the_arena_playing_beside_the_game_and_leaving_the_game_ends_it(app, monkeypatch):
    monkeypatch.setattr(runner, "default_jobs", lambda: 1)
    app.settings = app.settings.with_table("dots", rows=2, cols=2)
    screen, view = _arena(app, "dots")
    labels = [label for label, _ in view.choices]
    view.chosen = {labels.index("mcts"), labels.index("random")}
    key(app, pygame.K_RETURN)  # 10 games a pairing
    assert view.thread is not None
    key(app, pygame.K_UP)  # the view closes; the arena plays on
    assert app.top is screen and screen.arena is view
    key(app, pygame.K_a, mod=pygame.KMOD_SHIFT)
    assert app.top is view  # the same arena, shown again
    key(app, pygame.K_DOWN)
    thread = view.thread
    assert wait_for(app, lambda: _arena_workers(), seconds=120)  # (its pool is up: one kept for every pairing)
    app.pop()  # leaving the game's screen ends its arena
    assert view.thread is None and wait_for(app, lambda: not thread.is_alive(), seconds=120)  # (idle-class
    # workers beside a loaded machine's other work may take a while to end)
    assert wait_for(app, lambda: not _arena_workers(), seconds=60)  # and no worker of it is left


def _arena_workers() -> list:
    """The pool processes this test process started (the agent process is not one of them)."""
    import multiprocessing

    return [p for p in multiprocessing.active_children() if "Pool" in p.name or "Worker" in p.name]


def test_an_arena_needs_two_entrants_in_a_two_player_game(app):
    screen, view = _arena(app, "tictactoe")
    view.chosen = {0}
    key(app, pygame.K_RETURN)
    assert view.thread is None and "choose 2 entrants" in view.problem
    key(app, pygame.K_ESCAPE)
    assert app.top is screen


def test_a_one_player_arena_asks_for_two_entrants_in_the_windows_words(app):
    screen, view = _arena(app, "2048")
    view.chosen = {0}
    lines = " ".join(view.draw_over(app.surface))
    assert "games each:" in lines and "sides alternate" not in lines  # (one player: no sides)
    key(app, pygame.K_RETURN)
    assert view.thread is None and view.problem == "choose 2 entrants or more (Space)"


def test_the_arena_chooser_remembers_its_entrants_on_reopening(app):
    """Issue 73 item 10: the chooser forgot a third entrant when it was closed and opened again."""
    screen, view = _arena(app, "tictactoe")
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_SPACE)  # a third entrant
    chosen = {view.choices[i][1] for i in view.chosen}
    assert len(chosen) == 3
    key(app, pygame.K_q)  # (another key: closed before it started)
    assert app.top is screen
    key(app, pygame.K_a, mod=pygame.KMOD_SHIFT, unicode="A")
    again = app.top
    assert again is not view and {again.choices[i][1] for i in again.chosen} == chosen


def test_a_one_player_arena_shows_its_first_entrant_as_its_games_finish(app):
    """Issue 73 item 10: the 2048 arena view stayed empty until the first entrant finished all its games. Each
    finished game reaches the table: the entrant's row and its mean over the games so far."""
    from arcade import arena

    screen, view = _arena(app, "2048")
    entrants = arena.parse_entrants("2048", "random,greedy")
    records = [{"index": i, "seed": i, "score": 100.0 * (i + 1), "outcome": {"score": 100.0 * (i + 1)}}
               for i in range(3)]
    view._so_far(entrants, [], arena.Pairing(entrants[0], None), "random", 3, 10, records)
    row, = view.table["entrants"]
    assert row["entrant"] == "random" and row["games"] == 3 and row["mean"] == 200.0
    drawn = " ".join(view.draw_over(app.surface))
    assert "playing random: 3 of 10 games" in drawn and "random: mean" in drawn
