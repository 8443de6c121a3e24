"""mcts's simulations per CPU second on every game, from mid-game positions: with the game's declared fast
engine (compiled playouts, and a compiled step for the walk down the tree: 2048, match-3; numpy playouts:
dots) against the same search played by the rules alone, in one run.

    .venv/bin/python benchmarks/bench_mcts_speed.py                 # every game, 4 rounds
    .venv/bin/python benchmarks/bench_mcts_speed.py --games 2048 --rounds 6 --simulations 2000

Process CPU time of each decision (one core; nothing else of the arcade runs), the two ways alternated
position by position and round by round; each round a fresh seed. Printed per game: median simulations a
CPU second of each way (range over rounds), and the ratio fast / rules with its range. Positions: for each
game, --positions states reached by random play from fixed seeds (2048: 30-300 moves in; match-3: 3-30
turns; dots 4x4: 10-25 lines; tic-tac-toe: 0-4 marks; blackjack: a fresh round and 0-2 cards taken).
"""
from __future__ import annotations

import argparse
import time

import _common  # noqa: F401  (puts the project on the path)
from _common import run
import numpy as np

from agents.game_search import random_positions
from agents.mcts import MCTS
from arcade.games import make_rules
from arcade.settings import Settings

TARGETS = {"2048": 20_000, "match3": 5_000}  # issue 41's targets (simulations a CPU second, one core)
OPENINGS = {"2048": (30, 300), "match3": (3, 30), "dots": (10, 25), "tictactoe": (0, 4), "blackjack": (0, 2)}
VARIANTS = {"dots": {"rows": 4, "cols": 4}}


def positions(game: str, rules, count: int) -> list:
    """`count` unfinished states reached by random play (a fixed seed per position)."""
    return random_positions(rules, count, 0, OPENINGS[game])


def rate(search: MCTS, states: list, seed: int) -> float:
    """Simulations a CPU second over the decisions of `states`."""
    sims, spent = 0, 0.0
    for k, state in enumerate(states):
        t0 = time.process_time()
        search.search(state, np.random.default_rng(seed * 1000 + k))
        spent += time.process_time() - t0
        sims += search.figures()["simulations"]
    return sims / spent


def measure(game: str, simulations: int, rounds: int, count: int) -> None:
    settings = Settings().with_agent("mcts", simulations=simulations, compiled_simulations=simulations).with_table(
        "agents", time_budget_ms=600_000)
    rules = make_rules(game, settings, **VARIANTS.get(game, {}))
    states = positions(game, rules, count)
    ways = {"fast": MCTS(rules, settings), "rules": MCTS(rules, settings, plain=True)}
    rates: dict[str, list[float]] = {name: [] for name in ways}
    for r in range(rounds):
        for name in (("fast", "rules") if r % 2 == 0 else ("rules", "fast")):
            rates[name].append(rate(ways[name], states, r))
    fast, plain = np.array(rates["fast"]), np.array(rates["rules"])
    ratios = fast / plain
    target = TARGETS.get(game)
    print(f"-- {game}{VARIANTS.get(game, '') or ''}: {count} positions x {simulations} simulations, {rounds} rounds")
    print(f"  fast engine       {np.median(fast):>10,.0f} simulations/CPU s (range {fast.min():,.0f}-{fast.max():,.0f})"
          + (f"; target >= {target:,}" if target else ""))
    print(f"  by the rules      {np.median(plain):>10,.0f} simulations/CPU s (range {plain.min():,.0f}-{plain.max():,.0f})")
    print(f"  ratio              {np.median(ratios):>10.2f}x (range {ratios.min():.2f}-{ratios.max():.2f})", flush=True)


def main(argv=None) -> int:
    p = _common.Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", nargs="+", default=list(OPENINGS), choices=list(OPENINGS))
    p.add_argument("--simulations", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--positions", type=int, default=8, positive=True)
    args = p.parse_args(argv)
    for game in args.games:
        measure(game, args.simulations, args.rounds, args.positions)
    return 0


if __name__ == "__main__":
    run(main)
