"""What a game's view tells the shared game screen: the hooks a game's screen class overrides, each with
the default a game that does not need it gets. The machinery that calls them (keys, agents, the HUD,
keeping games) is arcade.screens.base.GameScreen; a game's view folder holds the subclass."""
from __future__ import annotations

import pygame

from arcade.screens.stacked import Screen


class GameView(Screen):
    """The hooks of a game's screen. Class attributes: TRAIN_KEY / LEARN_KEY (a game that uses t or l for
    itself names others), VARIANT_CHOICES (the kept choices that hold the game's variant, which rules
    parameters on the command line override), HISTOGRAM (what the statistics view's histogram counts)."""

    TRAIN_KEY = pygame.K_t
    LEARN_KEY = pygame.K_l
    VARIANT_CHOICES: tuple[str, ...] = ()
    HISTOGRAM = "histogram"

    # --- what is shown -------------------------------------------------------------------------------------
    def game_keys(self) -> list[tuple]:
        """The screen's own keys: (keys, what they do, a short word for the help line or nothing)."""
        return []

    def status_text(self) -> str:
        return ""

    def control_label(self) -> str:
        """Who plays, for the HUD: "You", the agent in control, "You (X) vs minimax"."""
        return self.controller.name if self.controller.enabled else "You"

    def draw_game(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pass

    def draw_values(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Draw the selected agent's values on the board (called while `v` is on)."""

    def shown_state(self):
        """The state on screen whose values `v` shows (None when the game is over)."""
        return None if self.session is None or self.session.over else self.session.state

    def show_state(self, state) -> None:
        """Put `state` on the board as it is (no animation, no history): environments render through it."""
        self.session.show(state)

    def animating(self) -> bool:
        """Whether the game itself is moving (tiles sliding, gems falling, an opponent's turn)."""
        return False

    def statistics_player(self) -> str | None:
        """The statistics row of whoever plays now (you, or the agent in control), as the screen records it;
        None where the screen names rows otherwise."""
        return None

    # --- play ----------------------------------------------------------------------------------------------
    def agent_state(self):
        """The state the agent decides in, or None when it may not move now (by default: the session's state
        until the game ends)."""
        return self.shown_state()

    def agent_active(self) -> bool | None:
        """Whether the agent plays the current turn (None: whenever it is in control)."""
        return None

    def apply_agent_action(self, action) -> None:
        pass

    def handle_game_event(self, event) -> bool:
        """The game's own input; True if it was consumed."""
        return False

    def update_game(self, dt_ms: float) -> None:
        pass

    # --- kept across runs (arcade.kept_games) ----------------------------------------------------------------
    def extra_choices(self) -> dict:
        """The screen's own choices worth keeping (a board size, a side, a deck) as JSON-able data."""
        return {}

    def apply_extra_choices(self, choices: dict) -> None:
        """Take back the screen's own kept choices (ValueError / KeyError / TypeError if they do not fit)."""

    def use_variant(self, params: dict) -> None:
        """Switch to the rules of a kept game ({"size": 5}) before it is restored; a game whose variant the
        screen cannot change refuses (ValueError)."""
        raise ValueError(f"the kept game was played under other rules ({params})")
