"""The shared game screen: the frame every game's screen is drawn in, and the machinery around the game.

The app calls handle_event / update / draw; screens never flip the display or loop. A game's screen
subclasses GameScreen and overrides the hooks of arcade.screens.game_view.GameView (its keys, its board,
its values). The rest is shared and never names an agent or a game: the shared keys
(arcade.screens.shell_keys: Enter, Tab, v, ., i, k, ...), the panels opened over the game
(arcade.screens.overlays), training and learning keys (arcade.screens.training_keys), who plays each seat
(arcade.seats), the game session, and what is kept across runs (arcade.kept_games).
"""
from __future__ import annotations

import pygame

from agents import LearnsWhilePlaying
from arcade.control import AgentController, same_state
from arcade.games import game_info, make_rules
from arcade.finished_games import keep
from arcade.kept_games import KeptGames, variant_of
from arcade.screens.game_view import GameView
from arcade.screens.shell_keys import LAB_HEADING, LAB_KEYS, PLAY_KEYS, handle_shell_key, help_line_of
from arcade.screens.training_keys import TrainingKeys
from arcade.screens.values import ValueView
from arcade.kept_params import with_kept
from arcade.seats import Seats
from arcade.seeds import fresh_seed
from arcade.session import GameSession
from arcade.statistics import Statistics
from arcade.ui import hud, palette, panels

