"""Match-3 benchmark: the engine's speed, and every agent on the same seeded games.

    python benchmarks/bench_match3.py [--games 100] [--workers 2] [--variant NAME=eps,eta,gamma,n ...]
                                      [--variant-games N] [--sequential-games N] [--engine-only]

First the engine: simulated moves per second of the single-board rules (Match3Rules.step,
random legal moves) against the batched engine at B = 256 (and 1, 32, 1024), alternated in
rounds in the same run, with the ratio. Then each agent's mean score with its 95% interval
over the same seeds, the paired differences (mean and 95% interval) of monte-carlo and
q-rollouts against greedy-cascade, and every agent's decision time (median, p95).
q-rollouts[sequential] is the course's procedure step by step (no batch), to show the batch
does not change its strength; --variant adds q-rollouts runs with other parameters.
"""
from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import _common  # noqa: F401  (puts the project on the import path)
import numpy as np
from _common import mean_ci

from agents.baselines import RandomAgent
from agents.greedy import GreedyCascade, GreedyMatch3
from agents.monte_carlo import MonteCarlo
from agents.qrollouts import QRollouts
from arcade.games import match3_batch as mb
from arcade.games.match3 import Match3Rules
from arcade.settings import Settings

DEFAULTS = Settings()  # agents always receive settings; these are the defaults

BASE = ("random", "greedy", "greedy-cascade", "q-rollouts", "monte-carlo")


class SequentialQRollouts(QRollouts):
    """q-rollouts as the course writes it, every episode step by step (the batch's reference)."""

    def _batched(self, state, rng, prefix=2):
        return False


def make(name: str, rules, params):
    if name == "random":
        return RandomAgent(rules, DEFAULTS)
    if name == "greedy":
        return GreedyMatch3(rules, DEFAULTS)
    if name == "greedy-cascade":
        return GreedyCascade(rules, DEFAULTS)
    if name == "monte-carlo":
        return MonteCarlo(rules, DEFAULTS)
    eps, eta, gamma, n = params or (0.2, 0.2, 0.5, 25)
    cls = SequentialQRollouts if name == "q-rollouts-sequential" else QRollouts
    return cls(rules, DEFAULTS.with_table("match3", epsilon=eps, step_size=eta, discount=gamma, rollouts=int(n)))


def engine_speed(rounds: int = 5, moves: int = 600) -> None:
    """Simulated moves per second: single-board rules against the batched engine, alternated."""
    rules = Match3Rules()
    rng = np.random.default_rng(0)
    starts = [rules.new_state(rng) for _ in range(16)]
    results: dict[str, list[float]] = {}

    def single():
        state, done, t0 = starts[0], 0, time.perf_counter()
        k = 0
        while done < moves:
            if rules.is_terminal(state):
                k += 1
                state = starts[k % len(starts)]
            swaps = state.swaps()
            state = rules.step(state, tuple(swaps[int(rng.integers(len(swaps)))]), rng)
            done += 1
        return done / (time.perf_counter() - t0)

    def batched(b: int):
        boards = np.stack([starts[i % len(starts)].board for i in range(b)])
        refill, left = mb.RngRefill(rng, 5), 50
        mask, done, t0 = mb.legal_mask(boards), 0, time.perf_counter()
        while done < moves * 4:
            boards, _ = mb.play(boards, mb.random_legal(mask, rng), refill)
            left = left - 1 if left > 1 else 50
            mask = mb.settle(boards, left, rng)
            done += b
        return done / (time.perf_counter() - t0)

    for _ in range(rounds):  # alternated, so the machine's slow moments fall on all alike
        results.setdefault("single board", []).append(single())
        for b in (1, 32, 256, 1024):
            results.setdefault(f"batched B={b}", []).append(batched(b))
    base = np.median(results["single board"])
    print(f"== match-3 engine: simulated moves per second, random legal moves, {rounds} alternated rounds")
    for name, xs in results.items():
        print(f"  {name:<16} median {np.median(xs):>10,.0f}  range {min(xs):,.0f}-{max(xs):,.0f}   "
              f"x{np.median(xs) / base:5.1f} the single board (target at B=256: x30)")


