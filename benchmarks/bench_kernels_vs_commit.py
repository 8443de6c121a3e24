"""Every compiled kernel's speed in this checkout against another commit's, side by side in one run: a
change that moves or rewrites kernels (issue 62's engine packages) must leave each within a few percent.

    .venv/bin/python benchmarks/bench_kernels_vs_commit.py --commit 7cd7d37 [--rounds 5] [--repeat 9]
    .venv/bin/python benchmarks/bench_kernels_vs_commit.py --commit 432ce8f --screens   # drawing, not kernels

The other commit is checked out into a temporary git worktree (removed at the end); each side runs the same
workloads in a fresh process of its own (its kernels compiled or loaded before anything is timed), through
entry points both commits have: mcts's compiled tree on dots 4x4 and tic-tac-toe, the 2048 search (heuristic
at depth 4, network at depth 3), the alpha-beta on dots 4x4, the 2048, match-3 and blackjack playouts. Each workload
is timed in process CPU time; the sides alternate round by round, the first of a round alternating too.
Printed per workload: each side's median seconds, and the ratio this checkout / the commit with its range
over the rounds (below 1: this checkout is faster).

--screens: the same comparison for drawing the screens instead (the text caches of arcade/ui/text.py): each
game's screen at 1024x720, headless, its game under way and the agent off, FRAMES frames drawn (App.tick).
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts the project on the path)
from _common import ROOT, run

FRAMES = 300
SCREENS = ("2048", "tictactoe", "dots", "match3", "blackjack")
WORKLOADS = ("mcts dots 4x4", "mcts tic-tac-toe", "2048 search d4", "2048 search d3 network", "alpha-beta dots 4x4",
             "playouts 2048", "playouts match3", "playouts blackjack")


def _workloads() -> dict:
    """name -> a callable doing the work once (made here, in the side's own process and tree)."""
    import numpy as np

    from agents.alphabeta_dots import Search as DotsSearch
    from agents.expectimax_strong import Search
    from agents.game_search import playout_returns, random_positions
    from agents.mcts import MCTS
    from agents.ntuple_net import NTupleNetwork
    from arcade.games import make_rules
    from arcade.settings import Settings

    counted = Settings().with_table("agents", budget_clock="none").with_agent("mcts", compiled_simulations=40_000)
    dots, ttt = make_rules("dots", counted.with_table("dots", rows=4, cols=4)), make_rules("tictactoe", counted)
    dots_states = random_positions(dots, 6, 0, (10, 20))
    mcts_dots, mcts_ttt = MCTS(dots, counted), MCTS(ttt, counted)
    boards = [s.board for s in random_positions(make_rules("2048", Settings().with_table(
        "game2048", spawn_four_probability=0.1)), 24, 1, (100, 300))]
    heuristic, learnt = Search(0.1, 1e-4), Search(0.1, 1e-4, NTupleNetwork("3x4"))
    solver = DotsSearch(4, 4)
    g2048 = make_rules("2048", Settings().with_table("game2048", spawn_four_probability=0.1))
    m3, bj = make_rules("match3", Settings()), make_rules("blackjack", Settings())
    s2048, sm3 = random_positions(g2048, 1024, 2, (0, 50)), random_positions(m3, 256, 2, (0, 10))
    sbj = [bj.new_state(np.random.default_rng(k)) for k in range(50_000)]
    return {
        "mcts dots 4x4": lambda: [mcts_dots.act(s, np.random.default_rng(k)) for k, s in enumerate(dots_states)],
        "mcts tic-tac-toe": lambda: [mcts_ttt.act(0, np.random.default_rng(k)) for k in range(4)],
        "2048 search d4": lambda: [heuristic.root(b, 4) for b in boards],
        "2048 search d3 network": lambda: [learnt.root(b, 3) for b in boards],
        "alpha-beta dots 4x4": lambda: [solver.root_values(s.lines, 9, True) for s in dots_states],
        "playouts 2048": lambda: playout_returns(g2048, s2048, np.random.default_rng(3), 10_000),
        "playouts match3": lambda: playout_returns(m3, sm3, np.random.default_rng(3), 10_000),
        "playouts blackjack": lambda: playout_returns(bj, sbj, np.random.default_rng(3), 10_000),
    }


def _screen_workloads() -> dict:
    """name -> drawing FRAMES frames of that game's screen (in the side's own process and tree)."""
    import os

    os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    from arcade.app import App
    from arcade.screens import open_game
    from arcade.screens.launcher import LauncherScreen
    from arcade.settings import DEFAULT_SETTINGS, load_settings

    app = App(load_settings(DEFAULT_SETTINGS), size=(1024, 720))
    app.push(LauncherScreen(app))

    def draw(game_id: str):
        def frames():
            app.push(open_game(app, game_id, seed=1))
            for _ in range(FRAMES):
                app.tick(0)
            app.pop()
        return frames

    return {f"draw {g}": draw(g) for g in SCREENS}


def child(screens: bool, repeat: int = 1) -> None:
    """One side's round: each workload once to warm (compile or load), then `repeat` times timed, the median
    kept (a workload of a tenth of a second varies by a third from one run to the next here); JSON on stdout."""
    import statistics

    work = _screen_workloads() if screens else _workloads()
    for w in work.values():
        w()
    out = {}
    for name, w in work.items():
        spent = []
        for _ in range(repeat):
            t0 = time.process_time()
            w()
            spent.append(time.process_time() - t0)
        out[name] = statistics.median(spent)
    print(json.dumps(out))


def side(tree: Path, screens: bool, repeat: int = 1) -> dict:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", f"--repeat={repeat}",
                           *(["--screens"] if screens else [])], cwd=tree, capture_output=True,
                          text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
                          timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"the side in {tree} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    if "--child" in sys.argv:
        sys.path.insert(0, str(Path.cwd()))
        repeat = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--repeat=")), 1)
        child("--screens" in sys.argv, repeat)
        return
    ap = _common.Parser()
    ap.add_argument("--commit", required=True, help="the commit to compare with (e.g. the one before a change)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=1, help="times each workload runs in a round (its median kept)")
    ap.add_argument("--screens", action="store_true", help="time drawing each game's screen instead of the kernels")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch) / "other"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), args.commit], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            what = f"drawing each screen {FRAMES} frames at 1024x720" if args.screens else "the compiled kernels"
            print(f"== {what}: this checkout against {args.commit}, {args.rounds} rounds alternated, each "
                  f"workload the median of {args.repeat} runs a round (process CPU time)")
            times: dict[str, dict[str, list[float]]] = {"this": {}, "commit": {}}
            for r in range(args.rounds):
                for who in (("this", "commit") if r % 2 == 0 else ("commit", "this")):
                    got = side(ROOT if who == "this" else other, args.screens, args.repeat)
                    for name, seconds in got.items():
                        times[who].setdefault(name, []).append(seconds)
                print(f"  round {r + 1} of {args.rounds} done", flush=True)
            import numpy as np

            for name in ([f"draw {g}" for g in SCREENS] if args.screens else WORKLOADS):
                mine, theirs = np.array(times["this"][name]), np.array(times["commit"][name])
                ratios = mine / theirs
                print(f"  {name:24s} this {np.median(mine):.3f} s, {args.commit} {np.median(theirs):.3f} s: ratio "
                      f"{np.median(ratios):.3f} (range {ratios.min():.3f}-{ratios.max():.3f})")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, capture_output=True)


if __name__ == "__main__":
    run(main)
