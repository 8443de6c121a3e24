"""The contract every game screen shares, run on each playable game: agent keys, help, agent errors."""
import pygame
import pytest

from arcade.games import GAMES
from arcade.screens import open_game
from arcade.screens.overlays import AgentPanel, KeyHelp, StatisticsView
from arcade.screens.shell_keys import help_line_of
from tests.helpers import key, record_cuts, ticks, wait_for

PLAYABLE = [g.id for g in GAMES]


def test_at_least_one_game_is_playable():
    assert "2048" in PLAYABLE


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_enter_tab_and_delay_keys(app, game_id):
    screen = open_game(app, game_id, seed=1)
    app.push(screen)
    names = [s.name for s in screen.controller.specs]
    assert "random" in names
    key(app, pygame.K_RETURN)
    assert screen.controller.enabled
    key(app, pygame.K_TAB)
    assert screen.controller.name == names[1 % len(names)]
    key(app, pygame.K_TAB, mod=pygame.KMOD_SHIFT)
    assert screen.controller.name == names[0]
    delay = screen.controller.delay_ms
    key(app, pygame.K_PLUS, unicode="+")
    assert screen.controller.delay_ms > delay
    key(app, pygame.K_MINUS, unicode="-")
    assert screen.controller.delay_ms == delay
    key(app, pygame.K_h)
    assert isinstance(app.top, KeyHelp) and app.top.under is screen
    key(app, pygame.K_SPACE)
    assert app.top is screen
    key(app, pygame.K_RETURN)
    assert not screen.controller.enabled


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_random_agent_moves_while_frames_keep_coming(app, game_id):
    screen = open_game(app, game_id, seed=2, agent="random")
    app.push(screen)
    first = screen.agent_state()
    frames = app.frames
    assert wait_for(app, lambda: screen.agent_state() is not None and screen.agent_state() != first)
    assert app.frames > frames


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_agent_exception_is_shown_and_game_goes_on(app, game_id):
    screen = open_game(app, game_id, seed=3)
    app.push(screen)

    class Broken:
        name = "broken"

        def act(self, state, rng):
            raise RuntimeError("kaput")

    screen.controller.select("random")  # an agent that decides in this process (the agent process has its own test)
    screen.controller._decider().put(screen.controller.spec, Broken())  # under the decider's lock: no warm-up replaces it
    screen.controller.set_enabled(True)
    assert wait_for(app, lambda: screen.controller.error)
    assert "kaput" in screen.controller.status() and not screen.controller.enabled
    ticks(app, 3)  # still drawing


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_leaving_a_screen_keeps_its_choices(app, game_id):
    """Issue 25 #18: the agent, its delay and v are kept per game when you leave and come back (and across
    runs: they live in the data folder); an agent asked for on opening wins."""
    screen = open_game(app, game_id, seed=1)
    app.push(screen)
    last = screen.controller.specs[-2].name  # not the default (the first)
    screen.controller.select(last)
    key(app, pygame.K_PLUS)
    key(app, pygame.K_PLUS)
    delay = screen.controller.delay_ms
    key(app, pygame.K_ESCAPE)
    again = open_game(app, game_id, seed=1)
    assert again.controller.name == last and again.controller.delay_ms == delay
    again.close()
    asked = open_game(app, game_id, seed=1, agent="random")
    assert asked.controller.name == "random"
    asked.close()


