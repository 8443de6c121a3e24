"""A native vector 2048: N boards of 4x4 stepped at once on the 64-bit board engine (agents/engines/twenty48/board64.py).

    envs = gymnasium.make_vec("arcade/2048-v0", num_envs=4096, vectorization_mode="vector_entry_point")

Each step is a handful of numpy operations over all boards: the chosen moves (row tables, computed with the
last step's action masks), the score they gain (gain tables), one new tile on each board, and the next
masks. Autoreset is Gymnasium's NEXT_STEP mode: a board that ended is reset by the next step (its action
ignored, reward 0). Board i draws its tiles from its own Generator, seeded `seed + i` as Gymnasium seeds
the sub-environments of a vector env, two uniforms a tile exactly as `Rules2048.spawn` does, so the run
replays N single `arcade/2048-v0` environments reset with those seeds (the draws come in blocks, so the
Generators cost nothing per step).

What differs from the single environment: boards are 4x4 only, and a tile of 32768 or more shows as 15
and never merges (a second one cannot be held in 4 bits); random play never comes near.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from arcade.envs.single import Game2048Env, observation_space_2048, one_hot_2048
from agents.engines.twenty48 import board64
from arcade.games.twenty48 import Game2048Settings
from arcade.foundation.setting_fields import check_in_range

BLOCK = 512  # uniforms drawn at a time from each board's Generator


class Uniforms:
    """Per-board streams of uniforms in [0, 1), read a batch at a time: board i's values are those of its
    own Generator, in order, however many each step takes."""

    def __init__(self, generators: list[np.random.Generator]):
        self.generators = generators
        self.buffer = np.stack([g.random(BLOCK) for g in generators])
        self.pos = np.zeros(len(generators), dtype=np.intp)

    def take(self, boards: np.ndarray, count: int) -> np.ndarray:
        """`count` next uniforms of each board in `boards` (indices): len(boards) x count."""
        low = np.flatnonzero(self.pos[boards] + count > BLOCK)
        for i in boards[low]:  # a board at the end of its block draws the next one
            rest = self.buffer[i, self.pos[i]:]
            self.buffer[i] = np.concatenate([rest, self.generators[i].random(BLOCK - rest.size)])
            self.pos[i] = 0
        at = self.pos[boards][:, None] + np.arange(count)
        out = self.buffer[boards[:, None], at]
        self.pos[boards] += count
        return out


class Vector2048Env(VectorEnv):
    """`num_envs` 4x4 games of 2048; observations `num_envs x 4 x 4` exponents (uint8), actions 0 up,
    1 down, 2 left, 3 right, `info["action_mask"]` `num_envs x 4` (int8). An illegal action ends that
    board's episode with `illegal_reward`, as in the single environment."""

    scalar_env = Game2048Env  # (the environment it steps many of: arcade.envs registers it as its vector one)
    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, spawn_four_probability: float = 0.0, illegal_reward: float = -1.0,
                 size: int = 4, render_mode: str | None = None, observation: str = "exponents"):
        if size != 4:
            raise ValueError(f"the vector 2048 plays 4x4 boards (64-bit boards); got size={size}: use "
                             "gymnasium.make_vec(..., vectorization_mode='sync') for other sizes")
        if not (isinstance(num_envs, (int, np.integer)) and num_envs >= 1):
            raise ValueError(f"num_envs must be a whole number of 1 or more, got {num_envs!r}")
        check_in_range(Game2048Settings, "spawn_four_probability", spawn_four_probability)
        if render_mode is not None:
            raise ValueError("the vector 2048 does not render; render one board with arcade/2048-v0")
        self.num_envs = int(num_envs)
        self.p_four = float(spawn_four_probability)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = None
        self.single_observation_space = observation_space_2048(4, observation)
        self.one_hot = observation == "onehot"
        self.single_action_space = spaces.Discrete(4)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.boards = np.zeros(self.num_envs, dtype=np.uint64)
        self.scores = np.zeros(self.num_envs, dtype=np.int64)
        self._ended = np.zeros(self.num_envs, dtype=bool)
        self._uniforms: Uniforms | None = None  # the boards' Generators, from the first reset on

    # --- the engine ------------------------------------------------------------------------------------
    def _new_boards(self, which: np.ndarray) -> None:
        """Fresh boards (two tiles, as Rules2048.new_state) for the boards `which`."""
        u = self._uniforms.take(which, 4)
        x = board64.spawn(np.zeros(which.size, dtype=np.uint64), u[:, 0], u[:, 1], self.p_four)
        self.boards[which] = board64.spawn(x, u[:, 2], u[:, 3], self.p_four)
        self.scores[which] = 0
        self._ended[which] = False

    def _look(self) -> None:
        """The current boards' codes, their four moves and what is legal (kept for the next step)."""
        self._codes = board64.lines(self.boards)
        self._moved = board64.move_all(self.boards, self._codes)
        self._legal = self._moved != self.boards  # 4 x N

    def _info(self, **more) -> dict:
        """The single environment's info keys, batched as Gymnasium's sync vector batches them (each key's
        array and its `_key` presence array), so code can switch between the two."""
        info = {"action_mask": self._legal.T.astype(np.int8), "score": self.scores.copy(),
                "max_tile": np.left_shift(1, board64.max_exponent(self.boards, self._codes[0]).astype(np.int64)),
                **more}
        present = np.ones(self.num_envs, dtype=bool)
        return {**info, **{f"_{k}": present for k in info}}

    def _observation(self) -> np.ndarray:
        boards = board64.unpack(self.boards)
        return one_hot_2048(boards, self.single_observation_space.shape[-1]) if self.one_hot else boards

    # --- the VectorEnv API -----------------------------------------------------------------------------
    def reset(self, *, seed: int | list[int] | None = None, options: dict | None = None):
        """All boards anew. `seed` an int: board i from seed + i (Gymnasium's vector convention); a list:
        one seed a board; None: fresh entropy (the same Generators carry on if they exist)."""
        if seed is None and self._uniforms is None:
            seeds = [None] * self.num_envs
        elif seed is None:
            seeds = None
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset got {len(seeds)} seeds for {self.num_envs} boards")
        if seeds is not None:
            self._uniforms = Uniforms([seeding.np_random(s)[0] for s in seeds])
        self._new_boards(np.arange(self.num_envs))
        self._look()
        return self._observation(), self._info()

    def step(self, actions):
        if self._uniforms is None:
            raise RuntimeError("call reset() before step()")
        given = np.asarray(actions)
        if given.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers 0 to 3 (up, down, left, right); got {given.dtype} values")
        actions = given.astype(np.intp).reshape(self.num_envs)
        if ((actions < 0) | (actions > 3)).any():
            raise ValueError(f"actions are 0 to 3 (up, down, left, right); got {actions[(actions < 0) | (actions > 3)][:5]}")
        idx = np.arange(self.num_envs)
        restart = self._ended.copy()  # NEXT_STEP: ended boards start again now, their actions ignored
        playing = ~restart
        legal = self._legal[actions, idx] & playing
        illegal = playing & ~legal
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        moving = np.flatnonzero(legal)
        if moving.size:
            a = actions[moving]
            line_codes = np.where((a < 2)[None, :], self._codes[1][:, moving], self._codes[0][:, moving])  # 4 x M
            gained = board64.gains_of(a, line_codes)
            u = self._uniforms.take(moving, 2)
            self.boards[moving] = board64.spawn(self._moved[a, moving], u[:, 0], u[:, 1], self.p_four)
            self.scores[moving] += gained
            rewards[moving] = gained
        rewards[illegal] = self.illegal_reward
        if restart.any():
            self._new_boards(np.flatnonzero(restart))
        self._look()
        terminated = (illegal | ~self._legal.any(axis=0)) & ~restart
        self._ended = terminated.copy()
        info = self._info(illegal_action=illegal)
        return self._observation(), rewards, terminated, np.zeros(self.num_envs, dtype=bool), info

    # --- for adapters ------------------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The legal moves of every board now (num_envs x 4, bool); all False for a board that has ended."""
        if self._uniforms is None:
            raise RuntimeError("call reset() before asking for the action masks")
        return self._legal.T & ~self._ended[:, None]

    def restart(self, which) -> np.ndarray:
        """Start the boards `which` again now, not at the next step (the reset-inside-the-step that
        Stable-Baselines3's vector envs make); returns every board's observation."""
        which = np.asarray(which, dtype=np.intp)
        if which.size:
            self._new_boards(which)
            self._look()
        return self._observation()

    def close_extras(self, **kwargs) -> None:
        self._uniforms = None
