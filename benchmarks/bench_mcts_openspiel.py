"""The arcade's mcts (written once for every game) against OpenSpiel 2.0.2's MCTSBot on dots and boxes.

    make bench-venv                                  # OpenSpiel goes into .venv-bench, not the arcade's .venv
    .venv-bench/bin/python benchmarks/bench_mcts_openspiel.py --games 60 --board 4x4 --simulations 1000

Equal simulations a move and matched exploration: OpenSpiel's C++ MCTSBot (pyspiel.MCTSBot, UCT c = 2, one
random rollout a leaf, its solver on, as shipped) against the arcade's mcts ([search] mcts_exploration = 2
on the same [-1, 1] results). Games alternate sides: game k is played from seed run-seed + k with the
arcade's mcts first when k is even. Each finished game is one JSON line appended to --log; run again with
the same --log to continue a stopped run, and the summary is read from the log. --jobs games run at once
(default: every core). Then the speed: simulations a second of each on one core, from the empty board and
from 20 positions 10-25 lines in, alternated over --rounds rounds.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from _common import wilson  # (also puts the project on the path)
import numpy as np

try:
    import pyspiel
except ImportError:
    pyspiel = None

from agents.mcts import MCTS
from arcade.games.dots import DotsRules, parse_size
from arcade.settings import Settings


def to_openspiel(line: int, rows: int, cols: int) -> int:
    """The arcade's line bit (verticals column by column) as OpenSpiel's action (verticals row by row)."""
    nh = (rows + 1) * cols
    if line < nh:
        return line
    c, r = divmod(line - nh, rows)
    return nh + r * (cols + 1) + c


def from_openspiel(action: int, rows: int, cols: int) -> int:
    nh = (rows + 1) * cols
    if action < nh:
        return action
    r, c = divmod(action - nh, cols + 1)
    return nh + c * rows + r


def play_one(k: int, seed: int, rows: int, cols: int, simulations: int, c: float, batch: int) -> dict:
    """One game: both engines kept in step, the referee is the arcade's rules (checked against OpenSpiel's)."""
    game = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})")
    rules = DotsRules(rows, cols)
    settings = Settings().with_table("search", mcts_simulations=simulations, mcts_exploration=c,
                                     mcts_batch=batch, time_budget_ms=60_000)
    ours = MCTS(rules, settings)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), c, simulations, 1000, True, seed, False)
    our_seat = k % 2
    rng = np.random.default_rng(seed)
    state, ospiel = rules.new_state(), game.new_initial_state()
    times = {"arcade": [], "openspiel": []}
    while not rules.is_terminal(state):
        assert ospiel.current_player() == state.mover
        t0 = time.perf_counter()
        if state.mover == our_seat:
            line = ours.act(state, rng)
            times["arcade"].append(time.perf_counter() - t0)
        else:
            line = from_openspiel(bot.step(ospiel), rows, cols)
            times["openspiel"].append(time.perf_counter() - t0)
        state = rules.step(state, line)
        ospiel.apply_action(to_openspiel(line, rows, cols))
    assert ospiel.is_terminal() and ospiel.returns()[0] == (0 if state.scores[0] == state.scores[1]
                                                            else 1 if state.scores[0] > state.scores[1] else -1)
    margin = state.scores[our_seat] - state.scores[1 - our_seat]
    return {"game": k, "seed": seed, "seat": our_seat, "margin": margin, "scores": list(state.scores),
            "ms_arcade": float(np.median(times["arcade"]) * 1000), "ms_openspiel": float(np.median(times["openspiel"]) * 1000)}


def read_log(path: str) -> list[dict]:
    if not path or not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for line in f:
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:  # a line cut by a kill: that game is played again
                pass
    return out


def summary(games: list[dict], rows: int, cols: int, simulations: int) -> None:
    n = len(games)
    wins = sum(g["margin"] > 0 for g in games)
    draws = sum(g["margin"] == 0 for g in games)
    losses = n - wins - draws
    score = (wins + 0.5 * draws) / n if n else 0.0
    lo, hi = wilson(wins + draws // 2, n)
    side = [sum(g["margin"] > 0 for g in games if g["seat"] == s) for s in (0, 1)]
    side_n = [sum(g["seat"] == s for g in games) for s in (0, 1)]
    margins = [g["margin"] for g in games]
    print(f"-- {rows}x{cols}, {simulations} simulations a move each, {n} games (both sides)")
    print(f"  arcade mcts: won {wins}, drew {draws}, lost {losses}: score share {score:.1%} "
          f"(95% interval {lo:.0%}-{hi:.0%}; target >= 50%); as first {side[0]}/{side_n[0]}, "
          f"as second {side[1]}/{side_n[1]}; box margin mean {np.mean(margins):+.2f}" if n else "  no games yet")
    if n:
        print(f"  median ms a move: arcade {np.median([g['ms_arcade'] for g in games]):.1f}, "
              f"OpenSpiel {np.median([g['ms_openspiel'] for g in games]):.1f}")


def speed(rows: int, cols: int, simulations: int, c: float, rounds: int, batch: int) -> None:
    """Simulations a second on one core, alternating the two programs, from the same positions."""
    game = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})")
    rules = DotsRules(rows, cols)
    rng = np.random.default_rng(0)
    positions = [rules.new_state()]
    while len(positions) < 21:
        s = rules.new_state()
        for _ in range(int(rng.integers(10, 26))):
            if rules.is_terminal(s):
                break
            s = rules.step(s, rules.legal_actions(s)[int(rng.integers(len(rules.legal_actions(s))))])
        if not rules.is_terminal(s):
            positions.append(s)
    settings = Settings().with_table("search", mcts_simulations=simulations, mcts_exploration=c, mcts_batch=batch,
                                     time_budget_ms=600_000)
    rates = {"arcade": [], "openspiel": []}
    for r in range(rounds):
        for who in (("arcade", "openspiel") if r % 2 == 0 else ("openspiel", "arcade")):
            t0 = time.perf_counter()
            for s in positions:
                if who == "arcade":
                    MCTS(rules, settings).act(s, np.random.default_rng(r))
                else:
                    o = game.new_initial_state()
                    for line in range(rules.for_state(s).new_state().board.n_lines):
                        if (s.lines >> line) & 1:
                            o.apply_action(to_openspiel(line, rows, cols))
                    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, r), c, simulations, 1000, True, r,
                                          False)
                    bot.step(o)
            rates[who].append(simulations * len(positions) / (time.perf_counter() - t0))
    a, o = np.array(rates["arcade"]), np.array(rates["openspiel"])
    print(f"-- speed on one core, {rows}x{cols}: the empty board and 20 positions 10-25 lines in, {rounds} rounds "
          f"(arcade: playouts in batches of {batch})")
    print(f"  arcade mcts  {np.median(a):,.0f} simulations/s (range {a.min():,.0f}-{a.max():,.0f}; target >= 50,000)")
    print(f"  OpenSpiel    {np.median(o):,.0f} simulations/s (range {o.min():,.0f}-{o.max():,.0f}); "
          f"ratio {np.median(o) / np.median(a):.1f}x")
    print("  (positions with the OpenSpiel lines drawn in any order: its players alternate by its own rules,"
          " which is fine for timing)")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--board", default="4x4")
    p.add_argument("--simulations", type=int, default=1000)
    p.add_argument("--exploration", type=float, default=2.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch", type=int, default=Settings().search.mcts_batch,
                   help="the arcade mcts's [search] mcts_batch (1: one simulation at a time)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--log", default="", help="append each finished game here; run again to continue")
    p.add_argument("--rounds", type=int, default=4, help="speed rounds (0: no speed measurement)")
    args = p.parse_args(argv)
    if pyspiel is None:
        print("skipped: OpenSpiel is not installed here; run `make bench-venv` and use .venv-bench/bin/python")
        return 0
    rows, cols = parse_size(args.board)
    done = read_log(args.log)
    finished = {g["game"] for g in done}
    todo = [k for k in range(args.games) if k not in finished]
    print(f"{len(done)} games already in {args.log}; playing {len(todo)} on {args.jobs} processes" if args.log
          else f"playing {len(todo)} games on {args.jobs} processes", flush=True)
    try:
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(play_one, k, args.seed + k, rows, cols, args.simulations, args.exploration,
                                   args.batch)
                       for k in todo]
            for n, f in enumerate(as_completed(futures), 1):
                game = f.result()
                done.append(game)
                if args.log:
                    with open(args.log, "a") as out:
                        out.write(json.dumps(game) + "\n")
                print(f"\r  {n}/{len(todo)} games", end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("\nstopped: the summary of the games that finished", file=sys.stderr)
    print(file=sys.stderr)
    print(f"arcade mcts with playouts in batches of {args.batch}")
    summary(sorted(done, key=lambda g: g["game"]), rows, cols, args.simulations)
    if args.rounds:
        speed(rows, cols, args.simulations, args.exploration, args.rounds, args.batch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
