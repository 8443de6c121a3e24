"""The 2048 screen driven headless: keys move, undo restores, sizes, grayscale, the agent plays."""
import itertools

import numpy as np
import pygame

from arcade.screens import open_game
from arcade.screens.overlays import agent_panel_lines
from tests.helpers import key, ticks, wait_for


def open_2048(app, **kw):
    screen = open_game(app, "2048", seed=11, **kw)
    app.push(screen)
    ticks(app)
    return screen


def test_arrow_changes_board_and_undo_restores_exactly(app):
    screen = open_2048(app)
    start = screen.game.state
    for k in (pygame.K_LEFT, pygame.K_UP, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_a, pygame.K_w):
        key(app, k)
    assert len(screen.game.history) >= 2 and screen.game.state != start
    for _ in range(len(screen.game.history)):
        key(app, pygame.K_u)
    assert screen.game.state == start


def test_size_keys_restart_at_that_size(app):
    screen = open_2048(app)
    for k, size in ((pygame.K_3, 3), (pygame.K_7, 7), (pygame.K_5, 5)):
        key(app, k, frames=2)
        assert screen.game.state.board.shape == (size, size)
        assert np.count_nonzero(screen.game.state.board) == 2


def test_g_turns_the_pixels_gray(app):
    open_2048(app)
    ticks(app, 2)
    pixels = pygame.surfarray.array3d(app.surface).astype(int)
    assert np.abs(pixels[..., 0] - pixels[..., 2]).max() > 30  # colour before
    key(app, pygame.K_g, frames=2)
    pixels = pygame.surfarray.array3d(app.surface).astype(int)
    assert np.abs(pixels[..., 0] - pixels[..., 1]).max() <= 1 and np.abs(pixels[..., 1] - pixels[..., 2]).max() <= 1


def test_enter_lets_the_agent_play_and_e_picks_the_strong_one(app):
    screen = open_2048(app)
    key(app, pygame.K_e)
    assert screen.controller.name == "expectimax"
    key(app, pygame.K_RETURN)
    assert screen.controller.enabled and screen.control_label() == "expectimax"
    assert wait_for(app, lambda: len(screen.game.history) >= 5)
    key(app, pygame.K_RETURN)
    assert screen.control_label() == "You"


def test_arrows_do_nothing_while_the_agent_plays(app):
    screen = open_2048(app)
    screen.controller.delay_ms = 5000
    key(app, pygame.K_RETURN)
    before = len(screen.game.history)
    key(app, pygame.K_LEFT)
    key(app, pygame.K_RIGHT)
    assert len(screen.game.history) - before <= 1  # at most the agent's own first move


def test_game_over_overlay_and_undo(app):
    from arcade.games.twenty48 import from_values

    screen = open_2048(app)
    key(app, pygame.K_3, frames=1)
    near_end = from_values([[2, 4, 2], [4, 8, 4], [16, 2, 0]])
    screen.game.state = near_end
    key(app, pygame.K_RIGHT, frames=3)  # 16 2 0 -> 0 16 2 then a spawn: the board is full and stuck
    assert screen.game.over
    assert "GAME OVER" in screen.status_text()
    key(app, pygame.K_u)
    assert screen.game.state == near_end and not screen.game.over


def test_best_score_is_saved_per_size(app, settings):
    from arcade.foundation.storage import BestScores

    screen = open_2048(app)
    for k in (pygame.K_LEFT, pygame.K_RIGHT) * 10:
        key(app, k)
    score = screen.game.state.score
    assert score > 0
    assert screen.best.get("2048/4x4") == score
    key(app, pygame.K_r)  # a new game writes the record
    assert BestScores(settings.data_dir).get("2048/4x4") == score


def test_new_best_score_is_announced_only_when_a_finished_game_beats_the_old_best(app, settings):
    from arcade.games.twenty48 import from_values
    from arcade.foundation.storage import BestScores

    screen = open_2048(app)

    def finish_a_game():
        key(app, pygame.K_3, frames=1)  # a new 3x3 game
        screen.game.state = from_values([[2, 4, 2], [4, 8, 4], [16, 2, 0]], score=100)
        screen.toast = None  # only what this last move says
        key(app, pygame.K_RIGHT, frames=2)  # no merge: the score stays 100, the board is stuck
        assert screen.game.over and screen.game.state.score == 100
        return screen.toast[0] if screen.toast else ""

    assert finish_a_game() == "new best score!"
    assert BestScores(settings.data_dir).get("2048/3x3") == 100  # written at game over
    key(app, pygame.K_r, frames=1)
    assert finish_a_game() != "new best score!"  # 100 only equals the best


