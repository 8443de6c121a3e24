"""A blackjack agent trained outside the arcade: tabular Q-learning through Gymnasium, played here.

examples/train_blackjack_q.py trains it on arcade/PeekingBlackjack-v0 and saves
the table to the data folder; a table for the small deck ships in arcade/assets/. The
agent sees the game as the environment does (arcade.envs.adapter) and plays the
legal action of largest Q. It plays only the deck it was trained on. It reads the
table and the observation (the rules' own) without importing the environments.
"""
from __future__ import annotations

from pathlib import Path

from agents.base import best_action, register
from agents.tabular_q import TabularQ
from arcade.storage import ASSETS
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


def _table(data_dir: Path | None):
    """(table, where it came from): the data folder's, else the shipped one; (None, why) if neither."""
    for path, label in ((Path(data_dir) / FILENAME if data_dir else None, "trained"), (SHIPPED, "shipped")):
        if path is not None and path.exists():
            q = TabularQ.load(path, then="the shipped table plays" if label == "trained" else "none is left")
            if q is not None:
                return q, f"{label} ({path.name})"
    return None, "no table: run examples/train_blackjack_q.py"


@register("gym-q", ("blackjack",), "tabular Q-learning trained through Gymnasium (examples/train_blackjack_q.py)",
          order=40, about="A Q table learnt outside the arcade, by a plain tabular Q-learning loop over the "
                          "arcade/PeekingBlackjack-v0 Gymnasium environment. Here it plays the legal action of "
                          "largest Q for what the environment would show it.")
class GymBlackjackQ:
    """Plays a TabularQ trained on PeekingBlackjack-v0 (the data folder's, else the shipped one)."""

    @classmethod
    def cannot_play(cls, rules) -> str | None:
        """Why no table it could read was trained on this deck (Tab skips it there), or None. It looks at the
        shipped table and the one in the arcade's default data folder (a screen asks before it has settings)."""
        from arcade.settings import Settings

        decks = [deck for deck in (_deck_of(Settings().data_dir / FILENAME), _deck_of(SHIPPED)) if deck]
        if not decks or _deck(rules.mdp) in decks:
            return None  # (no table at all: building it says so)
        return (f"gym-q's table was trained on another deck ({decks[0]['card_values']} x{decks[0]['multiplicity']}, "
                f"threshold {decks[0]['threshold']}); train it on this one: "
                f"examples/train_blackjack_q.py --preset {rules.preset}")

    def __init__(self, rules, settings):
        mdp = rules.mdp
        self.rules = rules
        self.q, self.source = _table(settings.data_dir)
        if self.q is None:
            raise ValueError(self.source)
        if self.q.meta != _deck(mdp):
            raise ValueError(f"its table was trained on another deck ({self.q.meta['card_values']} x"
                             f"{self.q.meta['multiplicity']}, threshold {self.q.meta['threshold']}); train it on "
                             f"this one: examples/train_blackjack_q.py --preset {rules.preset}")

    def explain(self, state) -> dict[str, float]:
        """{action: Q} for the legal actions, as the table has them (0 for states it never saw)."""
        row = self.q.values(self.rules.observation(state))
        return {a: float(row[ACTIONS.index(a)]) for a in self.rules.legal_actions(state)}

    def value_legend(self, mover: str) -> str:
        return "Q: the table's estimate of the round's reward after each action (learnt through Gymnasium)."

    def describe(self) -> list[str]:
        return [f"Q table: {self.source}", f"{len(self.q.table)} observations known"]

    def act(self, state, rng) -> str:
        return best_action(self.explain(state))
