"""Each game's board drawn from its state alone: pure functions of (surface, rect, state), no screen, no
agent, no files. The game screens draw their boards with these (adding what is theirs: animations, the
cursor, values), and the environments render a frame with them (arcade/envs/render.py)."""
from __future__ import annotations

import numpy as np
import pygame

from arcade.ui import palette, text

FELT = (22, 104, 60)
FELT_DARK = (16, 80, 46)
CARD = (250, 248, 240)


# --- 2048 ---------------------------------------------------------------------------------------------
def grid_2048(board: pygame.Rect, size: int) -> tuple[int, float]:
    """The gap between tiles and a tile's side for a board of `size` cells drawn in `board`."""
    gap = max(4, board.w // (size * 12))
    return gap, (board.w - gap * (size + 1)) / size


def cell_rect_2048(board: pygame.Rect, gap: int, cell: float, r: float, c: float) -> pygame.Rect:
    return pygame.Rect(round(board.x + gap + c * (cell + gap)), round(board.y + gap + r * (cell + gap)),
                       round(cell), round(cell))


def draw_tile(surface, rect: pygame.Rect, value: int, grayscale: bool = False) -> None:
    """One 2048 tile (0: an empty cell) with its number sized to fit."""
    bg, fg = palette.tile_colours(value)
    if grayscale:  # in gray, light numbers on light tiles fade: the text follows the tile's lightness
        lightness = 0.299 * bg[0] + 0.587 * bg[1] + 0.114 * bg[2]
        fg = (40, 40, 40) if lightness > 150 else (250, 250, 250)
    pygame.draw.rect(surface, bg, rect, border_radius=max(3, rect.w // 14))
    if value:
        digits = len(str(value))
        size = int(rect.h * (0.55 if digits <= 2 else 0.45 if digits == 3 else 0.36 if digits == 4 else 0.3))
        text.draw(surface, str(value), rect.center, size, fg, anchor="center", bold=True)


def draw_2048(surface, board: pygame.Rect, values: np.ndarray | None, size: int, grayscale: bool = False) -> None:
    """The board, its empty cells, and the tiles of `values` (tile values, size x size; None: cells only)."""
    gap, cell = grid_2048(board, size)
    pygame.draw.rect(surface, (45, 48, 60), board, border_radius=10)
    for r in range(size):
        for c in range(size):
            draw_tile(surface, cell_rect_2048(board, gap, cell, r, c), 0, grayscale)
    if values is None:
        return
    for r in range(size):
        for c in range(size):
            if values[r, c]:
                draw_tile(surface, cell_rect_2048(board, gap, cell, r, c), int(values[r, c]), grayscale)


# --- tic-tac-toe --------------------------------------------------------------------------------------
def draw_tictactoe(surface, board: pygame.Rect, state: int) -> None:
    """The 3x3 grid in `board`, its marks, and the winning line once there is one."""
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
    line = int(tables().winning_line[state])
    if line >= 0:
        a, b = centres[LINES[line][0]], centres[LINES[line][2]]
        pygame.draw.line(surface, palette.ACCENT, a, b, 10)


# --- dots and boxes -----------------------------------------------------------------------------------
def dots_geometry(area: pygame.Rect, rows: int, cols: int) -> tuple[int, int, int]:
    """(x, y) of the top-left dot and the spacing, for a board of rows x cols boxes centred in `area`."""
    gap = min(area.w // cols, area.h // rows)
    return area.x + (area.w - gap * cols) // 2, area.y + (area.h - gap * rows) // 2, gap


def dots_widths(gap: int) -> tuple[int, int, int]:
    """Dot radius, drawn-line and free-line widths for a spacing (5x5 in a small window needs thinner ones)."""
    return max(4, min(9, gap // 7)), max(3, min(8, gap // 9)), max(2, min(3, gap // 20))


def draw_dots(surface, area: pygame.Rect, state, line_owner: dict, box_owner: dict, names=("first", "second"),
              hover: int | None = None) -> None:
    """A dots board: taken boxes in their taker's colour with its name, drawn lines in the colour of who drew
    them (the first seat's where unknown), free lines faint (`hover` highlighted), then the dots."""
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


# --- match-3 ------------------------------------------------------------------------------------------
GEM_SHAPES = ("circle", "square", "diamond", "triangle", "hexagon", "star", "down", "ring")


def _regular(n: int, turn: float, radius: float = 1.0):
    return tuple((radius * np.cos(turn + 2 * np.pi * k / n), radius * np.sin(turn + 2 * np.pi * k / n))
                 for k in range(n))


GEM_POLYGONS = {  # unit shapes around the gem's centre
    "square": ((-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)),
    "diamond": _regular(4, -np.pi / 2),
    "triangle": _regular(3, -np.pi / 2, 1.1),
    "hexagon": _regular(6, 0.0),
    "star": tuple(p for k in range(5) for p in (_regular(5, -np.pi / 2)[k], _regular(5, -np.pi / 2 + np.pi / 5, 0.45)[k])),
    "down": _regular(3, np.pi / 2, 1.1),
}


def draw_gem(surface, colour_index: int, centre, radius: float, alpha: float = 1.0) -> None:
    """One gem: its colour and its own shape (colour-blind players tell them apart), a highlight."""
    if colour_index < 0 or radius <= 1:
        return
    colour = palette.GEMS[colour_index % len(palette.GEMS)]
    if alpha < 1:
        colour = tuple(int(v * alpha + b * (1 - alpha)) for v, b in zip(colour, palette.PANEL, strict=True))
    shape = GEM_SHAPES[colour_index % len(GEM_SHAPES)]  # each colour its own shape: colour-blind players
    x, y = centre
    if shape == "circle":
        pygame.draw.circle(surface, colour, centre, radius)
    elif shape == "ring":
        pygame.draw.circle(surface, colour, centre, radius, max(3, int(radius * 0.4)))
    else:
        points = [(x + radius * dx, y + radius * dy) for dx, dy in GEM_POLYGONS[shape]]
        pygame.draw.polygon(surface, colour, points)
    pygame.draw.circle(surface, (255, 255, 255), (x - radius / 3, y - radius / 3), max(2, radius / 5))



def draw_match3(surface, area: pygame.Rect, board: np.ndarray) -> tuple[int, int, int]:
    """A match-3 board at rest, as large as fits at the left of `area`; returns (x, y, cell) of its grid."""
    s = board.shape[0]
    cell = min((area.h - 10) // s, area.w // s)
    ox, oy = area.x + 20, area.y + (area.h - cell * s) // 2
    pygame.draw.rect(surface, palette.PANEL, (ox - 6, oy - 6, cell * s + 12, cell * s + 12), border_radius=10)
    for r in range(s):
        for c in range(s):
            draw_gem(surface, int(board[r, c]), (ox + (c + 0.5) * cell, oy + (r + 0.5) * cell), cell * 0.4)
    return ox, oy, cell


# --- blackjack ----------------------------------------------------------------------------------------
def draw_card(surface, rect: pygame.Rect, value=None, face_down: bool = False) -> None:
    if face_down:
        pygame.draw.rect(surface, (150, 40, 50), rect, border_radius=8)
        pygame.draw.rect(surface, (240, 230, 230), rect, 2, border_radius=8)
        return
    pygame.draw.rect(surface, CARD, rect, border_radius=8)
    pygame.draw.rect(surface, (40, 40, 40), rect, 2, border_radius=8)
    colour = (180, 30, 40) if value is not None and value % 2 else (30, 30, 30)
    text.draw(surface, str(value), (rect.x + 8, rect.y + 6), max(20, rect.h // 4), colour, bold=True)
    text.draw(surface, str(value), rect.center, max(28, rect.h // 2), colour, anchor="center", bold=True)


def draw_blackjack(surface, table: pygame.Rect, rules, state, hand: list[int], reserve: int = 0) -> int:
    """The felt table of a round: the deck's description, the hand and its total, the cards left of each value,
    the draw pile (the peeked card face up), leaving `reserve` pixels free at the bottom. Returns the y below
    the deck (what is left is the caller's)."""
    from arcade.games.blackjack import PRESETS

    pygame.draw.rect(surface, FELT, table, border_radius=18)
    pygame.draw.rect(surface, FELT_DARK, table, 6, border_radius=18)
    mdp = rules.mdp
    total, peeked, counts = state.mdp_state
    name = PRESETS[rules.preset][0] if rules.preset in PRESETS else f"a {rules.preset} deck"
    title = (f"{name}: values {mdp.card_values} x{mdp.multiplicity}, threshold {mdp.threshold}, "
             f"peek costs {mdp.peek_cost}")
    extra = 0
    if text.font(18).size(title)[0] <= table.w - 40:
        text.draw(surface, title, (table.x + 20, table.y + 14), 22, palette.TEXT, max_width=table.w - 40, min_size=18)
    else:  # a narrow table: the deck's description on two lines rather than cut
        for k, line in enumerate(text.wrap(title, 16, table.w - 40)):
            text.draw(surface, line, (table.x + 20, table.y + 10 + 17 * k), 16, palette.TEXT)
        extra = 8
    # top to bottom: the hand, its total, the deck; sizes follow the table's height
    ch = int(min(118, table.h * (0.2 if table.h >= 420 else 0.16)))
    cw = int(ch * 0.71)
    y = table.y + 46 + extra
    text.draw(surface, "YOUR HAND", (table.x + 24, y), 22, (200, 230, 210), bold=True)
    shown = hand[-9:]
    room = table.w - 220 - cw  # left of the draw pile
    step = min(cw + 10, room // max(1, len(shown) - 1)) if len(shown) > 1 else 0
    for k, value in enumerate(shown):  # side by side while they fit; overlapping, their corner still shows
        draw_card(surface, pygame.Rect(table.x + 24 + k * step, y + 26, cw, ch), value)
    y += 26 + ch + 14
    bust = state.over and total > mdp.threshold
    verdict = " - BUST" if bust else (" - collected" if state.over else "")
    text.draw(surface, f"total {total} / {mdp.threshold}{verdict}", (table.x + 24, y), 34,
              palette.BAD if bust else palette.TEXT, bold=True)
    y += 48
    text.draw(surface, "THE DECK (cards left of each value)", (table.x + 24, y), 22, (200, 230, 210), bold=True)
    room = table.bottom - (y + 30) - 30 - reserve  # height left for the stacks and their counts
    # equal values are one stack (the standard-like deck has four 10s): value -> cards left, in order
    stacks: dict[int, int] = {}
    for value, c in zip(mdp.card_values, state.deck, strict=True):
        stacks[value] = stacks.get(value, 0) + c
    tallest = max(sum(m == v for m in mdp.card_values) * mdp.multiplicity for v in stacks)
    sw = min(70, (table.w - 60) // max(1, len(stacks)))
    card_h = max(20, min(int((sw - 10) * 1.35), room - 8 * (tallest - 1)))
    for i, (value, c) in enumerate(stacks.items()):
        x = table.x + 24 + i * sw
        for j in range(c):
            draw_card(surface, pygame.Rect(x, y + 30 + j * 8, sw - 10, card_h), value)
        if c == 0:
            pygame.draw.rect(surface, FELT_DARK, (x, y + 30, sw - 10, card_h), 2, border_radius=8)
        text.draw(surface, f"x{c}", (x + (sw - 10) // 2, y + 36 + card_h + 8 * max(c - 1, 0)), 20,
                  palette.TEXT, anchor="midtop")
    # the draw pile (the peeked card face up), and the round's figures under it
    pile = pygame.Rect(table.right - cw - 40, table.y + 72, cw, ch)
    if counts is not None:
        for k in range(3, 0, -1):
            draw_card(surface, pile.move(k * 3, -k * 3), face_down=True)
        if peeked is not None:
            draw_card(surface, pile, mdp.card_values[peeked])
            text.draw(surface, "peeked: next card", (pile.centerx, pile.bottom + 6), 20, palette.ACCENT,
                      anchor="midtop")
        else:
            draw_card(surface, pile, face_down=True)
    deck_bottom = y + 60 + card_h + 8 * max(tallest - 1, 0)
    return deck_bottom


def draw_state(surface, area: pygame.Rect, game_id: str, rules, state, hand=None, line_owner=None,
               box_owner=None) -> None:
    """The board of any game's `state` in `area` (a square board centred at its top): what an environment's
    frame and a training game beside a learning curve show. The extras are what the state alone does not
    say: the blackjack hand's cards, who drew each dots line and box."""
    side = min(area.w, area.h)
    square = pygame.Rect(area.centerx - side // 2, area.y, side, side)
    if game_id == "2048":
        draw_2048(surface, square, state.values(), rules.size)
    elif game_id == "tictactoe":
        draw_tictactoe(surface, square, int(state))
    elif game_id == "dots":
        draw_dots(surface, area.inflate(-40, -40), state, dict(line_owner or {}), dict(box_owner or {}),
                  rules.seat_names)
    elif game_id == "match3":
        draw_match3(surface, pygame.Rect(square.x - 20, square.y, side, side), state.board)
    elif game_id == "blackjack":
        draw_blackjack(surface, area, rules, state, list(hand or []))
    else:
        raise ValueError(f"no board drawing for {game_id}")
