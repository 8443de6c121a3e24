"""The Gymnasium and PettingZoo environments: the libraries' own checkers, seeded replay, the same
games as the rules engine driven directly, illegal actions, rendering with the arcade's screens,
and the way back into the arcade (a policy trained through Gymnasium plays in `bench`)."""
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import arcade.envs
from arcade.envs import dots_and_boxes_v0, tictactoe_v0
from arcade.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
IDS = list(arcade.envs.ENVIRONMENTS)


def _episode(env, seed: int, max_steps: int = 400):
    """A seeded episode of random legal actions: (observations, rewards, final info)."""
    pick = np.random.default_rng(seed + 1000)
    obs, info = env.reset(seed=seed)
    observations, rewards = [obs], []
    for _ in range(max_steps):
        action = int(pick.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        observations.append(obs)
        rewards.append(reward)
        if terminated or truncated:
            break
    return observations, rewards, info


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return np.array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env_passes(env_id):
    env = gym.make(env_id, render_mode="rgb_array")
    check_env(env.unwrapped)  # the render check draws with the arcade's own screen
    env.reset(seed=2)
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8 and frame.std() > 10
    env.close()


@pytest.mark.filterwarnings("ignore:Observation")  # dict observations, as PettingZoo's own classic envs have
@pytest.mark.parametrize("make", [tictactoe_v0.env, dots_and_boxes_v0.env, lambda: dots_and_boxes_v0.env(rows=2, cols=3)])
def test_pettingzoo_api_test_passes(make):
    api_test(make(), num_cycles=200)


@pytest.mark.parametrize("env_id", IDS)
def test_the_same_seed_gives_the_same_episode(env_id):
    first, second = (_episode(gym.make(env_id), seed=5) for _ in range(2))
    assert len(first[0]) == len(second[0]) and all(_same(a, b) for a, b in zip(first[0], second[0], strict=True))
    assert first[1] == second[1]


def test_2048_episode_is_the_rules_engines_game():
    env = gym.make("arcade/2048-v0", size=4)
    observations, rewards, info = _episode(env, seed=9, max_steps=10_000)
    rules, rng = env.unwrapped.rules, np.random.default_rng(9)  # gymnasium seeds np_random as default_rng does
    state = rules.new_state(rng)
    assert np.array_equal(observations[0], state.board)
    pick = np.random.default_rng(1009)
    for obs in observations[1:]:
        legal = np.zeros(4, dtype=np.int8)
        legal[list(rules.legal_actions(state))] = 1
        state = rules.step(state, int(pick.choice(np.flatnonzero(legal))), rng)
        assert np.array_equal(obs, state.board)
    assert rules.is_terminal(state) and sum(rewards) == state.score == info["score"]


def test_blackjack_and_match3_rewards_add_up_to_the_games_score():
    _, rewards, info = _episode(gym.make("arcade/Match3-v0", turns=12), seed=3)
    assert sum(rewards) == info["score"] > 0
    env = gym.make("arcade/PeekingBlackjack-v0", preset="large")
    for seed in range(20):
        _, rewards, info = _episode(env, seed)
        assert sum(rewards) == pytest.approx(info["round_reward"])


def test_two_player_episodes_against_an_opponent_match_the_rules():
    from agents.minimax import Minimax

    env = gym.make("arcade/TicTacToe-v0", opponent="minimax", play_as=1)
    _, rewards, _ = _episode(env, seed=4)
    assert sum(rewards) in (0.0, -1.0)  # against perfect play no win
    rules = env.unwrapped.rules
    assert isinstance(env.unwrapped.opponent, Minimax)
    dots = gym.make("arcade/DotsAndBoxes-v0", rows=2, cols=3, opponent="greedy")
    _, rewards, info = _episode(dots, seed=6)
    mine, theirs = info["scores"]
    assert sum(rewards) == mine - theirs and mine + theirs == 6
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        gym.make("arcade/TicTacToe-v0", opponent="nobody")
    with pytest.raises(ValueError, match="policy-iteration plays 2x2 and 2x3"):
        gym.make("arcade/DotsAndBoxes-v0", rows=3, cols=3, opponent="policy-iteration")
    del rules


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward():
    env = gym.make("arcade/TicTacToe-v0", illegal_reward=-5)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(4)
    taken = int(np.flatnonzero(obs.sum(axis=-1).ravel())[0])  # a cell with a mark on it
    obs2, reward, terminated, truncated, info = env.step(taken)
    assert (reward, terminated, info["illegal_action"]) == (-5, True, True) and _same(obs, obs2)
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)


