"""Screen base classes. GameScreen owns the shared frame and the agent keys.

The app calls handle_event / update / draw; screens never flip the display or
loop. A GameScreen subclass supplies its rules and board and a few hooks; the
base class handles Enter (agent on/off), Tab (next agent), +/- (delay), h/?
(help), v (the agent's values), . (one agent move), i (the agent panel),
k (statistics), the HUD, and asking the agent controller for moves. It never
names an agent: it asks the registry what the selected one can do, and
honours every capability the same way on every screen: `t` trains an agent
that `Trains` (progress bar and learning curve), `l` switches learning of one
that `LearnsWhilePlaying` (it sees every state the game session reaches), and
the `i` panel shows what one that `Describes` says of itself.
"""
from __future__ import annotations

import pygame

from agents import Describes, LearnsWhilePlaying, Trains, agents_for
from arcade.control import AgentController
from arcade.games import game_ids, game_info, make_rules
from arcade.progress import ms_text
from arcade.screens.values import ValueView
from arcade.seats import Seats
from arcade.seeds import fresh_seed
from arcade.screens.training_view import TrainingView
from arcade.session import GameSession
from arcade.settings import course_value
from arcade.statistics import Statistics
from arcade.storage import PerGame
from arcade.ui import hud, palette, panels

ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
PLUS_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
MINUS_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
SHELL_KEYS = [  # (keys, what they do, the word on the help line or "" for the overlay only)
    ("Enter", "hand control to the agent / take it back", "agent"),
    ("Tab", "next agent (Shift+Tab: previous)", "next agent"),
    ("+ / -", "agent move delay longer / shorter", ""),
    ("v", "values: what the selected agent thinks of each move (also on your turn)", "values"),
    (".", "the agent plays exactly one move, then hands control back", ""),
    ("i", "about the agent: its algorithm, parameters and last decision", ""),
    ("k", "statistics of this game, kept across runs", ""),
    ("m", "sound effects off / on", ""),
    ("h or ?", "show this help", "help"),
    ("F11", "full screen on / off (the window can also be resized)", ""),
    ("Esc", "back to the launcher", "back"),
]


HELP_LINE_SIZE = 17  # the footer's key line is never drawn smaller than this: entries go first
ALWAYS_SHOWN = ("h or ?", "Esc")  # what the shortest help line still says
LEAVE_CONFIRM_MS = 3000  # Esc while a training runs asks; Esc again within this time leaves
PROGRESS_FILE, CHOICES_FILE = "in_progress.json", "choices.json"  # in the data folder, an entry per game


def help_line_of(keys: list[tuple], max_width: int | None = None) -> str:
    """The bottom help line from key entries (keys, does[, short]): those with a short word, in order. Given
    a width, entries are left out from the end (the help and back keys stay) until it fits at a readable size."""
    entries = [(k[0], f"{k[0].replace(' / ', '/')}: {k[2]}") for k in keys if len(k) > 2 and k[2]]
    line = "  ".join(e for _, e in entries)
    if max_width is None:
        return line
    from arcade.ui import text

    font = text.font(HELP_LINE_SIZE)
    while font.size(line)[0] > max_width:
        droppable = [i for i, (key, _) in enumerate(entries) if key not in ALWAYS_SHOWN]
        if not droppable:
            break
        entries.pop(droppable[-1])
        line = "  ".join(e for _, e in entries)
    return line


