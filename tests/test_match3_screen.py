"""The match-3 screen headless: click, drag and keyboard swaps, refusals, hint, a whole agent game."""
import time

import pygame

from arcade.screens import open_game
from tests.helpers import click, key, ticks, wait_for


def open_m3(app):
    screen = open_game(app, "match3", seed=5)
    app.push(screen)
    ticks(app)
    return screen


def centre(screen, r, c):
    ox, oy, cell = screen._geometry()
    return int(ox + (c + 0.5) * cell), int(oy + (r + 0.5) * cell)


def a_legal_and_an_illegal_swap(screen):
    legal = screen.rules.legal_actions(screen.state)
    illegal = next((r, c, r, c + 1) for r in range(9) for c in range(8) if (r, c, r, c + 1) not in legal)
    return legal[0], illegal


def test_click_then_neighbour_swaps(app):
    screen = open_m3(app)
    (r1, c1, r2, c2), _ = a_legal_and_an_illegal_swap(screen)
    click(app, centre(screen, r1, c1))
    assert screen.selected == (r1, c1)
    click(app, centre(screen, r2, c2))
    assert screen.state.turns_left == 49 and screen.state.score > 0


def test_drag_swaps(app):
    screen = open_m3(app)
    (r1, c1, r2, c2), _ = a_legal_and_an_illegal_swap(screen)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre(screen, r1, c1), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre(screen, r2, c2), rel=(1, 1), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre(screen, r2, c2), button=1))
    ticks(app)
    assert screen.state.turns_left == 49


def test_keyboard_swap(app):
    screen = open_m3(app)
    (r1, c1, r2, c2), _ = a_legal_and_an_illegal_swap(screen)
    screen.cursor = (r1, c1)
    key(app, pygame.K_SPACE)
    assert screen.selected == (r1, c1)
    key(app, pygame.K_RIGHT if c2 > c1 else pygame.K_DOWN)
    assert screen.state.turns_left == 49 and screen.selected is None


def test_illegal_swap_is_refused_and_wobbles(app):
    screen = open_m3(app)
    _, (r1, c1, r2, c2) = a_legal_and_an_illegal_swap(screen)
    before = screen.state
    click(app, centre(screen, r1, c1))
    click(app, centre(screen, r2, c2))
    assert screen.state is before and screen.phases and type(screen.phases[0]).__name__ == "Wobble"


def test_hint_names_a_legal_swap(app):
    screen = open_m3(app)
    screen.controller.select("greedy-cascade")
    key(app, pygame.K_n)
    assert wait_for(app, lambda: screen.hint)
    assert screen.hint in screen.rules.legal_actions(screen.state)


def test_the_agent_plays_a_whole_game(app):
    screen = open_m3(app)
    screen.controller.select("greedy-cascade")
    key(app, pygame.K_RETURN)
    deadline = time.monotonic() + 120  # wall clock, not a frame count: worker speed varies by machine
    while time.monotonic() < deadline and not screen.rules.is_terminal(screen.state):
        ticks(app, dt_ms=200)  # long frames: animations finish quickly
        pygame.time.wait(1)
    assert screen.rules.is_terminal(screen.state) and screen.state.score > 0, (
        screen.state.turns_left, screen.controller.status())
    assert "GAME OVER" in screen.status_text()
    key(app, pygame.K_r)
    assert screen.state.turns_left == 50 and screen.state.score == 0


def test_points_float_up_where_the_gems_clear(app, monkeypatch):
    """Each cascade stage's "+N" rises from the middle of the gems it clears (not only in the side panel)."""
    import numpy as np

    from arcade.screens.match3.screen import FLOAT_MS
    from arcade.ui import text

    screen = open_game(app, "match3", seed=5)
    app.push(screen)
    swap = screen.rules.legal_actions(screen.state)[0]
    screen.play(swap)
    stages = screen.session.details.stages
    screen.update(200)  # past the swap: the first stage's clear starts
    label, r, c, _ = screen.floats[0]
    rows, cols = np.nonzero(stages[0].cleared)
    assert label.startswith(f"+{stages[0].points}") and (r, c) == (rows.mean(), cols.mean())
    drawn = []
    monkeypatch.setattr(text, "draw", lambda surface, line, *a, **k: drawn.append(line) or pygame.Rect(0, 0, 1, 1))
    screen.draw_game(app.surface, app.surface.get_rect())
    assert drawn[:2] == [label, label]  # its shadow and itself, over the board (before the side panel)
    screen.update(FLOAT_MS + 2000)
    assert screen.floats == [] or all(f[0] != label for f in screen.floats)


