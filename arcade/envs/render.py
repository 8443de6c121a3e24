"""Rendering for the environments with the arcade's own screens: the same drawing code as the window.

`ScreenRenderer(game_id, rules)` builds that game's screen once, on an off-screen
surface (render_mode "rgb_array") or in a window of its own ("human"), and
`frame(state, **extra)` puts the state on the board and returns the picture as
an H x W x 3 uint8 array. pygame is imported here, on the first render, and
nowhere else in arcade.envs.
"""
from __future__ import annotations

import os

import numpy as np

RENDER_SIZE = (800, 600)


class _Host:
    """What a screen needs of the app: a surface to draw on and the settings."""

    sounds = None  # a render is silent

    def __init__(self, surface, settings):
        self.surface, self.settings = surface, settings


class ScreenRenderer:
    def __init__(self, game_id: str, rules, mode: str, size: tuple[int, int] = RENDER_SIZE):
        if mode not in ("rgb_array", "human"):
            raise ValueError(f"render_mode must be 'rgb_array' or 'human', got {mode!r}")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        from arcade.screens import open_game
        from arcade.settings import DataSettings, Settings

        self.pygame, self.mode = pygame, mode
        pygame.font.init()
        if mode == "human":
            pygame.display.init()
            self.window = pygame.display.set_mode(size)
            pygame.display.set_caption(f"Arcade environment: {game_id}")
        self.surface = pygame.Surface(size)
        # statistics and tables of a render go nowhere near the player's data folder
        settings = Settings(data=DataSettings(folder=os.path.join(os.path.expanduser("~"), ".cache", "arcade-env")))
        self.screen = open_game(_Host(self.surface, settings), game_id, seed=0)
        self.screen.rules = rules
        self.screen.controller.set_rules(rules)

    def frame(self, state, **extra) -> np.ndarray | None:
        """Draw `state`; an RGB array (rgb_array), or None after showing it in the window (human)."""
        self.screen.show_state(state, **extra)
        self.screen.draw(self.surface)
        if self.mode == "human":
            self.pygame.event.pump()
            self.window.blit(self.surface, (0, 0))
            self.pygame.display.flip()
            return None
        return np.transpose(self.pygame.surfarray.array3d(self.surface), (1, 0, 2)).copy()

    def close(self) -> None:
        self.screen.close()
        if self.mode == "human":
            self.pygame.display.quit()
