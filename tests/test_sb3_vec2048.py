"""The SB3 adapter of the native vector 2048 (arcade/envs/sb3_vec2048.py). Stable-Baselines3 brings PyTorch,
which the arcade's own environment does not install: these run where requirements-rl.txt is installed
(`.venv-bench/bin/python -m pytest tests/test_sb3_vec2048.py`) and are skipped elsewhere."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3", reason="requirements-rl.txt (PyTorch) is not installed here")
pytest.importorskip("sb3_contrib", reason="requirements-rl.txt (PyTorch) is not installed here")

from arcade.envs.sb3_vec2048 import SB3Vector2048  # noqa: E402
from arcade.envs.vector2048 import Vector2048Env  # noqa: E402


def test_boards_that_end_start_again_in_the_same_step_with_their_last_board_in_infos():
    env = SB3Vector2048(num_envs=32, seed=1)
    obs = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(3000):
        masks = env.action_masks()
        assert masks.shape == (32, 4) and masks.any(axis=1).all()  # every board SB3 sees has a legal move
        actions = np.argmax(rng.random((32, 4)) * masks, axis=1)
        obs, rewards, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            ended += 1
            last = infos[i]["terminal_observation"]
            assert (last > 0).sum() > (obs[i] > 0).sum()  # the full last board; a fresh one of two tiles
            assert (obs[i] > 0).sum() == 2 and infos[i]["score"] > 0 and not infos[i]["illegal_action"]
    assert ended >= 32


def test_seeds_replay_the_native_vector_env_move_for_move():
    adapter, native = SB3Vector2048(num_envs=4, seed=7), Vector2048Env(4)
    a, (b, info) = adapter.reset(), native.reset(seed=7)
    rng = np.random.default_rng(3)
    for _ in range(50):
        assert np.array_equal(a, b)
        actions = np.argmax(rng.random((4, 4)) * info["action_mask"], axis=1)
        a, *_ = adapter.step(actions)
        b, _, terminated, _, info = native.step(actions)
        if terminated.any():
            break


def test_maskable_ppo_learns_on_it_and_asks_for_its_masks():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = SB3Vector2048(num_envs=8, seed=0, observation="onehot")
    env.reset()
    assert is_masking_supported(env) and get_action_masks(env).shape == (8, 4)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, seed=0, device="cpu")
    model.learn(256)
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[np.arange(8), actions].all()  # masked: only legal moves
