"""What the app's screen stack holds: the Screen interface (the launcher, a game screen, an overlay)."""
from __future__ import annotations

import pygame


class Screen:
    # the screen's own keys that toggle, open or restart (beside the app's ONCE_KEYS): a held one acts once
    once_keys: frozenset = frozenset()

    def handle_event(self, event) -> bool:
        """Handle one event; True if it was consumed (the app then ignores it, e.g. Esc)."""
        return False

    def update(self, dt_ms: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        pass

    def close(self) -> None:
        pass

    def busy(self) -> bool:
        """Whether anything on the screen moves by itself now (an animation, an agent, a message fading).
        When nothing does, the app sleeps until the next input instead of drawing 60 frames a second."""
        return False
