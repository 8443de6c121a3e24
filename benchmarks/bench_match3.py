"""Match-3 benchmark: the engine's speed, and every agent on the same seeded games.

    python benchmarks/bench_match3.py [--games 100] [--jobs N | --ray [ADDRESS]] [--variant NAME=eps,eta,gamma,n ...]
                                      [--variant-games N] [--sequential-games N] [--engine-only] [--summary]

First the engine: simulated moves per second of the single-board rules (Match3Rules.step,
random legal moves) against the batched engine at B = 256 (and 1, 32, 1024), alternated in
rounds in the same run, with the ratio. Then each agent's mean score with its 95% interval
over the same seeds, the paired differences (mean and 95% interval) of monte-carlo and
q-rollouts against greedy-cascade, and every agent's decision time (median, p95).
q-rollouts[sequential] is the course's procedure step by step (no batch), to show the batch
does not change its strength; --variant adds q-rollouts runs with other parameters.

The games are runs of the arcade's game runner (arcade/runner.py) on every core (--jobs, or --ray for a
cluster): game i plays from seed i for every agent, each finished game is appended to the agent's log in
--log-dir (default data/runs), the figures are read from the logs, and the same command run again continues
a stopped run without playing its finished games again (Ctrl-C stops and prints what finished).
"""
from __future__ import annotations

import itertools
import time
from pathlib import Path

import numpy as np
import _common  # noqa: E402
from _common import ROOT, mean_ci, run_logged

from agents.baselines import RandomAgent
from agents.greedy import GreedyCascade, GreedyMatch3
from agents.monte_carlo import MonteCarlo
from agents.qrollouts import QRollouts
from arcade import runner
from arcade.run_log import kept_path
from arcade.games import match3_batch as mb
from arcade.games.match3 import Match3Rules
from arcade.settings import Settings

DEFAULTS = Settings()  # agents always receive settings; these are the defaults
AGENT_SEED = 99
LOGS = ROOT / "data" / "runs"

BASE = ("random", "greedy", "greedy-cascade", "q-rollouts", "monte-carlo")


class SequentialQRollouts(QRollouts):
    """q-rollouts as the course writes it, every episode step by step (the batch's reference)."""

    def _batched(self, state, rng, prefix=2):
        return False


def settings_for(params) -> Settings:
    """The defaults, or q-rollouts' (epsilon, step size, discount, rollouts) in their place."""
    if params is None:
        return DEFAULTS
    eps, eta, gamma, n = params
    return DEFAULTS.with_agent("q-rollouts", game="match3", epsilon=eps, step_size=eta, discount=gamma, rollouts=int(n))


def make(name: str, rules, settings: Settings):
    kinds = {"random": RandomAgent, "greedy": GreedyMatch3, "greedy-cascade": GreedyCascade,
             "monte-carlo": MonteCarlo, "q-rollouts": QRollouts, "q-rollouts-sequential": SequentialQRollouts}
    return kinds[name](rules, settings)


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


def label_file(label: str, games: int) -> str:
    return f"match3_{label.replace('[', '-').replace(']', '')}_{games}.jsonl"


def run_of(label: str, kind: str, params, games: int):
    """The runner's players and run for one agent: `games` games from seed 0, the same for every agent."""
    rules, settings = Match3Rules(), settings_for(params)
    agent = make(kind, rules, settings)
    spec = runner.RunSpec.of("match3", label, None, games, 0, settings, agent_seed=AGENT_SEED)
    return runner.Players(rules, agent), spec


