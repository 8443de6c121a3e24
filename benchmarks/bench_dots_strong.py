"""Dots strength benchmark: alpha-beta against the exact solver (3x3) and against greedy and mcts (4x4, 5x5).

    python benchmarks/bench_dots_strong.py [--positions 500] [--won-games 200] [--games 30]
                                           [--sizes 4x4,5x5] [--jobs N] [--ray [ADDRESS]] [--log-dir DIR]

Prints, each part skipped when its count is 0:
- 3x3: alpha-beta's value of every free line against the solver's exact margins on random positions
  with at most 16 lines undrawn (how many agree, how many it solved to the end, time per position);
- 3x3: games from positions the solver values as a win for alpha-beta (random openings), against
  greedy and mcts: losses (target 0) and games where it ended below the margin the solver guarantees;
- 4x4 and 5x5: alpha-beta against greedy and against mcts (1,000 simulations), half the games on each
  side: wins with a 95% interval (targets 95% and 80%), the box margin, and decision times
  (target: median at most 1 s a move).
Agents use the settings' defaults (alpha-beta 1 s a move); games run on the game runner (arcade/runner.py):
all cores by default, --jobs N, or --ray. Each finished game is appended to its match's log in --log-dir
(default data/runs); the figures are read from the logs, and the same command run again continues a
stopped run (Ctrl-C stops it, says what finished and prints no figures of a match that did not).
"""
from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts the project on the import path)
import numpy as np
from _common import ROOT, mean_ci, ms_stats, run_logged, wilson

from agents.base import find, time_budget
from agents.dots_solver import margins, move_values
from arcade import runner
from arcade.games.dots import Board, DotsRules, DotsState, parse_size
from arcade.settings import Settings

DEFAULTS = Settings()
LOGS = ROOT / "data" / "runs"
BUDGET_MS = time_budget(DEFAULTS, DEFAULTS.agent_params("dots", "alpha-beta")) * 1000  # alpha-beta's, a move
MCTS_SIMULATIONS = DEFAULTS.agent_params("dots", "mcts").simulations


def played(players_, spec, backend, log_dir, label: str, jobs=None) -> list[dict] | None:
    """The match's games from its log in `log_dir` (the missing ones played first), or None when the log holds
    another run (said). KeyboardInterrupt when it was stopped, after saying what finished."""
    board = re.sub(r"dots\(rows=(\d+),cols=(\d+)\)", r"\1x\2", spec.variant)  # the names of the logs so far
    name = f"dots_strong_{board}_{spec.opponent}_{spec.agent}_{spec.games}_seed{spec.seed}.jsonl"
    ran = run_logged(players_, spec, Path(log_dir) / name, backend, label, jobs)
    if ran is not None and not ran[1]:
        raise KeyboardInterrupt
    return None if ran is None else ran[0]


def players(size: tuple[int, int], opponent: str) -> runner.Players:
    rules = DotsRules(*size)
    return runner.Players(rules, find("dots", "alpha-beta").create(rules, DEFAULTS),
                          find("dots", opponent).create(rules, DEFAULTS))


def margins_of(records: list[dict]) -> list[int]:
    """alpha-beta's box margin in each finished game."""
    return [r["outcome"]["scores"][r["agent_seat"]] - r["outcome"]["scores"][1 - r["agent_seat"]] for r in records]


def agreement(count: int, seed: int) -> None:
    print(f"== 3x3: alpha-beta's values against the exact solver, {count} random positions with 1-16 lines "
          f"undrawn (seed {seed}), {BUDGET_MS:.0f} ms a move")
    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        margin = margins(3, 3, folder)
        print(f"  solver table built in {time.perf_counter() - t0:.1f} s")
    rules = DotsRules(3, 3)
    agent = find("dots", "alpha-beta").create(rules, DEFAULTS)
    rng = np.random.default_rng(seed)
    board = Board(3, 3)
    agree = exact = lines_checked = 0
    times, worst = [], []
    for _ in range(count):
        undrawn = int(rng.integers(1, 17))
        lines = sum(1 << int(b) for b in rng.permutation(board.n_lines)[undrawn:])
        state = DotsState(3, 3, lines, (0, 0), 0)
        t0 = time.perf_counter()
        values = agent.explain(state)
        times.append(time.perf_counter() - t0)
        truth = move_values(state, margin)
        same = {a: int(v) for a, v in values.items()} == truth
        agree += same
        exact += agent.figures()["exact"] == "yes"
        lines_checked += len(truth)
        if not same:
            worst.append((undrawn, agent.figures()))
    print(f"  every line's value equal to the solver's on {agree}/{count} positions ({lines_checked} lines); "
          f"solved to the end on {exact}/{count}")
    print(f"  time a position: {ms_stats(times)}")
    for undrawn, figures in worst[:5]:
        print(f"  differs: {undrawn} lines undrawn, {figures}")


