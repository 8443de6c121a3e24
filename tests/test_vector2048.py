"""The native vector 2048: the same episodes as N single environments, autoreset, illegal actions, spaces."""
from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import arcade.envs  # noqa: F401  (registers the environments)
from arcade.envs.vector2048 import Uniforms, Vector2048Env
from agents.engines.twenty48.board64 import spawn
from agents.engines.twenty48 import board64


def _random_legal(rng, mask):
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@pytest.mark.parametrize("p_four", [0.0, 0.1])
def test_the_vector_env_replays_n_single_envs_with_the_same_seeds(p_four):
    n = 6
    vec = gym.make_vec("arcade/2048-v0", num_envs=n, vectorization_mode="vector_entry_point",
                       spawn_four_probability=p_four)
    assert isinstance(vec, Vector2048Env)
    singles = [gym.make("arcade/2048-v0", spawn_four_probability=p_four) for _ in range(n)]
    obs, info = vec.reset(seed=40)
    first = [env.reset(seed=40 + i) for i, env in enumerate(singles)]
    assert np.array_equal(obs, np.array([o for o, _ in first]))
    rng = np.random.default_rng(1)
    ended, episodes = [False] * n, 0
    for _ in range(700):
        actions = _random_legal(rng, info["action_mask"])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:  # NEXT_STEP autoreset: this step starts the board's next episode (reset without a seed)
                o, single_info = env.reset()
                r, t = 0.0, False
                episodes += 1
            else:
                o, r, t, _, single_info = env.step(int(actions[i]))
            assert np.array_equal(o, obs[i]) and r == rewards[i] and t == terminated[i]
            assert np.array_equal(single_info["action_mask"], info["action_mask"][i])
            assert single_info["score"] == info["score"][i]
            ended[i] = t
        assert not truncated.any()
    assert episodes >= 3  # games ended and started again inside the run


def test_an_illegal_action_ends_that_board_and_the_next_step_starts_it_again():
    vec = Vector2048Env(num_envs=3, illegal_reward=-5.0)
    for seed in range(100):  # a first board with a move that changes nothing (both tiles on one edge)
        obs, info = vec.reset(seed=seed)
        if (info["action_mask"][0] == 0).any():
            break
    mask = info["action_mask"]
    assert (mask[0] == 0).any()
    actions = np.argmax(mask, axis=1)
    actions[0] = int(np.flatnonzero(mask[0] == 0)[0])
    after, rewards, terminated, _, info2 = vec.step(actions)
    assert terminated[0] and rewards[0] == -5.0 and info2["illegal_action"][0]
    assert np.array_equal(after[0], obs[0])  # nothing moved
    assert not terminated[1:].any()
    again, rewards, terminated, _, _ = vec.step(np.zeros(3, dtype=int))
    assert rewards[0] == 0.0 and not terminated[0]
    assert (again[0] > 0).sum() == 2  # a fresh board: two tiles


def test_spaces_metadata_and_gymnasium_vector_wrappers():
    vec = Vector2048Env(num_envs=5)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = vec.reset(seed=0)
    assert obs.shape == (5, 4, 4) and obs.dtype == np.uint8 and vec.observation_space.contains(obs)
    assert vec.action_space.shape == (5,) and info["action_mask"].shape == (5, 4)
    stats = gym.wrappers.vector.RecordEpisodeStatistics(vec)
    obs, info = stats.reset(seed=0)
    rng = np.random.default_rng(0)
    totals, returns = np.zeros(5), []
    while len(returns) < 5:
        obs, rewards, terminated, truncated, info = stats.step(_random_legal(rng, info["action_mask"]))
        totals += rewards
        for i in np.flatnonzero(terminated):
            assert info["episode"]["r"][i] == pytest.approx(totals[i])
            returns.append(totals[i])
            totals[i] = 0
        assert vec.observation_space.contains(obs)


