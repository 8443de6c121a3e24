"""The blackjack board drawn from its state alone: pure functions of (surface, rect, state), no screen,
no agent, no files. The screen draws its board with these (adding what is its own: animations, the cursor,
values), and the environments and the training view draw a frame with `paint`."""
from __future__ import annotations

from collections import Counter

import pygame

from arcade.games.blackjack import hand
from arcade.ui import palette, text

FELT = (22, 104, 60)
FELT_DARK = (16, 80, 46)
CARD = (250, 248, 240)


def draw_card(surface, rect: pygame.Rect, value=None, face_down: bool = False) -> None:
    if face_down:
        pygame.draw.rect(surface, (150, 40, 50), rect, border_radius=8)
        pygame.draw.rect(surface, (240, 230, 230), rect, 2, border_radius=8)
        return
    pygame.draw.rect(surface, CARD, rect, border_radius=8)
    pygame.draw.rect(surface, (40, 40, 40), rect, 2, border_radius=8)
    colour = (180, 30, 40) if value is not None and value % 2 else (30, 30, 30)
    if rect.w >= 40:  # (a small card shows its value once, in the middle)
        text.draw(surface, str(value), (rect.x + 8, rect.y + 6), max(20, rect.h // 4), colour, bold=True)
    text.draw(surface, str(value), rect.center, max(14, min(max(28, rect.h // 2), rect.w * 3 // 4)), colour,
              anchor="center", bold=True)


def card_size(table: pygame.Rect) -> tuple[int, int]:
    """(width, height) of a card in the hand and on the pile: following the table's height, larger on a wide
    table (1600x900 and full screen) where a 118 px card left the felt empty."""
    cap = 118 + max(0, min(70, (table.w - 900) // 6))
    ch = int(min(cap, table.h * (0.24 if table.h >= 700 else 0.2 if table.h >= 420 else 0.16)))
    return int(ch * 0.71), ch


NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}  # (how many of a card, in words)


def deck_title(rules) -> str:
    """The line naming the deck at the top of the table, as a card game says it: "cards 1, 3, 5, 8, 10, three
    of each; over 40 busts; a peek costs 1" (the course's names for its decks are `i`'s and the docs')."""
    mdp = rules.mdp
    counts = Counter({v: n * mdp.multiplicity for v, n in Counter(mdp.card_values).items()})
    if len(set(counts.values())) == 1:
        n = next(iter(counts.values()))
        cards = f"cards {', '.join(map(str, counts))}" + ("" if n == 1 else f", {NUMBER_WORDS.get(n, n)} of each")
    else:
        cards = "cards " + ", ".join(str(v) if c == 1 else f"{NUMBER_WORDS.get(c, c)} {v}s" for v, c in counts.items())
    return f"{cards}; over {mdp.threshold} busts; a peek costs {mdp.peek_cost}"


def _wraps(table: pygame.Rect, title: str) -> bool:
    """Whether the deck's line takes two lines on this table (then everything under it moves down 8 px)."""
    return text.width(title, 18) > table.w - 40


def hand_slots(table: pygame.Rect, rules, cards: int) -> list[pygame.Rect]:
    """Where each of the last nine cards of a hand of `cards` goes: side by side while they fit, overlapping
    when not (each card's corner still shows its value)."""
    extra = 8 if _wraps(table, deck_title(rules)) else 0
    cw, ch = card_size(table)
    shown = min(cards, 9)
    room = table.w - 24 - (cw + 60)  # left of the draw pile
    if shown * (cw + 10) - 10 > room:  # too many to stand side by side: smaller cards (overlapping cards hid
        cw = max(22, (room + 6) // shown - 6)  # a 10 under the next card's edge), each value still shown
    step = min(cw + 10, (room - cw) // max(1, shown - 1)) if shown > 1 else 0
    y = table.y + 46 + extra + 26
    return [pygame.Rect(table.x + 24 + k * step, y, cw, ch) for k in range(shown)]


def pile_rect(table: pygame.Rect) -> pygame.Rect:
    """The draw pile's top card."""
    cw, ch = card_size(table)
    return pygame.Rect(table.right - cw - 40, table.y + 72, cw, ch)


def draw_blackjack(surface, table: pygame.Rect, rules, state, hand: list[int], reserve: int = 0,
                   dealing: bool = False) -> int:
    """The felt table of a round: the deck's description, the hand and its total, the cards left of each value,
    the draw pile (the peeked card face up), leaving `reserve` pixels free at the bottom. dealing: the hand's
    last card is on its way (the screen draws it moving): its place is left empty. Returns the y below the
    deck (what is left is the caller's). While dealing, the total (and a bust) wait for the card to land."""
    pygame.draw.rect(surface, FELT, table, border_radius=18)
    pygame.draw.rect(surface, FELT_DARK, table, 6, border_radius=18)
    mdp = rules.mdp
    total, peeked, counts = state.mdp_state
    title = deck_title(rules)
    extra = 0
    if not _wraps(table, title):
        text.draw(surface, title, (table.x + 20, table.y + 14), 22, palette.TEXT, max_width=table.w - 40, min_size=18)
    else:  # a narrow table: the deck's description on two lines rather than cut
        for k, line in enumerate(text.wrap(title, 16, table.w - 40)):
            text.draw(surface, line, (table.x + 20, table.y + 10 + 17 * k), 16, palette.TEXT)
        extra = 8
    # top to bottom: the hand, its total, the deck; sizes follow the table's height
    cw, ch = card_size(table)
    y = table.y + 46 + extra
    text.draw(surface, "YOUR HAND", (table.x + 24, y), 22, (200, 230, 210), bold=True)
    shown = hand[-9:]
    for k, (value, slot) in enumerate(zip(shown, hand_slots(table, rules, len(hand)), strict=True)):
        if not (dealing and k == len(shown) - 1):
            draw_card(surface, slot, value)
    y += 26 + ch + 14
    landed = not (dealing and hand)
    if not landed:
        total -= hand[-1]
    bust = landed and state.over and total > mdp.threshold
    verdict = " - BUST" if bust else (" - collected" if state.over and landed else "")
    text.draw(surface, f"total {total} / {mdp.threshold}{verdict}", (table.x + 24, y), 34,
              palette.BAD if bust else palette.TEXT, bold=True)
    y += 48
    text.draw(surface, "THE DECK: cards left", (table.x + 24, y), 22, (200, 230, 210), bold=True)
    room = table.bottom - (y + 30) - 30 - reserve  # height left for the stacks and their counts
    # equal values are one stack (the standard-like deck has four 10s): value -> cards left, in order
    stacks: dict[int, int] = {}
    for value, c in zip(mdp.card_values, state.deck, strict=True):
        stacks[value] = stacks.get(value, 0) + c
    tallest = max(sum(m == v for m in mdp.card_values) * mdp.multiplicity for v in stacks)
    sw = min(70 + (ch - 118) // 2 if ch > 118 else 70, (table.w - 60) // max(1, len(stacks)))
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
    pile = pile_rect(table)
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


SMALLEST = (560, 420)  # below this the table is laid out at this size and scaled down (its text would not fit)


def paint(surface, area: pygame.Rect, rules, state, history=()) -> None:
    """The table of `state` in `area`, with the hand's cards read off the round's states before it (`history`,
    the session's: the state holds the total, not the cards). A small area (a tree view's outcome, a training
    game beside its curve) gets the whole table drawn at SMALLEST and scaled to fit, so nothing runs off it."""
    cards = hand(rules, [*history, state])
    if area.w >= SMALLEST[0] and area.h >= SMALLEST[1]:
        draw_blackjack(surface, area, rules, state, cards)
        return
    full = pygame.Surface(SMALLEST)
    full.fill(palette.PANEL)
    draw_blackjack(full, full.get_rect(), rules, state, cards)
    scale = min(area.w / SMALLEST[0], area.h / SMALLEST[1])
    small = pygame.transform.smoothscale(full, (max(1, int(SMALLEST[0] * scale)), max(1, int(SMALLEST[1] * scale))))
    surface.blit(small, small.get_rect(center=area.center))
