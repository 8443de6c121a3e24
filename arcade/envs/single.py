"""The arcade's one-player games as Gymnasium environments: 2048, match-3 and peeking blackjack.

Each is built on the same rules module as the window (arcade.games); see
arcade/envs/base.py for what they share (action masks, illegal actions, seeding).
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces

from arcade.envs.base import ArcadeEnv
from arcade.games.blackjack import ACTIONS, PRESETS, BlackjackMDP, BlackjackRules, RoundState, mdp_parameter_problem
from arcade.games.match3 import Match3Rules, Match3Settings
from arcade.games.twenty48 import Game2048Settings, Rules2048, move_all
from arcade.foundation.setting_fields import check_in_range


OBSERVATIONS_2048 = ("exponents", "onehot")


def observation_space_2048(size: int, observation: str) -> spaces.Box:
    """A 2048 board's observation space: the exponents (size x size), or one plane per exponent (size x size
    x (size*size + 2), 1 where the cell holds that exponent: what MLP and CNN policies take, as pgx's and
    gymnasium-2048's observations)."""
    if observation not in OBSERVATIONS_2048:
        raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS_2048)}, got {observation!r}")
    if observation == "onehot":
        return spaces.Box(0, 1, (size, size, size * size + 2), dtype=np.uint8)
    return spaces.Box(0, size * size + 1, (size, size), dtype=np.uint8)


def one_hot_2048(boards: np.ndarray, planes: int) -> np.ndarray:
    """Boards of exponents (... x size x size) as one plane per exponent (... x size x size x planes, uint8)."""
    return (boards[..., None] == np.arange(planes, dtype=np.uint8)).astype(np.uint8)


class Game2048Env(ArcadeEnv):
    """
    ## Description

    2048 on a `size` x `size` board: slide all tiles up, down, left or right; equal
    tiles that meet merge into their sum, which is added to the score. After every
    move the computer places a 2 (a 4 with probability `spawn_four_probability`) on
    a uniformly random empty cell. The course's rules place 2-tiles only.

    ## Action Space

    `Discrete(4)`: 0 up, 1 down, 2 left, 3 right. A move that changes nothing is
    illegal (`info["action_mask"]` marks the legal ones).

    ## Observation Space

    `Box(0, size*size + 1, (size, size), uint8)`: the tiles as exponents (0 empty,
    1 for a 2, 2 for a 4, 11 for 2048, ...).

    ## Rewards

    The score the move gained (the sum of the tiles it merged into). An illegal
    move: `illegal_reward` (default -1) and the episode ends.

    ## Starting State

    Two tiles on random cells of an empty board.

    ## Episode End

    Terminated when no move changes the board (or after an illegal move).

    ## Arguments

    `gymnasium.make("arcade/2048-v0", size=4, spawn_four_probability=0.0,
    illegal_reward=-1.0, render_mode=None, observation="exponents")`; size from 3 to 7;
    `observation="onehot"`: `Box(0, 1, (size, size, size*size + 2), uint8)`, one plane per exponent.

    ## Information

    `action_mask`, `score`, `max_tile`, `illegal_action` (after a step).

    ## Version History

    * v0: Initial version, on the arcade's rules (arcade.games.twenty48).
    """

    game_id = "2048"
    env_id = "arcade/2048-v0"  # (its Gymnasium id: arcade.envs registers it)

    def __init__(self, size: int = 4, spawn_four_probability: float = 0.0, illegal_reward: float = -1.0,
                 render_mode: str | None = None, observation: str = "exponents"):
        check_in_range(Game2048Settings, "size", size)
        check_in_range(Game2048Settings, "spawn_four_probability", spawn_four_probability)
        super().__init__(Rules2048(size, spawn_four_probability), render_mode, illegal_reward)
        self.action_space = spaces.Discrete(4)
        self.observation_space = observation_space_2048(size, observation)
        self.one_hot = observation == "onehot"

    def observation_of(self, state) -> np.ndarray:
        board = np.array(state.board, dtype=np.uint8)
        return one_hot_2048(board, self.observation_space.shape[-1]) if self.one_hot else board

    def action_of(self, index: int) -> int:
        return index

    def index_of(self, action) -> int:
        return int(action)

    def score_of(self, state) -> float:
        return state.score

    def mask_of(self, state) -> np.ndarray:
        return move_all(state.board[None])[2][0].astype(np.int8)  # the rules' own: the moves that change it

    def over(self, state, mask: np.ndarray) -> bool:
        return not mask.any()

    def _extra_info(self) -> dict:
        return {"score": int(self.state.score), "max_tile": self.state.max_tile()}


