"""A blackjack agent trained outside the arcade: tabular Q-learning through Gymnasium, played here.

examples/train_blackjack_q.py trains it on arcade/PeekingBlackjack-v0 and saves
the table to the data folder, one file per deck (`gym_blackjack_q_<preset>.npz`);
a table for the small deck ships in assets/. The agent sees the game as
the environment does (agents.tabular_q's table) and plays the legal action of largest
Q. It plays every deck it has a table for (a table records its deck). It reads
the table and the observation (the rules' own) without importing the environments.
"""
from __future__ import annotations

from pathlib import Path

from agents.base import best_action, register, LEARNT
from agents.search_tree import one_ply
from agents.tabular_q import TabularQ
from arcade.foundation.storage import ASSETS, default_data_dir
from arcade.games.blackjack import ACTIONS

FILENAME = "gym_blackjack_q.npz"
SHIPPED = ASSETS / FILENAME


def _deck(mdp) -> dict:
    return {"card_values": list(mdp.card_values), "multiplicity": mdp.multiplicity, "threshold": mdp.threshold,
            "peek_cost": mdp.peek_cost}


_DECKS: dict[tuple, dict | None] = {}  # (path, mtime, size) -> the deck its table was trained on


def _deck_of(path: Path) -> dict | None:
    """The deck the table at `path` was trained on (read once per file version), None if there is none."""
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _DECKS:
        q = TabularQ.load(path, then="the shipped table plays")
        _DECKS[key] = q.meta if q is not None else None
    return _DECKS[key]


def table_name(preset: str) -> str:
    """The data folder's file of the table trained on a deck."""
    return f"gym_blackjack_q_{preset}.npz"


def _candidates(data_dir: Path | None, preset: str) -> list[tuple[Path, str]]:
    """Where a table for a deck may be, in the order tried: the data folder's for this deck, the data folder's
    of an earlier version (one file, for whichever deck it was trained on), the shipped one (the small deck)."""
    out = [(Path(data_dir) / name, "trained") for name in (table_name(preset), FILENAME)] if data_dir else []
    return out + [(SHIPPED, "shipped")]


def _table(data_dir: Path | None, mdp, preset: str):
    """(table, where it came from) of the first table trained on this deck; (None, why) if there is none."""
    decks = []
    for path, label in _candidates(data_dir, preset):
        deck = _deck_of(path)
        if deck == _deck(mdp):
            q = TabularQ.load(path, then="the next table is tried")
            if q is not None:
                return q, f"{label} ({path.name})"
        elif deck:
            decks.append(deck)
    other = (f"its tables were trained on other decks (such as {decks[0]['card_values']} x{decks[0]['multiplicity']}, "
             f"threshold {decks[0]['threshold']})" if decks else "it has no table")
    return None, f"{other}; train it on this one: examples/train_blackjack_q.py --preset {preset}"


@register("gym-q", ("blackjack",), "tabular Q-learning trained through Gymnasium (examples/train_blackjack_q.py)",
          order=40, about="A Q table learnt outside the arcade, by a plain tabular Q-learning loop over the "
                          "arcade/PeekingBlackjack-v0 Gymnasium environment. Here it plays the legal action of "
                          "largest Q for what the environment would show it.", group=LEARNT,
                          title="Q-learning through Gymnasium")
class GymBlackjackQ:
    """Plays a TabularQ trained on PeekingBlackjack-v0 (the data folder's, else the shipped one)."""

    @classmethod
    def cannot_play(cls, rules) -> str | None:
        """Why no table it could read was trained on this deck (Tab skips it there), or None. It looks at the
        shipped table and those in the arcade's default data folder (a screen asks before it has settings)."""
        q, why = _table(default_data_dir(), rules.mdp, rules.preset)
        return None if q is not None else f"gym-q: {why}"

    def __init__(self, rules, settings):
        self.rules = rules
        self.q, self.source = _table(settings.data_dir, rules.mdp, rules.preset)
        if self.q is None:
            raise ValueError(self.source)

    def explain(self, state) -> dict[str, float]:
        """{action: Q} for the legal actions, as the table has them (0 for states it never saw)."""
        row = self.q.values(self.rules.observation(state))
        return {a: float(row[ACTIONS.index(a)]) for a in self.rules.legal_actions(state)}

    def tree(self, state, rng=None) -> dict:
        """Its one ply (agents/search_tree.one_ply): each action a leaf worth the table's Q, explain's."""
        return one_ply(self.explain(state), learnt="Q of the table learnt through Gymnasium")

    def value_legend(self, mover: str) -> str:
        return "Q: the table's estimate of the round's reward after each action (learnt through Gymnasium)."

    def describe(self) -> list[str]:
        return [f"Q table: {self.source}", f"{len(self.q.table)} observations known"]

    def act(self, state, rng) -> str:
        return best_action(self.explain(state))
