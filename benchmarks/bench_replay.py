"""How fast a kept game opens as a replay: the moves of long 2048 games replayed through the rules, as `replay LOG`
and the window's Shift+k do (issue 63's target: move 10,000 of a 2048 game within 1 s).

    .venv/bin/python benchmarks/bench_replay.py [--log docs/benchmarks/2048_strength_p0.1_cpp-pace_to-the-end.jsonl]
                                                [--to 10000] [--rounds 3]

Every game of the run's log that kept its moves (games of thousands of moves, played by the strong search at
the C++ program's pace) is replayed to move --to (or its end) both ways: from its seed (a runner log's
record, arcade.replay.replay) and from the generator's state at its start (a window's kept record,
GameSession.replayed); process CPU time, --rounds times each, alternated. Printed per game: the moves
replayed, each way's median seconds and microseconds a move, and whether the replay ends where the log says.
"""
from __future__ import annotations

import time

import numpy as np

import _common  # noqa: F401  (puts the project on the path)
from _common import ROOT, run

from arcade import runner
from arcade.games import make_rules
from arcade.replay import ends_as_logged, replay
from arcade.session import GameSession
from arcade.settings import Settings

LOG = ROOT / "docs" / "benchmarks" / "2048_strength_p0.1_cpp-pace_to-the-end.jsonl"


def main() -> None:
    ap = _common.Parser()
    ap.add_argument("--log", default=str(LOG))
    ap.add_argument("--to", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    log = runner.GameLog.open(args.log)
    rules = make_rules("2048", Settings().with_table("game2048", spawn_four_probability=0.1))
    games = [r for r in log.records if "actions" in r and r.get("from_start", True)]
    print(f"== replaying the {len(games)} games of {log.spec.describe()} that kept their moves, to move {args.to} "
          f"(process CPU time, {args.rounds} rounds alternated)")
    for record in games:
        to = min(args.to, len(record["actions"]))
        kept = {"start_rng": np.random.default_rng(int(record["seed"])).bit_generator.state,
                "actions": record["actions"], "movers": []}
        times = {"from its seed": [], "kept record": []}
        for r in range(args.rounds):
            for way in (list(times) if r % 2 == 0 else list(times)[::-1]):
                t0 = time.process_time()
                session = replay(rules, record, to) if way == "from its seed" else GameSession.replayed(rules, kept, to)
                times[way].append(time.process_time() - t0)
        whole = ends_as_logged(rules, record, replay(rules, record))
        parts = [f"{way} {np.median(t):.2f} s ({np.median(t) / to * 1e6:.0f} us a move)" for way, t in times.items()]
        print(f"  game {record['index']} (seed {record['seed']}, {len(record['actions']):,} moves): to move {to:,}: "
              + "; ".join(parts) + f"; the whole replay ends as logged: {'yes' if whole else 'NO'}")
        assert session.moves == to


if __name__ == "__main__":
    run(main)