class Screen:
    def handle_event(self, event) -> bool:
        """Handle one event; True if it was consumed (the app then ignores it, e.g. Esc)."""
        return False

    def update(self, dt_ms: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        pass

    def close(self) -> None:
        pass

    def busy(self) -> bool:
        """Whether anything on the screen moves by itself now (an animation, an agent, a message fading).
        When nothing does, the app sleeps until the next input instead of drawing 60 frames a second."""
        return False


class GameScreen(Screen):
    """A game's screen with the shared HUD and agent control. Subclasses set game_id and hooks."""

    game_id = ""
    TRAIN_KEY = pygame.K_t  # a screen whose game uses t (blackjack's take) names another
    LEARN_KEY = pygame.K_l
    VARIANT_CHOICES: tuple[str, ...] = ()  # the kept choices (extra_choices) that hold the game's variant

    def __init__(self, app, agent: str | None = None, seed: int | None = None, **rule_overrides):
        self.app = app
        self.settings = app.settings
        self.info = game_info(self.game_id)
        self.rules = make_rules(self.game_id, self.settings, **rule_overrides)
        self.controller = AgentController(self.game_id, self.rules, self.settings, agent=agent)
        self.seats = Seats(self.controller)  # two-player screens name the opponent and the person's seat
        self.values = ValueView(self.controller)
        self.stats = Statistics(self.settings.data_dir)
        self.last_player: str | None = None  # who played the last recorded game (the statistics view marks it)
        self.overlay: str | None = None  # "panel" or "stats" while one is shown
        self.stepping = False  # `.`: the agent owes exactly one move
        self.show_help = False
        self._over_ms = 0.0  # time since the game ended, for restart_when_over
        self.toast: tuple[str, float] | None = None  # message, ms left
        self.session: GameSession | None = None  # the game in progress, where the screen keeps one
        self.trainer = TrainingView()  # `t`: a training in the background and its learning curve
        self._leave_asked: int | None = None  # when Esc during a training asked to be sure
        configured = self.settings.seeds.game
        self.seed = seed if seed is not None else (fresh_seed() if configured < 0 else configured)
        self.fixed_seed = seed is not None or configured >= 0
        if agent is not None:
            self.controller.set_enabled(True)

    # --- hooks for subclasses ------------------------------------------------
    def game_keys(self) -> list[tuple]:
        """The screen's own keys: (keys, what they do, a short word for the help line or nothing)."""
        return []

    def shared_keys(self) -> list[tuple]:
        """The keys every game screen has, with t and l where an agent of this game trains or learns."""
        keys = list(SHELL_KEYS)
        specs = self.controller.specs
        if any(s.can(Trains) for s in specs):
            name = pygame.key.name(self.TRAIN_KEY)
            keys.insert(4, (f"{name} / Shift+{name}", "train the learning agent in the background (again: stop "
                                                         "and save) / from scratch", "train"))
        if any(s.can(LearnsWhilePlaying) for s in specs):
            keys.insert(4, (pygame.key.name(self.LEARN_KEY), "learning on / off (an agent that learns while it "
                                                              "plays)", "learning"))
        return keys

    def help_line(self, max_width: int | None = None) -> str:
        """The footer's key line (fitted to max_width where given: h shows every key)."""
        return help_line_of(self.game_keys() + self.shared_keys(), max_width)

    def status_text(self) -> str:
        return ""

    def agent_state(self):
        """The state the agent decides in, or None when it may not move now (by default: the session's state
        until the game ends)."""
        return self.shown_state()

    def agent_active(self) -> bool | None:
        """Whether the agent plays the current turn (None: whenever it is in control)."""
        return None

    def apply_agent_action(self, action) -> None:
        pass

    def handle_game_event(self, event) -> bool:
        return False

    def update_game(self, dt_ms: float) -> None:
        pass

    def draw_game(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pass

    def control_label(self) -> str:
        return self.controller.name if self.controller.enabled else "You"

    def shown_state(self):
        """The state on screen whose values `v` shows (None when the game is over)."""
        return None if self.session is None or self.session.over else self.session.state

    def animating(self) -> bool:
        """Whether the game itself is moving (tiles sliding, gems falling, an opponent's turn, training)."""
        return False

    def busy(self) -> bool:
        if (self.toast or self.stepping or self.values.pending or self.controller.enabled or self.animating()
                or self.trainer.running or self.values.wants(self.shown_state())):
            return True  # (values wanted for a state an opponent's move just made: the frame that asks must come)
        if any(c.thinking or c.getting_ready is not None or c.progress() is not None for c in self.controllers()):
            return True
        return self.agent_state() is not None and bool(self.agent_active())

    def show_state(self, state) -> None:
        """Put `state` on the board as it is (no animation, no history)."""
        self.session.show(state)

    def draw_values(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Draw self.values on the board (called while `v` is on)."""

    def statistics_player(self) -> str | None:
        """The statistics row of whoever plays now (you, or the agent in control), as record_game names it;
        None where the screen names rows otherwise."""
        return None

    def statistics_histogram(self) -> str:
        """What the statistics view's histogram counts (the bucket passed to record_game)."""
        return "histogram"

    def controllers(self) -> list:
        """Every agent controller of the screen (a two-player screen may have an opponent's too)."""
        return [self.controller]

    # --- the game session ----------------------------------------------------
    def open_session(self, seed: int | None = None, rules=None) -> GameSession:
        """A new game session for the screen's rules (or `rules`) from `seed` (default: the screen's seed);
        an agent that learns while it plays sees every state it reaches."""
        self.session = GameSession(rules or self.rules, self.seed if seed is None else seed)
        self.session.listen(self._show_learner)
        return self.session

    def game_state(self):
        """The state of the game in progress, finished or not (None where the screen keeps no session)."""
        return self.session.state if self.session is not None else None

    def _show_learner(self, state) -> None:
        agent = self.controller.cached_agent()
        if isinstance(agent, LearnsWhilePlaying):
            agent.observe(state)

    # --- shared behaviour ----------------------------------------------------
    def refusal(self) -> str | None:
        """Why the person may not move now, or None (the seats' one guard, on the session's game)."""
        if self.session is None:
            return None
        return self.seats.refusal(self.session.over, self.session.to_move)

    @property
    def human_may_move(self) -> bool:
        return self.refusal() is None

    def next_seed(self) -> int:
        """The seed of the next game: the next number for a fixed seed, else a fresh one."""
        self.seed = self.seed + 1 if self.fixed_seed else fresh_seed()
        return self.seed

    def restart_when_over(self, dt_ms: float, over: bool, pause_ms: float, restart) -> None:
        """While the agent plays, call restart() `pause_ms` after a game ends, so watching never stalls."""
        if over and self.controller.enabled:
            self._over_ms += dt_ms
            if self._over_ms >= pause_ms:
                self._over_ms = 0.0
                restart()
        else:
            self._over_ms = 0.0

    # --- a game in progress, kept when the screen closes (Esc, quitting) and resumed when it opens ----------
    def progress_snapshot(self) -> dict | None:
        """The game in progress as JSON-able data (None: nothing worth keeping, e.g. it is over or unstarted).
        By default the session's snapshot; screens add what else they need (a board size) with extra_snapshot."""
        if self.session is None or self.session.over or not self.session.moves:
            return None
        return {"session": self.session.snapshot(), **self.extra_snapshot()}

    def extra_snapshot(self) -> dict:
        return {}

    def resume_from(self, snapshot: dict) -> None:
        """Continue the game of a snapshot (raise ValueError/KeyError/TypeError if it does not fit)."""
        self.rules_for_snapshot(snapshot)
        session = GameSession.restore(self.rules, snapshot["session"])
        self.seed = session.seed
        self.session = session
        session.listen(self._show_learner)
        self.controller.invalidate()

    def rules_for_snapshot(self, snapshot: dict) -> None:
        """Set the screen's rules to those of a kept game (e.g. its board size) before it is restored."""

    def keep_progress(self) -> None:
        """Write this game's snapshot to the data folder (or drop it when the game is over)."""
        PerGame(self.settings.data_dir, PROGRESS_FILE).put(self.game_id, self.progress_snapshot())

    def try_resume(self, seed_given: bool) -> None:
        """Resume the kept game, unless a seed was asked for (a replay must start afresh)."""
        if seed_given or self.settings.seeds.game >= 0:
            return
        snapshot = PerGame(self.settings.data_dir, PROGRESS_FILE).get(self.game_id)
        if not isinstance(snapshot, dict):
            return
        try:
            self.resume_from(snapshot)
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            self.say(f"the kept game could not be resumed ({type(exc).__name__}); a new game starts")
            return
        self.say("your game is back where you left it (r starts a new one)", 3500)

    # --- the player's choices (agent, delay, the screen's own), kept per game across screens and runs ------
    def extra_choices(self) -> dict:
        """The screen's own choices worth keeping (a board size, a side, a deck) as JSON-able data."""
        return {}

    def apply_extra_choices(self, choices: dict) -> None:
        """Take back the screen's own kept choices (ValueError / KeyError / TypeError if they do not fit)."""

    def choices(self) -> dict:
        return {"agent": self.controller.name, "delay_ms": self.controller.delay_ms, "values": self.values.on,
                **self.extra_choices()}

    def keep_choices(self) -> None:
        """Write this game's choices to the data folder when the screen closes, if they changed."""
        now = self.choices()
        if now != getattr(self, "_choices_at_open", None):
            PerGame(self.settings.data_dir, CHOICES_FILE).put(self.game_id, now)

    def restore_choices(self, agent_given: bool = False, given: tuple[str, ...] = ()) -> None:
        """Take back the choices kept when this game's screen last closed (an agent asked for wins, and so do
        the screen's own choices named in `given`: they keep the values the screen opened with)."""
        from arcade.control import DELAY_STEPS_MS

        choices = PerGame(self.settings.data_dir, CHOICES_FILE).get(self.game_id)
        if not isinstance(choices, dict):
            self._choices_at_open = self.choices()
            return
        if given:  # rules parameters from the command line: the screen's choices that hold the variant give way
            given = (*given, *self.VARIANT_CHOICES)
        choices = {**choices, **{k: v for k, v in self.extra_choices().items() if k in given}}
        names = [s.name for s in self.controller.specs]
        if not agent_given and choices.get("agent") in names:
            # first, so the variant restored next is checked against the agent that will play it: a default
            # agent that cannot play it is not announced as replaced by another when the kept one takes over
            self.controller.select(choices["agent"])
        try:
            self.apply_extra_choices(choices)
        except (ValueError, KeyError, TypeError):
            pass  # a choice this version no longer offers: its default stays
        self.keep_playable(self.controller)
        if choices.get("delay_ms") in DELAY_STEPS_MS:
            self.controller.delay_ms = choices["delay_ms"]
        if isinstance(choices.get("values"), bool):
            self.values.on = choices["values"]
        self._choices_at_open = self.choices()

    def sound(self, name: str) -> None:
        """Play an effect of arcade.sound (nothing where the screen has no sound, e.g. a render)."""
        if self.app.sounds is not None:
            self.app.sounds.play(name)

    def record_game(self, player: str, score: float, result: str | None = None, bucket: str | None = None) -> None:
        """A game has ended: add it to the statistics kept across runs (once per game)."""
        if result is not None:
            self.sound({"win": "win", "loss": "lose", "draw": "draw"}[result])
        self.stats.record(self.game_id, player, score, result, bucket)
        self.last_player = player

    def values_for(self, state) -> dict | None:
        """The selected agent's values of `state` if they are known (the value view is on), else None."""
        return self.values.current(state) if self.values.on else None

    def value_status(self) -> str:
        """One line about the values shown: their figures, or why there are none."""
        if not self.values.explains:
            return f"{self.controller.name} has no values to show (it does not explain its moves)"
        if self.values.error:
            return self.values.error
        if self.shown_state() is None:
            return f"{self.controller.name}: no values, nothing is left to decide (the game or round is over)"
        if self.values.values is None or self.values.agent != self.controller.name:
            return f"{self.controller.name} is working out its values..."  # never the previous agent's figures
        return f"{self.controller.name}: {self.values.caption()}"

    def _select_playable(self, step: int) -> None:
        """Tab: the next agent that can play these rules; say why others were skipped."""
        skipped = self.controller.cycle(step)
        spec = self.controller.spec
        note = f"  (skipped: {'; '.join(skipped)})" if skipped else ""
        self.say(f"agent: {spec.name} ({spec.summary}){note}", 4000 if skipped else 2500)
        self._warm_up_if_heavy()

    def keep_playable(self, controller, role: str = "agent") -> None:
        """After new rules: a controller whose agent cannot play them moves to one that can, saying why;
        heavy agents start loading their tables now, not on their first move."""
        why = controller.spec.cannot_play(self.rules)
        if why:
            controller.cycle(1)
            self.say(f"{why}; the {role} is now {controller.name}", 4500)
        self._warm_up_if_heavy(controller)

    def _warm_up_if_heavy(self, controller=None) -> None:
        """Agents that decide in the agent process start there now (a table loads before the first move)."""
        controller = controller or self.controller
        if controller.spec.process:
            controller.warm_up()

    def step_once(self) -> None:
        """`.`: the selected agent plays exactly one move for whoever is to move, then control is back."""
        why = self.controller.spec.cannot_play(self.rules)
        if why:
            self.say(why)
            return
        if self.controller.enabled:
            self.controller.set_enabled(False)
        if self.agent_state() is None:
            self.say("nothing to play: the game is over" if self.shown_state() is None else "wait for the other side")
            return
        self.stepping = True

    # --- capabilities: training (t) and learning while playing (l) ----------------------------------------
    def toggle_training(self, from_scratch: bool = False) -> None:
        said = self.trainer.toggle(self.controller.spec, self.controller.specs, self.rules, self.settings, self.seed,
                                   from_scratch, pygame.key.name(self.TRAIN_KEY))
        self.say(said)

    def _poll_training(self) -> None:
        finished = self.trainer.poll()
        if finished is None:
            return
        saved, message = finished
        self.say(message, 4000 if saved else 5000)
        if saved:
            self.controller.set_rules(self.rules)  # the agents are rebuilt from the new table...
            self.controller.warm_up()  # ...now, so its values come back without a move
            self.values.forget()

    def toggle_learning(self) -> None:
        if not self.controller.spec.can(LearnsWhilePlaying):
            learners = [s.name for s in self.controller.specs if s.can(LearnsWhilePlaying)]
            self.say(f"{pygame.key.name(self.LEARN_KEY)} toggles learning of an agent that learns while it plays "
                     f"(Tab to {' or '.join(learners) or 'one'} first)")
            return
        agent = self.controller.cached_agent(build=True)
        agent.set_learning(not agent.is_learning())
        self.say(f"{self.controller.name}: learning {'on' if agent.is_learning() else 'off (greedy, no updates)'}")

    def training_rect(self, board: pygame.Rect) -> pygame.Rect:
        """Where the training panel (bar and learning curve) goes: by default a card over the lower right of
        the board area. Screens with a side panel give a place in it."""
        w = max(260, min(420, board.w * 2 // 5))
        h = max(170, min(300, board.h // 2))
        return pygame.Rect(board.right - w - 8, board.bottom - h - 8, w, h)

    def keeps_curve(self) -> bool:
        """Whether the last learning curve stays on screen after training ends (where it has its own place)."""
        return False

    def agent_panel_lines(self):
        spec = self.controller.spec
        params = []
        for entry in spec.params:  # a field of the game's table, or "table.field" of a shared one ([search])
            name, _, key = entry.rpartition(".")
            table = getattr(self.settings, name) if name else self.settings.for_game(self.game_id)
            value = getattr(table, key)
            params.append((f"[{name or self.info.table}] {key}", f"{value:g}" if isinstance(value, float)
                           else str(value), course_value(table, key) == value))
        figures = self.controller.last_figures
        shown = ", ".join(ms_text(v) if k == "ms" else f"{k} {v:,.0f}" if isinstance(v, (int, float)) else f"{k} {v}"
                          for k, v in figures.items())
        agent = self.controller.cached_agent()
        described = agent.describe() if isinstance(agent, Describes) else []
        return spec.name, spec.about, params, shown, described

    def say(self, message: str, ms: float = 2500) -> None:
        self.toast = (message, ms)

    def _leaving_while_training(self) -> bool:
        """Esc while a training runs: the first asks (one line); the second, within LEAVE_CONFIRM_MS, hands the
        training to the app, which stops it, lets it save and says what was saved (it was killed unsaid, its
        curve gone). True when the screen may close."""
        now = pygame.time.get_ticks()
        if self._leave_asked is None or now - self._leave_asked > LEAVE_CONFIRM_MS:
            self._leave_asked = now
            key = pygame.key.name(self.TRAIN_KEY)
            self.say(f"a training is running: Esc again leaves, and it stops and saves what it learnt (a line says "
                     f"when); {key} stops it here and keeps the curve", LEAVE_CONFIRM_MS)
            return False
        self.trainer.job.stop()
        self.app.keep_finishing(self.trainer)
        self.trainer = TrainingView()
        return True

    def handle_event(self, event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.trainer.running \
                and not (self.show_help or self.overlay):
            return not self._leaving_while_training()  # (not consumed: the app leaves the screen)
        if event.type == pygame.KEYDOWN:
            if self.show_help or self.overlay:
                self.show_help, self.overlay = False, None
                return True
            if event.key in ENTER_KEYS:
                self.controller.toggle()
                return True
            if event.key == pygame.K_TAB:
                self._select_playable(-1 if event.mod & pygame.KMOD_SHIFT else 1)
                return True
            if event.key == pygame.K_v:
                on = self.values.toggle()
                # never the legend of an earlier state: it may name the other side
                current = self.values.current(self.shown_state()) is not None
                self.say(("values on: " + (self.values.legend if current and self.values.legend
                                           else f"{self.controller.name}'s view of each move, for the side to move")
                          if self.values.explains else f"values on, but {self.controller.name} has none to show")
                         if on else "values off")
                return True
            if event.key == pygame.K_PERIOD or event.unicode == ".":
                self.step_once()
                return True
            if event.key == pygame.K_i:
                self.overlay = "panel"
                return True
            if event.key == pygame.K_k:
                self.overlay = "stats"
                return True
            if event.key == pygame.K_m and self.app.sounds is not None:
                muted = self.app.sounds.toggle_mute()
                self.say("sound off (m turns it on)" if muted else
                         "sound on" if self.app.sounds.available else "sound on, but no audio device plays it")
                return True
            if event.key in PLUS_KEYS or event.unicode == "+":
                self.controller.change_delay(+1)
                return True
            if event.key in MINUS_KEYS:
                self.controller.change_delay(-1)
                return True
            if event.key == pygame.K_h or event.unicode == "?":
                self.show_help = True
                return True
            if event.key == self.TRAIN_KEY and any(s.can(Trains) for s in self.controller.specs):
                self.toggle_training(from_scratch=bool(event.mod & pygame.KMOD_SHIFT))
                return True
            if event.key == self.LEARN_KEY and any(s.can(LearnsWhilePlaying) for s in self.controller.specs):
                self.toggle_learning()
                return True
        if self.handle_game_event(event):
            return True
        if event.type == pygame.KEYDOWN and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            why = self.idle_key_reason(event.key)
            if why:
                self.say(why, 4000)
                return True
        return False

    def idle_key_reason(self, key: int) -> str | None:
        """Why the train or learn key does nothing on this screen (no agent of this game has that capability),
        with where it does something; None for any other key."""
        for wanted, capability, doing in ((self.TRAIN_KEY, Trains, "trains"),
                                          (self.LEARN_KEY, LearnsWhilePlaying, "learns while it plays")):
            if key == wanted and not any(s.can(capability) for s in self.controller.specs):
                elsewhere = [f"{game_info(g).title}'s {s.name}" for g in game_ids() if g != self.game_id
                             for s in agents_for(g, capability)]
                where = f" ({', '.join(elsewhere)} {'do' if len(elsewhere) > 1 else 'does'})" if elsewhere else ""
                return (f"{pygame.key.name(key)} does nothing here: no {self.info.title} agent {doing} yet"
                        f"{where}")
        return None

    def update(self, dt_ms: float) -> None:
        self._poll_training()
        self.update_game(dt_ms)
        if self.toast:
            msg, left = self.toast
            self.toast = (msg, left - dt_ms) if left > dt_ms else None
        self.values.refresh(self.shown_state())  # asked before the move, so values come first in the queue
        state = self.agent_state()
        if state is None:
            self.stepping = self.stepping and self.shown_state() is not None  # waits for an animation
            return
        action = self.controller.poll(state, True if self.stepping else self.agent_active())
        if action is not None:
            self.stepping = False
            self.apply_agent_action(action)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(palette.BACKGROUND)
        board = hud.board_rect(surface)
        self.draw_game(surface, board)
        if self.values.on:
            self.draw_values(surface, board)
        self.trainer.draw(surface, self.training_rect(board), self.keeps_curve(), pygame.key.name(self.TRAIN_KEY),
                          room=board)
        hud.draw_frame(surface, hud.HudInfo(
            title=self.info.title,
            status=self.status_text(),
            control=self.control_label(),
            agent_state=self.controller.status(),
            agent_name=self.controller.name,
            delay_ms=self.controller.delay_ms,
            help_line=self.help_line(surface.get_width() - 28),
            seed=str(self.seed),
        ))
        progress = next((p for p in (c.progress() for c in self.controllers()) if p is not None), None)
        if progress is not None:
            hud.draw_progress(surface, progress.line(), progress.fraction)
        if self.toast:
            hud.draw_toast(surface, self.toast[0])
        elif self.controller.error:
            hud.draw_toast(surface, self.controller.error, palette.BAD)
        if self.show_help:
            hud.draw_help_overlay(surface, self.info.title, [k[:2] for k in self.game_keys() + self.shared_keys()])
        elif self.overlay == "panel":
            panels.draw_agent_panel(surface, *self.agent_panel_lines())
        elif self.overlay == "stats":
            tallies = self.stats.of(self.game_id)
            rows = sorted(tallies.items(), key=lambda kv: -kv[1].games)
            now = self.statistics_player()  # the current player's histogram, where it has games; else the last's
            panels.draw_statistics(surface, self.info.title, rows, self.rules.players == 2,
                                   self.statistics_histogram(), now if now in tallies else self.last_player)

    def close(self) -> None:
        self.trainer.kill()
        self.keep_choices()
        self.controller.close()