def test_aec_rewards_come_at_the_end_and_turns_follow_the_rules():
    env = dots_and_boxes_v0.env()
    env.reset(seed=1)
    seen = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            seen.append((agent, reward))
            env.step(None)
            continue
        assert reward == 0 and obs["action_mask"].any()
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    scores = env.unwrapped.state.scores
    expected = {"player_0": np.sign(scores[0] - scores[1]), "player_1": np.sign(scores[1] - scores[0])}
    assert dict(seen) == expected


def test_the_example_trains_and_its_agent_plays_like_value_iteration(tmp_path, capsys):
    sys.path.insert(0, str(ROOT / "examples"))
    import train_blackjack_q

    out = tmp_path / "q.npz"
    assert train_blackjack_q.main(["--episodes", "3000", "--eval-rounds", "2000", "--out", str(out)]) == 0
    assert "value iteration's optimum" in capsys.readouterr().out and out.exists()

    from agents import find
    from arcade.games import make_rules
    from arcade.headless import summarize
    from arcade.runner import play_games

    settings = Settings()
    rules = make_rules("blackjack", settings)
    gym_q = find("blackjack", "gym-q").create(rules, settings)  # the shipped table (the data folder has none)
    vi = find("blackjack", "value-iteration").create(rules, settings)
    means = [summarize(play_games(rules, a, games=1000, seed=0))["score"]["mean"] for a in (gym_q, vi)]  # same seeds
    assert means[0] == pytest.approx(means[1], abs=0.25)
    larger = make_rules("blackjack", settings, preset="large")
    with pytest.raises(ValueError, match="trained on other decks"):
        find("blackjack", "gym-q").create(larger, settings)


def test_gym_q_plays_every_deck_it_has_a_table_for(tmp_path, capsys):
    """The example saves one table per deck in the data folder; gym-q then plays the large deck from its own
    table and the small one from the shipped table (a table records its deck)."""
    sys.path.insert(0, str(ROOT / "examples"))
    import train_blackjack_q
    from agents import find
    from agents.gym_blackjack_q import GymBlackjackQ, table_name
    from arcade.games import make_rules
    from arcade.settings import DataSettings

    data = tmp_path / "data"
    settings_file = tmp_path / "s.toml"
    settings_file.write_text(f'[data]\nfolder = "{data}"\n')
    assert train_blackjack_q.main(["--settings", str(settings_file), "--preset", "large", "--episodes", "2000",
                                   "--eval-rounds", "200"]) == 0
    assert (data / table_name("large")).exists() and str(data / table_name("large")) in capsys.readouterr().out
    settings = Settings(data=DataSettings(folder=str(data)))
    large = find("blackjack", "gym-q").create(make_rules("blackjack", settings, preset="large"), settings)
    small = find("blackjack", "gym-q").create(make_rules("blackjack", settings), settings)
    assert large.source == f"trained ({table_name('large')})" and small.source.startswith("shipped")
    assert "train it on this one: examples/train_blackjack_q.py --preset peeking" in \
        GymBlackjackQ.cannot_play(make_rules("blackjack", settings, preset="peeking"))


