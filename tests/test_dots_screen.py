"""The dots and boxes screen headless: clicks near lines, keyboard cursor, extra move, sizes, agents."""
import pygame
import pytest

from arcade.games.dots import DotsState
from arcade.screens import open_game
from arcade.ui import palette
from tests.helpers import click, key, ticks, wait_for


def open_dots(app):
    screen = open_game(app, "dots", seed=1)
    app.push(screen)
    ticks(app)
    return screen



def near(screen, bit, dx=6, dy=5):
    mx, my = screen._midpoint(bit)
    return int(mx + dx), int(my + dy)


def test_click_near_a_line_draws_it_and_the_opponent_replies(app):
    screen = open_dots(app)
    click(app, near(screen, 0))
    assert screen.state.lines & 1 and screen.owners()[0][0] == 0
    assert wait_for(app, lambda: bin(screen.state.lines).count("1") == 2)  # the opponent drew one


def test_click_far_from_lines_draws_nothing(app):
    screen = open_dots(app)
    x, y = screen._dot(0, 0)
    click(app, (x - 200, y - 5))
    assert screen.state.lines == 0


def test_completing_a_box_gives_another_move(app):
    screen = open_dots(app)
    screen.opponent.delay_ms = 10_000  # keep the opponent quiet
    screen.show_state(DotsState(2, 2, 325 & ~1, (0, 0), 0))
    click(app, near(screen, 0))
    assert screen.state.scores == (1, 0) and screen.state.mover == 0 and screen.owners()[1] == {0: 0}


def test_keyboard_cursor_and_space(app):
    screen = open_dots(app)
    start = screen.cursor
    key(app, pygame.K_RIGHT)
    assert screen.cursor != start
    chosen = screen.cursor
    key(app, pygame.K_SPACE)
    assert (screen.state.lines >> chosen) & 1


def test_size_keys_first_second_and_opponent(app):
    screen = open_dots(app)
    for k, size in ((pygame.K_2, (2, 3)), (pygame.K_1, (2, 2))):
        key(app, k)
        assert (screen.state.rows, screen.state.cols) == size and screen.state.lines == 0
    assert screen.opponent.name == "random"
    key(app, pygame.K_o)
    assert screen.opponent.name == "greedy"
    key(app, pygame.K_f)
    assert screen.human_seat == 1
    assert wait_for(app, lambda: screen.state.lines != 0)  # the opponent opens


def test_the_agent_plays_a_whole_game(app):
    screen = open_dots(app)
    screen.controller.select("policy-iteration")
    key(app, pygame.K_RETURN)
    assert wait_for(app, lambda: screen.over)
    assert sum(screen.state.scores) == 4 and len(screen.owners()[0]) == 12


def test_a_finished_game_keeps_who_played_it_and_shows_a_card(app):
    """Issue 25 #7 and #17: taking control back after the agent finished a game does not relabel its boxes or
    its result ("you 5 - 4 random: you wins"), and the game ends on a card like the other games'."""
    screen = open_dots(app)
    screen.controller.select("greedy")
    key(app, pygame.K_RETURN)  # greedy plays your side against random
    assert wait_for(app, lambda: screen.over)
    status = screen.status_text()
    assert screen.seat_name(screen.human_seat) == "greedy" and "greedy" in status and "you" not in status
    key(app, pygame.K_RETURN)  # control back: the finished game is still greedy's
    assert not screen.controller.enabled and screen.status_text() == status
    assert screen.seat_name(screen.human_seat) == "greedy"
    ticks(app, 2)
    ox, oy, gap = screen._geometry()
    inside_card = (ox + 16, oy + gap * screen.board.rows // 2)  # the card's left margin, halfway down the board
    assert tuple(app.surface.get_at(inside_card))[:3] == tuple(palette.PANEL)
    assert screen.verdict() in ("A draw", "greedy wins", "random wins")
    key(app, pygame.K_r)  # a new game: you again
    assert screen.seat_name(screen.human_seat) == "you"


def test_you_win_in_words():
    from types import SimpleNamespace

    from arcade.screens.dots.screen import DotsScreen

    fake = SimpleNamespace(state=SimpleNamespace(scores=(5, 4)), human_seat=0,
                           seat_name=lambda seat: ("you", "random")[seat])
    fake.seat_label = lambda seat: DotsScreen.seat_label(fake, seat)
    assert DotsScreen.verdict(fake) == "You win"
    fake.state = SimpleNamespace(scores=(3, 6))
    assert DotsScreen.verdict(fake) == "random wins"


def test_values_mark_no_line_when_all_tie_and_one_on_a_tight_board(app):
    """Issue 25 #13: when all lines tied the whole board turned thick yellow; at 640 labels overlapped."""
    from tests.helpers import resize

    screen = open_dots(app)
    ties = {b: 1.0 for b in screen.rules.legal_actions(screen.state)}
    screen.values.values = ties
    assert screen.marked_lines(ties) == set()
    two_best = {**ties, 3: 2.0, 5: 2.0}
    screen.values.values = two_best
    assert screen.marked_lines(two_best) == {3, 5}  # a roomy 2x2 board: both best lines
    key(app, pygame.K_5)  # 5x5 boxes
    resize(app, (640, 480))
    values = {b: float(b % 3) for b in screen.rules.legal_actions(screen.state)}
    screen.values.values = values
    assert screen.marked_lines(values) == {2}  # tight: only the line it would draw (ties to the first listed)


@pytest.mark.parametrize("kept_agent", ["mcts", "alpha-beta"])
def test_a_kept_big_board_with_its_agent_opens_without_saying_the_agent_was_replaced(app, kept_agent):
    """Dots kept on 5x5 with mcts (or alpha-beta): every visit said "solver plays boards up to 3x3 ... the
    agent is now alpha-beta", about the default agent the kept one replaces anyway."""
    import json

    from arcade.screens import open_game

    path = app.settings.data_dir / "choices.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"dots": {"agent": kept_agent, "delay_ms": 200, "values": False,
                                         "board": [5, 5], "seat": 0, "opponent": "greedy"}}))
    screen = open_game(app, "dots")
    assert (screen.rules.rows, screen.rules.cols) == (5, 5) and screen.controller.name == kept_agent
    assert screen.toast is None or "is now" not in screen.toast[0]


