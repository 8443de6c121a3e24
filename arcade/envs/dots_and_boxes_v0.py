"""
# Dots and boxes (PettingZoo AEC): `arcade.envs.dots_and_boxes_v0.env(rows=2, cols=2)`

| Import             | `from arcade.envs import dots_and_boxes_v0`             |
|--------------------|---------------------------------------------------------|
| Actions            | Discrete(L): the line's number                          |
| Agents             | `['player_0', 'player_1']` (player_0 moves first)       |
| Observation        | `observation`: Box(0, rows*cols, (L + 3,), int8); `action_mask`: (L,) int8 |

## Description

Dots and boxes on `rows` x `cols` boxes, on the arcade's rules (arcade.games.dots):
players draw lines in turn; a player who completes a box scores it and moves again,
so the same agent may be selected several times in a row.

## Observation Space

A dict: `observation` is 1 for each drawn line (horizontal lines row by row, then
vertical lines column by column, bit 0 first), then the observing agent's boxes,
the other's boxes, and 1 if it is the observing agent's turn (L + 3 values; a
policy sees the score, which the rewards pay only at the end); `action_mask` marks
the undrawn lines for the agent to move (all zeros for the other).

## Action Space

`Discrete(L)`: the line to draw; L = 12 on 2x2, 17 on 2x3, 24 on 3x3.

## Rewards

+1 for the player with more boxes and -1 for the other when every line is drawn,
0 each for a tie. An illegal move ends the game: -1 for its player, 0 for the other.

## Starting State

No line drawn, player_0 to move.

## Episode End

Every line drawn (or an illegal move).

## Arguments

`env(rows=2, cols=2, render_mode=None)`; any board from 1x1 to 5x5 boxes. Render modes
"rgb_array" and "human" draw the arcade's own dots and boxes screen.

## Version History

* v0: Initial version.
"""
from __future__ import annotations

import numpy as np

from arcade.envs.aec import ArcadeAEC, wrap
from arcade.envs.versus import dots_observation, dots_observation_space
from arcade.games.dots import Board, DotsRules


class raw_env(ArcadeAEC):
    metadata = {**ArcadeAEC.metadata, "name": "dots_and_boxes_v0"}
    game_id = "dots"

    def __init__(self, rows: int = 2, cols: int = 2, render_mode: str | None = None):
        rules = DotsRules(rows, cols)  # refuses a size that is not a board's
        n = Board(rows, cols).n_lines
        super().__init__(rules, n, dots_observation_space(rows, cols), render_mode)

    def observation_of(self, state, seat: int) -> np.ndarray:
        return dots_observation(state, seat)


def env(**kwargs):
    """The wrapped AEC environment (illegal moves end the game with -1, as in PettingZoo's classic envs)."""
    return wrap(raw_env(**kwargs))
