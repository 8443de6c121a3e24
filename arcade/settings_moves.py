"""Where the settings of the previous round's places are now: agents' parameters left the games' tables and
[search] for the agents' own tables ([GAME.NAME], [agents.NAME]) and [agents]. A settings file written before
still reads (each moved key one warning naming its new place), and a run logged before still continues
(arcade.run_log.earlier_settings_key). To be deleted with the next round's settings changes.
"""
from __future__ import annotations

import functools

from agents.base import ANY_GAME as ANY, all_specs as agents_for_every_game  # ANY: [agents.NAME]'s scope
from arcade.games import game_info


@functools.cache
def moved() -> dict[tuple[str, str], tuple[tuple[str | None, str | None, str], ...]]:
    """(old table, old key) -> its new places: (scope: a game id, ANY, or None for the [agents] table itself,
    agent name or None, new key); the first place is where the old value is read back from. Each agent
    declares its own old keys (register(moved=...)); [search]'s time and clock went to [agents]."""
    out: dict = {("search", key): ((None, None, key),) for key in ("time_budget_ms", "budget_clock")}
    for spec in agents_for_every_game():
        for old, new in spec.moved:
            table, _, key = old.rpartition(".")
            places = [(ANY, table, key)] if table else [(g, game_info(g).table, key) for g in spec.games]
            for scope, old_table, old_key in places:
                out[(old_table, old_key)] = out.get((old_table, old_key), ()) + ((scope, spec.name, new),)
    return out


# the previous round's settings a run's fingerprint left out (only training read them)
TRAINS_ONLY = {"ntuple_learning_rate", "ntuple_games", "ntuple_restart_tile", "ntuple_restart_share", "ntuple_rates"}


def moved_tables() -> set[str]:
    """Tables of the previous round that are gone ([search])."""
    return {"search"}


def moved_keys(table: str) -> set[str]:
    """The keys of `table` that moved to agents' tables or [agents]."""
    return {key for t, key in moved() if t == table}
