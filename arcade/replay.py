"""A logged game played again: the moves a runner's log keeps with each game (its seed and every move in
order, a few bytes a move), replayed through the rules from the same seed, so the board at any move is the one
the game had (the rules draw all chance from the game's seed, the agents from a Generator of their own).

`python main.py replay LOG [--index I] [--to MOVE] [--json]` prints the moves and the final (or the asked)
state, and whether the replay ends where the log says the game ended. No pygame.
"""
from __future__ import annotations

from arcade.session import GameSession, as_action  # noqa: F401  (as_action: the CLI's too)


def replay(rules, record: dict, to: int | None = None) -> GameSession:
    """The session of a logged game after its first `to` moves (all of them by default). ValueError in one
    line where the record cannot be replayed (logged before moves were kept, started from an opening, a move
    that is not legal there)."""
    if "actions" not in record:
        raise ValueError("this game was logged before the runner kept its moves: play the run again to replay it")
    if not record.get("from_start", True):
        raise ValueError("this game started from an opening position, which the log does not keep")
    actions = record["actions"]
    if to is not None and not 0 <= to <= len(actions):
        raise ValueError(f"--to must be a move from 0 to {len(actions)}, got {to}")
    session = GameSession(rules, int(record["seed"]))
    for k, logged in enumerate(actions[:to]):
        try:  # (checked: the rules' step refuses an illegal move itself, at half the cost of asking first)
            session.play(as_action(logged), by=f"seat {session.to_move}", checked=True)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ValueError(f"move {k + 1} ({logged!r}) is not legal in the replayed position: the log does not "
                             f"belong to these rules ({exc})") from None
    return session


def ends_as_logged(rules, record: dict, session: GameSession) -> bool:
    """Whether a whole replay ends where the log says the game ended (its outcome and its move count)."""
    import json

    from arcade.foundation.storage import json_default

    outcome = json.loads(json.dumps(session.outcome(), default=json_default))
    return session.moves == record["moves"] and outcome == record["outcome"]
