"""AlphaZero's figures (issue 76): the compiled PUCT tree's speed, and what the shipped networks play.

    .venv/bin/python benchmarks/bench_alphazero.py                       # all three parts
    .venv/bin/python benchmarks/bench_alphazero.py --part speed --rounds 6
    .venv/bin/python benchmarks/bench_alphazero.py --part tictactoe      # 100 games against minimax, 50 simulations
    .venv/bin/python benchmarks/bench_alphazero.py --part dots3          # 300 positions against the exact solver

speed: simulations a process-CPU second of alphazero's search (the network's forward pass compiled into the
walk: the shipped 4x4 network, else an untrained one of the same shape) and of mcts's compiled UCT (random
playouts to the end) from the same dots 4x4 positions (10-25 lines drawn), the two alternated position by
position and round by round; printed: each one's median over rounds (range) and the ratio.
tictactoe: the shipped network at 50 simulations a move against minimax, 100 games, sides alternated.
dots3: on 3x3, the share of 300 seeded positions (from greedy-vs-random games: agents/dots_ntuple.test_positions)
where alphazero's move at 200 simulations is one the exact solver calls optimal.
match: on 4x4 the shipped network against mcts and against mcts-ntuple at equal time, 100 ms of CPU time (the
searching thread's) a move each (no cap of simulations on either side: the clock ends each move), --games
games each, sides alternated, on every core (--jobs); each finished game appended to its log in --log-dir,
and the same command continues a stopped run. Printed: wins, draws, losses, the share won and the score
(a draw half) with their 95% intervals.
    .venv/bin/python benchmarks/bench_alphazero.py --part match --games 200
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import _common  # noqa: F401  (puts the project on the path)
from _common import ROOT, run, run_logged, wilson
import numpy as np

from agents import find
from agents.game_search import random_positions
from arcade.games import make_rules
from arcade.settings import Settings


def speed(rounds: int, positions: int, simulations: int) -> None:
    settings = Settings().with_agent("alphazero", game="dots", simulations=simulations, time_budget_ms=0) \
        .with_agent("mcts", game="dots", compiled_simulations=simulations)
    settings = settings.with_table("agents", budget_clock="none")  # (the simulations, never the clock, end a move)
    rules = make_rules("dots", settings, rows=4, cols=4)
    az = find("dots", "alphazero").create(rules, settings)
    mcts = find("dots", "mcts").create(rules, settings)
    states = random_positions(rules, positions, 0, (10, 25))
    rates = {"alphazero": [], "mcts": []}
    print(f"{az.describe()[0]}; {az.describe()[1]}")
    for r in range(rounds):
        spent = {"alphazero": [0.0, 0], "mcts": [0.0, 0]}
        order = (("alphazero", az), ("mcts", mcts)) if r % 2 == 0 else (("mcts", mcts), ("alphazero", az))
        for s in states:
            for name, agent in order:
                began = time.process_time()
                agent.decide(s, np.random.default_rng(r))
                spent[name][0] += time.process_time() - began
                spent[name][1] += agent.figures()["simulations"]
        for name in rates:
            rates[name].append(spent[name][1] / spent[name][0])
    for name, values in rates.items():
        print(f"{name:>10}: {np.median(values):>10,.0f} simulations a CPU second (range {min(values):,.0f}-"
              f"{max(values):,.0f}, {rounds} rounds of {len(states)} positions x {simulations:,})")
    ratio = [a / m for a, m in zip(rates["alphazero"], rates["mcts"], strict=True)]
    print(f"alphazero / mcts: x{np.median(ratio):.3f} (range {min(ratio):.3f}-{max(ratio):.3f})")


def tictactoe(games: int) -> None:
    from arcade.headless import summarize
    from arcade.runner import play_games

    settings = Settings().with_agent("alphazero", game="tictactoe", simulations=50)
    rules = make_rules("tictactoe", settings)
    az = find("tictactoe", "alphazero").create(rules, settings)
    print(f"{az.describe()[0]}; {az.describe()[2]}")
    for opponent in ("minimax", "mcts"):
        other = find("tictactoe", opponent).create(rules, settings)
        r = summarize(play_games(rules, az, other, games, 0))["results"]
        lo, hi = wilson(r["loss"], games)
        print(f"against {opponent}, {games} games (sides alternated), 50 simulations a move: won {r['win']}, drawn "
              f"{r['draw']}, lost {r['loss']} (lost share 95% interval {lo:.3f}-{hi:.3f})")


def dots3(count: int, simulations: int) -> None:
    from agents.dots_ntuple import test_positions
    from arcade.games.dots import DotsState

    settings = Settings().with_agent("alphazero", game="dots", simulations=simulations, time_budget_ms=0) \
        .with_table("agents", budget_clock="none")
    rules = make_rules("dots", settings, rows=3, cols=3)
    az = find("dots", "alphazero").create(rules, settings)
    print(f"{az.describe()[0]}; {az.describe()[2]}")
    positions, optimal = test_positions(3, 3, str(Path(settings.data_dir)))
    full = (1 << 24) - 1
    # the first `count` positions (the issue's; exploration and unvisited were chosen on them), then the rest
    for label, part in (("the first", slice(0, count)), ("the other (held out)", slice(count, None))):
        hits, decisive, decisive_hits = 0, 0, 0
        chosen = list(zip(positions[part].tolist(), optimal[part].tolist(), strict=True))
        for lines, best in chosen:
            move = az.act(DotsState(3, 3, lines), np.random.default_rng(0))
            hit = (best >> move) & 1
            hits += hit
            if best != (~lines & full):
                decisive += 1
                decisive_hits += hit
        lo, hi = wilson(hits, len(chosen))
        print(f"dots 3x3, {label} {len(chosen)} positions, {simulations} simulations a move: optimal "
              f"{hits / len(chosen):.1%} (95% interval {lo:.1%}-{hi:.1%}); where not every move is optimal "
              f"({decisive}): {decisive_hits / max(1, decisive):.1%}")


def equal_time(ms: int) -> Settings:
    """Every agent `ms` of the searching thread's CPU time a move, the clock alone ending a move."""
    return Settings().with_table("agents", time_budget_ms=ms, budget_clock="cpu") \
        .with_agent("alphazero", game="dots", simulations=1_000_000) \
        .with_agent("mcts", compiled_simulations=1_000_000_000) \
        .with_agent("mcts-ntuple", game="dots", compiled_simulations=1_000_000_000)


