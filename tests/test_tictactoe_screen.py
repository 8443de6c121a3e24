"""The tic-tac-toe screen headless: clicks and keys, sides, the agent replies, agent vs agent, values, training."""
import pygame

from arcade.games.tictactoe import O, X, decode, tables
from arcade.screens import open_game
from tests.helpers import click, key, ticks, wait_for


def open_ttt(app, **kw):
    screen = open_game(app, "tictactoe", seed=1, **kw)
    app.push(screen)
    ticks(app)
    return screen



def cell_centre(screen, k):
    board, cell = screen._layout(screen._board_area())
    return (int(board.x + (k % 3 + 0.5) * cell), int(board.y + (k // 3 + 0.5) * cell))


def test_click_plays_and_the_agent_replies(app):
    screen = open_ttt(app)
    click(app, cell_centre(screen, 4))
    assert decode(screen.state)[4] == X
    assert wait_for(app, lambda: (decode(screen.state) == O).sum() == 1)
    assert screen.mark_to_move == X


def test_numpad_keys_map_to_cells(app):
    screen = open_ttt(app)
    screen.controller.delay_ms = 5000  # keep the agent from answering during the test
    key(app, pygame.K_7)
    assert decode(screen.state)[0] == X
    screen.restart()
    key(app, pygame.K_3)
    assert decode(screen.state)[8] == X


def test_taken_cell_and_wrong_turn_are_refused(app):
    screen = open_ttt(app)
    key(app, pygame.K_5)
    key(app, pygame.K_5)  # the cell is taken (and it may still be O's turn): refused either way
    cells = decode(screen.state)
    assert cells[4] == X and (cells == X).sum() == 1 and screen.toast is not None


def test_playing_o_lets_the_agent_open(app):
    screen = open_ttt(app)
    key(app, pygame.K_o)
    assert screen.human_mark == O
    assert wait_for(app, lambda: (decode(screen.state) == X).sum() == 1)


def test_enter_hands_both_sides_to_the_agent_and_tallies(app):
    screen = open_ttt(app)
    screen.controller.select("minimax")
    key(app, pygame.K_RETURN)
    assert wait_for(app, lambda: screen.over)
    assert tables().winner[screen.state] == 0  # minimax against itself draws
    ticks(app, 2)
    assert screen.selfplay["minimax"] == [0, 1, 0]
    assert wait_for(app, lambda: screen.state == 0 or not screen.over)  # the next game starts


CELL_KEYS = {0: pygame.K_7, 1: pygame.K_8, 2: pygame.K_9, 3: pygame.K_4, 4: pygame.K_5, 5: pygame.K_6,
             6: pygame.K_1, 7: pygame.K_2, 8: pygame.K_3}


def test_tally_counts_a_game_against_you(app):
    screen = open_ttt(app)
    screen.controller.select("minimax")
    while not screen.over:
        assert wait_for(app, lambda: screen.refusal() is None or screen.over)
        if not screen.over:
            free = [k for k in range(9) if decode(screen.state)[k] == 0]
            key(app, CELL_KEYS[free[0]])
    ticks(app)
    w, d, l = screen.tally["minimax"]  # your results, as the statistics count them (issue 25 #8)
    assert w == 0 and d + l == 1  # nobody beats minimax
    tally = screen.stats.of("tictactoe")["you vs minimax"]
    assert (tally.wins, tally.draws, tally.losses) == (w, d, l)
    assert screen.result_title() == ("Draw" if d else "You lose")  # the card speaks to you, not of "X"


def test_value_overlay_shows_the_agents_values(app):
    screen = open_ttt(app)
    screen.controller.select("minimax")
    key(app, pygame.K_v)
    assert screen.values.on
    assert wait_for(app, lambda: screen.values.current(screen.state) is not None)
    from agents.minimax import move_values

    assert screen.values.current(screen.state) == move_values(screen.state)  # off the frame loop, the same numbers
    ticks(app, 2)  # draws the nine values without error


def test_t_trains_in_the_background_and_saves(app, settings):
    screen = open_ttt(app)
    key(app, pygame.K_t)
    assert screen.trainer.job is not None
    key(app, pygame.K_5)  # the board stays usable during training
    assert decode(screen.state)[4] == X
    assert wait_for(app, lambda: screen.trainer.job is None)
    assert (settings.data_dir / "tictactoe_td.npz").exists()


def test_playing_o_the_values_speak_of_o(app):
    """Issue 25 #8: the `v` line named the side of an earlier state ("for X") while the panel said "for O"."""
    screen = open_ttt(app)
    screen.controller.select("minimax")
    key(app, pygame.K_o)  # you play O: minimax opens as X
    assert wait_for(app, lambda: screen.refusal() is None)
    key(app, pygame.K_v)
    assert wait_for(app, lambda: screen.values.current(screen.state) is not None)
    assert "for O" in screen.values.legend
    key(app, pygame.K_v)
    key(app, pygame.K_v)  # on again: the line says what the panel says
    assert "for O" in screen.toast[0] and "for X" not in screen.toast[0]


def test_the_side_tables_come_back_with_the_screen(app):
    """Issue 25 #20: after re-entering, the panel said "Results appear here after the first game"."""
    screen = open_ttt(app)
    screen.controller.select("random")
    while not screen.over:  # your moves (the first free cell) until the game ends
        assert wait_for(app, lambda: screen.refusal() is None or screen.over)
        if not screen.over:
            key(app, CELL_KEYS[screen.rules.legal_actions(screen.state)[0]])
    ticks(app)
    played = dict(screen.tally)
    assert sum(played["random"]) == 1
    key(app, pygame.K_ESCAPE)
    again = open_ttt(app)
    assert again.tally == played


def test_esc_during_a_training_asks_then_the_training_stops_saves_and_says_so(app):
    """Esc during a training (tic-tac-toe t) killed it without a word and the curve was gone. Now the first Esc
    asks; the second leaves, and the training stops, saves what it learnt and a line says so."""
    import pygame

    from arcade.foundation import notices
    from arcade.screens import open_game
    from tests.helpers import key, wait_for

    screen = open_game(app, "tictactoe")
    app.push(screen)
    said = []
    screen.say = lambda message, ms=0: said.append(message)
    key(app, pygame.K_t)
    assert screen.trainer.running
    assert wait_for(app, lambda: screen.trainer.view.job.done > 0)  # (stopped before any game: nothing to save)
    key(app, pygame.K_ESCAPE)
    assert app.top is screen and "Esc again leaves" in said[-1]
    key(app, pygame.K_ESCAPE)
    assert app.top is not screen and len(app.finishing) == 1
    assert wait_for(app, lambda: not app.finishing)
    assert any("td-value trained" in n and "saved" in n for n in notices.recent())
    assert (app.settings.data_dir / "tictactoe_td.npz").exists()


def test_at_640x480_the_values_caption_gives_way_to_a_training(app, monkeypatch):
    """At 640x480 with v on while it trained, the values' caption was drawn over "You play X": with no room
    between the results and the training's curve, the caption is left out (the cells keep their numbers)."""
    from types import SimpleNamespace

    from arcade.ui import hud, text
    from tests.helpers import resize

    resize(app, (640, 480))
    screen = open_game(app, "tictactoe", seed=1)
    app.push(screen)
    screen.values.on = True
    monkeypatch.setattr(screen.trainer.view, "job", SimpleNamespace(kill=lambda: None))  # a training runs
    screen.draw_game(app.surface, hud.board_rect(app.surface))  # (its panel's layout: where the results end)
    drawn = []
    monkeypatch.setattr(screen.values, "shown", lambda state: {k: 0.5 for k in range(9)})
    monkeypatch.setattr(text, "draw", lambda surface, line, pos, *a, **k: drawn.append((line, pos)) or pygame.Rect(0, 0, 1, 1))
    screen.draw_values(app.surface, hud.board_rect(app.surface))
    assert [line for line, _ in drawn] == ["0.5"] * 9  # the cells' numbers, no caption


def test_the_end_card_leaves_the_winning_line_in_sight(app):
    """The card sat on the board's middle and hid a winning line through it: it goes beside the board."""
    from arcade.games.tictactoe import encode
    from arcade.session import GameSession
    from arcade.ui import hud
    from tests.helpers import resize

    for size in ((640, 480), (1024, 720), (1600, 900)):
        resize(app, size)
        screen = open_ttt(app)
        won = encode([X, O, O, 0, X, 0, 0, 0, X])  # X's diagonal through the middle
        screen.session = GameSession(screen.rules, 1, state=won)
        assert screen.over
        rect = hud.board_rect(app.surface)
        screen.draw_game(app.surface, rect)
        board, _ = screen._layout(rect)
        card = screen.end_card
        assert card is not None and not card.colliderect(board), (size, card, board)
        assert app.surface.get_rect().contains(card), size
        app.pop()


def test_the_hud_says_the_agent_plays_o_while_you_play_x(app):
    """Issue 73 item 10: the HUD said "Agent td-value: off" while td-value played O against the person."""
    from arcade.screens import open_game

    screen = open_game(app, "tictactoe")
    app.push(screen)
    screen.controller.set_enabled(False)
    assert screen.controller.status(screen.opponent_seat()).startswith("plays O")
    screen.controller.set_enabled(True)  # (Enter: it plays both sides, yours too)
    assert not screen.controller.status(screen.opponent_seat()).startswith("plays")


def test_a_painted_position_rings_the_cell_of_the_move_that_led_to_it():
    """Issue 74: the tree's small board and the replay mark the move (dots ring the line; tic-tac-toe the cell)."""
    import pygame

    from arcade.games.tictactoe import TicTacToeRules, parse_board
    from arcade.screens.tictactoe.painter import paint
    from arcade.ui import palette

    rules = TicTacToeRules()
    before, after = parse_board(".../.X./..."), parse_board("O../.X./...")
    plain, marked = pygame.Surface((300, 300)), pygame.Surface((300, 300))
    paint(plain, plain.get_rect(), rules, after)
    paint(marked, marked.get_rect(), rules, after, [before])
    ringed = {(x, y) for x in range(0, 100) for y in range(0, 100) if marked.get_at((x, y))[:3] == palette.ACCENT[:3]}
    assert ringed and not any(plain.get_at(p)[:3] == palette.ACCENT[:3] for p in ringed)  # top left only
    assert not any(marked.get_at((x, y))[:3] == palette.ACCENT[:3] for x in range(200, 300) for y in range(200, 300))
