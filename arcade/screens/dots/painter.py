"""The dots and boxes board drawn from its state alone: pure functions of (surface, rect, state), no screen,
no agent, no files. The screen draws its board with these (adding what is its own: animations, the cursor,
values), and the environments and the training view draw a frame with `paint`."""
from __future__ import annotations

import pygame

from arcade.games.dots import column_label, owners, row_label
from arcade.ui import palette, text


def dots_geometry(area: pygame.Rect, rows: int, cols: int) -> tuple[int, int, int]:
    """(x, y) of the top-left dot and the spacing, for a board of rows x cols boxes centred in `area`."""
    gap = min(area.w // cols, area.h // rows)
    return area.x + (area.w - gap * cols) // 2, area.y + (area.h - gap * rows) // 2, gap


def dots_widths(gap: int) -> tuple[int, int, int]:
    """Dot radius, drawn-line and free-line widths for a spacing (5x5 in a small window needs thinner ones)."""
    return max(4, min(9, gap // 7)), max(3, min(8, gap // 9)), max(2, min(3, gap // 20))


def draw_dots(surface, area: pygame.Rect, state, line_owner: dict, box_owner: dict, names=("first", "second"),
              hover: int | None = None, marked: int | None = None) -> None:
    """A dots board: taken boxes in their taker's colour with its name, drawn lines in the colour of who drew
    them (the first seat's where unknown), free lines faint (`hover` highlighted), the dots, and the labels
    along the top and left edges that a move's name uses ("a1-b1": arcade.games.dots.line_name); `marked`: a
    line ringed at its middle (the move that led to the position)."""
    board = state.board
    ox, oy, gap = dots_geometry(area, board.rows, board.cols)

    def dot(r, c):
        return ox + c * gap, oy + r * gap

    for i, seat in box_owner.items():
        r, c = divmod(i, board.cols)
        x, y = dot(r, c)
        colour = palette.SEAT_COLOURS[seat]
        box = pygame.Rect(x + 6, y + 6, gap - 12, gap - 12)
        pygame.draw.rect(surface, tuple(v // 2 for v in colour), box, border_radius=8)
        text.draw(surface, names[seat], box.center, 28, palette.TEXT, anchor="center", bold=True,
                  max_width=box.w - 8, min_size=14)
    radius, drawn_w, free_w = dots_widths(gap)
    for bit in range(board.n_lines):
        (r1, c1), (r2, c2) = board.line_ends(bit)
        a, z = dot(r1, c1), dot(r2, c2)
        if (state.lines >> bit) & 1:
            pygame.draw.line(surface, palette.SEAT_COLOURS[line_owner.get(bit, 0)], a, z, drawn_w)
        elif bit == hover:
            pygame.draw.line(surface, palette.ACCENT, a, z, max(drawn_w - 2, 3))
        else:
            pygame.draw.line(surface, palette.PANEL_HI, a, z, free_w)
    for r in range(board.rows + 1):
        for c in range(board.cols + 1):
            pygame.draw.circle(surface, palette.TEXT, dot(r, c), radius)
    if marked is not None:
        (r1, c1), (r2, c2) = board.line_ends(marked)
        (ax, ay), (zx, zy) = dot(r1, c1), dot(r2, c2)
        pygame.draw.circle(surface, palette.ACCENT, ((ax + zx) // 2, (ay + zy) // 2), max(6, gap // 7), 3)
    size = max(13, min(22, gap // 5))
    if gap >= 24:  # (a thumbnail's board has no room for them)
        for c in range(board.cols + 1):
            x, y = dot(0, c)
            text.draw(surface, column_label(c), (x, y - radius - 3), size, palette.MUTED, anchor="midbottom")
        for r in range(board.rows + 1):
            x, y = dot(r, 0)
            text.draw(surface, row_label(r), (x - radius - 5, y), size, palette.MUTED, anchor="midright")


def paint(surface, area: pygame.Rect, rules, state, history=()) -> None:
    """The board of `state` in `area`, with who drew each line and closed each box, read off the states before
    it (`history`, the session's: the state holds the lines, not their owners)."""
    line_owner, box_owner = owners([*history, state])
    last = history[-1].lines ^ state.lines if history else 0
    marked = last.bit_length() - 1 if last and last & (last - 1) == 0 else None  # (one line: the last move)
    draw_dots(surface, area.inflate(-40, -40), state, line_owner, box_owner, rules.seat_names, marked=marked)
