"""2048 benchmark: strength and speed of expectimax-3 and the strong expectimax.

    python benchmarks/bench_2048.py [--games 50] [--jobs N | --ray [ADDRESS]]

Prints, each part skipped when its count is 0:
- expectimax-3 over seeded 4x4 games with the course's rules (share reaching 512, mean score; the games on
  the arcade's runner, every core, logged in data/runs and continued by the same command), its
  decision time against a plain recursive expectimax written the obvious way (lists, a Python loop
  per tile) measured on the same states;
The strong agent's compiled search against the C++ program is benchmarks/bench_2048_speed.py; its games
(hours of them) are benchmarks/bench_2048_strength.py, on the game runner.
"""
from __future__ import annotations

import copy
import time
from pathlib import Path

import numpy as np
import _common  # noqa: E402
from _common import ROOT, mean_ci, ms_stats, run_logged

from agents.expectimax import Expectimax3
from agents.base import best_action
from agents.expectimax_strong import Search
from arcade import runner
from arcade.games.twenty48 import Rules2048
from arcade.settings import Settings

DEFAULTS = Settings()  # agents always receive settings; these are the defaults


# --- baselines ------------------------------------------------------------------------
# The obvious way: a game engine that moves one tile at a time (as the course engine and most
# 2048 code do) on a deep copy of the board, and a recursive expectimax calling it.
_STEP = {0: (-1, 0), 1: (1, 0), 2: (0, -1), 3: (0, 1)}


def obvious_move(board, direction):
    n = len(board)
    board = copy.deepcopy(board)
    dr, dc = _STEP[direction]
    rows = range(n) if dr <= 0 else range(n - 1, -1, -1)
    cols = range(n) if dc <= 0 else range(n - 1, -1, -1)
    merged = [[False] * n for _ in range(n)]
    score, moved = 0, False
    for r in rows:
        for c in cols:
            if board[r][c] == 0:
                continue
            cr, cc = r, c
            while True:
                nr, nc = cr + dr, cc + dc
                if not (0 <= nr < n and 0 <= nc < n):
                    break
                if board[nr][nc] == 0:
                    board[nr][nc], board[cr][cc] = board[cr][cc], 0
                    cr, cc, moved = nr, nc, True
                elif board[nr][nc] == board[cr][cc] and not merged[nr][nc]:
                    board[nr][nc] *= 2
                    score += board[nr][nc]
                    board[cr][cc] = 0
                    merged[nr][nc] = moved = True
                    break
                else:
                    break
    return board, score, moved


def obvious_value(board, score, level):
    """level 1: the computer (average over empty cells); level 2: the player; level 3: the leaf."""
    if level == 3:
        return score
    if level == 2:
        values = [obvious_value(child, score + gain, 3)
                  for child, gain, moved in (obvious_move(board, d) for d in range(4)) if moved]
        return max(values) if values else score
    empties = [(r, c) for r in range(len(board)) for c in range(len(board)) if board[r][c] == 0]
    total = 0.0
    for r, c in empties:
        child = copy.deepcopy(board)
        child[r][c] = 2
        total += obvious_value(child, score, 2)
    return total / len(empties)


def obvious_decide(board, score):
    best, best_d = None, None
    for d in range(4):
        child, gain, moved = obvious_move(board, d)
        if moved:
            v = obvious_value(child, score + gain, 1)
            if best is None or v > best:
                best, best_d = v, d
    return best_d


# A tight pure-Python version (list slicing, no per-tile steps), to show what the ratio owes to numpy.
def plain_slide_left(row):
    tiles = [v for v in row if v]
    out, gain, i = [], 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(tiles[i] * 2)
            gain += tiles[i] * 2
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(row) - len(out)), gain


def plain_move(board, direction):
    n = len(board)
    grid = [row[:] for row in board]
    if direction in (0, 1):  # up, down: work on columns
        grid = [[grid[r][c] for r in range(n)] for c in range(n)]
    if direction in (1, 3):  # down, right: reverse
        grid = [row[::-1] for row in grid]
    total, new = 0, []
    for row in grid:
        slid, gain = plain_slide_left(row)
        new.append(slid)
        total += gain
    if direction in (1, 3):
        new = [row[::-1] for row in new]
    if direction in (0, 1):
        new = [[new[c][r] for c in range(n)] for r in range(n)]
    return new, total, new != board


def plain_player_value(board, score):
    """Level 2: the player's best second move; the leaf is the score after it."""
    best = None
    for d in range(4):
        _, gain, changed = plain_move(board, d)
        if changed and (best is None or score + gain > best):
            best = score + gain
    return score if best is None else best


def plain_chance_value(board, score):
    """Level 1: the computer places a 2 on each empty cell with equal probability."""
    empties = [(r, c) for r in range(len(board)) for c in range(len(board)) if board[r][c] == 0]
    total = 0.0
    for r, c in empties:
        child = [row[:] for row in board]
        child[r][c] = 2
        total += plain_player_value(child, score)
    return total / len(empties)


def plain_decide(board, score):
    best, best_d = None, None
    for d in range(4):
        child, gain, changed = plain_move(board, d)
        if changed:
            v = plain_chance_value(child, score + gain)
            if best is None or v > best:
                best, best_d = v, d
    return best_d


# --- runs -----------------------------------------------------------------------------
def sample_states(count: int, every: int = 25) -> list:
    """Positions of expectimax-3's own games (course rules): one every `every` moves of seeds 0, 1, ... played
    here, until `count` are collected (the speed part times the methods on them)."""
    rules, agent = Rules2048(), Expectimax3(Rules2048(), DEFAULTS)
    states, seed = [], 0
    while len(states) < count:
        rng = np.random.default_rng(seed)
        state, moves = rules.new_state(rng), 0
        while not rules.is_terminal(state) and len(states) < count:
            if moves % every == 0:
                states.append(state)
            state, moves = rules.step(state, agent.act(state), rng), moves + 1
        seed += 1
    return states


