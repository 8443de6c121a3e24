"""Match-3 benchmark: every agent on the same seeded games; scores, paired differences, q-rollouts speed.

    python benchmarks/bench_match3.py [--games 100] [--workers 2] [--variant NAME=eps,eta,gamma,n ...]

Prints each agent's mean score with its 95% interval over the same seeds, the
paired difference between agents (mean and 95% interval), and q-rollouts'
decision time (median, p95) and simulated moves per second. --variant adds a
q-rollouts run with other parameters (e.g. --variant deep=0.2,0.2,0.9,25).
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
from agents.qrollouts import QRollouts
from arcade.games.match3 import Match3Rules
from arcade.settings import Settings

DEFAULTS = Settings()  # agents always receive settings; these are the defaults

BASE = ("random", "greedy", "greedy-cascade", "q-rollouts")


def make(name: str, rules, params):
    if name == "random":
        return RandomAgent(rules, DEFAULTS)
    if name == "greedy":
        return GreedyMatch3(rules, DEFAULTS)
    if name == "greedy-cascade":
        return GreedyCascade(rules, DEFAULTS)
    eps, eta, gamma, n = params or (0.2, 0.2, 0.5, 25)
    return QRollouts(rules, DEFAULTS.with_table("match3", epsilon=eps, step_size=eta, discount=gamma, rollouts=int(n)))


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
    args = ap.parse_args()
    agents = [(name, None) for name in BASE]
    for v in args.variant:
        label, values = v.split("=")
        agents.append((f"q-rollouts[{label}]", tuple(float(x) for x in values.split(","))))
    def seeds_for(params):
        n = args.games if params is None or args.variant_games is None else min(args.games, args.variant_games)
        return range(n)

    jobs = [(name.split("[")[0] if name.startswith("q-rollouts") else name, params, seed, name)
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
    pairs = list(zip(names, names[1:])) + [(n, "greedy-cascade") for n in names if n.startswith("q-rollouts")]
    for a, b in dict.fromkeys(pairs):
        if a == b:
            continue
        common = sorted(set(scores[a]) & set(scores[b]))
        diff = [scores[a][s] - scores[b][s] for s in common]
        mean, ci = mean_ci(diff)
        verdict = "above 0" if mean - ci > 0 else "below 0" if mean + ci < 0 else "includes 0"
        print(f"    {a} - {b}: {mean:+.1f} +- {ci:.1f}  (interval {verdict}; {len(common)} paired games)")
    for name, _ in agents:
        if name.startswith("q-rollouts"):
            t = np.array(timing[name])
            total = t.sum()
            print(f"  {name}: decision median {np.median(t) * 1000:.0f} ms, p95 {np.percentile(t, 95) * 1000:.0f} ms "
                  f"(target median < 1000 ms); {moves[name] / total:,.0f} simulated moves per second")


if __name__ == "__main__":
    main()
