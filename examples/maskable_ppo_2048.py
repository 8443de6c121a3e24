"""MaskablePPO (sb3-contrib) learns 2048 on the native vector environment, through the SB3 adapter.

Stable-Baselines3 does not take a Gymnasium VectorEnv; arcade/envs/sb3_vec2048.py adapts the native vector
2048 (thousands of boards a step in numpy) to SB3's VecEnv, with the action masks MaskablePPO asks for and
SB3's reset inside the step. Needs requirements-rl.txt (PyTorch, large):

    .venv-bench/bin/pip install -r requirements-rl.txt
    .venv-bench/bin/python examples/maskable_ppo_2048.py [--steps 1000000] [--boards 64] [--games 200]

It trains for --steps steps on --boards boards (one-hot observations, the course's rules), then plays
--games evaluation games with the masks, and the same games (seeds) with random legal moves, and prints
both mean scores with 95% intervals and the paired difference.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from arcade.envs.vector2048 import Vector2048Env  # noqa: E402


def play(choose, games: int, seed: int, observation: str) -> np.ndarray:
    """Final scores of `games` games on the native vector env (board i from seed + i), each move from
    choose(observations, masks) -> actions; a board's game is its first episode."""
    env = Vector2048Env(games, observation=observation)
    obs, info = env.reset(seed=seed)
    final = np.full(games, -1, dtype=np.int64)
    while (final < 0).any():
        obs, _, terminated, _, info = env.step(choose(obs, info["action_mask"].astype(bool)))
        newly = terminated & (final < 0)
        final[newly] = info["score"][newly]
    return final


def interval(x: np.ndarray) -> str:
    return f"{x.mean():,.0f} +- {1.96 * x.std(ddof=1) / np.sqrt(x.size):,.0f}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--boards", type=int, default=64)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if min(args.steps, args.boards, args.games) < 1:
        ap.error("--steps, --boards and --games must be 1 or more")
    try:
        from sb3_contrib import MaskablePPO

        from arcade.envs.sb3_vec2048 import SB3Vector2048
    except ImportError:
        print("this example needs requirements-rl.txt: .venv-bench/bin/pip install -r requirements-rl.txt",
              file=sys.stderr)
        return 2
    env = SB3Vector2048(args.boards, seed=args.seed, observation="onehot")
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=1024, gamma=0.99, ent_coef=0.01,
                        seed=args.seed, device="cpu", verbose=0)
    t0 = time.perf_counter()
    model.learn(args.steps)
    print(f"trained {args.steps:,} steps on {args.boards} boards in {time.perf_counter() - t0:.0f} s")

    def ppo(obs, masks):
        return model.predict(obs, action_masks=masks, deterministic=True)[0]

    rng = np.random.default_rng(args.seed)

    def random_legal(obs, masks):
        return np.argmax(rng.random(masks.shape) * masks, axis=1)

    eval_seed = 10_000 + args.seed  # games it never trained on
    learnt = play(ppo, args.games, eval_seed, "onehot")
    rand = play(random_legal, args.games, eval_seed, "onehot")
    print(f"{args.games} games, the same seeds: MaskablePPO {interval(learnt)}, random legal moves {interval(rand)}")
    print(f"paired difference {interval(learnt - rand)}; best game {learnt.max():,} against {rand.max():,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
