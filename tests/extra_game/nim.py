"""A tiny game used by tests/test_extending.py to show that adding a game is its rules module (ending
in its declaration), its view and one catalogue line: Nim, two players take 1 to 3 stones from one heap;
who takes the last wins. Rules only: no pygame here, like every rules module."""
from __future__ import annotations

from dataclasses import dataclass

from arcade.games.base import no_options
from arcade.games.declare import GameInfo, GameType, declare
from arcade.foundation.setting_fields import ranged


@dataclass(frozen=True)
class NimSettings:
    heap: int = ranged(1, 99, 10)


@dataclass(frozen=True)
class NimState:
    stones: int
    mover: int = 0
    last: int = -1  # the seat that took the last stones


@dataclass(frozen=True)
class NimRules:
    heap: int = 10

    def new_state(self, rng=None) -> NimState:
        return NimState(self.heap)

    def info(self) -> GameInfo:
        return GameInfo(3, self.heap, (-1.0, 1.0))

    def legal_actions(self, state: NimState) -> list[int]:
        return [k for k in (1, 2, 3) if k <= state.stones]

    def step(self, state: NimState, action: int, rng=None) -> NimState:
        if action not in self.legal_actions(state):
            raise ValueError(f"cannot take {action} of {state.stones}")
        return NimState(state.stones - action, 1 - state.mover, state.mover)

    def is_terminal(self, state: NimState) -> bool:
        return state.stones == 0

    def to_move(self, state: NimState) -> int:
        return state.mover

    def outcome(self, state: NimState) -> dict:
        scores = tuple(int(seat == state.last) for seat in (0, 1))
        return {"scores": scores, "winner": state.last}

    def parse_state(self, text: str, **options) -> NimState:
        no_options("nim", options)
        if not text.strip().isdigit():
            raise ValueError(f"'{text}' is not a number of stones")
        return NimState(int(text))

    def format_state(self, state: NimState) -> str:
        return str(state.stones)

    def format_action(self, action: int) -> str:
        return f"take {action}"


def make_rules(settings) -> NimRules:
    return NimRules(settings.for_game("nim").heap)


# not in the arcade's catalogue: tests/test_extending.py adds it with add_game(GAME)
GAME = declare(GameType(id="nim", title="Nim", blurb="Take 1-3 stones; the last one wins.", players=2,
                        seat_names=("first", "second"), settings=NimSettings, parameters=("heap",),
                        rules_class=NimRules))