def play(job):
    name, params, seed = job
    rules = Match3Rules()
    agent = make(name, rules, params)
    game_rng, agent_rng = np.random.default_rng(seed), np.random.default_rng([seed, 99])
    state = rules.new_state(game_rng)
    times = []
    while not rules.is_terminal(state):
        t0 = time.perf_counter()
        action = agent.act(state, agent_rng)
        times.append(time.perf_counter() - t0)
        state = rules.step(state, action, game_rng)
    return name, seed, state.score, times, getattr(agent, "simulated_moves", 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variant", action="append", default=[], help="NAME=epsilon,eta,gamma,rollouts")
    ap.add_argument("--variant-games", type=int, help="variants play only the first N seeds (they are slow)")
    ap.add_argument("--sequential-games", type=int, default=30,
                    help="q-rollouts step by step, on the first N seeds (0: not at all)")
    ap.add_argument("--engine-only", action="store_true")
    args = ap.parse_args()
    engine_speed()
    if args.engine_only:
        return
    agents = [(name, None) for name in BASE]
    if args.sequential_games:
        agents.append(("q-rollouts-sequential", "sequential"))
    for v in args.variant:
        label, values = v.split("=")
        agents.append((f"q-rollouts[{label}]", tuple(float(x) for x in values.split(","))))
    def seeds_for(params):
        if params == "sequential":
            return range(min(args.games, args.sequential_games))
        n = args.games if params is None or args.variant_games is None else min(args.games, args.variant_games)
        return range(n)

    jobs = [(name.split("[")[0], None if params == "sequential" else params, seed, name)
            for name, params in agents for seed in seeds_for(params)]
    t0 = time.perf_counter()
    scores: dict[str, dict[int, int]] = {name: {} for name, _ in agents}
    timing: dict[str, list] = {name: [] for name, _ in agents}
    moves: dict[str, int] = {name: 0 for name, _ in agents}
    with ProcessPoolExecutor(args.workers) as pool:
        futures = {pool.submit(play, (kind, params, seed)): label for kind, params, seed, label in jobs}
        for fut, label in futures.items():
            _, seed, score, times, simulated = fut.result()
            scores[label][seed] = score
            timing[label].extend(times)
            moves[label] += simulated
    print(f"== match-3, 9x9, 5 colours, 50 turns; seeds from 0, the same seeds for every agent "
          f"({time.perf_counter() - t0:.0f} s on {args.workers} workers)")
    for name, _ in agents:
        played = sorted(scores[name])
        mean, ci = mean_ci([scores[name][s] for s in played])
        print(f"  {name:<24} mean score {mean:8.1f} +- {ci:6.1f}  ({len(played)} games)")
    print("  paired differences (same seeds), mean +- 95% interval:")
    names = [n for n, _ in agents]
    pairs = list(zip(names, names[1:])) + [(n, "greedy-cascade") for n in names if n.startswith(("q-", "monte"))]
    pairs += [("q-rollouts", "q-rollouts-sequential")]
    for a, b in dict.fromkeys(pairs):
        if a == b:
            continue
        common = sorted(set(scores[a]) & set(scores[b]))
        diff = [scores[a][s] - scores[b][s] for s in common]
        mean, ci = mean_ci(diff)
        verdict = "above 0" if mean - ci > 0 else "below 0" if mean + ci < 0 else "includes 0"
        print(f"    {a} - {b}: {mean:+.1f} +- {ci:.1f}  (interval {verdict}; {len(common)} paired games)")
    for name, _ in agents:
        t = np.array(timing[name])
        extra = f"; {moves[name] / t.sum():,.0f} simulated moves per second" if moves[name] else ""
        print(f"  {name:<24} decision median {np.median(t) * 1000:6.1f} ms, p95 {np.percentile(t, 95) * 1000:6.1f} ms"
              f"{extra}")
    if "monte-carlo" in scores:
        common = sorted(set(scores["monte-carlo"]) & set(scores["greedy-cascade"]))
        mc = np.mean([scores["monte-carlo"][s] for s in common])
        gc = np.mean([scores["greedy-cascade"][s] for s in common])
        print(f"  monte-carlo / greedy-cascade points: x{mc / gc:.3f} (target x1.25, median <= 500 ms, p95 <= 1000 ms)")


if __name__ == "__main__":
    main()