def report(agents: list[str], records: dict[str, list[dict]], seconds: float | None, backend_name: str) -> None:
    scores = {name: {r["seed"]: r["score"] for r in records[name]} for name in agents}
    took = f"; {seconds:.0f} s on {backend_name}" if seconds is not None else ""
    print(f"== match-3, 9x9, 5 colours, 50 turns; game i from seed i, the same seeds for every agent{took}")
    for name in agents:
        played = sorted(scores[name])
        if not played:
            print(f"  {name:<24} no game finished")
            continue
        mean, ci = mean_ci([scores[name][s] for s in played])
        print(f"  {name:<24} mean score {mean:8.1f} +- {ci:6.1f}  ({len(played)} games)")
    print("  paired differences (same seeds), mean +- 95% interval:")
    pairs = list(itertools.pairwise(agents)) + [(n, "greedy-cascade") for n in agents if n.startswith(("q-", "monte"))]
    pairs += [("q-rollouts", "q-rollouts-sequential")]
    for a, b in dict.fromkeys(pairs):
        if a == b or a not in scores or b not in scores:
            continue
        common = sorted(set(scores[a]) & set(scores[b]))
        if len(common) < 2:
            continue
        mean, ci = mean_ci([scores[a][s] - scores[b][s] for s in common])
        verdict = "above 0" if mean - ci > 0 else "below 0" if mean + ci < 0 else "includes 0"
        print(f"    {a} - {b}: {mean:+.1f} +- {ci:.1f}  (interval {verdict}; {len(common)} paired games)")
    for name in agents:
        times = np.array([t for r in records[name] for t in r["decision_ms"]])
        if not times.size:
            continue
        simulated = sum(r.get("figures", {}).get("moves simulated", 0) for r in records[name])
        extra = f"; {simulated / (times.sum() / 1000):,.0f} simulated moves per second" if simulated else ""
        print(f"  {name:<24} decision median {np.median(times):6.1f} ms, p95 {np.percentile(times, 95):6.1f} ms"
              f"{extra}")
    common = sorted(set(scores.get("monte-carlo", {})) & set(scores.get("greedy-cascade", {})))
    if common:
        mc = np.mean([scores["monte-carlo"][s] for s in common])
        gc = np.mean([scores["greedy-cascade"][s] for s in common])
        print(f"  monte-carlo / greedy-cascade points: x{mc / gc:.3f} over {len(common)} paired games "
              "(target x1.25, median <= 500 ms, p95 <= 1000 ms)")


def main():
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=runner.default_jobs(), help="processes (default: all cores)")
    ap.add_argument("--ray", nargs="?", const="auto", metavar="ADDRESS", help="play the games on a Ray cluster")
    ap.add_argument("--variant", action="append", default=[], help="NAME=epsilon,eta,gamma,rollouts")
    ap.add_argument("--variant-games", type=int, help="variants play only the first N seeds (they are slow)")
    ap.add_argument("--sequential-games", type=int, default=30,
                    help="q-rollouts step by step, on the first N seeds (0: not at all)")
    ap.add_argument("--engine-only", action="store_true")
    ap.add_argument("--summary", action="store_true", help="only print the figures of the logs")
    ap.add_argument("--log-dir", default=str(LOGS), help=f"where the per-game logs are (default {LOGS})")
    args = ap.parse_args()
    agents = [(name, name, None) for name in BASE]
    if args.sequential_games:
        agents.append(("q-rollouts-sequential", "q-rollouts-sequential", None))
    for v in args.variant:
        try:
            label, values = v.split("=")
            params = tuple(float(x) for x in values.split(","))
            if len(params) != 4:
                raise ValueError(v)
        except ValueError:
            ap.error(f"--variant {v!r}: write NAME=epsilon,eta,gamma,rollouts, e.g. explore=1.0,0.3,0.5,250")
        agents.append((f"q-rollouts[{label}]", "q-rollouts", params))
    if not args.summary:
        engine_speed()
    if args.engine_only:
        return 0

    def games_for(label: str, params) -> int:
        if label == "q-rollouts-sequential":
            return min(args.games, args.sequential_games)
        return args.games if params is None or args.variant_games is None else min(args.games, args.variant_games)

    backend = runner.backend_of(args.jobs, args.ray)
    records: dict[str, list[dict]] = {}
    t0, complete = time.perf_counter(), True
    for label, kind, params in agents:
        players, spec = run_of(label, kind, params, games_for(label, params))
        path = Path(args.log_dir) / label_file(label, spec.games)
        if args.summary or not complete:
            log = runner.GameLog.open(path) if kept_path(path) else None
            records[label] = log.records if log is not None and log.spec.stands_to(spec, 1) else []
            continue
        ran = run_logged(players, spec, path, backend, label)
        if ran is not None:
            records[label], complete = ran
    backend.shutdown()
    report([label for label, _, _ in agents if label in records], records,
           None if args.summary else time.perf_counter() - t0, backend.name)
    if not complete:
        print("stopped: run the same command to continue (the finished games are kept in the logs)")
        return 130
    return 0


if __name__ == "__main__":
    _common.run(main)