def test_the_screens_own_choices_come_back_too(app):
    blackjack = open_game(app, "blackjack", seed=1)
    app.push(blackjack)
    key(app, pygame.K_2)  # the large deck
    key(app, pygame.K_ESCAPE)
    assert open_game(app, "blackjack", seed=1).rules.preset == "large"
    twenty48 = open_game(app, "2048", seed=1)
    app.push(twenty48)
    key(app, pygame.K_5)
    key(app, pygame.K_g)
    key(app, pygame.K_ESCAPE)
    again = open_game(app, "2048", seed=1)
    assert again.rules.size == 5 and again.grayscale
    dots = open_game(app, "dots", seed=1)
    app.push(dots)
    key(app, pygame.K_2)  # 2x3
    key(app, pygame.K_f)  # second
    key(app, pygame.K_ESCAPE)
    again = open_game(app, "dots", seed=1)
    assert (again.rules.rows, again.rules.cols) == (2, 3) and again.human_seat == 1


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_the_key_line_is_readable_at_640(app, game_id):
    """Issue 25 #11: at 640x480 the footer's key line shrank to about 7 px; now entries are left out (h shows
    them all) so it fits at 17 px, and help and back are always there."""
    from arcade.screens.shell_keys import HELP_LINE_SIZE
    from arcade.ui import text

    screen = open_game(app, game_id, seed=1)
    line = help_line_of(screen.all_keys(), 640 - 28)
    assert text.font(HELP_LINE_SIZE).size(line)[0] <= 640 - 28
    for word in ("Enter: agent", "Tab: next agent", "v: values", "h/?: help, lab", "Esc: back"):
        assert word in line  # a player's keys stay; the game's own extras go first
    assert len(line) <= len(help_line_of(screen.all_keys()))
    screen.close()


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_the_player_line_names_no_lab_key_and_the_help_lists_them_under_a_heading(app, game_id):
    """Issue 74: a player's footer has the game's keys and Enter / Tab / v / h; the lab's keys (tree,
    parameters, statistics, replays, arena, training) are one key away, in the help under its heading."""
    from arcade.screens.shell_keys import LAB_HEADING, LAB_KEYS

    screen = open_game(app, game_id, seed=1)
    line = help_line_of(screen.all_keys())
    for word in ("Enter: agent", "Tab: next agent", "v: values", "h/?: help, lab"):
        assert word in line
    for word in ("train", "tree", "arena", "statistics", "shipped", "learning", "Shift+"):
        assert word not in line, word
    rows = screen.help_entries()
    lab = [k[0] for k in rows[rows.index(LAB_HEADING) + 1:]]
    assert [k[0] for k in LAB_KEYS] == lab[:len(LAB_KEYS)] and len(rows) == len(screen.all_keys()) + 1
    screen.close()


@pytest.mark.parametrize("size", [(640, 480), (1024, 720)])
@pytest.mark.parametrize("game_id", PLAYABLE)
def test_no_words_are_cut_with_any_agent(settings, monkeypatch, game_id, size):
    """Every agent selected in turn, at 640x480 and 1024x720: the screen, its agent panel, its statistics and its key help
    draw no line cut with an ellipsis (they shrink, wrap or leave out a status line's last parts instead)."""
    from agents import agents_for
    from arcade.app import App

    cut = record_cuts(monkeypatch)
    app = App(settings, size=size)
    try:
        surface = pygame.Surface(size)
        for spec in agents_for(game_id):
            screen = open_game(app, game_id, agent=spec.name, seed=1)
            screen.draw(surface)
            for overlay in (AgentPanel, StatisticsView, KeyHelp):
                overlay(app, screen).draw(surface)
            screen.close()
            assert cut == [], f"{game_id} with {spec.name}: {cut}"
    finally:
        app.close()


@pytest.mark.parametrize("size", [(640, 480), (1024, 720)])
@pytest.mark.parametrize("game_id", PLAYABLE)
def test_no_words_of_the_values_caption_are_cut(settings, monkeypatch, game_id, size):
    """Every agent that explains, its values of the first position shown (v) with their figures and legend:
    the caption gets smaller type or more lines, never an ellipsis (dots' expectiminimax legend was cut at
    both sizes, match-3's at 640x480)."""
    from agents import Explains, agents_for
    from arcade.app import App

    settings = settings.with_table("agents", time_budget_ms=200)
    app = App(settings, size=size)
    cut: list = []
    try:
        surface = pygame.Surface(size)
        for spec in agents_for(game_id):
            screen = open_game(app, game_id, agent=spec.name, seed=1)
            if spec.cannot_play(screen.rules) is None:
                agent = spec.create(screen.rules, settings)
                if isinstance(agent, Explains):
                    state = screen.session.state
                    view = screen.values
                    view.on, view.values, view.state, view.agent = True, agent.explain(state), state, spec.name
                    view._rules, view.ms = screen.rules, 12.0
                    view.figures = agent.figures() if hasattr(agent, "figures") else {}
                    mover = screen.rules.seat_names[screen.rules.to_move(state)]  # as the agent call names it
                    view.legend = agent.value_legend(mover) if hasattr(agent, "value_legend") else ""
                    with monkeypatch.context() as watch:
                        cut = record_cuts(watch)
                        screen.draw(surface)
            screen.close()
            assert cut == [], f"{game_id} with {spec.name}: {cut}"
    finally:
        app.close()


