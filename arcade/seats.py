"""Who plays each seat of the game on a screen: the person, or an agent controller.

Every game screen has one `Seats`. The person plays one seat (`person`); Enter
hands it to the selected agent (`stand_in`, the screen's controller). The other
seats of a two-player game are played by `opponent`: a second controller (dots'
`o`), or the same controller (tic-tac-toe: the selected agent is the opponent,
and after Enter it plays both sides). One-player games have no opponent.

`refusal` is the one answer to "may the person move now?": None, or the line
that says why not (the game is over, the agent has control, wait for the other
side), written once for every game. No pygame here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PERSON = "you"  # how a move by the person is recorded in the session (GameSession.movers)


@dataclass
class Seats:
    """In: the controller that stands in for the person (Enter), the opponent's controller (None in a
    one-player game; the stand-in itself where the selected agent is the opponent), the person's seat,
    and the refusal line once the game is over (saying what starts the next one)."""

    stand_in: Any
    opponent: Any = None
    person: int = 0
    over_line: str = "the game is over: r plays again"

    @property
    def handed_over(self) -> bool:
        """Whether the agent plays the person's seat now."""
        return bool(self.stand_in.enabled)

    def controller_of(self, seat: int):
        """The controller that plays `seat` now, or None where the person does."""
        if seat == self.person or self.opponent is None:
            return self.stand_in if self.handed_over else None
        return self.opponent

    def name(self, seat: int) -> str:
        """Who plays `seat` now: "you" or an agent's name."""
        controller = self.controller_of(seat)
        return PERSON if controller is None else controller.name

    def controllers(self) -> list:
        """Every controller that plays a seat (the stand-in first)."""
        others = [] if self.opponent is None or self.opponent is self.stand_in else [self.opponent]
        return [self.stand_in, *others]

    def mover_name(self, by_agent: bool) -> str:
        """Who played a move, as the session records it: the stand-in's name or "you"."""
        return self.stand_in.name if by_agent else PERSON

    def stand_in_plays(self, mover: int) -> bool:
        """Whether the stand-in controller is asked for the move of seat `mover` (its own side once handed
        over; every other seat where it is also the opponent)."""
        if mover == self.person or self.opponent is None:
            return self.handed_over
        return self.opponent is self.stand_in

    def refusal(self, over: bool, mover: int = 0) -> str | None:
        """Why the person may not move now (None: they may): the one guard of every game screen."""
        if over:
            return self.over_line
        if self.handed_over:
            both = self.opponent is self.stand_in
            return ("the agent plays both sides: Enter takes your side back" if both
                    else "the agent is playing your side: Enter takes control back")
        if mover != self.person and self.opponent is not None:
            return f"wait: it is {self.opponent.name}'s turn"
        return None