def test_spawn_places_one_tile_in_the_chosen_empty_cell():
    board = board64.pack(np.array([[1, 0, 2, 0], [0, 3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 0]], np.uint8))
    empties = [1, 3, 4, 15]  # reading order
    for k, cell in enumerate(empties):
        for u_four, tile in ((0.5, 1), (0.05, 2)):
            out = spawn(np.array([board]), np.array([(k + 0.5) / 4]), np.array([u_four]), 0.1)
            grid = board64.unpack(out)[0].ravel()
            assert grid[cell] == tile and (grid != board64.unpack(board)[0].ravel()).sum() == 1


def test_each_boards_uniforms_are_its_own_generators_in_order():
    gens = [np.random.default_rng(s) for s in (1, 2)]
    plain = [np.random.default_rng(s).random(2000) for s in (1, 2)]
    streams = Uniforms(gens)
    got = [[], []]
    rng = np.random.default_rng(3)
    for _ in range(400):
        boards = np.flatnonzero(rng.random(2) < 0.7)
        count = int(rng.integers(1, 5))
        if boards.size:
            for b, row in zip(boards, streams.take(boards, count), strict=True):
                got[b].extend(row)
    for b in (0, 1):
        assert np.array_equal(got[b], plain[b][:len(got[b])])


def test_bad_arguments_are_one_clear_error():
    with pytest.raises(ValueError, match="4x4"):
        Vector2048Env(num_envs=2, size=5)
    with pytest.raises(ValueError, match="num_envs"):
        Vector2048Env(num_envs=0)
    with pytest.raises(ValueError, match="spawn_four_probability"):
        Vector2048Env(num_envs=2, spawn_four_probability=1.5)
    vec = Vector2048Env(num_envs=2)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match="0 to 3"):
        vec.step(np.array([0, 4]))


def test_the_module_prefix_form_needs_no_import():
    import subprocess
    import sys

    from arcade.runner import ROOT

    code = ("import gymnasium as gym; e = gym.make('arcade.envs:arcade/2048-v0'); e.reset(seed=0); "
            "v = gym.make_vec('arcade.envs:arcade/2048-v0', num_envs=3, vectorization_mode='vector_entry_point'); "
            "print(type(v).__name__)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Vector2048Env"


def test_the_native_vector_info_has_the_sync_vectors_keys_and_values():
    """Code written for make_vec(..., "sync") runs on the native one: the same keys (each with its `_key`
    presence array) and the same values, board for board, reset and step."""
    native = gym.make_vec("arcade/2048-v0", num_envs=5, vectorization_mode="vector_entry_point")
    sync = gym.make_vec("arcade/2048-v0", num_envs=5, vectorization_mode="sync")
    (obs_n, info_n), (obs_s, info_s) = native.reset(seed=3), sync.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        assert sorted(info_n) == sorted(info_s)
        for key in ("score", "max_tile", "action_mask"):
            assert np.array_equal(info_n[key], info_s[key]) and info_n[f"_{key}"].all()
        actions = np.argmax(rng.random((5, 4)) * info_n["action_mask"], axis=1)
        obs_n, _, _, _, info_n = native.step(actions)
        obs_s, _, _, _, info_s = sync.step(actions)
        assert np.array_equal(obs_n, obs_s)


def test_one_hot_observations_are_one_plane_per_exponent_in_both_environments():
    single = gym.make("arcade/2048-v0", observation="onehot")
    vector = gym.make_vec("arcade/2048-v0", num_envs=2, vectorization_mode="vector_entry_point",
                          observation="onehot")
    plain = gym.make("arcade/2048-v0")
    obs, _ = single.reset(seed=4)
    exps, _ = plain.reset(seed=4)
    assert obs.shape == (4, 4, 18) and single.observation_space.contains(obs)
    assert np.array_equal(obs.argmax(axis=-1), exps) and (obs.sum(axis=-1) == 1).all()
    batch, _ = vector.reset(seed=4)
    assert batch.shape == (2, 4, 4, 18) and np.array_equal(batch[0], obs)
    with pytest.raises(ValueError, match="observation must be one of exponents, onehot"):
        gym.make("arcade/2048-v0", observation="pixels")