def test_the_command_lines_board_and_agent_win_over_the_kept_ones(app):
    """`play dots(rows=2,cols=4) --agent solver` opened the kept 5x5 board and moved to alpha-beta."""
    import json

    from arcade.screens import open_game

    path = app.settings.data_dir / "choices.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"dots": {"agent": "mcts", "delay_ms": 200, "values": False, "board": [5, 5],
                                         "seat": 1, "opponent": "greedy"}}))
    app.settings = app.settings.with_table("dots", rows=2, cols=4)  # what dots(rows=2,cols=4) does to the settings
    screen = open_game(app, "dots", agent="solver", given=("rows", "cols"))  # the rules parameters it gave
    assert (screen.rules.rows, screen.rules.cols) == (2, 4) and screen.controller.name == "solver"
    assert screen.human_seat == 1 and screen.opponent.name == "greedy"  # the other kept choices still come back


def test_agent_names_are_written_as_the_agent_list_writes_them(app):
    """"Alpha-beta: 0" beside "alpha-beta: 0", "Mcts wins": names keep their case, and one agent on both seats
    is told apart by "(opponent)"."""
    screen = open_dots(app)
    screen.controller.select("greedy")
    screen.opponent.select("greedy")
    screen.controller.set_enabled(True)
    assert screen.seat_label(screen.human_seat) == "greedy"
    assert screen.seat_label(1 - screen.human_seat) == "greedy (opponent)"
    screen.controller.set_enabled(False)
    assert screen.seat_label(screen.human_seat) == "You"
    screen.opponent.select("mcts")
    assert screen.seat_label(1 - screen.human_seat) == "mcts"


def test_the_keyboard_cursor_leaves_the_line_it_drew_so_its_colour_shows(app):
    """Space drew the cursor's line and the cursor's outline stayed on it, hiding whose line it was."""
    screen = open_dots(app)
    first = screen.cursor
    key(app, pygame.K_SPACE)
    assert (screen.state.lines >> first) & 1 and not (screen.state.lines >> screen.cursor) & 1
    drawn = pygame.Surface(app.surface.get_size())
    screen.cursor = first  # were it left there, nothing of the cursor is drawn over the drawn line
    screen.draw_game(drawn, __import__("arcade.ui.hud", fromlist=["board_rect"]).board_rect(drawn))
    (r1, c1), (r2, c2) = screen.board.line_ends(first)
    a, z = screen._dot(r1, c1), screen._dot(r2, c2)
    middle = ((a[0] + z[0]) // 2, (a[1] + z[1]) // 2)
    assert tuple(drawn.get_at(middle))[:3] != palette.ACCENT[:3]


def test_a_board_where_every_line_is_alike_says_so_in_the_panel(app, monkeypatch):
    """No line is marked when all values tie (a board of thick lines hid the drawn ones): the panel says what
    each is worth instead of showing nothing."""
    from arcade.ui import text

    screen = open_dots(app)
    screen.values.on = True
    monkeypatch.setattr(screen.values, "shown", lambda state: {bit: 0.0 for bit in screen.rules.legal_actions(state)})
    seen = []
    monkeypatch.setattr(text, "draw", lambda surface, line, *a, **k: seen.append(line))
    screen.draw_values(app.surface, __import__("arcade.ui.hud", fromlist=["board_rect"]).board_rect(app.surface))
    assert any("every line is worth 0" in line for line in seen)