class Match3Env(ArcadeEnv):
    """
    ## Description

    The course's match-3: a `size` x `size` board of gems in `colours` colours and
    `turns` turns. A turn swaps two neighbouring gems; the swap must make a line
    of three or more of one colour. Lines clear, the gems above fall, new random
    gems drop in, and new lines clear again (cascades). A board with no swap left
    is reshuffled.

    ## Action Space

    `Discrete(2 * size * (size - 1))`: first the horizontal swaps, row by row
    (index `r * (size - 1) + c` swaps (r, c) with (r, c + 1)), then the vertical
    ones (index `size * (size - 1) + r * size + c` swaps (r, c) with (r + 1, c)).
    Only swaps that make a line are legal (`info["action_mask"]`).

    ## Observation Space

    `Dict(board=Box(0, colours - 1, (size, size), int8), turns_left=Discrete(turns + 1))`.

    ## Rewards

    The turn's score: 10 a gem cleared, times the cascade level of its clearing
    step. An illegal swap: `illegal_reward` (default -1) and the episode ends.

    ## Starting State

    A random board with no line and at least one legal swap, `turns` turns left.

    ## Episode End

    Terminated when no turn is left (or after an illegal swap).

    ## Arguments

    `gymnasium.make("arcade/Match3-v0", size=9, colours=5, turns=50, illegal_reward=-1.0, render_mode=None)`.

    ## Information

    `action_mask`, `score`, `turns_left`, `illegal_action` (after a step).

    ## Version History

    * v0: Initial version, on the arcade's rules (arcade.games.match3).
    """

    game_id = "match3"
    env_id = "arcade/Match3-v0"

    def __init__(self, size: int = 9, colours: int = 5, turns: int = 50, illegal_reward: float = -1.0,
                 render_mode: str | None = None):
        for name, value in (("size", size), ("colours", colours), ("turns", turns)):
            check_in_range(Match3Settings, name, value)
        super().__init__(Match3Rules(size, colours, turns), render_mode, illegal_reward)
        self.size = size
        self.action_space = spaces.Discrete(2 * size * (size - 1))
        self.observation_space = spaces.Dict({"board": spaces.Box(0, colours - 1, (size, size), dtype=np.int8),
                                              "turns_left": spaces.Discrete(turns + 1)})

    def observation_of(self, state) -> dict:
        return {"board": np.array(state.board, dtype=np.int8), "turns_left": int(state.turns_left)}

    def action_of(self, index: int) -> tuple:
        n = self.size
        horizontal = n * (n - 1)
        if index < horizontal:
            r, c = divmod(index, n - 1)
            return (r, c, r, c + 1)
        r, c = divmod(index - horizontal, n)
        return (r, c, r + 1, c)

    def index_of(self, action) -> int:
        r1, c1, r2, c2 = (int(v) for v in action)
        n = self.size
        return r1 * (n - 1) + c1 if r1 == r2 else n * (n - 1) + r1 * n + c1

    def score_of(self, state) -> float:
        return state.score

    def mask_of(self, state) -> np.ndarray:
        if state.turns_left <= 0:
            return np.zeros(self.action_space.n, dtype=np.int8)
        return state.swap_mask.astype(np.int8)  # the rules' own (kept on the state), in the actions' order

    def _extra_info(self) -> dict:
        return {"score": int(self.state.score), "turns_left": int(self.state.turns_left)}


class PeekingBlackjackEnv(ArcadeEnv):
    """
    ## Description

    The course's peeking blackjack MDP. A deck holds `multiplicity` cards of each
    value in `card_values`. Take draws a card (the peeked one if you peeked, else
    each value with its share of the deck); a total over `threshold` busts. Peek
    shows the next card for `peek_cost`, but not twice in a row. Quit ends the
    round and pays your total, as does taking the last card without busting.

    ## Action Space

    `Discrete(3)`: 0 Take, 1 Peek, 2 Quit. A second Peek in a row is illegal
    (`info["action_mask"]`).

    ## Observation Space

    `Dict(total=Discrete(threshold + max(card_values) + 1), peeked=Discrete(len(card_values) + 1),
    deck=Box(0, multiplicity, (len(card_values),), int64))`: the hand's total, the
    index of the peeked card (`len(card_values)` when none is), and the cards left
    of each value.

    ## Rewards

    `-peek_cost` for a peek; the total when you quit or take the last card; 0 on a
    bust. The sum over an episode is the MDP's reward of the round. An illegal
    action: `illegal_reward` (default -1) and the episode ends.

    ## Starting State

    Total 0, nothing peeked, the full deck.

    ## Episode End

    Terminated on Quit, a bust, or the last card taken (or after an illegal action).

    ## Arguments

    `gymnasium.make("arcade/PeekingBlackjack-v0", preset=None, card_values=(1, 5), multiplicity=2,
    threshold=10, peek_cost=1, illegal_reward=-1.0, render_mode=None)`; the defaults are the
    course's smallMDP; `preset` ("small", "large", "standard", "peeking") takes the arcade's
    decks instead.

    ## Information

    `action_mask`, `round_reward` (collected so far), `illegal_action` (after a step).

    ## Version History

    * v0: Initial version, on the arcade's rules (arcade.games.blackjack).
    """

    game_id = "blackjack"
    env_id = "arcade/PeekingBlackjack-v0"

    def __init__(self, preset: str | None = None, card_values=(1, 5), multiplicity: int = 2, threshold: int = 10,
                 peek_cost: int = 1, illegal_reward: float = -1.0, render_mode: str | None = None):
        if preset is not None:
            if preset not in PRESETS:
                raise ValueError(f"unknown preset {preset!r}; one of {', '.join(PRESETS)}")
            rules = BlackjackRules(PRESETS[preset][1](), preset)
        else:
            problem = mdp_parameter_problem(card_values, multiplicity, threshold, peek_cost)
            if problem:
                raise ValueError(problem)
            rules = BlackjackRules(BlackjackMDP(list(card_values), multiplicity, threshold, peek_cost), "custom")
        super().__init__(rules, render_mode, illegal_reward)
        mdp = rules.mdp
        n = len(mdp.card_values)
        self.action_space = spaces.Discrete(len(ACTIONS))
        self.observation_space = spaces.Dict({
            "total": spaces.Discrete(mdp.threshold + max(mdp.card_values) + 1),
            "peeked": spaces.Discrete(n + 1),
            "deck": spaces.Box(0, mdp.multiplicity, (n,), dtype=np.int64),
        })

    def observation_of(self, state: RoundState) -> dict:
        return self.rules.observation(state)

    def action_of(self, index: int) -> str:
        return ACTIONS[index]

    def index_of(self, action) -> int:
        return ACTIONS.index(action)

    def score_of(self, state) -> float:
        return state.reward

    def _extra_info(self) -> dict:
        return {"round_reward": float(self.state.reward)}