class GameScreen(GameView):
    """A game's screen with the shared HUD and agent control. Subclasses set game_id and the GameView hooks.

    In: the app, the agent to select (it then plays at once), a seed (a replay: never a kept game), and
    rules parameters (size=..., as the game declares them)."""

    game_id = ""

    def __init__(self, app, agent: str | None = None, seed: int | None = None, **rule_overrides):
        self.app = app
        self.settings = with_kept(app.settings, self.game_id)  # with the parameters changed on screen (Shift+i)
        self.info = game_info(self.game_id)
        self.rules = make_rules(self.game_id, self.settings, **rule_overrides)
        self.controller = AgentController(self.game_id, self.rules, self.settings, agent=agent)
        self.seats = Seats(self.controller)  # two-player screens name the opponent and the person's seat
        self.values = ValueView(self.controller)
        self.arena = None  # the screen's arena (arcade.screens.arena_view), kept while it runs in the background
        self.stats = Statistics(self.settings.data_dir)
        self.kept = KeptGames(self)
        self.trainer = TrainingKeys(self, self.TRAIN_KEY, self.LEARN_KEY)
        self.last_player: str | None = None  # who played the last recorded game (the statistics view marks it)
        self.stepping = False  # `.`: the agent owes exactly one move
        self._over_ms = 0.0  # time since the game ended, for restart_when_over
        self.toast: tuple[str, float] | None = None  # message, ms left
        self.welcome: list[str] | None = None  # the first visit's how-to-play card, until a key or a click
        self.session: GameSession | None = None  # the game in progress, where the screen keeps one
        configured = self.settings.seeds.game
        self.seed = seed if seed is not None else (fresh_seed() if configured < 0 else configured)
        self.fixed_seed = seed is not None or configured >= 0
        if agent is not None:
            self.controller.set_enabled(True)

    def help_entries(self) -> list[tuple]:
        """The help's rows: the screen's own keys and the shared player's keys, then a heading and the lab's
        (with t and l where an agent trains or learns)."""
        return self.game_keys() + PLAY_KEYS + [LAB_HEADING] + LAB_KEYS + self.trainer.keys()

    def all_keys(self) -> list[tuple]:
        """Every key of the screen: the help's rows without its heading."""
        return [row for row in self.help_entries() if row[0]]

    # --- the game session ----------------------------------------------------
    def open_session(self, seed: int | None = None, rules=None) -> GameSession:
        """A new game session for the screen's rules (or `rules`) from `seed` (default: the screen's seed);
        an agent that learns while it plays sees every state it reaches."""
        self.session = GameSession(rules or self.rules, self.seed if seed is None else seed)
        self.session.listen(self.show_learner)
        return self.session

    def show_learner(self, state) -> None:
        """Show a state the game reached to the selected agent, if it learns while it plays."""
        agent = self.controller.cached_agent()
        if isinstance(agent, LearnsWhilePlaying):
            agent.observe(state)

    def refusal(self) -> str | None:
        """Why the person may not move now, or None (the seats' one guard, on the session's game)."""
        if self.session is None:
            return None
        return self.seats.refusal(self.session.over, self.session.to_move)

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

    def resume_from(self, snapshot: dict) -> None:
        """Continue a kept game (arcade.kept_games); one of its RESUME_ERRORS if it does not fit."""
        self.kept.resume_from(snapshot)

    # --- what happened -------------------------------------------------------
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
        keep(self.settings.data_dir, self.game_id, self.session, variant_of(self.info, self.rules), player)

    def say(self, message: str | None, ms: float = 2500) -> None:
        """Show a line over the game for `ms` (nothing for None)."""
        if message:
            self.toast = (message, ms)

    # --- the frame -----------------------------------------------------------
    def busy(self) -> bool:
        if (self.toast or self.stepping or self.values.pending or self.controller.enabled or self.animating()
                or self.trainer.running or self.values.wants(self.shown_state())):
            return True  # (values wanted for a state an opponent's move just made: the frame that asks must come)
        if any(c.thinking or c.getting_ready is not None or c.progress() is not None for c in self.seats.controllers()):
            return True
        return self.agent_state() is not None and bool(self.agent_active())

    def opponent_seat(self) -> str | None:
        """The seat the selected agent plays while the person plays the other (where the selected agent is the
        opponent, as in tic-tac-toe), by the game's seat name; None where it plays no seat of its own."""
        if self.seats.opponent is not self.controller or self.rules.players != 2:
            return None
        return self.rules.seat_names[1 - self.seats.person]

    def welcome_lines(self) -> list[str]:
        """The first visit's card: the aim of the game, its first key, and how to hand over to an agent."""
        first = self.game_keys()[:1]
        keys = [f"{k[0]}: {k[1]}" for k in first]
        return [self.info.how_to or self.info.blurb, *keys,
                "Enter: an AI agent plays for you (Enter again: you play); Tab: another agent",
                "h: every key; i: what the agent is; v: its values",
                "any key or a click closes this card (it shows on the first visit only)"]

    def handle_event(self, event) -> bool:
        if self.welcome is not None and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.welcome = None  # the key or click does what it does as well, but Esc only closes the card
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                return True
        if event.type != pygame.KEYDOWN:
            return self.handle_game_event(event)
        if event.key == pygame.K_ESCAPE:
            return not self.trainer.may_leave()  # (not consumed: the app leaves the screen)
        if handle_shell_key(self, event) or self.trainer.handle(event) or self.handle_game_event(event):
            return True
        why = None if event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT) else self.trainer.idle_key_reason(event.key)
        if why:
            self.say(why, 4000)
        return why is not None

    def update(self, dt_ms: float) -> None:
        self.trainer.poll()
        self.update_game(dt_ms)
        if self.toast:
            msg, left = self.toast
            self.toast = (msg, left - dt_ms) if left > dt_ms else None
        state, shown = self.agent_state(), self.shown_state()
        moves = state is not None and (self.stepping or self.agent_active())
        # the agent's decision where it is to move is the values shown there: one search, not two
        self.values.refresh(shown, agent_moves=moves and same_state(state, shown))
        if state is None:
            self.stepping = self.stepping and shown is not None  # waits for an animation
            return
        action = self.controller.poll(state, moves)
        if action is not None:
            self.stepping = False
            self.apply_agent_action(action)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(palette.BACKGROUND)
        board = hud.board_rect(surface)
        self.draw_game(surface, board)
        if self.values.on:
            self.draw_values(surface, board)
        self.trainer.draw(surface, board)
        if self.welcome is not None:
            panels.draw_welcome(surface, board, f"{self.info.title}: how to play", self.welcome)
        hud.draw_frame(surface, hud.HudInfo(
            title=self.info.title, status=self.status_text(), control=self.control_label(),
            agent_state=self.controller.status(self.opponent_seat()), agent_name=self.controller.spec.shown,
            delay_ms=self.controller.delay_ms, help_line=help_line_of(self.all_keys(), surface.get_width() - 28),
            seed=str(self.seed)))
        self.draw_progress(surface)
        if self.toast:
            hud.draw_toast(surface, self.toast[0])
        elif self.controller.error:
            hud.draw_toast(surface, self.controller.error, palette.BAD)

    def draw_progress(self, surface: pygame.Surface) -> None:
        """The bar of long work an agent of this screen waits for (compiling kernels, building a table), if
        any; drawn last, over an overlay too, so a wait shows wherever the person is looking."""
        progress = next((p for p in (c.progress() for c in self.seats.controllers()) if p is not None), None)
        if progress is not None:
            hud.draw_progress(surface, progress.line(), progress.fraction)

    def close(self) -> None:
        if self.arena is not None:  # (an arena left running in the background ends with its screen)
            self.arena.stop()
        self.trainer.kill()
        self.kept.keep_choices()
        self.controller.close()
