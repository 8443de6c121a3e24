"""Fuzzing every game screen: 20000 random events each, the game's invariants checked after every one.

Events: keys (each screen's own and the shared ones, F11 included), clicks with any button, drags,
wheel turns, window resizes, focus and mouse leaving and coming back, agents switched on and off
and between; a frame is drawn every few events so animations and agent moves happen in between.
Nothing may raise, Esc is never sent (the screen must stay), and the state must stay valid.
"""
import time

import numpy as np
import pygame
import pytest

from arcade.games.tictactoe import tables
from arcade.screens import open_game
from tests.helpers import resize, ticks

EVENTS_PER_SCREEN = 20000
FRAME_EVERY = 40  # a frame drawn (and checked) every 40 events: 500 a screen, at five window sizes
MIN_POSITIONS = {"tictactoe": 20, "dots": 40, "blackjack": 30}  # agents' timing varies: kept well below typical
SIZES = ((640, 480), (1280, 800), (900, 1000), (1024, 720), (800, 600))
KEYS = [pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_TAB, pygame.K_SPACE,
        pygame.K_r, pygame.K_u, pygame.K_g, pygame.K_e, pygame.K_h, pygame.K_QUESTION, pygame.K_3, pygame.K_4,
        pygame.K_5, pygame.K_6, pygame.K_7, pygame.K_PLUS, pygame.K_MINUS, pygame.K_EQUALS, pygame.K_KP_PLUS,
        pygame.K_a, pygame.K_s, pygame.K_d, pygame.K_w, pygame.K_x, pygame.K_o, pygame.K_t, pygame.K_p, pygame.K_q,
        pygame.K_n, pygame.K_v, pygame.K_f, pygame.K_1, pygame.K_2, pygame.K_8, pygame.K_9, pygame.K_l,
        pygame.K_F11, pygame.K_BACKSPACE, pygame.K_z]

BUTTONS = (1, 1, 1, 2, 3)  # (picked by an index: rng.choice makes an array of a list each call, 20,000 times)
WINDOW_EVENTS = (pygame.WINDOWFOCUSLOST, pygame.WINDOWFOCUSGAINED, pygame.WINDOWLEAVE, pygame.WINDOWENTER,
                 pygame.WINDOWMINIMIZED, pygame.WINDOWRESTORED)


def check_2048(screen):
    st, rules = screen.game.state, screen.rules
    n = rules.size
    assert st.board.shape == (n, n) and st.board.min() >= 0 and st.board.max() <= n * n + 1
    assert st.score >= 0 and st.score % 4 == 0  # every merge makes a tile of 4 or more; spawns score nothing
    assert screen.game.over == rules.is_terminal(st)


def check_tictactoe(screen):
    assert 0 <= screen.state < 3**9 and tables().valid[screen.state]


def check_dots(screen):
    st = screen.state
    board = st.board
    assert (st.rows, st.cols) == (screen.rules.rows, screen.rules.cols)
    assert 0 <= st.lines < (1 << board.n_lines) and st.mover in (0, 1)
    completed = sum((st.lines & m) == m for m in board.box_masks())  # boxes with four sides drawn
    assert sum(st.scores) == completed and min(st.scores) >= 0


def check_match3(screen):
    from arcade.games.match3 import EMPTY, has_line

    st, rules = screen.state, screen.rules
    assert st.board.shape == (rules.size, rules.size) and (st.board != EMPTY).all()
    assert ((0 <= st.board) & (st.board < st.colours)).all()
    assert not has_line(st.board[None])[0]  # a settled board has no line left to clear
    assert 0 <= st.turns_left <= rules.turns and st.score >= 0
    assert rules.is_terminal(st) or len(st.swaps())  # a board with no swap is reshuffled


def check_blackjack(screen):
    mdp = screen.rules.mdp
    total, peeked, counts = screen.round.mdp_state
    if counts is None:  # the round is over
        return
    assert len(counts) == len(mdp.card_values) and all(0 <= c <= mdp.multiplicity for c in counts)
    drawn = sum(v * (mdp.multiplicity - c) for v, c in zip(mdp.card_values, counts, strict=True))
    assert total == drawn <= mdp.threshold
    assert peeked is None or counts[peeked] > 0