def won_games(count: int, seed: int, backend, log_dir) -> None:
    print(f"== 3x3: {count} games from random openings the solver values as a win for alpha-beta, "
          f"half against greedy and half against mcts")
    with tempfile.TemporaryDirectory() as folder:
        margin = margins(3, 3, folder)
    rules = DotsRules(3, 3)
    rng = np.random.default_rng(seed)
    jobs = []
    while len(jobs) < count:
        state = rules.new_state()
        for _ in range(int(rng.integers(4, 15))):  # a random opening (boxes taken on the way count)
            state = rules.step(state, int(rng.choice(rules.legal_actions(state))), rng)
        if rules.is_terminal(state):
            continue
        me = state.mover
        lead = state.scores[me] - state.scores[1 - me]
        guaranteed = lead + int(max(move_values(state, margin).values()))
        if guaranteed > 0:
            jobs.append((state, me, guaranteed, "greedy" if len(jobs) % 2 == 0 else "mcts"))
    for opp in ("greedy", "mcts"):
        mine = [job for job in jobs if job[3] == opp]
        games = [runner.GameJob(k, seed + k, me, DEFAULTS.seeds.agent, start=state)
                 for k, (state, me, _, _) in enumerate(mine)]
        spec = runner.RunSpec.of("dots", "alpha-beta", opp, len(mine), seed, DEFAULTS, variant="3x3-won-openings")
        logged = played(players((3, 3), opp), spec, backend, log_dir, f"3x3 won openings vs {opp}", games)
        if logged is None:
            continue
        records = {r["index"]: r for r in logged}
        rows = [(margins_of([records[k]])[0], job[2]) for k, job in enumerate(mine)]
        losses = sum(m < 0 for m, _ in rows)
        draws = sum(m == 0 for m, _ in rows)
        below = sum(m < g for m, g in rows)
        print(f"  against {opp}: {len(rows)} games, {losses} lost (target 0), {draws} drawn, {below} ended below "
              f"the solver's guaranteed margin")


def matches(size: tuple[int, int], opponent: str, games: int, backend, seed: int, log_dir) -> None:
    spec = runner.RunSpec.of("dots", "alpha-beta", opponent, games, seed, DEFAULTS, variant=f"dots(rows={size[0]},cols={size[1]})")
    results = played(players(size, opponent), spec, backend, log_dir, f"{size[0]}x{size[1]} vs {opponent}")
    if results is None:
        return
    margins_ = margins_of(results)
    wins = sum(m > 0 for m in margins_)
    draws = sum(m == 0 for m in margins_)
    lo, hi = wilson(wins, games)
    target = 0.95 if opponent == "greedy" else 0.80
    by_side = [sum(m > 0 for m, r in zip(margins_, results, strict=True) if r["agent_seat"] == s) for s in (0, 1)]
    n_side = [sum(r["agent_seat"] == s for r in results) for s in (0, 1)]
    mean, ci = mean_ci(margins_)
    ab = [t / 1000 for r in results for t in r["decision_ms"]]
    op = [t / 1000 for r in results for t in r["opponent_ms"]]
    label = f"{opponent} ({MCTS_SIMULATIONS} simulations)" if opponent == "mcts" else opponent
    print(f"-- {size[0]}x{size[1]} against {label}: {games} games")
    print(f"  wins {wins}/{games} = {wins / games:.0%} (95% interval {lo:.0%}-{hi:.0%}; target >= {target:.0%}), "
          f"draws {draws}; as first {by_side[0]}/{n_side[0]}, as second {by_side[1]}/{n_side[1]}")
    print(f"  box margin mean {mean:+.1f} +- {ci:.1f}, min {min(margins_):+d}, max {max(margins_):+d}")
    print(f"  alpha-beta a move: {ms_stats(ab)} (target median <= 1000 ms)")
    print(f"  {opponent} a move:   {ms_stats(op)}")


def main():
    ap = _common.Parser()
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--won-games", type=int, default=200)
    ap.add_argument("--games", type=int, default=30, help="games per board and opponent (half on each side)")
    ap.add_argument("--sizes", default="4x4,5x5")
    ap.add_argument("--jobs", type=int, default=runner.default_jobs(), help="games at once (the game runner)")
    ap.add_argument("--ray", nargs="?", const="auto", metavar="ADDRESS", help="games as Ray tasks")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--log-dir", default=str(LOGS), help=f"where the per-game logs are (default {LOGS})")
    args = ap.parse_args()
    start = time.perf_counter()
    backend = runner.backend_of(args.jobs, args.ray)
    if args.positions:
        agreement(args.positions, args.seed)
    if args.won_games:
        won_games(args.won_games, args.seed, backend, args.log_dir)
    if args.games:
        print(f"== alpha-beta ({BUDGET_MS:.0f} ms a move) against greedy and mcts, on {backend.name}")
        for text in args.sizes.split(","):
            for opponent in ("greedy", "mcts"):
                matches(parse_size(text), opponent, args.games, backend, args.seed, args.log_dir)
    print(f"wall time {(time.perf_counter() - start) / 60:.1f} min")


if __name__ == "__main__":
    _common.run(main)
