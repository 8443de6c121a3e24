"""The course's blackjack experiments as one report (an experiment on the arcade, not part of it):

    python examples/blackjack_report.py [--settings settings.toml] [--trials N] [--json]

Q-learning (30000 trials) against value iteration on the course's smallMDP and
largeMDP with identity features, largeMDP with the blackjack features, and the
transfer experiment (the threshold-10 policy played on the threshold-15 MDP
against Q-learning run on it directly), each over several seeds.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the project's modules are one folder up
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from agents.blackjack_q import (FixedRLAlgorithm, QLearningAlgorithm, blackjack_feature_extractor,  # noqa: E402
                              blackjack_is_end, identity_feature_extractor)
from agents.value_iteration import ValueIteration  # noqa: E402
from arcade.games.blackjack import large_mdp, new_threshold_mdp, small_mdp  # noqa: E402
from arcade.games.mdp import simulate  # noqa: E402
from arcade.progress import Progress  # noqa: E402

TRIALS = 30_000


def policy_gap(mdp, features, seed: int, trials: int = TRIALS) -> tuple[int, int, float]:
    """Train Q-learning, then count the states where its greedy action differs from value iteration's."""
    ql = QLearningAlgorithm(mdp.actions, mdp.discount(), features, 0.2, np.random.default_rng(seed),
                            is_end=blackjack_is_end)
    rewards = simulate(mdp, ql, trials, rng=np.random.default_rng(seed + 1000))
    ql.epsilon = 0.0
    pi = ValueIteration().solve(mdp).pi
    differ = sum(ql.get_action(s) != a for s, a in pi.items())
    return differ, len(pi), float(np.mean(rewards))


def transfer(seed: int, trials: int = TRIALS) -> dict:
    old_pi = ValueIteration().solve(small_mdp()).pi
    new = new_threshold_mdp()
    fixed = FixedRLAlgorithm(old_pi)
    fixed_rewards = simulate(new, fixed, trials, rng=np.random.default_rng(seed))
    ql = QLearningAlgorithm(new.actions, new.discount(), blackjack_feature_extractor, 0.2,
                            np.random.default_rng(seed + 1), is_end=blackjack_is_end)
    ql_rewards = simulate(new, ql, trials, rng=np.random.default_rng(seed + 2))
    optimum = ValueIteration().solve(new).V[new.start_state()]
    return {"fixed": float(np.mean(fixed_rewards)), "fixed_unseen": fixed.unseen,
            "qlearning": float(np.mean(ql_rewards)), "optimum": optimum}


def run(seeds=(0, 1, 2, 3, 4), trials: int = TRIALS, progress=None) -> dict:
    rows = {k: [] for k in ("small_identity", "large_identity", "large_features", "transfer")}
    for k, seed in enumerate(seeds):
        rows["small_identity"].append(policy_gap(small_mdp(), identity_feature_extractor, seed, trials))
        rows["large_identity"].append(policy_gap(large_mdp(), identity_feature_extractor, seed, trials))
        rows["large_features"].append(policy_gap(large_mdp(), blackjack_feature_extractor, seed, trials))
        rows["transfer"].append(transfer(seed, trials))
        if progress:
            progress(k + 1)
    return rows


def _spread(values) -> str:
    a = np.asarray(values, dtype=float)
    return f"{a.mean():8.2f}   [{a.min():.2f} .. {a.max():.2f}]"


def format_report(rows: dict, seeds, trials: int) -> str:
    small, large_id, large_f, tr = rows["small_identity"], rows["large_identity"], rows["large_features"], rows["transfer"]
    n_small, n_large = small[0][1], large_id[0][1]
    table = [
        (f"small, identity: actions unlike VI (of {n_small} states)", [d for d, _, _ in small]),
        (f"large, identity: actions unlike VI (of {n_large})", [d for d, _, _ in large_id]),
        (f"large, blackjack features: unlike VI (of {n_large})", [d for d, _, _ in large_f]),
        ("large, identity: mean reward while learning", [r for _, _, r in large_id]),
        ("large, blackjack features: mean reward learning", [r for _, _, r in large_f]),
        ("threshold 15, threshold-10 VI policy: mean reward", [t["fixed"] for t in tr]),
        ("threshold 15, Q-learning on it: mean reward", [t["qlearning"] for t in tr]),
        ("threshold 15, optimal expected reward (VI)", [t["optimum"] for t in tr]),
    ]
    lines = [f"Peeking blackjack: the course's experiments, {trials} trials each, seeds {list(seeds)}",
             f"  {'experiment':<52}{'mean':>9}   [min .. max over seeds]"]
    lines += [f"  {label:<52}{_spread(values)}" for label, values in table]
    lines.append("")
    gap_small = np.mean([d / n for d, n, _ in small])
    gap_large = np.mean([d / n for d, n, _ in large_id])
    gap_feat = np.mean([d / n for d, n, _ in large_f])
    fixed, ql, best = (np.mean([t[k] for t in tr]) for k in ("fixed", "qlearning", "optimum"))
    unseen = np.mean([t["fixed_unseen"] for t in tr])
    lines.append(
        f"What it means: the small MDP has {n_small} decision states, and {trials} trials visit them "
        f"often, so tabular Q-learning (identity features) picks value iteration's action in all but "
        f"{gap_small:.0%} of them. The large MDP has {n_large}: with identity features each state learns "
        f"only from its own visits, and {gap_large:.0%} of the actions differ. The blackjack features "
        f"share weights between states (the total, which values are left, how many of each), so what is "
        f"learnt in one state carries to similar ones: {gap_feat:.0%} differ, and the reward earned while "
        f"learning rises from {np.mean([r for _, _, r in large_id]):.1f} to "
        f"{np.mean([r for _, _, r in large_f]):.1f} a round. Transfer: the policy solved for threshold 10 "
        f"plays as if 10 were still the limit and has no action for hands above 10 (it met {unseen:.0f} "
        f"such states and quit there), so on the threshold-15 table it earns {fixed:.2f} a round against "
        f"{ql:.2f} for Q-learning on that table (which also pays for its exploration); the optimum is "
        f"{best:.2f}. A policy is only optimal for the rules it was solved for.")
    return "\n".join(lines)


def report(settings=None, json_out: bool = False, seeds=(0, 1, 2, 3, 4), trials: int | None = None) -> int:
    """Run and print the experiments; trials default to settings.toml [blackjack.q-learning] trials (the course's 30000)."""
    if trials is None:
        trials = settings.agent_params("blackjack", "q-learning").trials if settings is not None else TRIALS
    t0 = time.perf_counter()
    bar = Progress(len(seeds), "blackjack report (seeds)")
    rows = run(seeds, trials, progress=bar.update)
    bar.close()
    if json_out:
        print(json.dumps({"trials": trials, "seeds": list(seeds), "rows": rows}, default=float))
    else:
        print(format_report(rows, seeds, trials))
        print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    from arcade.settings import SettingsError, load_settings

    p = argparse.ArgumentParser(description="The course's blackjack experiments, over 5 seeds.")
    p.add_argument("--settings", default="settings.toml", help="[blackjack] trials is read from it (default 30000)")
    p.add_argument("--trials", type=int, help="trials of each Q-learning run (overrides the settings)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.trials is not None and args.trials < 1:
        p.error("--trials must be 1 or more")
    try:
        settings = load_settings(args.settings, strict=False)
    except SettingsError as exc:
        p.error(str(exc))
    return report(settings, json_out=args.json, trials=args.trials)


if __name__ == "__main__":
    sys.exit(main())
