"""
# Tic-tac-toe (PettingZoo AEC): `arcade.envs.tictactoe_v0.env()`

| Import             | `from arcade.envs import tictactoe_v0`                  |
|--------------------|---------------------------------------------------------|
| Actions            | Discrete(9): cell `3 * row + col`                       |
| Agents             | `['player_0', 'player_1']` (player_0 plays X, first)    |
| Observation        | `observation`: Box(0, 1, (3, 3, 2), int8); `action_mask`: (9,) int8 |

## Description

Tic-tac-toe on the arcade's rules (arcade.games.tictactoe): X and O take turns;
three in a row wins.

## Observation Space

A dict: `observation` holds two 3 x 3 planes from the observing agent's view
(plane 0 its own marks, plane 1 the opponent's), so one policy can play both
sides; `action_mask` marks the empty cells for the agent to move (all zeros for
the other).

## Action Space

`Discrete(9)`: the cell `3 * row + col`, 0 top left.

## Rewards

+1 for the winner and -1 for the loser when the game ends, 0 each for a draw.
An illegal move ends the game: -1 for its player, 0 for the other.

## Starting State

The empty board, player_0 to move.

## Episode End

A line of three or a full board (or an illegal move).

## Arguments

`env(render_mode=None)`; render modes "rgb_array" and "human" draw the arcade's
own tic-tac-toe screen.

## Version History

* v0: Initial version.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces

from arcade.envs.aec import ArcadeAEC, wrap
from arcade.envs.versus import tictactoe_planes
from arcade.games.tictactoe import TicTacToeRules


class raw_env(ArcadeAEC):
    metadata = {**ArcadeAEC.metadata, "name": "tictactoe_v0"}
    game_id = "tictactoe"

    def __init__(self, render_mode: str | None = None):
        super().__init__(TicTacToeRules(), 9, spaces.Box(0, 1, (3, 3, 2), dtype=np.int8), render_mode)

    def observation_of(self, state, seat: int) -> np.ndarray:
        return tictactoe_planes(state, seat)


def env(**kwargs):
    """The wrapped AEC environment (illegal moves end the game with -1, as in PettingZoo's classic envs)."""
    return wrap(raw_env(**kwargs))
