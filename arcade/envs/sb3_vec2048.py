"""The native vector 2048 as a Stable-Baselines3 `VecEnv` (SB3 does not take a Gymnasium `VectorEnv`), with
`action_masks()` for sb3-contrib's MaskablePPO. This module imports stable_baselines3, which is not one of
the arcade's requirements (it brings PyTorch): `pip install ".[rl]"`, or the benchmark environment
(`make bench-venv`, then `.venv-bench/bin/pip install -r requirements-rl.txt`).

The reset step: SB3's vector envs start a finished episode again inside the step that ends it, returning
the new board's observation and the last one in `infos[i]["terminal_observation"]`. The native vector env
(Gymnasium's NEXT_STEP autoreset) starts it at the next step instead, that step's action ignored and the
board's mask all zeros. This adapter starts finished boards at once (Vector2048Env.restart), so every
observation SB3 sees is a board with a legal move and a real mask.

    from arcade.envs.sb3_vec2048 import SB3Vector2048
    env = SB3Vector2048(num_envs=16, seed=0, observation="onehot")   # Vector2048Env's arguments
    model = MaskablePPO("MlpPolicy", env).learn(100_000)
"""
from __future__ import annotations

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from arcade.envs.vector2048 import Vector2048Env


class SB3Vector2048(VecEnv):
    """`num_envs` boards of 2048 (Vector2048Env(num_envs, **kwargs)) as an SB3 VecEnv; `seed`: board i
    from seed + i at the first reset (SB3's seed(s) does the same)."""

    def __init__(self, num_envs: int, seed: int | None = None, **kwargs):
        self.env = Vector2048Env(num_envs, **kwargs)
        self._first_seed = seed
        self._actions: np.ndarray | None = None
        super().__init__(num_envs, self.env.single_observation_space, self.env.single_action_space)

    def reset(self):
        seed = self._seeds[0] if self._seeds[0] is not None else self._first_seed  # (seed(s): [s, s+1, ...])
        obs, _ = self.env.reset(seed=seed)
        self._first_seed = None
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self):
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        done = terminated | truncated
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        ended = np.flatnonzero(done)
        for i in ended:
            infos[i] = {"terminal_observation": obs[i].copy(), "TimeLimit.truncated": bool(truncated[i]),
                        "score": int(info["score"][i]), "max_tile": int(info["max_tile"][i]),
                        "illegal_action": bool(info["illegal_action"][i])}
        if ended.size:
            obs = self.env.restart(ended)
        return obs, rewards.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """num_envs x 4 bool: the legal moves of every board (MaskablePPO asks for them before each step)."""
        return self.env.action_masks()

    def close(self) -> None:
        self.env.close()

    def get_attr(self, attr_name: str, indices=None) -> list:
        n = len(list(self._get_indices(indices)))
        if attr_name == "action_masks":
            return [self.action_masks] * n
        return [getattr(self.env, attr_name)] * n  # (AttributeError for a name it lacks, as SB3 expects)

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        chosen = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in chosen]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result] * len(chosen)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))
