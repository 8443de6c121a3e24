"""Time budgets that hold: the strong 2048 expectimax over a whole game at 100 ms a move (wall clock), and
the dots alpha-beta at 1 s a move on mid-game 4x4 and 5x5 positions. Run it on an idle machine: the
budgets here are wall-clock time, which is what a person watching waits.

    python benchmarks/bench_budgets.py [--seed 1000] [--dots-positions 40]
"""
from __future__ import annotations

import argparse
import time

import _common  # noqa: F401  (puts the project on the import path)
import numpy as np

from agents import find
from arcade.games import make_rules
from arcade.settings import Settings


def decision_stats(name: str, seconds, budget: float, over: tuple[float, float]) -> None:
    t = np.asarray(seconds)
    print(f"  {name}: {t.size} decisions; median {np.median(t) * 1000:.1f} ms, p95 {np.percentile(t, 95) * 1000:.1f} "
          f"ms, p99 {np.percentile(t, 99) * 1000:.1f} ms, max {t.max() * 1000:.1f} ms; over {over[0] * 1000:.0f} ms: "
          f"{int((t > over[0]).sum())}, over {over[1] * 1000:.0f} ms: {int((t > over[1]).sum())} (budget "
          f"{budget * 1000:.0f} ms)")


def game_2048(seed: int) -> None:
    settings = Settings().with_table("game2048", spawn_four_probability=0.1, time_budget_ms=100)
    rules = make_rules("2048", settings)
    agent = find("2048", "expectimax").create(rules, settings)
    rng = np.random.default_rng(seed)
    state, times, depths = rules.new_state(rng), [], []
    while not rules.is_terminal(state):
        t0 = time.perf_counter()
        move = agent.act(state)
        times.append(time.perf_counter() - t0)
        depths.append(agent.figures()["depth"])
        state = rules.step(state, move, rng)
    print(f"== 2048, strong expectimax, 100 ms a move (wall clock), standard rules, one whole game from seed {seed}: "
          f"score {state.score}, largest tile {state.max_tile()}")
    decision_stats("expectimax", times, 0.1, (0.12, 0.2))
    counts = np.bincount(depths)
    print("  depth searched: " + "  ".join(f"{d}: {n / counts.sum():.0%}" for d, n in enumerate(counts) if n))
    print("  targets: p95 <= 120 ms, none over 200 ms")


def dots_positions(rows: int, cols: int, count: int, seed: int) -> list:
    """Positions from random play, a quarter to three quarters of the lines drawn."""
    settings = Settings().with_table("dots", rows=rows, cols=cols)
    rules = make_rules("dots", settings)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = rules.new_state()
        n_lines = state.board.n_lines
        stop = int(rng.integers(n_lines // 4, 3 * n_lines // 4))
        for _ in range(stop):
            state = rules.step(state, int(rng.choice(rules.legal_actions(state))), rng)
        if not rules.is_terminal(state):
            out.append(state)
    return out


def dots(count: int, seed: int) -> None:
    print(f"== dots, alpha-beta, 1 s a move (wall clock), {count} positions a board from random play")
    times = []
    for rows, cols in ((4, 4), (5, 5)):
        settings = Settings().with_table("dots", rows=rows, cols=cols, time_budget_ms=1000)
        rules = make_rules("dots", settings)
        agent = find("dots", "alpha-beta").create(rules, settings)
        board_times = []
        for state in dots_positions(rows, cols, count, seed):
            t0 = time.perf_counter()
            agent.act(state)
            board_times.append(time.perf_counter() - t0)
        decision_stats(f"{rows}x{cols}", board_times, 1.0, (1.1, 1.3))
        times += board_times
    decision_stats("both", times, 1.0, (1.1, 1.3))
    print("  targets: p99 <= 1.1 s, none over 1.3 s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--dots-positions", type=int, default=40)
    args = ap.parse_args()
    dots(args.dots_positions, args.seed)
    game_2048(args.seed)


if __name__ == "__main__":
    main()
