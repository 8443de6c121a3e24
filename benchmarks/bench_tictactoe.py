"""Tic-tac-toe benchmark: train the TD agent from scratch, its learning curve, and its strength.

    python benchmarks/bench_tictactoe.py [--episodes N] [--save FILE] [--curve CSV] [--course-variant]

Trains td-value from the initial values with the settings' parameters, prints
episodes per second, the loss rate against minimax and random every 1000
episodes (all rows to --curve, default data/tictactoe_learning_curve.csv; every 50000th here),
then plays the trained (or shipped) table: 100 games as X and 100 as O against
minimax (its openings varied among equal moves by seed) and 1000 per side
against random. --course-variant also trains with the course's draw value 0.
"""
from __future__ import annotations

import csv
import dataclasses
import time
from pathlib import Path

import _common  # noqa: F401  (puts the project on the import path)
import numpy as np

from agents.baselines import RandomAgent
from agents.minimax import Minimax
from agents.td_value import SHIPPED, TDValueAgent, initial_values, self_play
from arcade.games.tictactoe import TicTacToeRules
from arcade.headless import summarize
from arcade.runner import play_games
from arcade.settings import Settings, load_settings

DEFAULTS = Settings()  # agents always receive settings; these are the defaults

ROOT = Path(__file__).resolve().parent.parent


def evaluate(agent, opponent, games_per_side: int, seed: int) -> dict:
    rules = agent.rules
    records = play_games(rules, agent, opponent, games=2 * games_per_side, seed=seed, agent_seed=seed)
    return summarize(records)["results_by_side"]


def train_with_curve(settings, episodes: int, draw_value: float, seed: int, curve_path: Path | None):
    rules = TicTacToeRules()
    probe = TDValueAgent(rules, settings)
    minimax, rnd = Minimax(rules, DEFAULTS), RandomAgent(rules, DEFAULTS)
    rows, eval_seconds = [], 0.0

    def checkpoint(done, values):
        nonlocal eval_seconds
        t0 = time.perf_counter()
        probe.values = values
        mm = evaluate(probe, minimax, 10, seed=done)
        rr = evaluate(probe, rnd, 50, seed=done)
        rows.append((done, mm["as_seat0"]["loss"] / 10, mm["as_seat1"]["loss"] / 10,
                     rr["as_seat0"]["loss"] / 50, rr["as_seat1"]["loss"] / 50))
        eval_seconds += time.perf_counter() - t0

    t0 = time.perf_counter()
    values = self_play(initial_values(draw_value), episodes, settings.tictactoe.alpha, settings.tictactoe.epsilon,
                       np.random.default_rng(seed), every=1000, callback=checkpoint)
    train_seconds = time.perf_counter() - t0 - eval_seconds
    if curve_path:
        curve_path.parent.mkdir(parents=True, exist_ok=True)
        with open(curve_path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["episodes", "loss_vs_minimax_as_X", "loss_vs_minimax_as_O", "loss_vs_random_as_X",
                        "loss_vs_random_as_O"])
            w.writerows(rows)
    return values, train_seconds, rows


def print_curve(rows, every: int) -> None:
    print(f"  {'episodes':>9}  {'loss vs minimax X / O':>22}  {'loss vs random X / O':>21}")
    for done, mx, mo, rx, ro in rows:
        if done % every == 0 or done == rows[-1][0]:
            print(f"  {done:>9}  {mx:>10.0%} / {mo:>4.0%}       {rx:>9.0%} / {ro:>4.0%}")


def report_strength(agent, label: str) -> None:
    rules = agent.rules
    mm = evaluate(agent, Minimax(rules, DEFAULTS), 100, seed=12345)
    rr = evaluate(agent, RandomAgent(rules, DEFAULTS), 1000, seed=54321)
    print(f"== {label}")
    for seat, side in (("as_seat0", "X"), ("as_seat1", "O")):
        m, r = mm[seat], rr[seat]
        print(f"  as {side}: vs minimax {m['win']}W {m['draw']}D {m['loss']}L (of 100; target 0 losses)   "
              f"vs random {r['win'] / 10:.1f}% won, {r['loss'] / 10:.1f}% lost (of 1000; target won >= "
              f"{95 if side == 'X' else 80}%, lost <= 1%)")


def main():
    ap = _common.Parser()
    ap.add_argument("--episodes", type=int, help="default: settings.toml [tictactoe] episodes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", help="write the trained table here (the shipped one is assets/tictactoe_td.npz)")
    ap.add_argument("--curve", type=Path, default=ROOT / "data" / "tictactoe_learning_curve.csv",
                    help="the learning curve's CSV (default data/; the README's is docs/tictactoe_learning_curve.csv)")
    ap.add_argument("--course-variant", action="store_true", help="also train with the course's draw value 0")
    args = ap.parse_args()
    settings = load_settings(ROOT / "settings.toml")
    t = settings.tictactoe
    episodes = args.episodes or t.episodes
    print(f"== training td-value from scratch: {episodes} episodes, alpha {t.alpha}, epsilon {t.epsilon}, "
          f"draw value {t.draw_value}, seed {args.seed}")
    values, seconds, rows = train_with_curve(settings, episodes, t.draw_value, args.seed,
                                             args.curve)
    print(f"  {episodes / seconds:,.0f} episodes per second; {seconds:.1f} s of training "
          f"(target: the shipped table in under 180 s)")
    print(f"  learning curve (loss rates; every 1000 episodes in {args.curve}):")
    print_curve(rows, every=max(1000, episodes // 20 // 1000 * 1000))
    agent = TDValueAgent(TicTacToeRules(), settings)
    agent.values = values
    report_strength(agent, "the table just trained")
    if args.save:
        agent.save(Path(args.save))
        print(f"  saved to {args.save}")
    if SHIPPED.exists() and not args.save:
        shipped = TDValueAgent(TicTacToeRules(), dataclasses.replace(settings, data=dataclasses.replace(
            settings.data, folder=str(ROOT / "no-such-folder"))))
        report_strength(shipped, f"the shipped table ({SHIPPED.relative_to(ROOT)}, {shipped.source})")
    if args.course_variant:
        print(f"== the course's draw value 0, same parameters otherwise, {episodes} episodes")
        seed_values, seconds, rows = train_with_curve(settings, episodes, 0.0, args.seed, None)
        print_curve(rows, every=max(1000, episodes // 5 // 1000 * 1000))
        agent.values = seed_values
        report_strength(agent, "the course's draw value 0")


if __name__ == "__main__":
    _common.run(main)
