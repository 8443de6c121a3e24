"""Fonts (loaded once per size) and text drawing with anchors and ellipsis."""
from __future__ import annotations

import functools
import re

import pygame

from arcade.ui import palette


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    f = pygame.font.Font(None, size)
    f.set_bold(bold)
    return f


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """Shorten text with an ellipsis so it fits max_width pixels."""
    f = font(size, bold)
    if max_width <= 0 or f.size(text)[0] <= max_width:
        return text
    while text and f.size(text + "…")[0] > max_width:
        text = text[:-1]
    return text + "…"


def draw(surface, text: str, pos, size: int = 24, color=palette.TEXT, anchor: str = "topleft",
         bold: bool = False, max_width: int | None = None, min_size: int | None = None) -> pygame.Rect:
    """Draw one line. With max_width, text too wide first shrinks towards min_size, then is shortened."""
    if max_width is not None:
        while min_size is not None and size > min_size and font(size, bold).size(text)[0] > max_width:
            size -= 1
        text = fit(text, size, max_width, bold)
    img = font(size, bold).render(text, True, color)
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    return rect


_UNIT = re.compile(r"(ms|s|MB|GB|KB|px|x|%)[),.;:]*")


def wrap(text: str, size: int, max_width: int, max_lines: int = 2, bold: bool = False) -> list[str]:
    """Greedy word wrap into at most max_lines lines; the last line gets an ellipsis if the text is cut. A
    word wider than a line (a file name) is broken after its '_', '.', '/' or '-' rather than cut."""
    f = font(size, bold)
    words: list[str] = []
    for word in text.split():  # a number keeps its unit on its line: never "last 19 / ms"
        if words and _UNIT.fullmatch(word) and words[-1][-1:].isdigit():
            words[-1] += " " + word
        else:
            words.extend(_pieces(word, f, max_width))
    lines: list[str] = []
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if f.size(trial)[0] <= max_width or not current:
            current = trial
            continue
        if len(lines) == max_lines - 1:  # the last line allowed: the rest goes here, shortened by fit()
            current = " ".join([current] + words[i:])
            break
        lines.append(current)
        current = word
    lines.append(fit(current, size, max_width, bold))
    return lines


def _pieces(word: str, f, max_width: int) -> list[str]:
    """A word as pieces that fit a line, broken after a '_', '.', '/' or '-' (the word itself if it fits or
    has no such place). The pieces join back with a space: the line says where a name was broken."""
    if f.size(word)[0] <= max_width:
        return [word]
    parts = re.split(r"(?<=[_./-])", word)
    pieces, current = [], ""
    for part in parts:
        if current and f.size(current + part)[0] > max_width:
            pieces.append(current)
            current = part
        else:
            current += part
    return [*pieces, current] if current else pieces


def block(paragraphs: list[str], width: int, height: int, sizes: tuple[int, ...] = (18, 16, 15, 14)):
    """Paragraphs wrapped to `width` at the largest of `sizes` whose lines all fit `height` (a line takes its
    size + 2 px): (size, line step, lines). Only where even the smallest does not fit is the last line that
    fits given the rest, cut with an ellipsis."""
    for size in sizes:
        step = size + 2
        lines = [part for paragraph in paragraphs if paragraph for part in wrap(paragraph, size, width, 50)]
        if len(lines) * step <= height:
            return size, step, lines
    room = max(1, height // step)
    if len(lines) > room:  # as wrap does: the last line holds the rest, shortened by fit()
        lines = lines[:room - 1] + [fit(" ".join(lines[room - 1:]), size, width)]
    return size, step, lines


def number(v: float) -> str:
    """A value in a few characters a player reads: 1.610M, 16.1k, 512, 3.25, 0.007, and "~0" for a value
    nearer 0 than 0.001 but not 0 (noise: no scientific notation on screen, no "-0.00"). Values of one size
    have one number of decimals, so two side by side line up (1.590M next to 1.598M, not 1.59M)."""
    a = abs(v)
    if a == 0:
        return "0"  # (-0.0 too)
    if a < 1e-3:
        return "~0"
    if a >= 1e9:
        return f"{v / 1e9:.3f}G"
    if a >= 1e6:
        return f"{v / 1e6:.3f}M"
    if a >= 1e4:
        return f"{v / 1e3:.1f}k"
    if a >= 100 or v == int(v):
        return f"{v:.0f}"
    return f"{v:.3g}" if a < 1 else f"{v:.2f}"
