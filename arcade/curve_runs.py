"""Learning curves kept across trainings: each training that drew a curve on a game's screen is kept with the
agent, the parameters it ran with and the variant it was played on (curves.json in the data folder, the last
KEEP a game), so the next training's curve is drawn beside the earlier ones that measure the same thing (the
same series, on the same board or deck: `comparable`) and the legend names every difference ("epsilon 0.05"
against "epsilon 0.2"). They come back when the screen opens; Delete on the screen forgets them. No pygame.
"""
from __future__ import annotations

import dataclasses

from arcade.foundation.storage import PerGame

FILE = "curves.json"
KEEP = 4  # trainings drawn together at most (the newest)


def _file(settings) -> PerGame:
    return PerGame(settings.data_dir, FILE)


def runs(settings, game_id: str) -> list[dict]:
    """The kept trainings of the game, oldest first: {"agent", "params", "curve": [(episodes, {series: v})]}."""
    kept = _file(settings).get(game_id) or []
    out = []
    for run in kept if isinstance(kept, list) else []:
        try:
            curve = [(int(done), {str(k): float(v) for k, v in values.items()}) for done, values in run["curve"]]
            variant = run.get("variant") or {}
            out.append({"agent": str(run["agent"]), "params": dict(run["params"]), "curve": curve,
                        "variant": {str(k): v for k, v in dict(variant).items()}})
        except (KeyError, TypeError, ValueError, AttributeError):
            continue  # a damaged entry is left out, the others drawn
    return out


def keep(settings, game_id: str, agent: str, params, curve: list, variant: dict | None = None,
         continues: int = 0) -> list[dict]:
    """Keep a finished training's curve (with its parameters: a settings dataclass or a dict, and the variant it
    was played on: {rules parameter: value}); the game's runs after it, the newest KEEP. continues: the games
    of the stopped run it resumed (0: a run of its own), whose kept curve it extends."""
    if not curve:
        return runs(settings, game_id)
    kept = added(runs(settings, game_id), run_of(agent, params, curve, variant), continues)
    _file(settings).put(game_id, [{**r, "curve": [list(p) for p in r["curve"]]} for r in kept])
    return runs(settings, game_id)


def run_of(agent: str, params, curve: list, variant: dict | None = None) -> dict:
    """A run as kept: its agent, its parameters (a settings dataclass or a dict), its curve and its variant."""
    values = dataclasses.asdict(params) if dataclasses.is_dataclass(params) else dict(params or {})
    return {"agent": agent, "params": values, "curve": [tuple(p) for p in curve], "variant": dict(variant or {})}


def added(kept: list[dict], run: dict, continues: int = 0) -> list[dict]:
    """The runs with `run` after them, the newest KEEP: a run that resumed a stopped one (continues: the games
    done when it stopped) extends that run's curve, the last kept, where agent, parameters and variant are its
    own; else it is a run of its own."""
    last = kept[-1] if kept else None
    if (continues and last is not None and last["curve"] and last["curve"][-1][0] <= continues
            and all(last.get(k) == run.get(k) for k in ("agent", "params", "variant"))):
        return kept[:-1] + [{**last, "curve": list(last["curve"]) + [p for p in run["curve"]
                                                                      if p[0] > last["curve"][-1][0]]}]
    return (kept + [run])[-KEEP:]


def forget(settings, game_id: str) -> None:
    _file(settings).put(game_id, None)


def series_of(run: dict) -> set[str]:
    """The series a run's curve measures (its points' names)."""
    return {name for _, values in run["curve"] for name in values}


def comparable(kept: list[dict], variant: dict, series: set[str] | None) -> list[dict]:
    """The runs that measure the same thing as a run on `variant` measuring `series` (None: any series): the
    same variant (board, deck) and the same series. Curves of other boards, decks or measures are never drawn
    on one chart."""
    return [r for r in kept if r.get("variant", {}) == variant and (series is None or series_of(r) == series)]


def labels(kept: list[dict]) -> list[str]:
    """A legend label a run: what sets it apart from the others (its agent where they differ, its variant
    where it differs, then each parameter whose value differs: "epsilon 0.05"); "run N" where nothing does."""
    agents = {r["agent"] for r in kept}
    keys = sorted({k for r in kept for k in r["params"]})
    differing = [k for k in keys if len({repr(r["params"].get(k)) for r in kept}) > 1]
    places = sorted({k for r in kept for k in r.get("variant", {})})
    other_places = [k for k in places if len({repr(r.get("variant", {}).get(k)) for r in kept}) > 1]
    out = []
    for n, r in enumerate(kept, start=1):
        parts = [r["agent"]] if len(agents) > 1 else []
        parts += [f"{k} {r.get('variant', {}).get(k)}" for k in other_places]
        parts += [f"{k} {r['params'].get(k)}" for k in differing]
        out.append(", ".join(parts) or f"run {n}")
    return out
