"""The arcade's mcts (written once for every game) against OpenSpiel 2.0.2's MCTSBot on dots and boxes.

    make bench-venv                                  # OpenSpiel goes into .venv-bench, not the arcade's .venv
    .venv-bench/bin/python benchmarks/bench_mcts_openspiel.py --games 60 --board 4x4 --simulations 1000
    .venv-bench/bin/python benchmarks/bench_mcts_openspiel.py --games 400 --agent mcts-ntuple --time-ms 100

The second: equal CPU time a move instead of equal simulations. The arcade's agent searches --time-ms on its
CPU clock (simulations unbounded); MCTSBot, which counts simulations only, gets each move the simulations it
does in that time on this machine at that position: its cost a simulation, fitted as a + b x free lines (a
rollout plays them all) at the start of the run (process CPU time, one core). Both medians of time a move are
printed to check they matched.

Equal simulations a move and matched exploration: OpenSpiel's C++ MCTSBot (pyspiel.MCTSBot, UCT c = 2, one
random rollout a leaf, its solver on, as shipped) against the arcade's mcts ([agents.mcts] exploration = 2
on the same [-1, 1] results). Games alternate sides: game k is played from seed run-seed + k with the
The games run on the arcade's game runner (arcade/runner.py), OpenSpiel's bot seated as an arcade agent that
keeps an OpenSpiel game in step with the arcade's states: game i plays from seed run-seed + i, the arcade's
mcts first in the first half and second after; each finished game is appended to --log as it finishes, run
the same command again to continue a stopped run (Ctrl-C prints what finished), the summary is read from the
log; --jobs processes (default: every core) or --ray. Then the speed: simulations a second of each on one
core, from the empty board and from 20 positions 10-25 lines in, alternated over --rounds rounds.
"""
from __future__ import annotations

import time
from pathlib import Path

import _common  # noqa: E402
from _common import ROOT, run_logged, wilson  # (also puts the project on the path)
import numpy as np

try:
    import pyspiel
except ImportError:
    pyspiel = None

from agents.base import find
from agents.mcts import MCTS
from arcade import runner
from arcade.games.dots import DotsRules, gain, parse_size
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


class OpenSpielMCTS:
    """OpenSpiel's C++ MCTSBot seated as an arcade agent: it keeps an OpenSpiel game in step with the states it
    is shown (the lines the other seat drew since its last move are replayed there, captures first, as the
    other seat can have drawn them) and answers with the bot's line. Made per game (the runner copies it
    before each game); the bot itself is built at its first move, seeded from the game's Generator."""

    name = "openspiel-mcts"

    def __init__(self, rows: int, cols: int, simulations: int, c: float, seconds: float = 0.0, cost=((), ())):
        """simulations a move; or, with `seconds`, as many as that takes by the measured `cost` of a simulation
        (openspiel_cost's: seconds by free lines), worked out afresh each move (a new bot a move)."""
        self.rows, self.cols, self.simulations, self.c = rows, cols, simulations, c
        self.seconds, self.cost = seconds, cost
        self._bot = self._game = None
        self._lines = 0

    def act(self, state, rng) -> int:
        if self.seconds:  # equal time: the simulations this position's free lines allow
            free = state.board.n_lines - state.lines.bit_count()
            if self._game is None:
                self._spiel = pyspiel.load_game(f"dots_and_boxes(num_rows={self.rows},num_cols={self.cols})")
                self._game = self._spiel.new_initial_state()
            seed = int(rng.integers(2**31 - 1))
            self._bot = pyspiel.MCTSBot(self._spiel, pyspiel.RandomRolloutEvaluator(1, seed), self.c,
                                        max(1, round(self.seconds / float(np.interp(free, *self.cost)))), 1000, True,
                                        seed, False)
        if self._bot is None:
            game = pyspiel.load_game(f"dots_and_boxes(num_rows={self.rows},num_cols={self.cols})")
            seed = int(rng.integers(2**31 - 1))
            self._bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), self.c, self.simulations,
                                        1000, True, seed, False)
            self._game = game.new_initial_state()
        self._catch_up(state)
        action = self._bot.step(self._game)
        self._game.apply_action(action)
        line = from_openspiel(action, self.rows, self.cols)
        self._lines |= 1 << line
        return line

    def _catch_up(self, state) -> None:
        """Replay the other seat's lines: all but its last completed a box (that is how it kept the turn)."""
        board, lines = state.board, self._lines
        pending = [b for b in range(board.n_lines) if (state.lines >> b) & 1 and not (lines >> b) & 1]
        while pending:
            line = pending[0] if len(pending) == 1 else next((b for b in pending if gain(board, lines, b)), None)
            if line is None:
                raise ValueError("the other seat drew two lines without completing a box")
            self._game.apply_action(to_openspiel(line, self.rows, self.cols))
            lines |= 1 << line
            pending.remove(line)
        self._lines = lines
        if self._game.current_player() != state.mover:
            raise ValueError("OpenSpiel's game and the arcade's disagree on whose move it is")


