"""The tic-tac-toe board drawn from its state alone: pure functions of (surface, rect, state), no screen,
no agent, no files. The screen draws its board with these (adding what is its own: animations, the cursor,
values), and the environments and the training view draw a frame with `paint`."""
from __future__ import annotations

import pygame

from arcade.ui import palette
from arcade.ui.geometry import top_square


def draw_tictactoe(surface, board: pygame.Rect, state: int, marked: int | None = None) -> None:
    """The 3x3 grid in `board`, its marks, and the winning line once there is one; `marked`: a cell ringed (the
    move that led to the position)."""
    from arcade.games.tictactoe import LINES, O, X, decode, tables

    cell = board.w / 3
    pygame.draw.rect(surface, palette.PANEL, board, border_radius=12)
    for i in (1, 2):
        x = board.x + i * cell
        pygame.draw.line(surface, palette.BORDER, (x, board.y + 12), (x, board.bottom - 12), 4)
        y = board.y + i * cell
        pygame.draw.line(surface, palette.BORDER, (board.x + 12, y), (board.right - 12, y), 4)
    centres = [(board.x + (k % 3 + 0.5) * cell, board.y + (k // 3 + 0.5) * cell) for k in range(9)]
    m = cell * 0.28
    for k, mark in enumerate(decode(state)):
        cx, cy = centres[k]
        if mark == X:
            colour = palette.SEAT_COLOURS[0]
            pygame.draw.line(surface, colour, (cx - m, cy - m), (cx + m, cy + m), 12)
            pygame.draw.line(surface, colour, (cx - m, cy + m), (cx + m, cy - m), 12)
        elif mark == O:
            pygame.draw.circle(surface, palette.SEAT_COLOURS[1], (cx, cy), m + 4, 10)
    if marked is not None:
        pygame.draw.circle(surface, palette.ACCENT, centres[marked], cell * 0.46, 3)
    line = int(tables().winning_line[state])
    if line >= 0:
        a, b = centres[LINES[line][0]], centres[LINES[line][2]]
        pygame.draw.line(surface, palette.ACCENT, a, b, 10)


def paint(surface, area: pygame.Rect, rules, state, history=()) -> None:
    """The board of `state` in `area` (square, centred at its top): an environment's frame, a training game;
    with the position before it (`history`), the cell of the move that led to it ringed."""
    from arcade.games.tictactoe import decode

    new = [k for k, (a, b) in enumerate(zip(decode(int(history[-1])), decode(int(state)), strict=True)) if a != b] \
        if history else []
    draw_tictactoe(surface, top_square(area), int(state), new[0] if len(new) == 1 else None)