def test_the_arcade_starts_without_gymnasium_or_pettingzoo():
    code = ("import sys, agents, arcade.cli, arcade.screens.launcher, arcade.headless; agents.discover(); "
            "print('gymnasium' in sys.modules or 'pettingzoo' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip().endswith("False")


@pytest.mark.parametrize("env_id", IDS)
def test_a_render_draws_the_board_alone_no_screen_thread_or_file(env_id, tmp_path, monkeypatch):
    """One frame from the state with the boards the screens draw: no game screen, controller, thread pool or
    file (HOME and the working folder are empty folders, and stay empty)."""
    import threading

    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    threads = threading.active_count()
    env = gym.make(env_id, render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    mask = env.unwrapped.legal_mask()
    env.step(int(np.flatnonzero(mask)[0]))
    second = env.render()
    assert first.shape == second.shape == (600, 800, 3) and first.std() > 10
    assert not np.array_equal(first, second)  # the move shows
    assert threading.active_count() == threads
    assert "arcade.screens" not in " ".join(type(v).__module__ for v in vars(env.unwrapped._renderer).values())
    env.close()
    assert list(home.iterdir()) == [] and list(work.iterdir()) == []


def test_no_environment_writes_outside_the_data_folder(tmp_path, monkeypatch):
    """Every environment (the opponents' tables included) in an empty working folder with an empty HOME:
    the only files written are in the data folder of the settings file it was given."""
    from arcade.envs import dots_and_boxes_v0, tictactoe_v0

    home, work, data = tmp_path / "home", tmp_path / "work", tmp_path / "data"
    for folder in (home, work):
        folder.mkdir()
    settings_file = tmp_path / "s.toml"
    settings_file.write_text(f'[data]\nfolder = "{data}"\n')
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    made = [gym.make(i, render_mode="ansi") for i in ("arcade/2048-v0", "arcade/Match3-v0",
                                                       "arcade/PeekingBlackjack-v0")]
    made += [gym.make("arcade/TicTacToe-v0", opponent="minimax", settings=str(settings_file), render_mode="ansi"),
             gym.make("arcade/DotsAndBoxes-v0", rows=2, cols=3, opponent="solver", settings=str(settings_file),
                      render_mode="ansi")]
    rng = np.random.default_rng(0)
    for env in made:
        _, info = env.reset(seed=1)
        for _ in range(30):
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            assert isinstance(env.render(), str)
            if done:
                _, info = env.reset()
        env.close()
    for make in (tictactoe_v0.env, dots_and_boxes_v0.env):
        aec = make(render_mode="ansi")
        aec.reset(seed=0)
        aec.close()
    vec = gym.make_vec("arcade/2048-v0", num_envs=8, vectorization_mode="vector_entry_point")
    vec.reset(seed=0)
    vec.step(np.zeros(8, dtype=int))
    assert list(home.iterdir()) == [] and list(work.iterdir()) == []


def test_the_opponent_comes_from_the_settings_file_not_the_working_folder(tmp_path, monkeypatch):
    settings_file = tmp_path / "s.toml"
    settings_file.write_text('[dots.alpha-beta]\nposition_budget = 777\n')
    monkeypatch.chdir(tmp_path)
    env = gym.make("arcade/DotsAndBoxes-v0", rows=3, cols=3, opponent="alpha-beta", settings=str(settings_file))
    assert env.unwrapped.opponent.positions == 777
    default = gym.make("arcade/DotsAndBoxes-v0", rows=3, cols=3, opponent="alpha-beta")
    from agents.alphabeta_dots import COUNTED_POSITIONS

    assert default.unwrapped.opponent.positions == COUNTED_POSITIONS  # counted, not timed: see below


@pytest.mark.parametrize("opponent", ["alpha-beta", "mcts"])
def test_a_seed_replays_the_same_episode_against_a_searching_opponent_however_loaded_the_machine(opponent):
    """The opponents' budgets count work (positions, simulations), not time: a slow machine (here, clocks
    that race 1000x) changes nothing, for the opponents read no clock at all."""
    import time as real_time

    def episode():
        env = gym.make("arcade/DotsAndBoxes-v0", rows=3, cols=3, opponent=opponent)
        obs, info = env.reset(seed=5)
        seen = [obs.copy()]
        rng = np.random.default_rng(1)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, done, _, info = env.step(action)
            seen.append(obs.copy())
        return seen

    calm = episode()
    racing = pytest.MonkeyPatch()
    # every clock a budget may read runs 1000x fast: a machine 1000 times slower
    for name in ("perf_counter", "process_time", "monotonic", "thread_time"):
        racing.setattr(real_time, name, _racing(getattr(real_time, name)))
    try:
        hurried = episode()
    finally:
        racing.undo()
    assert len(calm) == len(hurried) and all(np.array_equal(a, b) for a, b in zip(calm, hurried, strict=True))


@pytest.mark.parametrize("env_id, kwargs, message", [
    ("arcade/2048-v0", {"size": 2}, "size must be an integer from 3 to 7"),
    ("arcade/2048-v0", {"size": 8}, "size must be an integer from 3 to 7"),
    ("arcade/2048-v0", {"size": 4.0}, "size must be an integer from 3 to 7, got 4.0"),
    ("arcade/2048-v0", {"spawn_four_probability": 1.5}, "spawn_four_probability must be a number from 0.0 to 1.0"),
    ("arcade/Match3-v0", {"turns": 0}, "turns must be an integer from 1 to 1000"),
    ("arcade/Match3-v0", {"colours": 2}, "colours must be an integer from 3 to 8"),
    ("arcade/DotsAndBoxes-v0", {"rows": 6}, "rows must be 1 to 5"),
    ("arcade/DotsAndBoxes-v0", {"cols": 0}, "cols must be 1 to 5"),
    ("arcade/PeekingBlackjack-v0", {"threshold": -3}, "threshold must be an integer of at least 1"),
    ("arcade/PeekingBlackjack-v0", {"multiplicity": 0}, "multiplicity must be an integer of at least 1"),
    ("arcade/PeekingBlackjack-v0", {"card_values": (1, -5)}, "card_values must be one or more positive integers"),
    ("arcade/PeekingBlackjack-v0", {"card_values": ()}, "card_values must be one or more positive integers"),
    ("arcade/PeekingBlackjack-v0", {"peek_cost": -10}, "peek_cost must be an integer of at least 0"),
    ("arcade/TicTacToe-v0", {"settings": "/nonexistent.toml"}, "no such settings file"),
])
def test_arguments_outside_their_range_are_one_clear_error(env_id, kwargs, message):
    with pytest.raises(ValueError, match=message):
        gym.make(env_id, **kwargs)


def test_ansi_renders_the_rules_text_form():
    env = gym.make("arcade/TicTacToe-v0", render_mode="ansi")
    env.reset(seed=0)
    env.step(4)
    text = env.render()
    rules = env.unwrapped.rules
    assert text.startswith(rules.format_state(env.unwrapped.state).replace("/", "\n"))
    assert "X" in text and "to move" in text


def test_human_rendering_is_paced_at_render_fps_and_aec_reset_renders(monkeypatch):
    import time

    from arcade.screens import env_render as render_module
    from arcade.envs import tictactoe_v0

    env = gym.make("arcade/2048-v0", render_mode="human")
    env.unwrapped.metadata = {**env.unwrapped.metadata, "render_fps": 20}
    env.reset(seed=0)  # the first frame
    start = time.perf_counter()
    for _ in range(4):
        env.render()
    assert time.perf_counter() - start >= 4 / 20 * 0.9  # never faster than render_fps
    env.close()
    frames = []
    monkeypatch.setattr(render_module.ScreenRenderer, "frame", lambda self, state, history=(): frames.append(state))
    aec = tictactoe_v0.env(render_mode="human")
    aec.reset(seed=0)
    assert len(frames) == 1
    aec.close()


@pytest.mark.parametrize("env_id", ["arcade/2048-v0", "arcade/Match3-v0", "arcade/PeekingBlackjack-v0",
                                    "arcade/TicTacToe-v0", "arcade/DotsAndBoxes-v0"])
@pytest.mark.parametrize("action", [-1, 10_000, 1.7, "1", True, None])
def test_an_action_outside_the_action_space_is_a_clear_error_not_an_illegal_move(env_id, action):
    """As Gymnasium's toy_text and the arcade's AEC environments: only an index of the space is a move (a
    legal one or an illegal one, which the illegal reward answers)."""
    env = gym.make(env_id)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="is not in the action space"):
        env.step(action)
    mask = env.unwrapped.legal_mask()
    _, _, _, _, info = env.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers are indexes too
    assert info["illegal_action"] is False


def test_the_dots_observations_show_the_score_and_whose_turn_it_is():
    """The two-player environment pays the result only at the end: the observation carries the boxes each
    side has and whose turn it is, so a policy can see them."""
    from arcade.envs import dots_and_boxes_v0

    single = gym.make("arcade/DotsAndBoxes-v0", rows=2, cols=2, opponent="greedy")
    obs, info = single.reset(seed=2)
    assert obs.shape == (12 + 3,) and single.observation_space.contains(obs) and obs[-1] == 1
    total = 0
    done = False
    while not done:
        obs, reward, done, _, info = single.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += reward
        assert single.observation_space.contains(obs)
    assert obs[12] - obs[13] == total and obs[12] + obs[13] == 4  # mine - theirs: the rewards' sum

    aec = dots_and_boxes_v0.env(rows=2, cols=2)
    aec.reset(seed=0)
    first, second = aec.possible_agents
    assert aec.observe(first)["observation"][-1] == 1 and aec.observe(second)["observation"][-1] == 0


def _racing(clock):
    """`clock`, running 1000 times as fast from now."""
    start = clock()
    return lambda: start + (clock() - start) * 1000


def test_a_frame_shows_whose_lines_and_cards_the_session_holds():
    """The dots owners' colours and the cards in a blackjack hand come from the session's states, as on the
    screens: a frame of the same state without its history lacks them."""
    from arcade.screens.env_render import ScreenRenderer

    for env_id, moves in (("arcade/DotsAndBoxes-v0", 4), ("arcade/PeekingBlackjack-v0", 1)):
        env = gym.make(env_id, render_mode="rgb_array")
        env.reset(seed=5)
        for _ in range(moves):
            mask = env.unwrapped.legal_mask()
            env.step(int(np.flatnonzero(mask)[0]))
        inner = env.unwrapped
        bare = ScreenRenderer(inner.game_id, inner.rules, "rgb_array").frame(inner.state)
        assert inner.session.history and not np.array_equal(env.render(), bare), env_id
        env.close()


@pytest.mark.parametrize("make, words", [
    (lambda: gym.make("arcade/2048-v0", illegal_reward=float("nan")), "illegal_reward must be a finite number"),
    (lambda: gym.make("arcade/Match3-v0", illegal_reward=True), "illegal_reward must be a finite number"),
    (lambda: gym.make("arcade/PeekingBlackjack-v0", threshold=10**9), "threshold must be at most 1000"),
    (lambda: gym.make("arcade/TicTacToe-v0", play_as=1.0), "play_as must be 0"),
    (lambda: gym.make("arcade/TicTacToe-v0", play_as=True), "play_as must be 0"),
    (lambda: dots_and_boxes_v0.env(rows="2"), "rows and cols must be whole numbers"),
])
def test_a_bad_argument_is_refused_in_one_line_that_names_it(make, words):
    with pytest.raises(ValueError, match=words) as refused:
        make()
    assert "\n" not in str(refused.value)


def test_the_vector_2048_refuses_float_actions_as_the_single_env_does():
    envs = gym.make_vec("arcade/2048-v0", num_envs=4, vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="actions must be integers"):
        envs.step(np.array([0.5, 0, 0, 0]))
    envs.step(np.array([0, 1, 2, 3]))  # whole numbers still play
    envs.close()