def games_played(records: list[dict], rows: int, cols: int, how: str, agent: str = "mcts", target: float = 0.5) -> None:
    n = len(records)
    print(f"-- {rows}x{cols}, {how}, {n} games (both sides)")
    if not n:
        print("  no games yet")
        return
    results = [r["result"] for r in records]
    wins, draws = results.count("win"), results.count("draw")
    losses = n - wins - draws
    lo, hi = wilson(wins + draws // 2, n)
    side = [sum(r["result"] == "win" for r in records if r["agent_seat"] == s) for s in (0, 1)]
    side_n = [sum(r["agent_seat"] == s for r in records) for s in (0, 1)]
    margins = [r["outcome"]["scores"][r["agent_seat"]] - r["outcome"]["scores"][1 - r["agent_seat"]] for r in records]
    print(f"  arcade {agent}: won {wins}, drew {draws}, lost {losses}: score share {(wins + 0.5 * draws) / n:.1%} "
          f"(95% interval {lo:.0%}-{hi:.0%}; target >= {target:.0%}); as first {side[0]}/{side_n[0]}, "
          f"as second {side[1]}/{side_n[1]}; box margin mean {np.mean(margins):+.2f}")
    print(f"  median ms a move: arcade {np.median([t for r in records for t in r['decision_ms']]):.1f}, "
          f"OpenSpiel {np.median([t for r in records for t in r['opponent_ms']]):.1f}")


def openspiel_cost(rows: int, cols: int, c: float, simulations: int = 1000) -> tuple[tuple, tuple]:
    """MCTSBot's CPU seconds a simulation (process CPU time, one core) by free lines: (free lines, ascending;
    the mean cost there) on positions from the empty board to 4 lines from the end, 3 of each; between and
    beyond them read by np.interp."""
    game = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})")
    rules = DotsRules(rows, cols)
    rng = np.random.default_rng(1)
    free, cost = [], []
    for drawn in range(0, rules.new_state().board.n_lines - 4, 4):
        for k in range(3):
            s = rules.new_state()
            while s.lines.bit_count() < drawn:
                s = rules.step(s, rules.legal_actions(s)[int(rng.integers(len(rules.legal_actions(s))))])
            t0 = time.process_time()
            pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, k), c, simulations, 1000, True, k,
                            False).step(openspiel_state(game, s, rows, cols))
            free.append(s.board.n_lines - drawn)
            cost.append((time.process_time() - t0) / simulations)
    levels = sorted(set(free))
    return tuple(levels), tuple(float(np.mean([t for f, t in zip(free, cost, strict=True) if f == n])) for n in levels)


def openspiel_state(game, s, rows: int, cols: int):
    o = game.new_initial_state()
    for line in range(s.board.n_lines):
        if (s.lines >> line) & 1:
            o.apply_action(to_openspiel(line, rows, cols))
    return o


def speed_positions(rows: int, cols: int) -> list:
    """The empty board and 20 positions 10-25 random lines in."""
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
    return positions


def speed(rows: int, cols: int, simulations: int, c: float, rounds: int, batch: int) -> None:
    """Simulations a CPU second (process time, one core), alternating the two programs, from the same positions;
    the arcade's agent made once (as the arcade makes it), its simulations as it counts them (a root proven
    early stops its search), MCTSBot's as asked (a new bot a position, as the arcade's decision is fresh)."""
    game = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})")
    rules = DotsRules(rows, cols)
    positions = speed_positions(rows, cols)
    settings = Settings().with_agent("mcts", simulations=simulations, compiled_simulations=simulations, exploration=c,
                                     batch=batch).with_table("agents", time_budget_ms=600_000)
    arcade = MCTS(rules, settings)
    compiled = False
    rates = {"arcade": [], "openspiel": []}
    for r in range(rounds):
        for who in (("arcade", "openspiel") if r % 2 == 0 else ("openspiel", "arcade")):
            done = 0
            t0 = time.process_time()
            for s in positions:
                if who == "arcade":
                    arcade.act(s, np.random.default_rng(r))
                    done += arcade.figures()["simulations"]
                    compiled = "tree nodes" in arcade.figures()
                else:
                    o = openspiel_state(game, s, rows, cols)
                    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, r), c, simulations, 1000, True, r,
                                          False)
                    bot.step(o)
                    done += simulations
            rates[who].append(done / (time.process_time() - t0))
    a, o = np.array(rates["arcade"]), np.array(rates["openspiel"])
    ratios = a / o
    tree = (f"its compiled tree, walks in batches of {arcade.compiled_batch}" if compiled
            else f"the Python tree, playouts in batches of {batch}")
    print(f"-- speed on one core (CPU time), {rows}x{cols}: the empty board and 20 positions 10-25 lines in, "
          f"{simulations:,} simulations a position, {rounds} rounds alternated (arcade mcts: {tree})")
    print(f"  arcade mcts  {np.median(a):,.0f} simulations/CPU s (range {a.min():,.0f}-{a.max():,.0f})")
    print(f"  OpenSpiel    {np.median(o):,.0f} simulations/CPU s (range {o.min():,.0f}-{o.max():,.0f})")
    print(f"  arcade / OpenSpiel x{np.median(ratios):.2f} (rounds x{ratios.min():.2f}-x{ratios.max():.2f}; "
          "issue 41's target: at least x1)")
    print("  (positions with the OpenSpiel lines drawn in any order: its players alternate by its own rules,"
          " which is fine for timing)")


