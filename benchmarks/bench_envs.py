"""Environment speed: random legal steps a CPU second (process CPU time, every thread of the process counted).

    python benchmarks/bench_envs.py [--seconds 3] [--rounds 3] [--boards 4096]
    # JAX held to one thread, as the arcade's environments run:
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" taskset -c 0 \
        .venv-bench/bin/python benchmarks/bench_envs.py

- The native vector 2048 (arcade.envs.vector2048) at --boards boards, actions drawn from the masks in one
  numpy call; beside it the single 2048-v0 stepped N times (the baseline of the same run).
- Each single environment: 2048-v0, Match3-v0, PeekingBlackjack-v0 (a random legal action from
  info["action_mask"], reset at the end of an episode); Gymnasium's own Blackjack-v1 as a yardstick.
- pgx's JAX 2048 if it is installed (the benchmark environment: make bench-venv), at the same batch, doing
  the same work: random legal moves, a finished board reset, fresh keys every step (a pgx loop that never
  resets steps dead boards after about a second, and one key array reused gives the same tiles).
Rounds alternate the environments; medians and ranges are printed. CPU time, not wall time: JAX's threads
on other cores count, so the figures compare the work done.
"""
from __future__ import annotations

import time

import _common  # noqa: F401  (puts the project on the import path)
import gymnasium as gym
import numpy as np

import arcade.envs  # noqa: F401  (registers the environments)


def single_rate(env_id: str, seconds: float, **kwargs) -> float:
    env = gym.make(env_id, **kwargs).unwrapped
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        mask = info.get("action_mask")
        action = rng.choice(np.flatnonzero(mask)) if mask is not None else env.action_space.sample()
        _, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.process_time() - start)


def vector_rate(boards: int, seconds: float) -> float:
    env = gym.make_vec("arcade/2048-v0", num_envs=boards, vectorization_mode="vector_entry_point")
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    batches, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        actions = np.argmax(rng.random((boards, 4)) * info["action_mask"], axis=1)
        _, _, _, _, info = env.step(actions)
        batches += 1
    return batches * boards / (time.process_time() - start)


def pgx_rate(boards: int, seconds: float) -> float | None:
    """pgx's 2048 doing what the vector env does: a random legal move on every board, a finished board
    started afresh in the same step, fresh keys every step (its tile placements and the moves)."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
    except ImportError:
        return None
    env = pgx.make("2048")
    init = jax.vmap(env.init)

    @jax.jit
    def step_and_reset(state, key):
        k_act, k_step, k_init = jax.random.split(key, 3)
        action = jax.random.categorical(k_act, jnp.where(state.legal_action_mask, 0.0, -jnp.inf), axis=-1)
        state = jax.vmap(env.step)(state, action, jax.random.split(k_step, boards))
        fresh = init(jax.random.split(k_init, boards))
        done = state.terminated | state.truncated
        return jax.tree_util.tree_map(
            lambda old, new: jnp.where(done.reshape(done.shape + (1,) * (old.ndim - 1)), new, old), state, fresh)

    key = jax.random.PRNGKey(0)
    state = jax.jit(init)(jax.random.split(key, boards))
    state = step_and_reset(state, key)  # compiled here, not in the timed part
    state.rewards.block_until_ready()
    batches, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        key, sub = jax.random.split(key)
        state = step_and_reset(state, sub)
        state.rewards.block_until_ready()
        batches += 1
    return batches * boards / (time.process_time() - start)


def main():
    ap = _common.Parser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--boards", type=int, default=4096)
    args = ap.parse_args()
    methods = {
        f"vector 2048, {args.boards} boards": lambda: vector_rate(args.boards, args.seconds),
        "2048-v0 (single)": lambda: single_rate("arcade/2048-v0", args.seconds),
        "Match3-v0": lambda: single_rate("arcade/Match3-v0", args.seconds),
        "PeekingBlackjack-v0": lambda: single_rate("arcade/PeekingBlackjack-v0", args.seconds),
        "Gymnasium Blackjack-v1": lambda: single_rate("Blackjack-v1", args.seconds),
        f"pgx 2048 (JAX), {args.boards} boards": lambda: pgx_rate(args.boards, args.seconds),
    }
    rates = {name: [] for name in methods}
    for _ in range(args.rounds):
        for name, run in methods.items():
            rate = run()
            if rate is not None:
                rates[name].append(rate)
    print(f"== random legal steps a CPU second, {args.rounds} rounds alternating, {args.seconds:g} CPU s each")
    for name, r in rates.items():
        if not r:
            print(f"  {name:34s} not installed (make bench-venv)")
            continue
        print(f"  {name:34s} {np.median(r):>12,.0f}   (range {min(r):,.0f}-{max(r):,.0f})")
    vec = np.median(rates[f"vector 2048, {args.boards} boards"])
    single = np.median(rates["2048-v0 (single)"])
    print(f"  vector / single 2048: x{vec / single:,.0f}; targets: vector >= 1,000,000, 2048-v0 >= 10,000, "
          "Match3-v0 >= 5,000")
    pgx_runs = rates[f"pgx 2048 (JAX), {args.boards} boards"]
    if pgx_runs:
        ratios = np.array(rates[f"vector 2048, {args.boards} boards"]) / np.array(pgx_runs)
        print(f"  vector 2048 / pgx, round by round: median x{np.median(ratios):.2f} "
              f"(range x{ratios.min():.2f}-x{ratios.max():.2f})")


if __name__ == "__main__":
    _common.run(main)
