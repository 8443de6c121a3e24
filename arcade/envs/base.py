"""The shared shape of the arcade's single-agent Gymnasium environments.

An `ArcadeEnv` wraps one game's rules (the same objects the window and the CLI
use). Actions are integers; each environment maps them to the game's actions
(`action_of`) and back (`index_of`), and gives the legal ones as
`info["action_mask"]` (int8, 1 = legal), as Gymnasium recommends for masked
discrete actions. An illegal action ends the episode with `illegal_reward`
(default -1, as PettingZoo's classic environments do) and
`info["illegal_action"] = True`; the state does not change. All randomness
(tile spawns, refills, cards, the opponent's choices) comes from the
environment's `np_random`, so `reset(seed=...)` replays an episode exactly.
"""
from __future__ import annotations

import gymnasium as gym
import numpy as np

from arcade.games.base import is_real_number
from arcade.session import GameSession


class ArcadeEnv(gym.Env):
    metadata = {"render_modes": ["human", "rgb_array", "ansi"], "render_fps": 4}
    game_id = ""

    def __init__(self, rules, render_mode: str | None = None, illegal_reward: float = -1.0):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        if not is_real_number(illegal_reward):
            raise ValueError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        self.session: GameSession | None = None  # the episode: the same game session the screens play
        self._ended = False
        self._mask: np.ndarray | None = None  # the current state's legal actions: worked out once a step
        self._renderer = None

    # --- what each environment defines ------------------------------------------
    def observation_of(self, state):
        """The observation of a game state (also what an adapted policy sees in the arcade)."""
        raise NotImplementedError

    def action_of(self, index: int):
        """The game's action for an action index."""
        raise NotImplementedError

    def index_of(self, action) -> int:
        """The action index of a game action."""
        raise NotImplementedError

    @property
    def state(self):
        """The current state of the episode (None before the first reset)."""
        return None if self.session is None else self.session.state

    def _start(self) -> None:
        """A new episode's session, its chance drawn from the environment's np_random (the agent to move)."""
        self.session = GameSession(self.rules, 0, rng=self.np_random)

    def score_of(self, state) -> float:
        """The score a one-player game has reached in `state` (the reward is its change)."""
        raise NotImplementedError

    def mask_of(self, state) -> np.ndarray:
        """1 for each legal action index of `state` (int8). Environments whose rules have a mask of their
        own return it; this plain one asks the rules for their legal actions."""
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        if not self.rules.is_terminal(state):
            mask[[self.index_of(a) for a in self.rules.legal_actions(state)]] = 1
        return mask

    def over(self, state, mask: np.ndarray) -> bool:
        """Whether the episode has ended in `state` (whose mask is `mask`)."""
        return bool(self.rules.is_terminal(state))

    def _play(self, action) -> float:
        """Apply a legal game action to self.state; returns the reward (the score gained)."""
        before = self.score_of(self.state)
        self.session.play(action, "agent", checked=True)
        return float(self.score_of(self.state) - before)

    def _extra_info(self) -> dict:
        return {}

    # --- the Gymnasium API -------------------------------------------------------
    def legal_mask(self, state=None) -> np.ndarray:
        """1 for each legal action index of `state` (default: the current state), else 0 (int8)."""
        if state is None and self._mask is not None:
            return self._mask.copy()
        return self.mask_of(self.state if state is None else state)

    def _info(self, **more) -> dict:
        return {"action_mask": self._mask.copy(), **self._extra_info(), **more}

    def checked_index(self, action) -> int:
        """The action as an index of the action space; ValueError naming the space for anything else (-1, 99,
        1.7, "1"), as Gymnasium's toy_text environments and the arcade's AEC environments do. An index in the
        space that is not a legal move is the game's business: the illegal-move reward."""
        if isinstance(action, (bool, np.bool_)) or not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is not in the action space {self.action_space}: give an integer "
                             f"from 0 to {self.action_space.n - 1} (info['action_mask'] marks the legal ones)")
        return int(action)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._start()
        self._mask = self.mask_of(self.state)
        self._ended = False
        if self.render_mode == "human":
            self.render()
        return self.observation_of(self.state), self._info()

    def step(self, action):
        if self.state is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self._ended:
            raise gym.error.ResetNeeded("the episode has ended: call reset()")
        index = self.checked_index(action)
        if not self._mask[index]:
            self._ended = True
            return (self.observation_of(self.state), self.illegal_reward, True, False,
                    self._info(illegal_action=True))
        reward = self._play(self.action_of(index))
        self._mask = self.mask_of(self.state)
        self._ended = self.over(self.state, self._mask)
        if self.render_mode == "human":
            self.render()
        return self.observation_of(self.state), reward, self._ended, False, self._info(illegal_action=False)

    def render(self):
        from arcade.screens.env_render import render

        return render(self, self.state, self.session.history)

    def close(self):
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None