def test_a_refused_swap_by_keyboard_says_so_and_leaves_the_cursor(app):
    """Space picks the gem, an arrow swaps it: a swap that makes no line is refused in one line and the cursor
    stays on the gem (it moved to the other gem as if the swap had happened)."""
    from arcade.games.match3 import all_swaps

    screen = open_game(app, "match3", seed=5)
    app.push(screen)
    legal = {tuple(s) for s in screen.rules.legal_actions(screen.state)}
    r, c = next((int(a), int(b)) for a, b, x, y in all_swaps(screen.rules.size).tolist()
                if (a, b, x, y) not in legal and y == b + 1)
    screen.cursor = (r, c)
    key(app, pygame.K_SPACE)
    key(app, pygame.K_RIGHT)
    assert screen.cursor == (r, c) and screen.selected is None and "refused" in screen.toast[0]
    assert screen.session.moves == 0


def test_value_labels_never_cover_each_other_at_640x480(app):
    """Every swap of a crowded corner valued alike: the best one keeps its label, no two labels drawn overlap."""
    from arcade.ui import hud, text
    from tests.helpers import resize

    resize(app, (640, 480))
    screen = open_game(app, "match3", seed=5)
    app.push(screen)
    swaps = [(r, c, r, c + 1) for r in range(3) for c in range(3)] + [(r, c, r + 1, c) for r in range(3) for c in range(3)]
    ranked = [(s, 1000 - k) for k, s in enumerate(swaps)]
    shown = screen.labelled(ranked)
    boxes = [screen._label_box(s, text.number(v))[0] for s, v in ranked if s in shown]
    assert swaps[0] in shown and 1 < len(shown) < len(swaps)
    assert all(not a.colliderect(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert hud.board_rect(app.surface).w < 620


def test_points_of_a_top_row_clear_rise_no_higher_than_the_board(app):
    """'+60 x 2' of a clear in the top row rose past the board's top edge, over the header."""
    from arcade.screens.match3.screen import FLOAT_MS
    from arcade.ui import hud
    from tests.helpers import resize

    for size in ((640, 480), (1024, 720)):
        resize(app, size)
        screen = open_m3(app)
        screen.floats = [["+60 x2", 0.0, 4.0, FLOAT_MS * 0.05]]  # near its highest point
        screen.draw_game(app.surface, hud.board_rect(app.surface))
        _, oy, _ = screen._geometry()
        ((_, y, text_size),) = screen.float_places
        assert y - text_size // 2 >= oy, size
        app.pop()


def test_the_score_grows_stage_by_stage_as_the_cascade_is_shown(app):
    """Issue 74 item 6: SCORE jumped to the whole turn's points at the first clear, before the cascade's
    "+60 x 2" showed. The score shown counts each stage as its clear starts; its "+N" comes with it."""
    import copy

    import numpy as np

    screen = open_m3(app)
    screen.controller.set_enabled(False)
    for seed in range(200):  # a swap whose turn cascades (two stages or more) with the gems this seed drops
        trial = np.random.default_rng(seed)
        swap = next((a for a in screen.rules.legal_actions(screen.state)
                     if len(screen.rules.step_with_details(screen.state, a, copy.deepcopy(trial))[1].stages) > 1),
                    None)
        if swap is not None:
            break
    assert swap is not None
    screen.session.rng = trial
    before = screen.state.score
    screen.play(swap)
    stages = screen.session.details.stages
    assert screen.shown_score() == before and not screen.popups  # the swap is still moving
    seen = []
    deadline = time.monotonic() + 30
    while screen.phases and time.monotonic() < deadline:
        ticks(app, 1)
        seen.append((screen.shown_score(), len(screen.popups)))
    totals = [before + sum(st.points for st in stages[:k]) for k in range(len(stages) + 1)]
    shown = [score for k, (score, _) in enumerate(seen) if k == 0 or score != seen[k - 1][0]]
    assert shown in (totals, totals[1:])  # each stage's points added as its clear starts, in order
    assert all(n <= totals.index(score) for score, n in seen)  # a stage's "+N" no sooner than its points
    assert screen.shown_score() == screen.state.score == totals[-1]
