"""Screen base classes. GameScreen owns the shared frame and the agent keys.

The app calls handle_event / update / draw; screens never flip the display or
loop. A GameScreen subclass supplies its rules and board and a few hooks; the
base class handles Enter (agent on/off), Tab (next agent), +/- (delay), h/?
(help), the HUD, and asking the agent controller for moves.
"""
from __future__ import annotations

import numpy as np
import pygame

from arcade.control import AgentController
from arcade.games import game_info, make_rules
from arcade.ui import hud, palette

ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
PLUS_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
MINUS_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
SHELL_KEYS = [
    ("Enter", "hand control to the agent / take it back"),
    ("Tab", "next agent (Shift+Tab: previous)"),
    ("+ / -", "agent move delay longer / shorter"),
    ("h or ?", "show this help"),
    ("F11", "full screen on / off (the window can also be resized)"),
    ("Esc", "back to the launcher"),
]


class Screen:
    def handle_event(self, event) -> bool:
        """Handle one event; True if it was consumed (the app then ignores it, e.g. Esc)."""
        return False

    def update(self, dt_ms: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        pass

    def close(self) -> None:
        pass


def fresh_seed() -> int:
    return int(np.random.SeedSequence().entropy % (2**31))


class GameScreen(Screen):
    """A game's screen with the shared HUD and agent control. Subclasses set game_id and hooks."""

    game_id = ""

    def __init__(self, app, agent: str | None = None, seed: int | None = None, **rule_overrides):
        self.app = app
        self.settings = app.settings
        self.info = game_info(self.game_id)
        self.rules = make_rules(self.game_id, self.settings, **rule_overrides)
        self.controller = AgentController(self.game_id, self.rules, self.settings, agent=agent)
        self.show_help = False
        self._over_ms = 0.0  # time since the game ended, for restart_when_over
        self.toast: tuple[str, float] | None = None  # message, ms left
        configured = self.settings.seeds.game
        self.seed = seed if seed is not None else (fresh_seed() if configured < 0 else configured)
        self.fixed_seed = seed is not None or configured >= 0
        if agent is not None:
            self.controller.set_enabled(True)

    # --- hooks for subclasses ------------------------------------------------
    def game_keys(self) -> list[tuple[str, str]]:
        return []

    def help_line(self) -> str:
        return "Enter: agent on/off   Tab: next agent   +/-: delay   h: help   Esc: back"

    def status_text(self) -> str:
        return ""

    def agent_state(self):
        """The state the agent decides in, or None when it may not move now."""
        return None

    def agent_active(self) -> bool | None:
        """Whether the agent plays the current turn (None: whenever it is in control)."""
        return None

    def apply_agent_action(self, action) -> None:
        pass

    def handle_game_event(self, event) -> bool:
        return False

    def update_game(self, dt_ms: float) -> None:
        pass

    def draw_game(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pass

    def control_label(self) -> str:
        return self.controller.name if self.controller.enabled else "You"

    # --- shared behaviour ----------------------------------------------------
    @property
    def human_may_move(self) -> bool:
        return not self.controller.enabled

    def next_seed(self) -> int:
        """The seed of the next game: the next number for a fixed seed, else a fresh one."""
        self.seed = self.seed + 1 if self.fixed_seed else fresh_seed()
        return self.seed

    def restart_when_over(self, dt_ms: float, over: bool, pause_ms: float, restart) -> None:
        """While the agent plays, call restart() `pause_ms` after a game ends, so watching never stalls."""
        if over and self.controller.enabled:
            self._over_ms += dt_ms
            if self._over_ms >= pause_ms:
                self._over_ms = 0.0
                restart()
        else:
            self._over_ms = 0.0

    def say(self, message: str, ms: float = 2500) -> None:
        self.toast = (message, ms)

    def handle_event(self, event) -> bool:
        if event.type == pygame.KEYDOWN:
            if self.show_help:
                self.show_help = False
                return True
            if event.key in ENTER_KEYS:
                self.controller.toggle()
                return True
            if event.key == pygame.K_TAB:
                self.controller.cycle(-1 if event.mod & pygame.KMOD_SHIFT else 1)
                self.say(f"agent: {self.controller.name} ({self.controller.spec.summary})")
                return True
            if event.key in PLUS_KEYS or event.unicode == "+":
                self.controller.change_delay(+1)
                return True
            if event.key in MINUS_KEYS:
                self.controller.change_delay(-1)
                return True
            if event.key == pygame.K_h or event.unicode == "?":
                self.show_help = True
                return True
        return self.handle_game_event(event)

    def update(self, dt_ms: float) -> None:
        self.update_game(dt_ms)
        if self.toast:
            msg, left = self.toast
            self.toast = (msg, left - dt_ms) if left > dt_ms else None
        state = self.agent_state()
        if state is not None:
            action = self.controller.poll(state, self.agent_active())
            if action is not None:
                self.apply_agent_action(action)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(palette.BACKGROUND)
        self.draw_game(surface, hud.board_rect(surface))
        hud.draw_frame(surface, hud.HudInfo(
            title=self.info.title,
            status=self.status_text(),
            control=self.control_label(),
            agent_state=self.controller.status(),
            agent_name=self.controller.name,
            delay_ms=self.controller.delay_ms,
            help_line=self.help_line(),
            seed=str(self.seed),
        ))
        if self.toast:
            hud.draw_toast(surface, self.toast[0])
        elif self.controller.error:
            hud.draw_toast(surface, self.controller.error, palette.BAD)
        if self.show_help:
            hud.draw_help_overlay(surface, self.info.title, self.game_keys() + SHELL_KEYS)

    def close(self) -> None:
        self.controller.close()