def test_a_slide_started_from_rest_is_drawn_not_skipped(app):
    """Issue 25 #1: after the window slept (nothing moving), the first frames of a slide get a frame's time,
    not the whole sleep: two real frames after the key the tiles are still sliding."""
    import time

    screen = open_2048(app)
    screen.controller.set_enabled(False)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 0.7:  # the real loop, idle: it sleeps until an input (up to 500 ms a tick)
        app.tick()
    legal = screen.rules.legal_actions(screen.game.state)
    arrow = {0: pygame.K_UP, 1: pygame.K_DOWN, 2: pygame.K_LEFT, 3: pygame.K_RIGHT}[legal[0]]
    import threading

    press = threading.Timer(0.3, pygame.event.post,
                            (pygame.event.Event(pygame.KEYDOWN, key=arrow, mod=0, unicode="", scancode=0),))
    press.start()  # the key comes while the window sleeps, as a person's does
    deadline = time.monotonic() + 30
    while screen.anim is None and time.monotonic() < deadline:  # asleep until the key wakes it (on a busy
        app.tick()  # machine the timer may fire after an idle tick has ended): the slide starts
    press.join()
    assert screen.anim is not None
    app.tick()
    assert screen.anim is not None and screen.anim[2] < screen.anim_ms  # still sliding, partway


def test_e_says_what_it_did_whether_or_not_the_agent_plays(app):
    """Issue 25 #20: e while the agent played said "Enter hands it control"; the panel wrote "ms 5"."""
    screen = open_2048(app)
    key(app, pygame.K_e)
    assert "Enter hands it control" in screen.toast[0]
    screen.controller.select("greedy")
    key(app, pygame.K_RETURN)
    key(app, pygame.K_e)
    assert screen.controller.name == screen.controller.specs[0].name and "it plays now" in screen.toast[0]
    screen.controller.last_figures = {"depth": 3, "ms": 5.2}
    assert agent_panel_lines(screen)[3] == "depth 3, 5.2 ms"


def test_one_green_arrow_even_when_values_tie(app):
    """Issue 25 #20: a tie drew two green arrows; the move the agent makes is one of them."""
    screen = open_2048(app)
    screen.values.values = {0: 4.0, 1: 4.0, 2: 2.0}
    assert screen.values.best() == {0, 1} and screen.values.choice() == 0


