"""The tiny Nim game's screen (tests/test_extending.py): keys 1-3 take stones; the shared GameScreen
does the rest (agent on Enter, Tab, HUD, help)."""
from __future__ import annotations

import pygame

from arcade.screens.base import GameScreen
from tests.extra_game.nim import GAME
from tests.extra_game.nim_view import painter


class NimScreen(GameScreen):
    game_id = GAME.id

    def __init__(self, app, agent=None, seed=None):
        super().__init__(app, agent=agent, seed=seed)
        self.open_session()

    @property
    def state(self):
        return self.session.state

    def game_keys(self):
        return [("1 / 2 / 3", "take that many stones", "take")]

    def status_text(self) -> str:
        return f"{self.state.stones} stones" if self.state.stones else f"seat {self.state.last} wins"

    def agent_active(self) -> bool:
        return self.controller.enabled or self.state.mover == 1

    def apply_agent_action(self, action) -> None:
        self.session.play(action, self.controller.name)

    def handle_game_event(self, event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_1, pygame.K_2, pygame.K_3):
            take = event.key - pygame.K_0
            if self.state.mover == 0:
                self.session.play(take)
            return True
        return False

    def draw_game(self, surface, rect) -> None:
        painter.paint(surface, rect, self.rules, self.state)


SCREEN = NimScreen
