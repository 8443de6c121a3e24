"""Fonts (loaded once per size) and text drawing with anchors and ellipsis.

A screen draws much the same words every frame: a line's width, its wrapping and its rendered image are kept
(bounded caches, keyed by everything they depend on) rather than measured and rendered again 60 times a
second. The fuzzing of a screen spent a third of its time in font.size and font.render before."""
from __future__ import annotations

import functools
import re

import pygame

from arcade.numbers import number, numbers_for  # noqa: F401 (the screens write numbers as text.number)
from arcade.ui import palette


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    f = pygame.font.Font(None, size)
    f.set_bold(bold)
    return f


@functools.lru_cache(maxsize=8192)
def width(text: str, size: int, bold: bool = False) -> int:
    """The width in pixels of one line of text."""
    return font(size, bold).size(text)[0]


@functools.lru_cache(maxsize=4096)
def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """Shorten text with an ellipsis so it fits max_width pixels."""
    if max_width <= 0 or width(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)  # the longest start of the text that fits with the ellipsis (widths grow with length)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(text[:mid] + "…", size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…"


@functools.lru_cache(maxsize=512)  # a screen shows a few hundred lines at most (a short soak's memory: 73 MB
# with no image kept, 85 MB with up to 512, 93 MB with up to 1024)
def _image(text: str, size: int, bold: bool, color: tuple) -> pygame.Surface:
    return font(size, bold).render(text, True, color)


def forget() -> None:
    """Drop the fonts and the rendered lines (they die with pygame.quit(); a later App loads new ones)."""
    font.cache_clear()
    _image.cache_clear()


def draw(surface, text: str, pos, size: int = 24, color=palette.TEXT, anchor: str = "topleft",
         bold: bool = False, max_width: int | None = None, min_size: int | None = None) -> pygame.Rect:
    """Draw one line. With max_width, text too wide first shrinks towards min_size, then is shortened."""
    if max_width is not None:
        while min_size is not None and size > min_size and width(text, size, bold) > max_width:
            size -= 1
        text = fit(text, size, max_width, bold)
    img = _image(text, size, bold, tuple(color))
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    return rect


_UNIT = re.compile(r"(ms|s|MB|GB|KB|px|x|%)[),.;:]*")


def wrap(text: str, size: int, max_width: int, max_lines: int = 2, bold: bool = False) -> list[str]:
    """Greedy word wrap into at most max_lines lines; the last line gets an ellipsis if the text is cut. A
    word wider than a line (a file name) is broken after its '_', '.', '/' or '-' rather than cut."""
    return list(_wrapped(text, size, max_width, max_lines, bold))


@functools.lru_cache(maxsize=4096)
def _wrapped(text: str, size: int, max_width: int, max_lines: int, bold: bool) -> tuple[str, ...]:
    words: list[str] = []
    for word in text.split():  # a number keeps its unit on its line: never "last 19 / ms"
        if words and _UNIT.fullmatch(word) and words[-1][-1:].isdigit():
            words[-1] += " " + word
        else:
            words.extend(_pieces(word, size, bold, max_width))
    lines: list[str] = []
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if width(trial, size, bold) <= max_width or not current:
            current = trial
            continue
        if len(lines) == max_lines - 1:  # the last line allowed: the rest goes here, shortened by fit()
            current = " ".join([current] + words[i:])
            break
        lines.append(current)
        current = word
    lines.append(fit(current, size, max_width, bold))
    return tuple(lines)


def _pieces(word: str, size: int, bold: bool, max_width: int) -> list[str]:
    """A word as pieces that fit a line, broken after a '_', '.', '/' or '-' (the word itself if it fits or
    has no such place). The pieces join back with a space: the line says where a name was broken."""
    if width(word, size, bold) <= max_width:
        return [word]
    parts = re.split(r"(?<=[_./-])", word)
    pieces, current = [], ""
    for part in parts:
        if current and width(current + part, size, bold) > max_width:
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
