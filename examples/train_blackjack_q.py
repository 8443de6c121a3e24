"""Train tabular Q-learning on arcade/PeekingBlackjack-v0 through the Gymnasium API, and save it for the arcade.

    .venv/bin/python examples/train_blackjack_q.py [--preset small] [--episodes 40000] [--out PATH]

A plain Q-learning loop a student would write against any Gymnasium environment:
epsilon-greedy over the legal actions (info["action_mask"]), the update
Q(s, a) += alpha (r + gamma max_a' Q(s', a') - Q(s, a)), epsilon and alpha decaying.
It then plays the greedy policy for a while, prints its mean reward next to value
iteration's optimum for the same deck, and saves the table where the agent
`gym-q` (agents/gym_blackjack_q.py) loads it: the data folder by default. Open the
blackjack table in the arcade, Tab to gym-q, and watch it play; or
`python main.py bench blackjack --agent gym-q --games 2000`.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gymnasium as gym  # noqa: E402

import arcade.envs  # noqa: E402,F401  (registers the arcade's environments)
from agents.gym_blackjack_q import table_name  # noqa: E402
from agents.tabular_q import TabularQ  # noqa: E402  (the table the agent gym-q plays)
from arcade.settings import load_settings  # noqa: E402



def train(env, episodes: int, seed: int, gamma: float = 1.0) -> TabularQ:
    """Tabular Q-learning: epsilon 0.5 -> 0.02 and alpha 0.5 -> 0.05 over the episodes."""
    deck = env.unwrapped.rules.mdp
    q = TabularQ(env.action_space.n, meta={"card_values": deck.card_values, "multiplicity": deck.multiplicity,
                                           "threshold": deck.threshold, "peek_cost": deck.peek_cost})
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for episode in range(episodes):
        frac = episode / max(1, episodes - 1)
        epsilon, alpha = 0.5 + (0.02 - 0.5) * frac, 0.5 + (0.05 - 0.5) * frac
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            a = int(rng.choice(legal)) if rng.random() < epsilon else q.greedy(obs, info["action_mask"])
            nxt, reward, terminated, truncated, info = env.step(a)
            done = terminated or truncated
            target = reward if terminated else reward + gamma * np.max(
                np.where(info["action_mask"] > 0, q.values(nxt), -np.inf))
            row = q.values(obs)
            row[a] += alpha * (target - row[a])
            obs = nxt
        obs, info = env.reset()
    return q


def evaluate(env, q: TabularQ, episodes: int, seed: int) -> float:
    """The greedy policy's mean reward per round."""
    total = 0.0
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(q.greedy(obs, info["action_mask"]))
            total += reward
            done = terminated or truncated
        obs, info = env.reset()
    return total / episodes


def optimum(env) -> float:
    """Value iteration's V of the start: the best mean reward there is on this deck."""
    from agents.value_iteration import ValueIteration

    mdp = env.unwrapped.rules.mdp
    return ValueIteration().solve(mdp, 1e-6).V[mdp.start_state()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--settings", default=str(ROOT / "settings.toml"),
                    help="the settings file: its deck and data folder (default: the arcade's)")
    ap.add_argument("--preset", help="the deck (default: the settings' [blackjack] preset)")
    ap.add_argument("--episodes", type=int, default=40_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-rounds", type=int, default=20_000, help="rounds the greedy policy is measured on")
    ap.add_argument("--out", help="where to save the table (default: the settings' data folder)")
    args = ap.parse_args(argv)
    settings = load_settings(args.settings)
    args.preset = args.preset or settings.blackjack.preset
    args.out = args.out or str(settings.data_dir / table_name(args.preset))
    env = gym.make("arcade/PeekingBlackjack-v0", preset=args.preset)
    t0 = time.perf_counter()
    q = train(env, args.episodes, args.seed)
    seconds = time.perf_counter() - t0
    mean = evaluate(env, q, args.eval_rounds, args.seed + 1)
    print(f"trained {args.episodes} episodes on the {args.preset} deck in {seconds:.1f} s; {len(q.table)} states")
    print(f"greedy policy: mean reward {mean:.3f} per round over {args.eval_rounds} rounds; value iteration's optimum "
          f"{optimum(env):.3f}")
    if not q.save(args.out):
        return 1
    print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
