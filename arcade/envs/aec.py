"""The shared shape of the arcade's PettingZoo AEC environments (tic-tac-toe, dots and boxes).

Two agents, "player_0" (moves first) and "player_1", play seats 0 and 1 of the
game's rules. `observe(agent)` gives `{"observation": ..., "action_mask": ...}`
from that agent's view; the mask is all zeros for the agent not to move, as in
PettingZoo's classic environments. Turns follow the rules (a player who closes a
box in dots and boxes moves again). Rewards come at the end: +1 to the winner,
-1 to the loser, 0 each for a draw. `env()` wraps the raw environment as
PettingZoo's classic ones are: an illegal move ends the game with -1 for its
player, an out-of-range action is an error, and the API order is enforced.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from arcade.session import GameSession


class ArcadeAEC(AECEnv):
    metadata = {"render_modes": ["human", "rgb_array", "ansi"], "name": "", "is_parallelizable": False,
                "render_fps": 2}
    game_id = ""

    def __init__(self, rules, n_actions: int, observation_space: spaces.Space, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({"observation": observation_space,
                                                   "action_mask": spaces.Box(0, 1, (n_actions,), dtype=np.int8)})
                                   for a in self.possible_agents}
        self.session: GameSession | None = None  # the game: the same session the screens play
        self.np_random = np.random.default_rng()
        self._renderer = None

    # --- what each game defines ---------------------------------------------------
    def observation_of(self, state, seat: int) -> np.ndarray:
        raise NotImplementedError

    # --- the AEC API ----------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _mask(self, agent) -> np.ndarray:
        n = self.action_spaces[agent].n
        mask = np.zeros(n, dtype=np.int8)
        if agent == self.agent_selection and not self.rules.is_terminal(self.state):
            mask[list(self.rules.legal_actions(self.state))] = 1
        return mask

    @property
    def state(self):
        return None if self.session is None else self.session.state

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        return {"observation": self.observation_of(self.state, seat), "action_mask": self._mask(agent)}

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None or self.state is None:
            self.np_random = np.random.default_rng(seed)
        self.session = GameSession(self.rules, 0, rng=self.np_random)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.rules.to_move(self.state)]
        if self.render_mode == "human":
            self.render()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        if not self.session.play(int(action), agent):
            raise ValueError(f"{agent} chose {int(action)}, not a legal move (see the action_mask)")
        if self.rules.is_terminal(self.state):
            winner = self.rules.outcome(self.state)["winner"]
            if winner is not None:
                self.rewards[self.possible_agents[winner]] = 1
                self.rewards[self.possible_agents[1 - winner]] = -1
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[1 - self.possible_agents.index(agent)]
        else:
            self.agent_selection = self.possible_agents[self.rules.to_move(self.state)]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        from arcade.screens.env_render import render

        return render(self, self.state, () if self.session is None else self.session.history)

    def close(self):
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None


def wrap(raw: ArcadeAEC):
    """The wrappers PettingZoo's classic environments use."""
    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
