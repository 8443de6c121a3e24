"""Match-3's learnt evaluation (agents/match3_td.py) against greedy-cascade on the same seeded games.

    python benchmarks/bench_match3_learning.py [--games 100] [--jobs N] [--log-dir DIR]

td-value (the shipped weights, 1 ply) and greedy-cascade each play games 0..N-1 (game i from seed i, the
same boards and new gems for both); each finished game is appended to the agent's log in --log-dir
(default docs/benchmarks; the same command continues a stopped run). Prints each mean with its 95%
interval, the paired difference, the ratio, and td-value's decision times. Target (issue 43): td-value at
1 ply at least greedy-cascade's mean.
"""
from __future__ import annotations

from pathlib import Path

import _common  # noqa: F401  (puts the project on the import path)
import numpy as np
from _common import ROOT, mean_ci, run_logged

from agents.base import find
from arcade import runner
from arcade.games import make_rules
from arcade.settings import Settings

LOGS = ROOT / "docs" / "benchmarks"
AGENT_SEED = 1


def log_name(agent: str, games: int) -> str:
    return f"{agent.replace('-', '_')}_match3_{games}.jsonl"


def main() -> int:
    p = _common.Parser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100, positive=True)
    p.add_argument("--jobs", type=int, default=runner.default_jobs(), help="processes (default: all cores)")
    p.add_argument("--log-dir", default=str(LOGS))
    args = p.parse_args()
    settings = Settings()
    rules = make_rules("match3", settings)
    backend = runner.backend_of(args.jobs, None)
    scores, times = {}, {}
    for name in ("greedy-cascade", "td-value"):
        players = runner.Players(rules, find("match3", name).create(rules, settings))
        spec = runner.RunSpec.of("match3", name, None, args.games, 0, settings, agent_seed=AGENT_SEED)
        ran = run_logged(players, spec, Path(args.log_dir) / log_name(name, args.games), backend, name)
        if ran is None or not ran[1]:
            backend.shutdown()
            return 130
        scores[name] = {r["seed"]: r["score"] for r in ran[0]}
        times[name] = np.array([t for r in ran[0] for t in r["decision_ms"]])
    backend.shutdown()
    print(f"== match-3, 9x9, 5 colours, 50 turns: game i from seed i for both, {args.games} games")
    for name, by_seed in scores.items():
        mean, ci = mean_ci(list(by_seed.values()))
        print(f"  {name:<16} mean {mean:9,.1f} +- {ci:7,.1f}   decision median {np.median(times[name]):6.1f} ms, "
              f"p95 {np.percentile(times[name], 95):6.1f} ms")
    common = sorted(set(scores["td-value"]) & set(scores["greedy-cascade"]))
    diff, ci = mean_ci([scores["td-value"][s] - scores["greedy-cascade"][s] for s in common])
    ratio = np.mean([scores["td-value"][s] for s in common]) / np.mean([scores["greedy-cascade"][s] for s in common])
    better = sum(scores["td-value"][s] > scores["greedy-cascade"][s] for s in common)
    print(f"  td-value - greedy-cascade: {diff:+,.1f} +- {ci:,.1f} (paired), x{ratio:.3f} the points, "
          f"higher in {better} of {len(common)} games (target: at least x1.0)")
    return 0


if __name__ == "__main__":
    _common.run(main)
