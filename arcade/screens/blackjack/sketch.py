"""A small drawn picture of blackjack for its launcher card (no game state, just a sketch)."""
from __future__ import annotations

import pygame

from arcade.ui import text

WIDE = True  # drawn across the card's whole width


def sketch(surface, rect):
    pygame.draw.rect(surface, (24, 110, 64), rect, border_radius=10)
    ch = min(int(rect.w // 5 * 1.4), rect.h - 24)  # as tall as the picture allows, cards keep their shape
    cw = max(8, int(ch / 1.4))
    for i, value in enumerate((5, 10, 3)):
        card = pygame.Rect(rect.x + 16 + i * (cw // 2 + 10), rect.centery - ch // 2 + (i - 1) * 4, cw, ch)
        pygame.draw.rect(surface, (250, 250, 245), card, border_radius=6)
        pygame.draw.rect(surface, (40, 40, 40), card, 2, border_radius=6)
        text.draw(surface, str(value), (card.x + 4, card.y + 3), max(10, min(24, ch // 4)), (30, 30, 30), bold=True)
    deck = pygame.Rect(rect.right - cw - 18, rect.centery - ch // 2, cw, ch)
    for k in range(3, -1, -1):
        pygame.draw.rect(surface, (150, 40, 50), deck.move(k * 3, -k * 3), border_radius=6)
        pygame.draw.rect(surface, (240, 230, 230), deck.move(k * 3, -k * 3), 2, border_radius=6)
