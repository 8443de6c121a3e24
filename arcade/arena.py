"""An arena: two or more agents (or one agent with two settings of its parameters) on one game, the games on
every core through the game runner, each pairing a resumable log, and a table of how they stand.

Two-player games: every pair plays `games` games with the sides alternated (the runner seats the first of the
pair first in half of them); the table gives each pair's wins / draws / losses and a rating for each entrant,
fitted by Bradley-Terry (Hunter's MM iterations; a draw counts half a win to each side, and one virtual draw
per pair keeps an entrant that never lost finite), on the Elo scale (400 log10 of the strength, mean 0), with
95% intervals from the fit's standard errors (the likelihood's curvature). One-player games: every entrant plays the same `games`
seeds; the table gives the mean score with its 95% interval, the game's declared milestones (2048: the share of
games reaching a tile) and, paired by seed, each entrant's mean difference from the first.

An entrant is written `name` or `name:param=value[:param=value]` (e.g. `mcts:exploration=1`). No pygame.
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from arcade import runner
from arcade.games import game_info, settings_variant, variant_slug
from arcade.games.base import is_real_number, is_whole_number
from arcade.foundation.notices import notice
from arcade.numbers import estimate, interval
from arcade.run_log import RunSpec, settings_key


@dataclass(frozen=True)
class Entrant:
    """One contestant: an agent and the parameters set on it for this arena."""

    name: str
    params: tuple[tuple[str, object], ...] = ()

    @property
    def label(self) -> str:
        return self.name + "".join(f":{k}={v}" for k, v in self.params)

    def settings(self, settings, game: str):
        return settings.with_agent(self.name, game=game, **dict(self.params)) if self.params else settings


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_entrant(game: str, part: str, option: str = "--agents") -> Entrant:
    """`name` or `name:param=value:...` as an entrant; ValueError (one line) for an unknown agent or parameter
    or a value out of its range."""
    from agents import UnknownAgent, find
    from arcade.kept_params import problem

    name, *settings = part.strip().split(":")
    params = []
    for item in settings:
        if "=" not in item:
            raise ValueError(f"{option}: '{item}' in '{part}' is not param=value")
        key, raw = item.split("=", 1)
        value = _value(raw.strip())
        why = problem(game, name.strip(), key.strip(), value)
        if why:
            raise ValueError(f"{option}: {why}")
        params.append((key.strip(), value))
    try:
        find(game, name.strip())
    except UnknownAgent as exc:
        raise ValueError(f"{option}: {exc}") from None
    return Entrant(name.strip(), tuple(params))


def with_kept(base, game: str, entrant: Entrant) -> Entrant:
    """The entrant with the parameters kept on screen (Shift+i) for its agent, under those it names itself: its
    label then says what it plays with."""
    from arcade.kept_params import kept

    params = {**kept(base, game).get(entrant.name, {}), **dict(entrant.params)}
    return Entrant(entrant.name, tuple(params.items()))


def parse_entrants(game: str, text: str) -> list[Entrant]:
    """`a,b,a:param=value` as entrants; ValueError (one line) for an unknown agent or parameter, a value out of
    its range, fewer than two entrants or one named twice."""
    entrants = [parse_entrant(game, part) for part in (p.strip() for p in text.split(",") if p.strip())]
    if len(entrants) < 2:
        raise ValueError("--agents: an arena needs two entrants or more, e.g. --agents alpha-beta,greedy")
    twice = entered_twice(entrants)
    if twice:
        raise ValueError(f"--agents: {twice} is named twice")
    return entrants


def entered_twice(entrants: list[Entrant]) -> str | None:
    """The first label (in sorted order) that two entrants share, or None."""
    labels = [e.label for e in entrants]
    return next(iter(sorted(lb for lb in labels if labels.count(lb) > 1)), None)


@dataclass
class Pairing:
    """One run of the arena: an entrant against another (two players) or alone (one player)."""

    first: Entrant
    second: Entrant | None
    records: list[dict] = field(default_factory=list)
    complete: bool = False


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text)


def pairings(entrants: list[Entrant], players: int) -> list[Pairing]:
    if players == 1:
        return [Pairing(e, None) for e in entrants]
    return [Pairing(a, b) for a, b in itertools.combinations(entrants, 2)]


def play(game: str, rules, settings, entrants: list[Entrant], games: int, seed: int, backend, folder: Path,
         progress=None) -> list[Pairing]:
    """Play every pairing's games not yet in its log (folder/<game>-<first>[-vs-<second>]-seed<s>-<n>.jsonl,
    made if missing); returns the pairings with their logs' records. A log that holds another run is a
    ValueError naming it. progress(pairing label, games done, games, the pairing's records so far) as games
    finish (a table of what finished so far is drawn from them before a pairing is over)."""
    from agents import find

    out = []
    for pairing in pairings(entrants, rules.players):
        a, b = pairing.first, pairing.second
        for entrant in (a, b) if b is not None else (a,):
            why = find(game, entrant.name).cannot_play(rules)
            if why:
                raise ValueError(f"{entrant.name} cannot play here: {why}")
        # built by the workers that play them (runner.Recipe): the process that runs the arena (a window) only
        # ships their names and settings
        agent = runner.Recipe(game, a.name, a.settings(settings, game))
        opponent = runner.Recipe(game, b.name, b.settings(settings, game)) if b is not None else None
        names = (a.name, b.name if b else None)
        variant = settings_variant(game, settings)
        spec = RunSpec(game, a.label, b.label if b else None, games, seed, settings.seeds.agent,
                       settings_key(a.settings(settings, game), game, names), variant, settings.agents.budget_clock)
        stem = _slug(f"{variant_slug(game, variant)}-{a.label}" + (f"-vs-{b.label}" if b else "")
                     + f"-seed{seed}-{games}")
        path = folder / f"{stem}.jsonl"
        if path.exists() and path.stat().st_size == 0:  # (a run stopped as it was created: no games in it)
            path.unlink()
            notice(f"{path}: empty (an arena stopped as it started); started again")
        log = runner.GameLog.open(path) if path.exists() else None
        if log is not None and log.skipped_line():
            notice(log.skipped_line())
        if log is not None and log.spec.stands_to(spec, rules.players) not in ("same", "same settings"):
            raise ValueError(f"{path} holds another run ({log.spec.describe()}): move it away or give another "
                             f"--log-dir")
        log = log or runner.GameLog.create(path, spec)
        jobs = log.missing(rules.players)
        label = a.label + (f" vs {b.label}" if b else "")
        done = len(log.records)
        if progress:  # (at the start too: a pairing whose first game takes long says what it plays)
            progress(label, done, games, list(log.records))
        if jobs:
            result = runner.execute(runner.Players(rules, agent, opponent), jobs, backend, log,
                                    progress=(lambda n, label=label, log=log: progress(label, n, games,
                                                                                       list(log.records)))
                                    if progress else None)
            pairing.records, pairing.complete = result.records, result.complete
        else:
            pairing.records, pairing.complete = sorted(log.records, key=lambda r: r["index"]), True
        out.append(pairing)
        if not pairing.complete:
            break
    return out


# --- the figures ------------------------------------------------------------------------------------------

def bradley_terry(n: int, wins: np.ndarray, iterations: int = 2000) -> np.ndarray:
    """Strengths of n entrants from wins[i, j] (i's wins over j, a draw half to each), by Hunter's MM
    iterations with one virtual draw per pair; on the Elo scale, mean 0."""
    w = wins + 0.5 * (1 - np.eye(n))  # the virtual draw: half a win each way
    games = w + w.T
    p = np.ones(n)
    for _ in range(iterations):
        denominator = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = w.sum(axis=1) / denominator
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < 1e-12:
            p = new
            break
        p = new
    elo = 400 * np.log10(p)
    return elo - elo.mean()


def _win_matrix(entrants, played: list[Pairing]) -> np.ndarray:
    index = {e.label: i for i, e in enumerate(entrants)}
    wins = np.zeros((len(entrants), len(entrants)))
    for pairing in played:
        i, j = index[pairing.first.label], index[pairing.second.label]
        for r in pairing.records:
            half = {"win": (1.0, 0.0), "draw": (0.5, 0.5), "loss": (0.0, 1.0)}[r["result"]]
            wins[i, j] += half[0]
            wins[j, i] += half[1]
    return wins


def rating_covariance(n: int, wins: np.ndarray, elo: np.ndarray) -> np.ndarray:
    """The covariance of the ratings (Elo scale, squared) from the Bradley-Terry likelihood's curvature at the
    fit (its observed information, with the virtual draws; the ratings' mean is held at 0)."""
    w = wins + 0.5 * (1 - np.eye(n))
    games = w + w.T
    p = 10 ** (elo / 400)
    share = games * p[:, None] * p[None, :] / (p[:, None] + p[None, :]) ** 2
    information = np.diag(share.sum(axis=1)) - share
    covariance = np.linalg.pinv(information)  # (singular along the common shift: the mean is fixed)
    return (400 / math.log(10)) ** 2 * covariance


def rating_errors(n: int, wins: np.ndarray, elo: np.ndarray) -> np.ndarray:
    """Standard errors of the ratings (Elo scale): each against the mean of all entrants."""
    return _errors(rating_covariance(n, wins, elo))


def _errors(covariance: np.ndarray) -> np.ndarray:
    return np.sqrt(np.maximum(np.diag(covariance), 0.0))


def two_player_table(entrants: list[Entrant], played: list[Pairing]) -> dict:
    """{"ratings": [{entrant, rating, low, high, games, sweep}], "pairs": [{first, second, wins, draws, losses,
    difference, low, high}]}: ratings best first with 95% intervals (1.96 standard errors of the fit, each
    against the mean of all entrants); each pair's rating difference with its own 95% interval (from the
    fit's covariance: two ratings whose intervals overlap can still differ); `sweep` "won every game" or "lost
    every game" where an entrant did (its rating then rests on the prior's virtual draws and the number of
    games: a bound, not a measured strength)."""
    n = len(entrants)
    wins = _win_matrix(entrants, played)
    ratings = bradley_terry(n, wins)
    covariance = rating_covariance(n, wins, ratings)
    errors = _errors(covariance)
    index = {e.label: i for i, e in enumerate(entrants)}
    count = {e.label: 0 for e in entrants}
    pairs = []
    for p in played:
        results = [r["result"] for r in p.records]
        i, j = index[p.first.label], index[p.second.label]
        diff = float(ratings[i] - ratings[j])
        half = 1.96 * math.sqrt(max(covariance[i, i] + covariance[j, j] - 2 * covariance[i, j], 0.0))
        pairs.append({"first": p.first.label, "second": p.second.label, "wins": results.count("win"),
                      "draws": results.count("draw"), "losses": results.count("loss"), "difference": diff,
                      "low": diff - half, "high": diff + half})
        count[p.first.label] += len(results)
        count[p.second.label] += len(results)
    rows = []
    for i, e in enumerate(entrants):
        games = wins[i].sum() + wins[:, i].sum()
        sweep = ("won every game" if games and wins[i].sum() == games else
                 "lost every game" if games and wins[:, i].sum() == games else None)
        rows.append({"entrant": e.label, "rating": float(ratings[i]), "low": float(ratings[i] - 1.96 * errors[i]),
                     "high": float(ratings[i] + 1.96 * errors[i]), "games": count[e.label], "sweep": sweep})
    rows.sort(key=lambda row: -row["rating"])
    return {"ratings": rows, "pairs": pairs}


def mean_interval(values) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation; 0 for fewer than two values)."""
    v = np.asarray(values, dtype=float)
    if v.size < 2:
        return (float(v.mean()) if v.size else math.nan), 0.0
    return float(v.mean()), float(1.96 * v.std(ddof=1) / math.sqrt(v.size))


def one_player_table(game: str, played: list[Pairing]) -> dict:
    """{"entrants": [{entrant, games, mean, ci, milestones: {label: share}, vs_first: {mean, ci, games}}]}:
    the differences paired by seed with the first entrant's games."""
    milestones = game_info(game).milestones
    first = {r["seed"]: r["score"] for r in played[0].records} if played else {}
    rows = []
    for p in played:
        scores = [r["score"] for r in p.records]
        mean, ci = mean_interval(scores)
        shares = {label: float(np.mean([float(r["outcome"].get(key, 0)) >= at for r in p.records]))
                  for label, key, at in milestones} if p.records else {}
        paired = [r["score"] - first[r["seed"]] for r in p.records if r["seed"] in first]
        diff, diff_ci = mean_interval(paired)
        rows.append({"entrant": p.first.label, "games": len(scores), "mean": mean, "ci": ci, "milestones": shares,
                     "vs_first": {"mean": diff, "ci": diff_ci, "games": len(paired)}})
    return {"entrants": rows}


def rating_text(row: dict) -> str:
    """A rating in words: '+91 [+8, +174]' (Elo), or, where it rests on a sweep, the bound it is."""
    if row.get("sweep") == "won every game":
        return f">= {row['low']:+,.0f} (won every game: a lower bound)"
    if row.get("sweep") == "lost every game":
        return f"<= {row['high']:+,.0f} (lost every game: an upper bound)"
    return f"{row['rating']:+,.0f} {interval(row['low'], row['high'])}"


def difference_text(pair: dict) -> str:
    """A pair's rating difference with its 95% interval, and whether it is significant."""
    if "difference" not in pair:
        return ""
    sure = pair["low"] > 0 or pair["high"] < 0
    return (f"{pair['difference']:+,.0f} {interval(pair['low'], pair['high'])} Elo"
            + (" (a real difference)" if sure else " (not told apart)"))


def table_lines(table: dict) -> list[str]:
    """The arena's table as text lines (the command line's, and the window's rows)."""
    lines = []
    if "ratings" in table:
        lines.append("ratings on the Elo scale (mean 0), 95% intervals against the mean of all entrants")
        lines.append(f"{'entrant':<28} {'rating':<44} games")
        for row in table["ratings"]:
            lines.append(f"{row['entrant']:<28} {rating_text(row):<44} {row['games']:5d}")
        lines.append("")
        lines.append(f"{'pair':<44} wins draws losses  difference (first - second), 95% interval")
        for p in table["pairs"]:
            lines.append(f"{p['first'] + ' vs ' + p['second']:<44} {p['wins']:4d} {p['draws']:5d} {p['losses']:6d}  "
                         f"{difference_text(p)}")
        return lines
    for row in table["entrants"]:
        shares = "  ".join(f"{k} {v:.0%}" for k, v in row["milestones"].items())
        vs = row["vs_first"]
        paired = "" if row is table["entrants"][0] else f"  vs first {estimate(vs['mean'], vs['ci'], signed=True)}"
        lines.append(f"{row['entrant']:<28} mean {estimate(row['mean'], row['ci'])} ({row['games']} games)"
                     f"  {shares}{paired}")
    return lines


# --- kept results: the last arena of each game and variant, shown beside k's statistics ---------------------

KEPT = "arena_results.json"  # in the data folder: {variant slug: {"when", "games", "complete", "table"}}


def keep_results(data_dir, game: str, settings, table: dict, games: int, complete: bool) -> None:
    """Keep `table` as the game's (and its variant's) latest arena, with when it ran and its games a pairing."""
    import time

    from arcade.foundation.storage import PerGame

    key = variant_slug(game, settings_variant(game, settings))
    PerGame(data_dir, KEPT).put(key, {"when": time.strftime("%Y-%m-%d %H:%M"), "games": games,
                                      "complete": complete, "table": table})


def kept_results(data_dir, game: str, settings) -> dict | None:
    """The latest arena kept for the game and its variant in `settings`, or None."""
    from arcade.foundation.storage import PerGame

    store = PerGame(data_dir, KEPT)
    key = variant_slug(game, settings_variant(game, settings))
    got = store.get(key)
    if got is None:
        return None
    if not _readable_results(got):
        store.put(key, None)  # (what cannot be shown is dropped, said once: the other games' are kept)
        notice(f"{store.path}: the kept arena of {key} is not one this version reads; left out")
        return None
    return got


def _readable_results(got) -> bool:
    """Whether a kept arena has what summary_line and the arena view read, of the types they read."""
    def number(v):  # (a mean of no games is NaN: kept, and said as "no games")
        return is_real_number(v) or (isinstance(v, float) and math.isnan(v))

    if not (isinstance(got, dict) and isinstance(got.get("table"), dict) and isinstance(got.get("when"), str)
            and is_whole_number(got.get("games")) and isinstance(got.get("complete", True), bool)):
        return False
    table = got["table"]
    if "ratings" in table:
        rows, fields = table["ratings"], ("rating", "low", "high")
    else:
        rows, fields = table.get("entrants"), ("mean", "ci")
    return isinstance(rows, list) and all(isinstance(r, dict) and isinstance(r.get("entrant"), str)
                                          and all(number(r.get(k)) for k in fields) for r in rows)


def summary_line(kept: dict) -> str:
    """A kept arena in one line: its entrants best first, each with its rating or mean score and interval."""
    table = kept["table"]
    if "ratings" in table:
        parts = [f"{r['entrant']} {rating_text(r)}" for r in table["ratings"]]
        what = "ratings (Elo scale, 95% intervals)"
    else:
        rows = sorted(table.get("entrants", []), key=lambda r: math.inf if math.isnan(r["mean"]) else -r["mean"])
        parts = [f"{r['entrant']} {estimate(r['mean'], r['ci'])}" for r in rows]
        what = "mean score (95% intervals)"
    unfinished = "" if kept.get("complete", True) else ", stopped before the end"
    return f"arena of {kept['when']} ({kept['games']} games a pairing{unfinished}), {what}: " + ", ".join(parts)
