"""The window: frame loop, screen stack, Esc back to the launcher, quit.

The app owns the frame pacing (arcade.pacing). Each frame it hands events to the top screen, lets
it update, draws it, and shows it when the frame is due. Esc leaves a game for the launcher; Esc on the
launcher (or the window's close button) quits.
"""
from __future__ import annotations

import math
import time

import pygame

from arcade import agent_process
from arcade.foundation import notices
from arcade.pacing import FramePacer
from arcade.sound import Sounds
from arcade.screens.stacked import Screen
from arcade.ui import text

MIN_SIZE = (640, 480)  # the smallest window every screen is laid out for (settings: [window] minimum too)
# keys every screen shares that toggle, open, restart or leave: a held one acts once (moves, undo and the delay
# keys repeat); a screen adds its own (Screen.once_keys)
ONCE_KEYS = frozenset((pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_TAB, pygame.K_F11, pygame.K_v,
                       pygame.K_i, pygame.K_k, pygame.K_m, pygame.K_h, pygame.K_t, pygame.K_y, pygame.K_r))
IDLE_TICK_MS = 500  # with nothing moving, a frame at least this often (and at once on any input)
ESC_SETTLE_S = 0.4  # an Esc reaching the launcher this soon after an Esc closed a screen is that same press


class App:
    """The window and its frame loop: a stack of screens (the top one gets the events and draws), the pacing,
    full screen, sounds, notices, and the trainings still saving after their screen closed. run() until the
    launcher is left or the window closed; closed_because says why it ended."""

    def __init__(self, settings, size: tuple[int, int] | None = None):
        self.settings = settings
        pygame.display.init()
        pygame.font.init()
        win = settings.window
        flags = pygame.RESIZABLE | (pygame.FULLSCREEN if win.fullscreen else 0)
        self.surface = pygame.display.set_mode(size or (win.width, win.height), flags)
        pygame.display.set_caption("Arcade")
        pygame.key.set_repeat(300, 60)  # a held arrow moves again, a held + or - keeps changing the delay ...
        self._held: set[int] = set()  # ... but a held ONCE_KEYS key acts once a press (see handle)
        self._esc_closed_at = -math.inf  # when an Esc last closed a screen (time.monotonic)
        self.sounds = Sounds(settings.audio.volume)
        self.pacer = FramePacer(win.fps)
        self._dt_ms = 1000 / win.fps
        self._windowed_size = self.surface.get_size()
        self._notices_seen = notices.count()  # notices from start-up are on the launcher already
        self.stack: list[Screen] = []
        self.finishing: list = []  # trainings whose screen closed: stopping and saving, said when done
        self.running = True
        self.closed_because: str | None = None  # why the main loop ended, said in one line when it has
        self.frames = 0
        self._drawn_busy = True  # the last frame drawn showed something moving (a bar, an animation)

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)

    def pop(self) -> None:
        self.stack.pop().close()
        if not self.stack:
            self.stop("Esc on the launcher")

    def stop(self, because: str) -> None:
        """End the main loop after this frame, for the reason given (the first reason given is the one said):
        every way the arcade can close goes through here, so none is silent."""
        self.closed_because = self.closed_because or because
        self.running = False

    def handle(self, event) -> None:
        if event.type == pygame.QUIT:
            self.stop("the window was closed")
            return
        if self._repeat_of_once_key(event):
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        if event.type == pygame.VIDEORESIZE:
            w, h = event.w, event.h
            if (w < MIN_SIZE[0] or h < MIN_SIZE[1]) and not self.surface.get_flags() & pygame.FULLSCREEN:
                # every screen is laid out for 640x480 and up: a smaller window is brought back to that
                pygame.display.set_mode((max(w, MIN_SIZE[0]), max(h, MIN_SIZE[1])), pygame.RESIZABLE)
            self.surface = pygame.display.get_surface()
        consumed = self.top.handle_event(event)
        if not consumed and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            # the arcade closed once after one Esc on a game: that press (repeated, or bounced by a slow frame)
            # reached the launcher too. Closing the arcade takes an Esc of its own.
            if len(self.stack) == 1 and time.monotonic() - self._esc_closed_at < ESC_SETTLE_S:
                return
            self._esc_closed_at = time.monotonic()
            self.pop()

    def _repeat_of_once_key(self, event) -> bool:
        """Whether `event` is the key repeat of a ONCE_KEYS key still held (a KEYDOWN with no KEYUP since the
        last): Enter held past 300 ms toggled the agent on and off every 60 ms until another key came."""
        if event.type == pygame.KEYUP:
            self._held.discard(event.key)
        elif event.type == getattr(pygame, "WINDOWFOCUSLOST", -1):
            self._held.clear()  # (its keys' releases go to another window)
        elif event.type == pygame.KEYDOWN and (event.key in ONCE_KEYS or event.key in self.top.once_keys):
            if event.key in self._held:
                return True
            self._held.add(event.key)
        return False

    def toggle_fullscreen(self) -> None:
        """F11: full screen at the desktop's size, and back to the window's last size."""
        full = bool(self.surface.get_flags() & pygame.FULLSCREEN)
        try:
            if full:
                pygame.display.set_mode(self._windowed_size, pygame.RESIZABLE)
            else:
                self._windowed_size = self.surface.get_size()
                pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        except pygame.error as exc:
            notices.notice(f"full screen is not available here ({exc}); the window stays as it is")
        self.surface = pygame.display.get_surface()

    def keep_finishing(self, training) -> None:
        """Take over a training (arcade.screens.training_view.TrainingView) whose screen is closing: it was
        asked to stop and is saving; when it has, a notice says what was saved."""
        self.finishing.append(training)

    def _poll_finishing(self) -> None:
        for training in list(self.finishing):
            ended = training.poll()
            if ended is not None:
                self.finishing.remove(training)
                notices.notice(ended[1])

    def _show_new_notices(self) -> None:
        if notices.count() != self._notices_seen:
            self._notices_seen = notices.count()
            say = getattr(self.top, "say", None)
            if say is not None and notices.recent():
                say(notices.recent()[-1], 6000)

    def tick(self, dt_ms: float | None = None) -> None:
        """One frame: events, update, draw, then wait for the frame's deadline and flip.

        Waiting after drawing makes frames appear one period apart however long the drawing took
        (within a period); the update gets the previous frame's length. dt_ms given: no waiting (tests).
        """
        self._poll_finishing()
        if dt_ms is None and not self.top.busy() and not self._drawn_busy:
            # nothing moves: sleep until the next input, no spinning; with no input and no news the frame on
            # screen still stands, so nothing is drawn again (the window system keeps it)
            event = pygame.event.wait(IDLE_TICK_MS)
            if event.type == pygame.NOEVENT:
                if notices.count() == self._notices_seen:
                    self.pacer.skip()
                    return
            else:
                pygame.event.post(event)
            # woken from rest: game time starts now (an animation this input starts must not be handed the
            # whole idle sleep as its first frame's dt, or it ends before it is seen)
            self.pacer.skip()
            self._dt_ms = self.pacer.period * 1000
        for event in pygame.event.get():
            self.handle(event)
            if not self.running:
                return
        self._show_new_notices()
        self.top.update(self._dt_ms if dt_ms is None else dt_ms)
        self.surface = pygame.display.get_surface()
        # asked before drawing (a bar that ends during the draw was still drawn): after the last busy frame one
        # more is drawn before the window sleeps, the one without the progress bar, toast or animation
        self._drawn_busy = self.top.busy()
        self.top.draw(self.surface)
        if dt_ms is None:
            self._dt_ms = self.pacer.wait() if self.top.busy() else self.pacer.skip()
        pygame.display.flip()
        self.frames += 1

    def run(self) -> None:
        try:
            while self.running:
                self.tick()
        finally:
            self.close()

    def close(self) -> None:
        while self.stack:
            self.stack.pop().close()
        for training in self.finishing:  # quitting: a training still saving ends here (its last checkpoint stays)
            training.kill()
        agent_process.shutdown()  # an agent deep in a long decision must not hold up quitting
        text.forget()  # fonts die with pygame.quit(); a later App must load new ones
        pygame.mixer.quit()
        pygame.quit()