def tile_shares(results) -> str:
    tiles = np.array([r["outcome"]["max_tile"] for r in results])
    parts, t = [], 256
    while t <= max(tiles.max(), 4096):
        parts.append(f"{t}: {np.mean(tiles >= t):.0%}")
        t *= 2
    return "  ".join(parts)


def mid_game_positions(count: int, seed: int = 77) -> list:
    """Positions from 4x4 games (a 4 with probability 0.1) played by a depth-2 search: one every
    20 moves from move 300 on, so most hold a 512 or more and half the cells or fewer empty."""
    rules = Rules2048(spawn_four_probability=0.1)
    rng = np.random.default_rng(seed)
    search = Search(0.1, DEFAULTS.agent_params("2048", "expectimax").min_probability)
    positions, state, moves = [], rules.new_state(rng), 0
    while len(positions) < count:
        if rules.is_terminal(state):
            state, moves = rules.new_state(rng), 0
        if moves >= 300 and moves % 20 == 0:
            positions.append(state)
        state = rules.step(state, best_action(search.root(state.board, 2)), rng)
        moves += 1
    return positions


def course_agent(args) -> None:
    """expectimax-3's games and its speed against the plain recursive versions."""
    print(f"== expectimax-3, 4x4, seed rules (2-tiles only), {args.games} games, game i from seed i")
    t0 = time.perf_counter()
    rules = Rules2048()
    players = runner.Players(rules, Expectimax3(rules, DEFAULTS))
    spec = runner.RunSpec.of("2048", "expectimax-3", None, args.games, 0, DEFAULTS)
    backend = runner.backend_of(args.jobs, args.ray)
    ran = run_logged(players, spec, Path(args.log_dir) / f"bench_2048_expectimax-3_{args.games}.jsonl", backend,
                     "expectimax-3")
    backend.shutdown()
    if ran is None:
        return
    results, complete = ran
    if not complete:
        print("  stopped: run the same command to continue (the finished games are kept in the log)")
    scores = [r["score"] for r in results]
    mean, ci = mean_ci(scores)
    reached_512 = np.mean([r["outcome"]["max_tile"] >= 512 for r in results])
    print(f"  reached 512 in {reached_512:.0%} of {len(results)} games (target >= 90%)")
    print(f"  score mean {mean:.0f} +- {ci:.0f} (target > 5000), median {np.median(scores):.0f}, "
          f"min {min(scores)}, max {max(scores)}")
    print(f"  largest tile: {tile_shares(results)}")
    print(f"  moves per game: median {np.median([r['moves'] for r in results]):.0f}")
    times = np.array([t for r in results for t in r["decision_ms"]]) / 1000
    print(f"  decision time: {ms_stats(times)} (target median <= 5 ms)")
    print(f"  wall time {time.perf_counter() - t0:.1f} s on {backend.name}")
    if not complete:
        return

    print(f"== speed on {args.baseline_states} states of expectimax-3's games (best of {args.repeat} runs each)")
    states = sample_states(args.baseline_states)
    agent = Expectimax3(Rules2048(), DEFAULTS)
    agent.act(states[0])  # build the row tables before timing
    # each method runs over all states in its own loop, so none evicts another's tables from the cache
    timings, decisions = {}, {}
    methods = (("vectorised", lambda s: agent.act(s)), ("obvious", lambda s: obvious_decide(s.values().tolist(), s.score)),
               ("tight", lambda s: plain_decide(s.values().tolist(), s.score)))
    runs = {name: [] for name, _ in methods}
    for name, decide in methods:
        decisions[name] = [decide(s) for s in states]
    for _ in range(args.repeat):  # rounds alternate the methods, so the VM's slow phases hit all alike
        for name, decide in methods:
            run = []
            for s in states:
                t0 = time.perf_counter()
                decide(s)
                run.append(time.perf_counter() - t0)
            runs[name].append(run)
    timings = {name: np.min(r, axis=0) for name, r in runs.items()}  # the best run of each state
    agree = {name: sum(a == b for a, b in zip(decisions[name], decisions["vectorised"], strict=True)) for name in ("obvious", "tight")}
    print(f"  vectorised expectimax-3:              {ms_stats(timings['vectorised'])}")
    print(f"  obvious recursive (per-tile engine):  {ms_stats(timings['obvious'])}")
    print(f"  tight pure-Python recursive:          {ms_stats(timings['tight'])}")
    fast = np.median(timings["vectorised"])
    print(f"  ratio of medians: {np.median(timings['obvious']) / fast:.1f}x faster than the obvious version "
          f"(target >= 20x), {np.median(timings['tight']) / fast:.1f}x faster than the tight one")
    print(f"  same decision: obvious {agree['obvious']}/{len(states)}, tight {agree['tight']}/{len(states)}")


def main():
    ap = _common.Parser()
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=runner.default_jobs(), help="processes (default: all cores)")
    ap.add_argument("--ray", nargs="?", const="auto", metavar="ADDRESS", help="play the games on a Ray cluster")
    ap.add_argument("--log-dir", default=str(ROOT / "data" / "runs"),
                    help="where the games' log is (the same command continues a stopped run)")
    ap.add_argument("--baseline-states", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5, help="timing runs per state (the best is kept)")
    args = ap.parse_args()
    if args.games:
        course_agent(args)


if __name__ == "__main__":
    _common.run(main)