def test_a_train_or_learn_key_that_does_nothing_on_a_screen_says_why_in_one_line(app):
    """`l` on match-3 and on tic-tac-toe has no agent to act on (`t` on dots and match-3, `y` on blackjack
    had none until their learners came): one line says so and where the key does something."""
    import pygame

    from arcade.screens import open_game
    from tests.helpers import key

    match3 = open_game(app, "match3")
    app.push(match3)
    said = []
    match3.say = lambda message, ms=0: said.append(message)
    key(app, pygame.K_l)
    assert len(said) == 1 and "l does nothing here: no Match-3 agent learns while it plays yet" in said[0]
    assert "q-learning" in said[0]  # where it does: blackjack's q-learning
    assert match3.trainer.idle_key_reason(pygame.K_t) is None  # its td-value trains
    app.pop()
    dots = open_game(app, "dots")
    assert dots.trainer.idle_key_reason(pygame.K_t) is None  # its ntuple trains
    tictactoe = open_game(app, "tictactoe")
    app.push(tictactoe)
    assert "no Tic-Tac-Toe agent learns while it plays" in tictactoe.trainer.idle_key_reason(pygame.K_l)
    assert tictactoe.trainer.idle_key_reason(pygame.K_t) is None  # its td-value trains: t does something there


@pytest.mark.parametrize("game_id, row_of", [("2048", lambda who: f"{who} (4x4)"),
                                             ("blackjack", lambda who: f"{who} (small deck)")])
def test_statistics_show_the_histogram_of_whoever_plays_now(app, game_id, row_of, monkeypatch):
    """k showed the histogram of the row with most games ("you"), not the agent in control's."""
    from arcade.screens import open_game
    from arcade.ui import panels

    screen = open_game(app, game_id)
    for _ in range(5):
        screen.stats.record(game_id, row_of("you"), 100, None, "a")
    screen.stats.record(game_id, row_of(screen.controller.name), 300, None, "b")
    shown = []
    monkeypatch.setattr(panels, "draw_statistics", lambda *args, **kwargs: shown.append(args[-1]))
    view = StatisticsView(app, screen)
    screen.controller.set_enabled(True)
    view.draw(app.surface)
    screen.controller.set_enabled(False)
    view.draw(app.surface)
    assert shown == [row_of(screen.controller.name), row_of("you")]
    screen.close()


