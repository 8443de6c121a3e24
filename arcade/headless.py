"""One whole game without a window, its record, and the summary of many records.

Every game runs through the rules protocol with its own seeded Generator, so the same seed replays the
same game for every agent. Runs of many games (bench, the benchmarks, tests) are arcade/runner.py.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from agents import LearnsWhilePlaying, Reports
from arcade.games.base import Summarizes, seat_score
from arcade.session import GameSession


@dataclass
class GameRecord:
    """One finished game: its seed, the measured agent's seat, the rules' outcome, figures."""

    seed: int
    agent_seat: int
    outcome: dict
    moves: int
    score: float = 0.0  # the measured agent's score
    decision_ms: list[float] = field(default_factory=list)
    opponent_ms: list[float] = field(default_factory=list)  # the other seat's decisions (two-player games)
    figures: dict = field(default_factory=dict)  # the measured agent's numeric figures summed over its decisions
    actions: list = field(default_factory=list)  # every move in order (arcade/replay.py plays them again)

    @property
    def result(self) -> str | None:
        """'win' / 'draw' / 'loss' for the agent in two-player games, else None."""
        if "winner" not in self.outcome:
            return None
        winner = self.outcome["winner"]
        return "draw" if winner is None else ("win" if winner == self.agent_seat else "loss")


def play_game(rules, seats: list, game_seed: int, agent_seat: int = 0, agent_rng=None,
              max_moves: int = 1_000_000, until=None, start=None) -> GameRecord:
    """Play one game from seed `game_seed`; seats[i] is the agent for seat i.

    The game is a GameSession (its chance from `game_seed`, as on a screen). The record's score and
    decision times are those of seat `agent_seat`. `until(state)` true ends the game early (a benchmark's
    "stop at 16384"); `start` a state to play on from instead of the game's first. Agents that learn while
    they play are shown each state the game reaches, as on a screen."""
    session = GameSession(rules, game_seed)
    if start is not None:
        session.show(start)
    agent_rng = agent_rng if agent_rng is not None else np.random.default_rng([game_seed, 1])
    for agent in {id(s): s for s in seats}.values():
        if isinstance(agent, LearnsWhilePlaying):
            session.listen(agent.observe)
    record = GameRecord(game_seed, agent_seat, {}, 0)
    while not session.over and record.moves < max_moves and not (until and until(session.state)):
        seat = session.to_move
        t0 = time.perf_counter()
        action = seats[seat].act(session.state, agent_rng)
        (record.decision_ms if seat == agent_seat else record.opponent_ms).append((time.perf_counter() - t0) * 1000)
        if seat == agent_seat and isinstance(seats[seat], Reports):
            add_figures(record.figures, seats[seat].figures())
        if not session.play(action, by=f"seat {seat}"):
            raise ValueError(f"{getattr(seats[seat], 'name', 'the agent')} chose {action!r}, not a legal move")
        record.actions.append(action)
        record.moves += 1
    record.outcome = session.outcome()
    record.score = seat_score(rules, record.outcome, agent_seat)
    return record


def add_figures(totals: dict, figures: dict) -> None:
    """Add a decision's numeric figures (positions, moves simulated ...) into `totals`; words are left out."""
    for name, value in figures.items():
        if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
            totals[name] = totals.get(name, 0) + value


def _stats(values) -> dict:
    a = np.asarray(values, dtype=float)
    if a.size == 0:
        return {"mean": None, "median": None, "min": None, "max": None}
    return {"mean": float(a.mean()), "median": float(np.median(a)), "min": float(a.min()), "max": float(a.max())}


def summarize(records: list[GameRecord], rules=None) -> dict:
    times = [t for r in records for t in r.decision_ms]
    summary = {
        "games": len(records),
        "score": _stats([r.score for r in records]),
        "moves": _stats([r.moves for r in records]),
        "decision_ms": {
            "median": float(np.median(times)) if times else None,
            "p95": float(np.percentile(times, 95)) if times else None,
            "decisions": len(times),
        },
    }
    if records and "scores" in records[0].outcome:  # two players: the measured agent's margin over the other
        summary["margin"] = _stats([r.outcome["scores"][r.agent_seat] - r.outcome["scores"][1 - r.agent_seat]
                                    for r in records])
    if records and records[0].result is not None:
        by_side = {}
        for seat in (0, 1):
            side = [r.result for r in records if r.agent_seat == seat]
            by_side[f"as_seat{seat}"] = {k: side.count(k) for k in ("win", "draw", "loss")}
        all_results = [r.result for r in records]
        summary["results"] = {k: all_results.count(k) for k in ("win", "draw", "loss")}
        summary["results_by_side"] = by_side
    per_decision = figures_per_decision(records)
    if per_decision:
        summary["figures_per_decision"] = per_decision
    if isinstance(rules, Summarizes):
        summary.update(rules.summarize([r.outcome for r in records]))
    return summary


def figures_per_decision(records: list[GameRecord]) -> dict:
    """The measured agent's figures as a mean a decision over `records` (a record sums them over its own
    decisions: a depth or a count of most visits means something only divided back)."""
    decisions = sum(len(r.decision_ms) for r in records)
    totals: dict = {}
    for r in records:
        for name, value in r.figures.items():
            totals[name] = totals.get(name, 0) + value
    return {name: total / decisions for name, total in totals.items()} if decisions else {}
