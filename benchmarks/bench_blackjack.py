"""Blackjack benchmark: value iteration and Q-learning speed, and the course's experiments over 5 seeds.

    python benchmarks/bench_blackjack.py [--repeat 5] [--no-report]

Prints value iteration on largeMDP (all states, to 1e-4; enumeration included)
against a plain dict-and-loop value iteration, Q-learning's 30000 trials on
smallMDP, and the report of `python examples/blackjack_report.py` with
its spread over 5 seeds.
"""
from __future__ import annotations

import time

import _common  # noqa: F401  (puts the project on the import path)
import numpy as np

from agents.blackjack_q import blackjack_is_end
from agents.qlearning import QLearningAlgorithm, identity_feature_extractor
from agents.value_iteration import ValueIteration
from examples.blackjack_report import format_report, run
from arcade.games.blackjack import large_mdp, small_mdp
from arcade.games.mdp import compute_states, simulate


def plain_value_iteration(mdp, epsilon=1e-4):
    """Value iteration the plain way: dicts, and succ_and_prob_reward called in every sweep."""
    states = compute_states(mdp)
    V = {s: 0.0 for s in states}
    while True:
        new = {}
        for s in states:
            qs = [sum(p * (r + mdp.discount() * V[t]) for t, p, r in mdp.succ_and_prob_reward(s, a))
                  for a in mdp.actions(s) if mdp.succ_and_prob_reward(s, a)]
            new[s] = max(qs) if qs else 0.0
        if max(abs(new[s] - V[s]) for s in states) < epsilon:
            return new
        V = new


def best_of(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), float(np.median(times)), out


def main():
    ap = _common.Parser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-report", action="store_true")
    args = ap.parse_args()
    mdp = large_mdp()
    best, median, vi = best_of(lambda: ValueIteration().solve(mdp, 1e-4), args.repeat)
    print(f"== value iteration, largeMDP: {len(vi.states)} states, {vi.sweeps} sweeps to 1e-4")
    print(f"  vectorised: median {median * 1000:.1f} ms, best {best * 1000:.1f} ms of {args.repeat} "
          f"(enumeration included; target < 100 ms)")
    p_best, p_median, plain = best_of(lambda: plain_value_iteration(mdp), max(1, args.repeat // 2))
    same = max(abs(plain[s] - vi.V[s]) for s in vi.states)
    print(f"  plain dict-and-loop: median {p_median:.2f} s; ratio of medians {p_median / median:.0f}x; "
          f"largest value difference {same:.1e}")

    small = small_mdp()

    def qlearn():
        ql = QLearningAlgorithm(small.actions, 1, identity_feature_extractor, 0.2, np.random.default_rng(0),
                                is_end=blackjack_is_end)
        return simulate(small, ql, 30000, rng=np.random.default_rng(1))

    q_best, q_median, _ = best_of(qlearn, args.repeat)
    print(f"== Q-learning, smallMDP, identity features, 30000 trials: median {q_median:.2f} s, best {q_best:.2f} s "
          f"(target < 1 s)")
    if not args.no_report:
        t0 = time.perf_counter()
        seeds = (0, 1, 2, 3, 4)
        print(format_report(run(seeds), seeds, 30000))
        print(f"  (report: {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    _common.run(main)