def test_a_held_enter_toggles_the_agent_once_and_a_held_arrow_keeps_moving(app):
    """pygame repeats a held key (300 ms, then every 60 ms): a held Enter (KEYDOWNs with no KEYUP between) once
    toggled the agent on and off until another key came; it now acts once a press. Arrows still repeat."""
    screen = open_game(app, "2048", seed=3)
    app.push(screen)
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    for _ in range(4):  # the press and three repeats
        pygame.event.post(down)
        ticks(app, 1)
    assert screen.controller.enabled
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
    pygame.event.post(down)  # a new press
    ticks(app, 1)
    assert not screen.controller.enabled
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
    ticks(app, 1)
    moves = []
    for arrow in (pygame.K_LEFT, pygame.K_RIGHT) * 3:  # held arrows: every KEYDOWN a move (where it moves)
        before = screen.session.state
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=arrow, mod=0, unicode="", scancode=0))
        ticks(app, 2)
        moves.append(screen.session.state is not before)
    assert sum(moves) >= 2


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_tab_says_which_group_an_agent_is_in_and_what_it_does_in_plain_words(app, game_id):
    """Issue 61 #10: Tab showed 8-10 names such as alpha-beta-ntuple with their technical summary. Every
    agent now belongs to a group (the course's, among the strongest, learnt, a search for every game, a
    baseline), and Tab says it, where the agent stands in the list, and one plain sentence."""
    from agents.base import GROUPS

    screen = open_game(app, game_id, seed=1)
    app.push(screen)
    specs = screen.controller.specs
    assert all(s.group in GROUPS for s in specs) and {s.group for s in specs} >= {GROUPS[-1], GROUPS[3]}
    key(app, pygame.K_TAB)
    spec = screen.controller.spec
    said = screen.toast[0]
    assert said.startswith(f"agent {screen.controller.index + 1} of {len(specs)}: {spec.shown}, {spec.group}.")  # (its title)
    assert spec.plain() in said and spec.plain().endswith(".") and spec.plain().count(". ") == 0


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_a_first_visit_shows_a_how_to_play_card_once_and_any_key_closes_it(app, game_id, monkeypatch):
    """Issue 61 #10: a first visit to each game shows a short card (how to play, Enter hands over, h for
    keys), once; the key that closes it does what it does (Esc only closes the card)."""
    from arcade.ui import panels

    cards = []
    real = panels.draw_welcome
    monkeypatch.setattr(panels, "draw_welcome", lambda *a: cards.append(real(*a)) or cards[-1])
    screen = open_game(app, game_id, seed=1, welcome=True)
    app.push(screen)
    ticks(app)
    assert screen.welcome and screen.welcome[0] == screen.info.how_to and cards
    assert any("Enter" in line for line in screen.welcome) and any(line.startswith("h:") for line in screen.welcome)
    for size in ((640, 480), (1024, 720), (1600, 900)):
        surface = pygame.Surface(size)
        cuts = record_cuts(monkeypatch)
        card = panels.draw_welcome(surface, pygame.Rect(16, 80, size[0] - 32, size[1] - 140), "title", screen.welcome)
        assert surface.get_rect().contains(card) and not cuts, (size, cuts)
    key(app, pygame.K_ESCAPE)
    assert screen.welcome is None and app.top is screen  # Esc closed the card, not the game
    app.pop()
    again = open_game(app, game_id, seed=1, welcome=True)
    assert again.welcome is None  # once
    again.close()


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_the_help_lists_every_key_of_the_screen_scrolling_where_the_window_is_small(settings, game_id):
    """Issue 74: 2048's help at 640x480 said "5 more in a larger window" and did not scroll. Down scrolls until
    the last key is listed; every key of the screen is listed on the way; another key closes the help."""
    from arcade.app import App
    from arcade.screens.launcher import LauncherScreen

    app = App(settings, size=(640, 380))  # (smaller than any screen's help: it must scroll)
    app.push(LauncherScreen(app))
    try:
        screen = open_game(app, game_id, seed=1)
        app.push(screen)
        key(app, pygame.K_h, unicode="h")
        help_view = app.top
        assert isinstance(help_view, KeyHelp)
        every = [k[0] for k in screen.all_keys()]
        seen = set(help_view.draw_over(app.surface))
        assert help_view.scrolls and len(seen) < len(every)
        for _ in range(len(every)):
            key(app, pygame.K_DOWN)
            seen |= set(help_view.draw_over(app.surface))
        assert seen == set(every) and app.top is help_view
        key(app, pygame.K_x, unicode="x")
        assert app.top is screen
    finally:
        app.close()


def test_a_compiles_bar_stays_on_top_of_an_overlay(app, monkeypatch):
    """Issue 75 item 6: the tree view said "searching the position..." for 35 s with the compile's bar behind
    it. Long work an agent waits for draws its bar last, over any overlay (help, tree, replay, arena...)."""
    import time

    from arcade import agent_process
    from arcade.screens import overlays
    from arcade.ui import hud

    screen = open_game(app, "2048", seed=1)
    app.push(screen)
    now = time.monotonic()
    task = agent_process.TaskProgress("compiling the search kernels", 1.4, 10, "12 s (the first time only)",
                                      now - 12, now)
    monkeypatch.setattr(type(screen.controller), "progress", lambda self: task)
    drawn = []
    real_progress, real_help = hud.draw_progress, hud.draw_help_overlay
    monkeypatch.setattr(hud, "draw_progress", lambda s, line, f: drawn.append(("bar", line)) or real_progress(s, line, f))
    monkeypatch.setattr(hud, "draw_help_overlay", lambda *a, **k: drawn.append(("help",)) or real_help(*a, **k))
    app.push(overlays.KeyHelp(app, screen))
    app.top.draw(app.surface)
    assert [d[0] for d in drawn][-2:] == ["help", "bar"] and "compiling the search kernels" in drawn[-1][1]
    app.pop()
    screen.close()