STATE = {"2048": lambda screen: screen.game.state, "blackjack": lambda screen: screen.round}


def state_of(screen):
    return STATE.get(screen.game_id, lambda scr: scr.state)(screen)


def fingerprint(state) -> bytes:
    """Tells positions apart, to count how many different ones the fuzzing reached."""
    if isinstance(getattr(state, "board", None), np.ndarray):
        return state.board.tobytes() + str(getattr(state, "score", "")).encode()
    return repr(getattr(state, "mdp_state", state)).encode()


CHECKS = {"2048": check_2048, "tictactoe": check_tictactoe, "dots": check_dots, "match3": check_match3,
          "blackjack": check_blackjack}


def random_events(rng, size):
    """One user action as the events pygame would deliver for it."""
    w, h = size
    pos = (int(rng.integers(-5, w + 5)), int(rng.integers(-5, h + 5)))  # a little outside the window too
    kind = int(rng.integers(10))
    if kind <= 3:
        k = KEYS[rng.integers(len(KEYS))]
        mod = pygame.KMOD_SHIFT if rng.random() < 0.1 else 0
        return [pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0),
                pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0)]
    if kind <= 5:
        button = BUTTONS[rng.integers(len(BUTTONS))]
        return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)]
    if kind == 6:  # a drag
        end = (pos[0] + int(rng.integers(-120, 121)), pos[1] + int(rng.integers(-120, 121)))
        mid = ((pos[0] + end[0]) // 2, (pos[1] + end[1]) // 2)
        return [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                pygame.event.Event(pygame.MOUSEMOTION, pos=mid, rel=(1, 1), buttons=(1, 0, 0)),
                pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(1, 1), buttons=(1, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1)]
    if kind == 7:
        return [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1 if rng.random() < 0.5 else -1, flipped=False)]
    if kind == 8:
        return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(2, 2), buttons=(0, 0, 0))]
    return [pygame.event.Event(WINDOW_EVENTS[rng.integers(len(WINDOW_EVENTS))])]


@pytest.mark.parametrize("game_id", sorted(CHECKS))
def test_twenty_thousand_random_events(app, game_id):
    rng = np.random.default_rng(2026)
    screen = open_game(app, game_id, seed=11)
    app.push(screen)
    check = CHECKS[game_id]
    seen = {fingerprint(state_of(screen))}
    checked = None

    def check_if_changed():
        nonlocal checked
        state = state_of(screen)
        if state is not checked:  # states are immutable: an unchanged one is still valid
            check(screen)
            checked = state
            seen.add(fingerprint(state))

    check_if_changed()
    for i in range(EVENTS_PER_SCREEN):
        if i % 1500 == 700:  # the window is resized, as a user dragging its corner would
            size = SIZES[(i // 1500) % len(SIZES)]
            resize(app, size, frames=1)
            assert app.surface.get_size() == size
        if i % 997 == 0:  # the agent is switched on or off, or another one chosen, behind the keys' back
            if rng.random() < 0.5:
                screen.controller.toggle()
            else:
                screen.controller.cycle()
        for event in random_events(rng, app.surface.get_size()):
            app.handle(event)
            check_if_changed()
        if i % FRAME_EVERY == 0:
            ticks(app)
            check_if_changed()
        assert app.running and (app.top is screen or app.top.under is screen)  # (or a panel over it: h, i, k)
    # the events really played: many different positions were checked (restarts are frequent, so
    # tic-tac-toe and dots games stay short, and a small deck has few positions). Where an agent's moves
    # came slowly (a starved machine), more events play on until then, within a generous deadline.
    least = MIN_POSITIONS.get(game_id, 100)
    deadline = time.monotonic() + 120
    while len(seen) <= least and time.monotonic() < deadline:
        for event in random_events(rng, app.surface.get_size()):
            app.handle(event)
            check_if_changed()
        ticks(app)
        check_if_changed()
        assert app.running and (app.top is screen or app.top.under is screen)  # (or a panel over it: h, i, k)
    ticks(app, 3)
    check(screen)
    assert len(seen) > least, len(seen)
