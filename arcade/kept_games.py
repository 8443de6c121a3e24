"""What a game screen keeps across screens and runs, in the data folder (one entry per game, written by
arcade.foundation.storage.PerGame): the game in progress (resumed when the screen opens again) and the player's
choices (agent, delay, values on or off, and the screen's own: a board size, a side, a deck).

No pygame here. It works on the screen's session, controller and value view, and on two hooks of the
screen: `extra_choices()` / `apply_extra_choices(choices)` (its own choices) and `use_variant(params)`
(switch to the rules a kept game was played under; a game whose variant is fixed has none).
"""
from __future__ import annotations

from arcade.control import DELAY_STEPS_MS
from arcade.session import GameSession
from arcade.foundation.storage import PerGame

PROGRESS_FILE, CHOICES_FILE = "in_progress.json", "choices.json"  # in the data folder, an entry per game
VISITED_FILE = "visited.json"  # the games whose first-visit card was shown
RESUME_ERRORS = (ValueError, KeyError, TypeError, IndexError)  # a kept game that does not fit these rules


def variant_of(info, rules) -> dict:
    """The rules parameters a game declares, as these rules have them ({"size": 4, ...})."""
    return {name: getattr(rules, name) for name in info.parameters}


class KeptGames:
    """In: a game screen (its info, settings, rules, session, controller, values and the hooks above)."""

    def __init__(self, screen):
        self.screen = screen
        self._choices_at_open: dict | None = None

    def _file(self, name: str) -> PerGame:
        return PerGame(self.screen.settings.data_dir, name)

    # --- the game in progress ------------------------------------------------------------------------------
    def snapshot(self) -> dict | None:
        """The game in progress as JSON-able data, with the variant it is played under (None: nothing worth
        keeping, as a finished or unstarted game)."""
        session = self.screen.session
        if session is None or session.over or not session.moves:
            return None
        return {"session": session.snapshot(), "variant": variant_of(self.screen.info, self.screen.rules)}

    def keep_progress(self) -> None:
        """Write the game in progress (or drop the kept one when it is over)."""
        self._file(PROGRESS_FILE).put(self.screen.info.id, self.snapshot())

    def resume_from(self, snapshot: dict) -> None:
        """Continue the game of a snapshot; one of RESUME_ERRORS if it does not fit."""
        screen = self.screen
        # a snapshot of an earlier version names its parameters beside the session ("size": 5)
        kept = snapshot.get("variant") or {k: snapshot[k] for k in screen.info.parameters if k in snapshot}
        now = variant_of(screen.info, screen.rules)
        if any(now.get(name) != value for name, value in kept.items()):
            screen.use_variant(kept)
        session = GameSession.restore(screen.rules, snapshot["session"])
        if session.over:
            raise ValueError("the kept game is over")  # only games in progress are kept
        screen.seed = session.seed
        screen.session = session
        session.listen(screen.show_learner)
        screen.controller.invalidate()

    def try_resume(self, seed_given: bool) -> None:
        """Resume the kept game, unless a seed was asked for (a replay must start afresh)."""
        screen = self.screen
        if seed_given or screen.settings.seeds.game >= 0:
            return
        snapshot = self._file(PROGRESS_FILE).get(screen.info.id)
        if not isinstance(snapshot, dict):
            return
        try:
            screen.resume_from(snapshot)
        except RESUME_ERRORS as exc:
            screen.say(f"the kept game could not be resumed ({type(exc).__name__}); a new game starts")
            return
        screen.say("your game is back where you left it (r starts a new one)", 3500)

    def first_visit(self) -> bool:
        """Whether this is the game's first visit (its card shows once); from now on it is not."""
        visited = self._file(VISITED_FILE)
        if visited.get(self.screen.info.id):
            return False
        visited.put(self.screen.info.id, True)
        return True

    # --- the player's choices --------------------------------------------------------------------------------
    def choices(self) -> dict:
        screen = self.screen
        return {"agent": screen.controller.name, "delay_ms": screen.controller.delay_ms, "values": screen.values.on,
                **screen.extra_choices()}

    def keep_choices(self) -> None:
        """Write this game's choices when the screen closes, if they changed."""
        now = self.choices()
        if now != self._choices_at_open:
            self._file(CHOICES_FILE).put(self.screen.info.id, now)

    def restore_choices(self, agent_given: bool = False, given: tuple[str, ...] = ()) -> None:
        """Take back the choices kept when this game's screen last closed (an agent asked for wins, and so do
        the screen's own choices named in `given`: they keep the values the screen opened with)."""
        screen = self.screen
        choices = self._file(CHOICES_FILE).get(screen.info.id)
        if not isinstance(choices, dict):
            self._choices_at_open = self.choices()
            return
        if given:  # rules parameters from the command line: the screen's choices that hold the variant give way
            given = (*given, *screen.VARIANT_CHOICES)
        choices = {**choices, **{k: v for k, v in screen.extra_choices().items() if k in given}}
        if not agent_given and choices.get("agent") in [s.name for s in screen.controller.specs]:
            # first, so the variant restored next is checked against the agent that will play it: a default
            # agent that cannot play it is not announced as replaced by another when the kept one takes over
            screen.controller.select(choices["agent"])
        try:
            screen.apply_extra_choices(choices)
        except (ValueError, KeyError, TypeError):
            pass  # a choice this version no longer offers: its default stays
        screen.say(screen.controller.keep_playable(screen.rules), 4500)
        if choices.get("delay_ms") in DELAY_STEPS_MS:
            screen.controller.delay_ms = choices["delay_ms"]
        if isinstance(choices.get("values"), bool):
            screen.values.on = choices["values"]
        self._choices_at_open = self.choices()
