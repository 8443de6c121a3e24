"""The training keys every game screen shares, as one component: `t` trains the agent that `Trains`
(Shift+t from scratch; again: stop and save), `l` switches learning of one that `LearnsWhilePlaying`, Esc
during a training asks first, and a key that does nothing on this game's agents says why. Where the
trainee `ShipsTable`, Shift+t first says that its new table will play instead of the shipped one (press
again to start) and `b` plays the shipped table again. It owns the
training panel (arcade.screens.training_view) and where the screen gives it a place."""
from __future__ import annotations

import json

import pygame

from agents import LearnsWhilePlaying, ShipsTable, Trains, agents_for
from arcade import curve_runs
from arcade.games import game_ids, game_info
from arcade.kept_games import variant_of
from arcade.screens.training_view import TrainingView
from arcade.foundation.storage import json_default

LEAVE_CONFIRM_MS = 3000  # Esc while a training runs asks; Esc again within this time leaves


class TrainingKeys:
    """In: the game screen (its controller, rules, settings, seed, say, app) and its train and learn keys.
    place: where the panel goes given the board's rect (default: a card over the board's lower right);
    keeps_curve: whether the last curve stays after the training ends (where it has its own place)."""

    def __init__(self, screen, train_key: int = pygame.K_t, learn_key: int = pygame.K_l,
                 shipped_key: int = pygame.K_b):
        self.screen = screen
        self.train_key, self.learn_key, self.shipped_key = train_key, learn_key, shipped_key
        self._scratch_asked: int | None = None  # when Shift+t said what the new table would replace
        self.view = TrainingView()
        self.place = card_over
        self.keeps_curve = False
        # the trainings kept from earlier (the last one's curve shown again where the screen keeps a curve)
        self.runs = curve_runs.runs(screen.settings, screen.info.id)
        shown = curve_runs.comparable(self.runs, self._variant(), None)  # (the last of this board or deck)
        if shown:
            self.view.curve = shown[-1]["curve"]
        self._leave_asked: int | None = None  # when Esc during a training asked to be sure

    @property
    def job(self):
        return self.view.job

    @property
    def curve(self) -> list:
        return self.view.curve

    @property
    def running(self) -> bool:
        return self.view.running

    def _any(self, capability) -> bool:
        return any(s.can(capability) for s in self.screen.controller.specs)

    def keys(self) -> list[tuple]:
        """The help entries of t and l, where an agent of this game trains or learns."""
        keys = []
        if self._any(LearnsWhilePlaying):
            keys.append((pygame.key.name(self.learn_key), "learning on / off (an agent that learns while it "
                                                           "plays)", ""))
        if self._any(Trains):
            name = pygame.key.name(self.train_key)
            keys.append((f"{name} / Shift+{name}", "train the learning agent in the background (again: stop "
                                                   "and save) / from scratch", ""))
            keys.append(("Delete", "forget the kept learning curves (each training's is drawn beside the "
                                   "earlier ones, the legend naming what differed)", ""))
        if self._any(ShipsTable):
            keys.append((pygame.key.name(self.shipped_key), "play the shipped table again (after a training)", ""))
        return keys

    def handle(self, event) -> bool:
        """t or l on a screen whose agents train or learn: act; True if the key was one of them."""
        if event.key == self.train_key and self._any(Trains):
            from_scratch = bool(event.mod & pygame.KMOD_SHIFT)
            if not (from_scratch and not self.running and self._warned_first()):
                self.toggle_training(from_scratch=from_scratch)
            return True
        if event.key == self.shipped_key and self._any(ShipsTable):
            self.back_to_shipped()
            return True
        if event.key == self.learn_key and self._any(LearnsWhilePlaying):
            self.toggle_learning()
            return True
        if event.key == pygame.K_DELETE and self.runs and not self.running:
            curve_runs.forget(self.screen.settings, self.screen.info.id)
            self.runs, self.view.curve = [], []
            self.screen.say("the kept learning curves are forgotten")
            return True
        return False

    def toggle_training(self, from_scratch: bool = False) -> None:
        screen = self.screen
        self.screen.say(self.view.toggle(screen.controller.spec, screen.controller.specs, screen.rules,
                                         screen.settings, screen.seed, from_scratch, pygame.key.name(self.train_key)))

    def _warned_first(self) -> bool:
        """Shift+t on a trainee whose shipped table plays: the first press says what the new table will
        replace and how to go back (True: nothing starts); a second within LEAVE_CONFIRM_MS starts."""
        screen = self.screen
        spec = TrainingView.trainee(screen.controller.spec, screen.controller.specs)
        if spec is None or not spec.can(ShipsTable):
            return False
        replaced = spec.factory.replaced_by_training(screen.rules, screen.settings)
        now = pygame.time.get_ticks()
        if replaced is None or (self._scratch_asked is not None and now - self._scratch_asked <= LEAVE_CONFIRM_MS):
            self._scratch_asked = None
            return False
        self._scratch_asked = now
        key = pygame.key.name(self.train_key)
        screen.say(f"Shift+{key} again trains {spec.name} from scratch: what it learns then plays instead of "
                   f"{replaced}; {pygame.key.name(self.shipped_key)} plays that one again", LEAVE_CONFIRM_MS)
        return True

    def back_to_shipped(self) -> None:
        """b: every agent of this game that ShipsTable plays its shipped table again; the agents are rebuilt."""
        screen = self.screen
        lines = [line for s in screen.controller.specs if s.can(ShipsTable)
                 if (line := s.factory.back_to_shipped(screen.rules, screen.settings))]
        if not lines:
            screen.say("the shipped table plays already (a training's table would play after it)")
            return
        screen.controller.set_rules(screen.rules)
        screen.controller.warm_up()
        screen.values.forget()
        screen.say("; ".join(lines), 4000)

    def toggle_learning(self) -> None:
        controller = self.screen.controller
        if not controller.spec.can(LearnsWhilePlaying):
            learners = [s.name for s in controller.specs if s.can(LearnsWhilePlaying)]
            self.screen.say(f"{pygame.key.name(self.learn_key)} toggles learning of an agent that learns while it "
                            f"plays (Tab to {' or '.join(learners) or 'one'} first)")
            return
        agent = controller.cached_agent(build=True)
        agent.set_learning(not agent.is_learning())
        self.screen.say(f"{controller.name}: learning {'on' if agent.is_learning() else 'off (greedy, no updates)'}")

    def poll(self) -> None:
        """Take in the training's reports; once it has saved, the agents are rebuilt from the new table."""
        trained = self.view.trained
        finished = self.view.poll()
        if finished is None:
            return
        if trained is not None:  # its curve is kept beside the earlier ones, with what it ran with
            self.runs = curve_runs.keep(self.screen.settings, self.screen.info.id, trained[0], trained[1],
                                        self.view.curve, self._variant(), self.view.continues)
        saved, message = finished
        self.screen.say(message, 4000 if saved else 5000)
        if saved:
            controller = self.screen.controller
            controller.set_rules(self.screen.rules)  # the agents are rebuilt from the new table...
            controller.warm_up()  # ...now, so its values come back without a move
            self.screen.values.forget()

    def may_leave(self) -> bool:
        """Esc while a training runs: the first asks (one line); the second, within LEAVE_CONFIRM_MS, hands the
        training to the app, which stops it, lets it save and says what was saved. True when the screen may
        close (no training runs, or Esc was pressed twice)."""
        if not self.running:
            return True
        now = pygame.time.get_ticks()
        if self._leave_asked is None or now - self._leave_asked > LEAVE_CONFIRM_MS:
            self._leave_asked = now
            key = pygame.key.name(self.train_key)
            self.screen.say(f"a training is running: Esc again leaves, and it stops and saves what it learnt (a "
                            f"line says when); {key} stops it here and keeps the curve", LEAVE_CONFIRM_MS)
            return False
        self.view.job.stop()
        self.screen.app.keep_finishing(self.view)
        self.view = TrainingView()
        return True

    def idle_key_reason(self, key: int) -> str | None:
        """Why the train or learn key does nothing on this screen (no agent of this game has that capability),
        with where it does something; None for any other key."""
        screen = self.screen
        for wanted, capability, doing in ((self.train_key, Trains, "trains"),
                                          (self.learn_key, LearnsWhilePlaying, "learns while it plays")):
            if key == wanted and not self._any(capability):
                elsewhere = [f"{game_info(g).title}'s {s.name}" for g in game_ids() if g != screen.info.id
                             for s in agents_for(g, capability)]
                where = f" ({', '.join(elsewhere)} {'do' if len(elsewhere) > 1 else 'does'})" if elsewhere else ""
                return (f"{pygame.key.name(key)} does nothing here: no {screen.info.title} agent {doing} yet"
                        f"{where}")
        return None

    def draw(self, surface: pygame.Surface, board: pygame.Rect) -> None:
        # a card over the board may grow into it to show a training game; a place of the screen's own stays put
        place = self.place(board)
        self.view.draw(surface, place, self._keeps_curve_at(place, board), pygame.key.name(self.train_key),
                       room=board if place == card_over(board) else None, beside=self._beside())

    def shows(self, board: pygame.Rect) -> bool:
        """Whether the training panel is drawn in its place now (a training, or the curve it keeps after)."""
        place = self.place(board)
        return self.running or bool(self.view.curve) and self._keeps_curve_at(place, board)

    def _keeps_curve_at(self, place: pygame.Rect, board: pygame.Rect) -> bool:
        """A curve stays after its training where the screen keeps it, in a place of the screen's own (a card
        over the board goes with the training: the game is under it)."""
        return self.keeps_curve and place != card_over(board)

    def _beside(self) -> list[tuple[str, list]]:
        """(label, curve) of the kept trainings and the one in progress (last): what the chart draws together."""
        if not self.runs:
            return []
        shown = list(self.runs)
        if self.running and self.view.trained is not None:
            agent, params = self.view.trained
            now = curve_runs.run_of(agent, params, self.view.curve, self._variant())
            shown = curve_runs.added(shown, now, self.view.continues)
        series = curve_runs.series_of(shown[-1]) if shown[-1]["curve"] else None  # (what the newest measures)
        shown = curve_runs.comparable(shown, self._variant(), series)
        return list(zip(curve_runs.labels(shown), [r["curve"] for r in shown], strict=True))

    def _variant(self) -> dict:
        """The variant the screen plays (its board, its deck): curves of another are not drawn with its own."""
        return json.loads(json.dumps(variant_of(self.screen.info, self.screen.rules), default=json_default))

    def kill(self) -> None:
        self.view.kill()


def card_over(board: pygame.Rect) -> pygame.Rect:
    """The training panel's default place: a card over the lower right of the board area."""
    w = max(260, min(420, board.w * 2 // 5))
    h = max(170, min(300, board.h // 2))
    return pygame.Rect(board.right - w - 8, board.bottom - h - 8, w, h)