class WindowCannotOpen(Exception):
    """The display would not give the arcade a window (SDL's reason is the message)."""


def run_window(settings, game: str | None, agent: str | None, seed: int | None, given: tuple[str, ...],
               noted: list[str]) -> int:
    """The arcade's window, from the agent process's start to the frame loop's end (the launcher, or `game`
    opened on it); `noted`: signals that came while it started. Returns the exit code (143 after SIGTERM)."""
    import signal
    import sys

    from arcade.screens import open_game
    from arcade.screens.launcher import LauncherScreen

    agent_process.start_early(settings)  # (first: it loads while the window opens)
    try:
        app = App(settings)
    except pygame.error as exc:
        raise WindowCannotOpen(str(exc)) from None
    app.push(LauncherScreen(app))
    if game:
        app.push(open_game(app, game, agent=agent, seed=seed, given=given, welcome=True))
    signals = {signal.SIGTERM: "terminated (SIGTERM)", signal.SIGINT: "interrupted (Ctrl-C)"}
    for signum, because in signals.items():  # once open, a signal ends the loop after its frame (data saved)
        signal.signal(signum, lambda _signum, _frame, because=because: app.stop(because))
    for because in noted:  # (one sent while it started)
        app.stop(because)
    app.run()
    print(f"arcade: closed: {app.closed_because or 'the main loop ended'}", file=sys.stderr)
    return 143 if app.closed_because == signals[signal.SIGTERM] else 0