def test_a_merge_shows_its_points_rising_and_fading(app):
    """Issue 25 #17: 2048 had no "+N" pop-ups on merges (match-3 has them)."""
    from arcade.games.twenty48 import LEFT, from_values

    screen = open_2048(app)
    screen.show_state(from_values([[2, 2, 0, 0], [4, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], score=0))
    assert screen.do_move(LEFT)
    wait = screen.anim_ms  # it rises when the slide lands
    assert screen.popups == [["+12", 900 + wait]] and screen.busy()
    ticks(app, 3)
    assert 0 < screen.popups[0][1] < 900 + wait
    ticks(app, 80 + wait // 16)  # 80 frames of 16 ms after the slide: gone
    assert screen.popups == []


def test_the_score_changes_when_the_slide_lands_then_merged_tiles_pop_and_the_new_tile_zooms_in(app):
    """Issue 42 #12, as the original game: the score and "+N" change when the slide lands (they changed before
    it started), then the merged tiles grow and settle back and the new tile grows from nothing."""
    from arcade.games.twenty48 import LEFT, from_values
    from arcade.screens.twenty48.screen import POP_MS

    screen = open_2048(app)
    screen.show_state(from_values([[2, 2, 0, 0], [4, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], score=0))
    assert screen.do_move(LEFT)
    (new,) = screen.anim[4]
    assert screen.shown_score() == 0 and screen.tile_scale((0, 0)) == 1.0  # sliding
    screen.update(screen.anim_ms + POP_MS / 2)  # landed, half way through the pop
    assert screen.shown_score() == 12
    assert screen.tile_scale((0, 0)) > 1.15 and screen.tile_scale((1, 0)) > 1.15  # the two merged tiles
    assert 0.3 < screen.tile_scale(new) < 0.7 and screen.tile_scale((3, 3) if new != (3, 3) else (2, 3)) == 1.0
    screen.draw(app.surface)
    screen.update(POP_MS)
    assert screen.anim is None and screen.tile_scale((0, 0)) == 1.0 and screen.tile_scale(new) == 1.0


def test_best_largest_and_moves_wait_for_the_slide_as_the_score_does(app):
    """BEST, LARGEST and MOVES changed at the key press while SCORE waited: BEST read above SCORE mid-slide."""
    from arcade.games.twenty48 import LEFT, from_values

    screen = open_2048(app)
    screen.show_state(from_values([[8, 8, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], score=0))
    best_before, moves_before = int(screen.best.get(screen.best_key)), len(screen.game.history)
    assert screen.do_move(LEFT)
    sliding = screen.shown_figures()
    assert sliding == {"SCORE": 0, "BEST": best_before, "LARGEST": 8, "MOVES": moves_before}
    assert "best " + str(best_before) in screen.status_text() and "largest 8" in screen.status_text()
    screen.update(screen.anim_ms + 1)  # landed
    landed = screen.shown_figures()
    assert landed["SCORE"] == 16 and landed["LARGEST"] == 16 and landed["MOVES"] == moves_before + 1
    assert landed["BEST"] >= 16 and landed["BEST"] >= landed["SCORE"]


def test_all_five_cards_stay_at_640_with_values_on(app):
    """Issue 25 #11: at 640x480 with v the BOARD and MOVES cards were dropped; now the cards get smaller."""
    from tests.helpers import resize

    screen = open_2048(app)
    resize(app, (640, 480))
    key(app, pygame.K_v)
    board, _, _, _ = screen._layout(__import__("arcade.ui.hud", fromlist=["board_rect"]).board_rect(app.surface))
    panel_h = board.h + 2 * 64
    h = screen.card_height(panel_h, 5)
    assert 36 <= h < 62 and 5 * (h + 10) <= panel_h - 110  # five cards, the spawns line and the figures' room
    ticks(app, 2)


def test_merges_in_quick_succession_stay_inside_the_score_card(app):
    """Three "+N" a few frames apart stacked past the score card's bottom (the third was cut by the next card)."""
    screen = open_2048(app)
    for panel_h, values_on in ((560, False), (420, True), (300, False)):
        panel = pygame.Rect(20, 20, 230, panel_h)
        screen.values.on = values_on
        box = pygame.Rect(panel.x, panel.y, panel.w, screen.card_height(panel.h, 5))
        drawn = []
        for popups in ([], [["+4", 900], ["+16", 880], ["+2048", 860]]):
            surface = pygame.Surface((300, 620))
            surface.fill((0, 0, 0))
            screen.popups = popups
            screen._draw_panel(surface, panel)
            drawn.append(pygame.surfarray.array3d(surface))
        changed = np.argwhere((drawn[0] != drawn[1]).any(axis=2))  # (x, y) pixels the pop-ups changed
        assert len(changed), "no pop-up drawn"
        assert box.collidepoint(changed.min(axis=0)) and box.collidepoint(changed.max(axis=0)), (panel_h, box)


def test_merges_faster_than_their_pop_ups_fade_never_draw_one_over_another(app, monkeypatch):
    """At 0 ms an agent merges every frame: the "+4"s were drawn on top of each other."""
    from arcade.screens.twenty48.screen import POPUP_MS
    from arcade.ui import text

    screen = open_2048(app)
    panel = pygame.Rect(20, 20, 230, 560)
    plain = text.draw
    drawn = []
    monkeypatch.setattr(text, "draw", lambda surface, line, pos, size, *a, **k:
                        (drawn.append((pos[1], size)) if line.startswith("+") else None)
                        or plain(surface, line, pos, size, *a, **k))
    # the share of each one's time gone, newest first; and how many fit the card (the rest are left out)
    for ages, at_least in (((0.0, 0.9, 0.95), 1), ((0.1, 0.9, 0.95), 1), ((0.9, 0.95, 0.97), 2)):
        drawn.clear()
        screen.popups = [["+4", POPUP_MS * (1 - age)] for age in reversed(ages)]  # (oldest first, as kept)
        screen._draw_panel(pygame.Surface((300, 620)), panel)
        assert len(drawn) >= at_least
        for (top_a, size_a), (top_b, _) in itertools.pairwise(drawn):
            # each under the whole of the one above ("+N" has no descenders: its height is the font's ascent)
            assert top_b >= top_a + text.font(size_a, bold=True).get_ascent(), (ages, drawn)


def test_r_on_a_long_game_asks_once_and_a_short_one_restarts_at_once(app, monkeypatch):
    import pygame

    from arcade.screens import open_game
    from arcade.screens.twenty48 import screen as twenty48_screen
    from tests.helpers import key

    monkeypatch.setattr(twenty48_screen, "LONG_GAME_MOVES", 6)  # a "long" game any seed reaches
    screen = open_game(app, "2048", seed=5)
    app.push(screen)
    screen.do_move(0)
    key(app, pygame.K_r)
    assert screen.game.moves == 0  # a short game: restarted without a question
    while screen.game.moves < 6:
        legal = screen.rules.legal_actions(screen.game.state)
        screen.do_move(legal[0])
    said = []
    screen.say = lambda message, ms=0: said.append(message)
    key(app, pygame.K_r)
    assert screen.game.moves == 6 and "6 moves" in said[-1] and "press r again" in said[-1]
    key(app, pygame.K_4)  # another key: asks for itself, does not confirm r
    assert screen.game.moves == 6 and "press 4 again" in said[-1]
    key(app, pygame.K_4)
    assert screen.game.moves == 0


def test_a_training_has_its_own_place_beside_the_live_board(app, monkeypatch):
    """The training card covered the board the agent keeps playing: while a training runs the board shrinks
    and the training's bar, curve and game go under the side cards, clear of the board; a 640x480 window has
    no room beside it and keeps the card."""
    from types import SimpleNamespace

    from arcade.ui import hud

    screen = open_game(app, "2048", seed=1)
    area = hud.board_rect(app.surface)
    monkeypatch.setattr(screen.trainer.view, "job", SimpleNamespace(kill=lambda: None))  # a training runs
    board, _, _, panel = screen._layout(area)
    place = screen._training_place(area)
    assert not place.colliderect(board) and panel.contains(place) and place.h >= 220 and place.w >= 400
    small = pygame.Rect(16, 80, 608, 340)  # 640x480's board area: the whole side panel, still clear of the board
    board, _, _, panel = screen._layout(small)
    assert screen._training_place(small) == panel and not panel.colliderect(board)
    screen.close()


def test_shift_t_says_first_that_the_new_network_plays_instead_of_the_shipped_one_and_b_goes_back(app, settings,
                                                                                                 monkeypatch):
    """Issue 61 #13: after Shift+t the new network played instead of the shipped 1.7M-game one with no warning
    before and no way back on screen. Now the first Shift+t only says so (and names the key back); the
    second starts; b plays the shipped network again."""
    import agents.ntuple as ntuple
    from arcade.screens.training_view import TrainingView

    started = []
    monkeypatch.setattr(TrainingView, "toggle", lambda self, *a: started.append(a[5]) or "started")
    screen = open_2048(app)
    key(app, pygame.K_t, mod=pygame.KMOD_LSHIFT)
    assert not started and "instead of the shipped network (trained" in screen.toast[0] and "; b plays that one again" in screen.toast[0]
    key(app, pygame.K_t, mod=pygame.KMOD_LSHIFT)
    assert started == [True]
    key(app, pygame.K_b)
    assert "plays already" in screen.toast[0]
    data = settings.data_dir
    data.mkdir(parents=True, exist_ok=True)
    (data / "ntuple_2048_p0.npz").write_bytes(b"")  # what a training saved (its content unread here)
    ntuple.choose_network(data, 0.0, data / "ntuple_2048_p0.npz")
    assert ntuple.playing_shipped(0.0, data) is None
    key(app, pygame.K_b)
    assert "shipped network plays again" in screen.toast[0] and ntuple.chosen(data, 0.0) == ntuple.SHIPPED
    assert ntuple.playing_shipped(0.0, data).name == "ntuple_2048_p0.1.npz"  # the course's rules: the other's
    assert any(k[0] == "b" for k in screen.trainer.keys())
    screen.close()


def test_a_training_game_is_painted_at_its_own_size_on_a_screen_of_another(app):
    """The n-tuple learner trains on 4x4 whatever board the screen shows: its watched game, painted with the
    screen's 7x7 rules, read past its board (an IndexError on the first frame of `t` at 7x7; found by the soak)."""
    import numpy as np

    from arcade.games import make_rules
    from arcade.screens import paint_state
    from arcade.settings import Settings

    seven, four = make_rules("2048", Settings(), size=7), make_rules("2048", Settings(), size=4)
    state = four.new_state(np.random.default_rng(1))
    surface = pygame.Surface((300, 300))
    paint_state(surface, surface.get_rect(), "2048", seven, state)
    assert len({tuple(px) for px in pygame.surfarray.array3d(surface)[::5, ::5].reshape(-1, 3)}) > 2
