"""The screen a card opens while its game's rules and screen have not landed yet."""
from __future__ import annotations

import pygame

from arcade.games import game_info
from arcade.screens.base import Screen
from arcade.ui import hud, palette, previews, text


class ComingSoonScreen(Screen):
    def __init__(self, app, game_id: str):
        self.app = app
        self.info = game_info(game_id)
        self.show_help = False

    def handle_event(self, event) -> bool:
        if event.type == pygame.KEYDOWN and (event.key == pygame.K_h or event.unicode == "?"):
            self.show_help = not self.show_help
            return True
        if event.type == pygame.KEYDOWN and self.show_help:
            self.show_help = False
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(palette.BACKGROUND)
        hud.draw_frame(surface, hud.HudInfo(
            title=self.info.title, status="not playable yet", control="-", agent_state="off",
            agent_name="", delay_ms=0, help_line="Esc: back to the launcher   h: help"))
        area = hud.board_rect(surface)
        pic = pygame.Rect(0, 0, 220, 220)
        pic.center = (area.centerx, area.centery - 60)
        previews.draw_preview(self.info.id, surface, pic)
        text.draw(surface, f"{self.info.title} is not playable yet.", (area.centerx, pic.bottom + 30), 34,
                  palette.ACCENT, anchor="midtop", bold=True)
        text.draw(surface, "Its rules, agents and screen arrive with the game's own issue.",
                  (area.centerx, pic.bottom + 72), 26, palette.MUTED, anchor="midtop")
        text.draw(surface, "Press Esc to go back to the launcher.", (area.centerx, pic.bottom + 104), 26,
                  palette.MUTED, anchor="midtop")
        if self.show_help:
            hud.draw_help_overlay(surface, self.info.title, [("Esc", "back to the launcher")])