def match(games: int, jobs: int | None, log_dir: Path) -> int:
    from arcade import runner

    settings = equal_time(100)
    rules = make_rules("dots", settings, rows=4, cols=4)
    az = find("dots", "alphazero").create(rules, settings)
    print(f"{az.describe()[0]}; {az.describe()[2]}")
    backend = runner.backend_of(jobs)
    for opponent in ("mcts", "mcts-ntuple"):
        players = runner.Players(rules, az, find("dots", opponent).create(rules, settings))
        spec = runner.RunSpec.of("dots", "alphazero", opponent, games, 0, settings, variant="dots(rows=4,cols=4)")
        label = f"alphazero v {opponent}, 4x4, 100 ms"
        ran = run_logged(players, spec, log_dir / f"alphazero_4x4_{opponent}_100ms_{games}.jsonl", backend, label)
        if ran is None:
            return 1
        records, complete = ran
        if not complete:
            raise KeyboardInterrupt
        results = [r["result"] for r in records]
        won, drawn, lost = results.count("win"), results.count("draw"), results.count("loss")
        lo, hi = wilson(won, len(results))
        score = (won + 0.5 * drawn) / len(results)
        half = 1.96 * np.sqrt(np.var([{"win": 1.0, "draw": 0.5, "loss": 0.0}[r] for r in results]) / len(results))
        print(f"{label}, {len(results)} games (sides alternated): won {won}, drawn {drawn}, lost {lost}: won "
              f"{won / len(results):.1%} (95% interval {lo:.1%}-{hi:.1%}), score {score:.1%} (+- {half:.1%})")
    backend.shutdown()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("speed", "tictactoe", "dots3", "match", "all"), default="all")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--simulations", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=100, help="tic-tac-toe's games; the match's (default 200)")
    parser.add_argument("--jobs", type=int, help="the match's games at once (default: all cores)")
    parser.add_argument("--log-dir", default=str(ROOT / "data" / "runs"), help="the match's logs")
    args = parser.parse_args()
    if args.part in ("speed", "all"):
        speed(args.rounds, args.positions, args.simulations)
    if args.part in ("tictactoe", "all"):
        tictactoe(args.games)
    if args.part in ("dots3", "all"):
        dots3(300, 200)
    if args.part in ("match", "all"):
        return match(args.games if args.part == "match" else 200, args.jobs, Path(args.log_dir))
    return 0


if __name__ == "__main__":
    run(main)
