"""Helpers to drive the real pygame app headless by posting events."""
import time

import pygame


def key(app, k, unicode="", mod=0, frames=1):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=unicode, scancode=0))
    ticks(app, frames)


def click(app, pos, button=1, frames=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    ticks(app, frames)


def resize(app, size, frames=2):
    """The user drags the window's corner to `size`: the display changes and pygame says so."""
    pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    ticks(app, frames)


def wait_for(app, condition, seconds=120.0):
    """Tick frames (letting worker threads run) until condition() holds or a wall-clock deadline passes.

    The bound is generous on purpose: a loaded machine may be many times slower than an idle one.
    Returns whether the condition holds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        ticks(app)
        pygame.time.wait(1)
    return condition()


def ticks(app, n=1, dt_ms=16.0):
    for _ in range(n):
        if not app.running:
            return
        app.tick(dt_ms)


def record_cuts(monkeypatch) -> list:
    """From now on every line text.fit shortens (an ellipsis where words did not fit) is added to the list."""
    from arcade.ui import text

    cut, fit = [], text.fit

    def recording_fit(line, *args, **kwargs):
        out = fit(line, *args, **kwargs)
        if out != line:
            cut.append(out)
        return out

    monkeypatch.setattr(text, "fit", recording_fit)
    return cut
