"""Rendering for the environments: one frame drawn from the state with the painter the game's screen draws
its board with (its view folder's painter.py), and nothing else: no game screen, agent controller, thread or file.

`ScreenRenderer(game_id, rules, mode)` draws on an off-screen surface (render_mode "rgb_array") or in a
window of its own ("human"), and `frame(state, **extra)` returns the picture as an H x W x 3 uint8 array
(or shows it). The environments (arcade.envs) import it on their first render: they import no pygame.
"""
from __future__ import annotations

import os

import numpy as np

RENDER_SIZE = (800, 600)
CAPTION_H = 56


def caption(rules, state) -> str:
    """One line under the title: the score, or the scores and who is to move, or the result."""
    outcome = rules.outcome(state)
    over = rules.is_terminal(state)
    if rules.players == 1:
        return f"score {outcome['score']:g}" + ("   game over" if over else "")
    a, b = outcome["scores"]
    names = rules.seat_names
    if over:
        winner = outcome["winner"]
        return f"{names[0]} {a:g} - {b:g} {names[1]}   " + ("draw" if winner is None else f"{names[winner]} wins")
    return f"{names[0]} {a:g} - {b:g} {names[1]}   {names[rules.to_move(state)]} to move"


def ansi(rules, state) -> str:
    """The "ansi" render: the rules' text form of the state (its rows on lines of their own) and the caption."""
    try:
        board = rules.format_state(state).replace("/", "\n")
    except ValueError:  # a state with no text form (a finished blackjack round): the caption says it all
        board = "(the game is over)"
    return board + "\n" + caption(rules, state) + "\n"


def render(env, state, history=()):
    """What an environment's render() returns in its render_mode: None (with Gymnasium's warning) without
    one, the text form for "ansi", a frame for "rgb_array", or None after showing the frame ("human",
    paced at the environment's render_fps). The renderer is made on the first call and kept on the env."""
    mode = env.render_mode
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode="
                              "'rgb_array', 'human' or 'ansi'")
        return None
    if mode == "ansi":
        return ansi(env.rules, state)
    if env._renderer is None:
        env._renderer = ScreenRenderer(env.game_id, env.rules, mode, fps=env.metadata.get("render_fps", 4))
    return env._renderer.frame(state, history)


class ScreenRenderer:
    def __init__(self, game_id: str, rules, mode: str, size: tuple[int, int] = RENDER_SIZE, fps: float = 4):
        if mode not in ("rgb_array", "human"):
            raise ValueError(f"render_mode must be 'rgb_array' or 'human', got {mode!r}")
        self.fps = fps
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        from arcade.games import game_info

        self.pygame, self.mode, self.game_id, self.rules = pygame, mode, game_id, rules
        self.title = game_info(game_id).title
        pygame.font.init()
        self.clock = pygame.time.Clock()
        if mode == "human":
            pygame.display.init()
            self.window = pygame.display.set_mode(size)
            pygame.display.set_caption(f"Arcade environment: {self.title}")
        self.surface = pygame.Surface(size)

    def draw(self, state, history=()) -> None:
        """The title, a caption line and the board of `state` on the renderer's surface."""
        pygame = self.pygame
        from arcade.screens import paint_state
        from arcade.ui import palette, text

        surface, rules = self.surface, self.rules
        surface.fill(palette.BACKGROUND)
        text.draw(surface, self.title, (16, 8), 30, palette.ACCENT, bold=True)
        text.draw(surface, caption(rules, state), (16, 36), 18, palette.TEXT, max_width=surface.get_width() - 32)
        area = pygame.Rect(16, CAPTION_H + 8, surface.get_width() - 32, surface.get_height() - CAPTION_H - 24)
        paint_state(surface, area, self.game_id, rules, state, history)

    def frame(self, state, history=()) -> np.ndarray | None:
        """Draw `state` (`history`: the states of its game before it); an RGB array (rgb_array), or None after
        showing it in the window (human)."""
        self.draw(state, history)
        if self.mode == "human":
            self.pygame.event.pump()
            self.window.blit(self.surface, (0, 0))
            self.pygame.display.flip()
            self.clock.tick(self.fps)  # a person can follow the game: at most render_fps frames a second
            return None
        return np.transpose(self.pygame.surfarray.array3d(self.surface), (1, 0, 2)).copy()

    def close(self) -> None:
        if self.mode == "human":
            self.pygame.display.quit()
