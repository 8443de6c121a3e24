"""The frame every game screen shares: top HUD bar, key-help line, help overlay, toasts."""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from arcade.ui import palette, text
from arcade.ui.geometry import overlay_scale

TOP = 70
BOTTOM = 34
CARD_PAD = 12  # the end-of-game card: room between its border and its words


@dataclass
class HudInfo:
    title: str
    status: str  # score or game status
    control: str  # "You" or the agent's name
    agent_state: str  # "off", "thinking 12 ms", "waiting", "error: ..."
    agent_name: str  # the selected agent (shown even when the human plays)
    delay_ms: int
    help_line: str
    seed: str = ""


def board_rect(surface: pygame.Surface) -> pygame.Rect:
    """The area between the HUD bars where a game draws itself."""
    w, h = surface.get_size()
    return pygame.Rect(16, TOP + 10, w - 32, h - TOP - BOTTOM - 20)


def fitting_parts(line: str, size: int, width: int, sep: str = "   ") -> str:
    """A status line of parts set apart by three spaces, its last parts left out while it would not fit
    `width` even at `size` (the first part stays, cut if it must be)."""
    parts = line.split(sep)
    while len(parts) > 1 and text.width(sep.join(parts), size) > width:
        parts.pop()
    return sep.join(parts)


def draw_frame(surface: pygame.Surface, info: HudInfo) -> None:
    w, h = surface.get_size()
    pygame.draw.rect(surface, palette.PANEL, (0, 0, w, TOP))
    pygame.draw.line(surface, palette.BORDER, (0, TOP), (w, TOP))
    text.draw(surface, info.title, (18, 12), 40, palette.ACCENT, bold=True)
    text.draw(surface, fitting_parts(info.status, 14, w // 2 - 30), (18, 46), 22, palette.TEXT,
              max_width=w // 2 - 30, min_size=14)

    state_colour = palette.BAD if info.agent_state.startswith("error") else (
        palette.GOOD if info.agent_state.startswith("thinking") else palette.MUTED)
    x = w - 18
    # the right column keeps to its half (the status line on the left shares these rows); in a narrow window
    # its lines get smaller before anything is cut ("waiting (last move 95..." at 640)
    text.draw(surface, f"Control: {info.control}", (x, 10), 26, palette.TEXT, anchor="topright", bold=True,
              max_width=w // 2 + 20, min_size=18)
    agent_line = f"Agent {info.agent_name}: {info.agent_state}" if info.agent_name else "no agent yet"
    text.draw(surface, agent_line, (x, 34), 21, state_colour, anchor="topright", max_width=w // 2 - 20,
              min_size=14)
    if info.agent_name:
        seed = f"   seed {info.seed}" if info.seed else ""
        text.draw(surface, f"delay {info.delay_ms} ms{seed}", (x, 52), 18, palette.MUTED, anchor="topright")

    pygame.draw.rect(surface, palette.PANEL, (0, h - BOTTOM, w, BOTTOM))
    pygame.draw.line(surface, palette.BORDER, (0, h - BOTTOM), (w, h - BOTTOM))
    text.draw(surface, info.help_line, (14, h - BOTTOM // 2), 20, palette.MUTED, anchor="midleft",
              max_width=w - 28, min_size=13)


def draw_help_overlay(surface: pygame.Surface, title: str, keys: list[tuple[str, str]], first: int = 0) -> list[str]:
    """The key help over the screen, from the row `first` on (the help scrolls where the window cannot hold
    them all); a row with no key ("", words) is a heading. Returns the keys it listed."""
    w, h = surface.get_size()
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill(palette.OVERLAY)
    surface.blit(shade, (0, 0))
    k = overlay_scale(surface)
    box_w = min(round(760 * k), w - 40)
    # the descriptions wrap (never cut); the text gets smaller, and its lines closer, until every key fits
    for size in sorted({round(24 * k), round(22 * k), 22, 20, 18, 16, 15, 14}, reverse=True):
        line_h, key_w = size + (4 if size > 16 else 3), int(size * 7.5)
        rows = [(key, [desc] if not key else text.wrap(desc, size, box_w - key_w - 44, max_lines=4))
                for key, desc in keys]
        box_h = 100 + sum(line_h * len(lines) + (line_h // 2 if not key else 0) for key, lines in rows)
        if box_h <= h - 40:
            break
    box = pygame.Rect(0, 0, box_w, min(box_h, h - 40))
    box.center = (w // 2, h // 2)
    pygame.draw.rect(surface, palette.PANEL, box, border_radius=12)
    pygame.draw.rect(surface, palette.ACCENT, box, 2, border_radius=12)
    text.draw(surface, f"{title}: keys", (box.x + 24, box.y + 18), 34, palette.ACCENT, bold=True)
    y, listed, shown = box.y + 62, [], 0
    for key, lines in rows[first:]:
        if y + line_h * len(lines) > box.bottom - 30:
            break
        shown += 1
        if not key:  # a heading: a little space above it, in the accent colour
            y += line_h // 2
            text.draw(surface, lines[0], (box.x + 24, y), size, palette.ACCENT, bold=True, max_width=box.w - 48)
            y += line_h
            continue
        text.draw(surface, key, (box.x + 24, y), size, palette.TEXT, bold=True, max_width=key_w - 10)
        listed.append(key)
        for line in lines:
            text.draw(surface, line, (box.x + 24 + key_w, y), size, palette.MUTED)
            y += line_h
    after = len(keys) - first - shown
    closing = "any key closes this help" if shown == len(keys) else \
        f"rows {first + 1}-{first + shown} of {len(keys)}: up/down scroll ({after} below, {first} above); any " \
        "other key closes this help"
    text.draw(surface, closing, (box.centerx, box.bottom - 10), 20, palette.MUTED, anchor="midbottom",
              max_width=box.w - 24, min_size=14)
    return listed


def draw_game_over(surface: pygame.Surface, box: pygame.Rect, title: str, detail: str | None, keys: str,
                   shade_alpha: int = 200) -> pygame.Rect:
    """The end-of-game card every game screen shows: the box (the board) dimmed, and on a solid card in its
    middle a title, a figure line and the keys, so no tile or gem shows through the words. Returns the card."""
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((18, 18, 22, shade_alpha))
    surface.blit(shade, box.topleft)
    lines = [(title, 56, palette.ACCENT, True)] + ([(detail, 32, palette.TEXT, False)] if detail else []) + \
        [(keys, 24, palette.MUTED, False)]
    height = sum(size + 12 for _, size, _, _ in lines) + 24
    # as wide as the board, wider where its words need it (a small board in a small window), never wider
    # than the window; the words keep 12 px inside its border
    need = max(text.width(line, size, bold) for line, size, _, bold in lines) + 2 * CARD_PAD
    card = pygame.Rect(0, box.centery - height // 2, min(max(box.w - 24, need), surface.get_width() - 16), height)
    card.centerx = box.centerx
    card.clamp_ip(surface.get_rect().inflate(-16, 0))
    pygame.draw.rect(surface, palette.PANEL, card, border_radius=12)
    pygame.draw.rect(surface, palette.ACCENT, card, 2, border_radius=12)
    y = card.y + 12
    for line, size, colour, bold in lines:
        text.draw(surface, line, (card.centerx, y + size // 2), size, colour, anchor="center", bold=bold,
                  max_width=card.w - 2 * CARD_PAD, min_size=16)
        y += size + 12
    return card


def draw_progress(surface: pygame.Surface, line: str, fraction: float) -> None:
    """Long work under way: a bar across the bottom of the board area with what it is and the time left."""
    w, h = surface.get_size()
    bar = pygame.Rect(40, h - BOTTOM - 84, w - 80, 22)
    back = bar.inflate(20, 44).move(0, -10)
    pygame.draw.rect(surface, palette.PANEL, back, border_radius=10)
    pygame.draw.rect(surface, palette.INFO, back, 2, border_radius=10)
    text.draw(surface, line, (bar.x, bar.y - 24), 20, palette.TEXT, max_width=bar.w)
    pygame.draw.rect(surface, palette.PANEL_HI, bar, border_radius=6)
    fill = bar.copy()
    fill.w = max(4, int(bar.w * fraction))
    pygame.draw.rect(surface, palette.GOOD, fill, border_radius=6)


def draw_toast(surface: pygame.Surface, message: str, colour=palette.INFO) -> None:
    """A message in the key-help bar at the bottom (it stands in for the help line while it shows), so it
    never covers the game; a long one takes two lines of smaller text, never cut short."""
    w, h = surface.get_size()
    for size, max_lines in ((21, 1), (16, 2), (14, 2)):
        lines = text.wrap(message, size, w - 28, max_lines=max_lines)
        if not lines[-1].endswith("…") or size == 14:
            break
    line_h = text.font(size).get_linesize()
    height = max(BOTTOM, len(lines) * line_h + 8)  # two lines grow the bar upward: none is clipped at its top
    bar = pygame.Rect(0, h - height, w, height)
    pygame.draw.rect(surface, palette.PANEL_HI, bar)
    pygame.draw.line(surface, colour, bar.topleft, bar.topright, 2)
    y = bar.centery - (len(lines) * line_h) // 2 + 1
    for line in lines:
        text.draw(surface, line, (14, y), size, palette.TEXT)
        y += line_h
