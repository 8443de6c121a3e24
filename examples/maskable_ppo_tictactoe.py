"""MaskablePPO (sb3-contrib) learns tic-tac-toe against the arcade's random player, using the action masks.

sb3-contrib is not one of the arcade's requirements (it brings PyTorch, which is large). Install it beside
the arcade to run this:

    .venv/bin/pip install torch==2.13.0 stable-baselines3 sb3-contrib
    .venv/bin/python examples/maskable_ppo_tictactoe.py [--steps 50000] [--opponent random]

It trains for --steps steps, then plays 200 evaluation games with the masks and prints the results.
The observations are 3x3x2 planes; FlattenObservation gives MaskablePPO's MLP policy a flat vector.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gymnasium as gym  # noqa: E402

import arcade.envs  # noqa: E402,F401  (registers the environments)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=50_000)
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    try:
        from sb3_contrib import MaskablePPO
        from sb3_contrib.common.wrappers import ActionMasker
    except ImportError:
        print("this example needs sb3-contrib: .venv/bin/pip install torch==2.13.0 stable-baselines3 sb3-contrib",
              file=sys.stderr)
        return 2

    def make():
        env = gym.wrappers.FlattenObservation(gym.make("arcade/TicTacToe-v0", opponent=args.opponent))
        return ActionMasker(env, lambda e: e.unwrapped.legal_mask().astype(bool))

    model = MaskablePPO("MlpPolicy", make(), seed=0, verbose=0)
    model.learn(total_timesteps=args.steps)
    env = make()
    results = {"won": 0, "drawn": 0, "lost": 0}
    for game in range(args.games):
        obs, info = env.reset(seed=10_000 + game)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.legal_mask().astype(bool), deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        results["won" if reward > 0 else "lost" if reward < 0 else "drawn"] += 1
    print(f"MaskablePPO after {args.steps} steps against {args.opponent}, {args.games} games: "
          + ", ".join(f"{k} {v}" for k, v in results.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