def main(argv=None) -> int:
    p = _common.Parser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--board", default="4x4")
    p.add_argument("--simulations", type=int, default=1000)
    p.add_argument("--exploration", type=float, default=2.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch", type=int, default=Settings().agent_params("dots", "mcts").batch,
                   help="the arcade mcts's [agents.mcts] batch (1: one simulation at a time)")
    p.add_argument("--jobs", type=int, default=runner.default_jobs(), help="processes (default: all cores)")
    p.add_argument("--ray", nargs="?", const="auto", metavar="ADDRESS", help="play the games on a Ray cluster")
    p.add_argument("--log", default="", help="the per-game log (default data/runs/...); the same command continues it")
    p.add_argument("--rounds", type=int, default=4, positive=False, help="speed rounds (0: no speed measurement)")
    p.add_argument("--speed-simulations", type=int, default=10_000, help="simulations a position in the speed rounds")
    p.add_argument("--agent", default="mcts", choices=("mcts", "mcts-ntuple"), help="the arcade's side")
    p.add_argument("--time-ms", type=int, default=0,
                   help="equal CPU time a move instead of equal simulations: the arcade's agent this many ms on its "
                        "CPU clock, MCTSBot the simulations it does in that time here (0: --simulations each)")
    args = p.parse_args(argv)
    if pyspiel is None:
        print("skipped: OpenSpiel is not installed here; run `make bench-venv` and use .venv-bench/bin/python")
        return 0
    rows, cols = parse_size(args.board)
    rules = DotsRules(rows, cols)
    if args.time_ms:  # equal CPU time: the arcade's agent on its clock, the bot at its measured rate for that time
        settings = (Settings().with_agent(args.agent, game="dots", simulations=1_000_000,
                                          compiled_simulations=1_000_000_000, exploration=args.exploration,
                                          batch=args.batch, time_budget_ms=args.time_ms)
                    .with_table("agents", budget_clock="cpu"))
        cost = openspiel_cost(rows, cols, args.exploration)
        bot = OpenSpielMCTS(rows, cols, 0, args.exploration, args.time_ms / 1000, cost)
        theirs = f"timed-{args.time_ms}ms"
        sims = ", ".join(f"{n} free {args.time_ms / 1000 / t:,.0f}" for n, t in zip(*cost, strict=True) if n % 8 == 0 or n == cost[0][0])
        how = (f"equal CPU time: arcade {args.agent} {args.time_ms} ms a move on its CPU clock, OpenSpiel's MCTSBot "
               f"the simulations that take it at its cost measured here now by free lines ({sims})")
        name = f"{args.agent}_openspiel_{rows}x{cols}_{args.time_ms}ms_{args.games}.jsonl"
        target = 0.6
    else:
        settings = Settings().with_agent("mcts", simulations=args.simulations, compiled_simulations=args.simulations,
                                         exploration=args.exploration, batch=args.batch).with_table("agents",
                                                                                                    time_budget_ms=60_000)
        theirs = args.simulations
        bot = OpenSpielMCTS(rows, cols, theirs, args.exploration)
        how = f"{args.simulations} simulations a move each (arcade mcts: playouts in batches of {args.batch})"
        name = f"mcts_openspiel_{rows}x{cols}_batch{args.batch}_{args.games}.jsonl"
        target = 0.5
    agent = find("dots", args.agent).create(rules, settings)
    players = runner.Players(rules, agent, bot)
    opponent = f"openspiel-mcts-{theirs}" if args.time_ms else "openspiel-mcts"  # (the name older logs hold)
    spec = runner.RunSpec.of("dots", args.agent, opponent, args.games, args.seed, settings,
                             variant=f"dots(rows={rows},cols={cols})")
    log = Path(args.log or ROOT / "data" / "runs" / name)
    backend = runner.backend_of(args.jobs, args.ray)
    print(f"== {how}")
    ran = run_logged(players, spec, log, backend, f"{args.agent} vs OpenSpiel")
    backend.shutdown()
    if ran is None:
        return 2
    records, complete = ran
    games_played(records, rows, cols, how, args.agent, target)
    if not complete:
        print("stopped: run the same command to continue (the finished games are kept in the log)")
        return 130
    if args.rounds:
        speed(rows, cols, args.speed_simulations, args.exploration, args.rounds, args.batch)
    return 0


if __name__ == "__main__":
    _common.run(main)
