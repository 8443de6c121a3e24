"""The peeking blackjack table: take, peek or quit by key or button; the deck shown as stacks."""
from __future__ import annotations

import numpy as np
import pygame

from agents import Describes, LearnsWhilePlaying
from arcade.control import Question
from arcade.games import make_rules
from arcade.games.blackjack import GAME, MDPState, RoundState

from arcade.games.blackjack import ACTIONS, PEEK, PRESETS, QUIT, TAKE, hand
from arcade.screens.base import GameScreen
from arcade.screens.blackjack import painter
from arcade.screens.training_keys import card_over
from arcade.seats import Seats
from arcade.seeds import make_rng
from arcade.ui import hud, palette, panels, text
from arcade.ui.geometry import overlay_scale

ACTION_KEYS = {pygame.K_t: TAKE, pygame.K_p: PEEK, pygame.K_q: QUIT}
PRESET_KEYS = {pygame.K_1: "small", pygame.K_2: "large", pygame.K_3: "standard", pygame.K_4: "peeking"}
AUTO_NEXT_MS = 900
DEAL_MS = 220  # a taken card flies from the pile to the hand, turning face up; a peeked card turns over
CURVE_WINDOW = 50  # rounds in the moving average of the learning curve


class BlackjackScreen(GameScreen):
    game_id = GAME.id
    HISTOGRAM = "reward per round"
    TRAIN_KEY = pygame.K_y  # t takes a card here

    def __init__(self, app, agent=None, seed=None):
        super().__init__(app, agent=agent, seed=seed)
        self.seats = Seats(self.controller, over_line="the round is over: space deals the next one")
        self.trainer.place, self.trainer.keeps_curve = self._training_place, True
        self.open_session()
        self.values.on = True  # the table shows Q on its buttons from the start (v hides them)
        self.card_move: tuple[str, float] | None = None  # (TAKE or PEEK, ms since) while the card moves
        self.strip_question = Question(self.controller, follows_moves=False)  # about the deck, not the round
        self.strip: tuple | None = None  # (deck, agent, [{action: value} per hand total]) of the policy strip
        self._strip_learnt = 0  # the learner's rounds when the strip was asked (see _learning_version)
        self.reset_totals()
        self.new_round()
        self.controller.warm_up()  # solve now, so its Q values show at once

    def reset_totals(self) -> None:
        self.rewards: dict[str, list[float]] = {}  # player -> the reward of each round it played on this deck

    @property
    def player(self) -> str:
        return self.seats.name(self.seats.person)

    @property
    def rounds(self) -> int:
        """Rounds the current player (you, or the agent in control) has played on this deck."""
        return len(self.rewards.get(self.player, ()))

    @property
    def total_reward(self) -> float:
        return float(sum(self.rewards.get(self.player, ())))

    @property
    def round(self) -> RoundState:
        return self.session.state

    def new_round(self) -> None:
        self.card_move = None
        self.session.next_game()
        self.controller.invalidate()

    @property
    def hand(self) -> list[int]:
        """The cards in hand, read off the round's states (the session's)."""
        return hand(self.rules, [*self.session.history, self.round])

    def extra_choices(self) -> dict:
        return {"preset": self.rules.preset}

    def apply_extra_choices(self, choices: dict) -> None:
        if choices["preset"] in PRESETS and choices["preset"] != self.rules.preset:
            self.set_preset(choices["preset"])

    def set_preset(self, name: str) -> None:
        self.rules = make_rules(self.game_id, self.settings, preset=name)
        self.controller.set_rules(self.rules)
        self.say(self.controller.keep_playable(self.rules), 4500)  # (an agent that cannot play this deck: the next that can, said)
        self.controller.warm_up()
        self.reset_totals()
        self.open_session()
        self.new_round()
        self.say(f"another deck: {painter.deck_title(self.rules)}", 4000)

    def do(self, action: str, by_agent: bool = False) -> bool:
        if not self.session.play(action, self.seats.mover_name(by_agent)):
            return False
        # the card moves on the table (not when an agent plays faster than the move itself takes)
        shown = not by_agent or self.controller.delay_ms >= DEAL_MS
        self.card_move = (action, 0.0) if shown and action in (TAKE, PEEK) and self.hand_changed(action) else None
        if self.round.drawn is not None:
            self.sound("card")
        if self.round.over:
            self.sound("lose" if self.round.mdp_state.total > self.rules.mdp.threshold else "win")
            self.rewards.setdefault(self.player, []).append(self.round.reward)
            self.record_game(self.statistics_player(), self.round.reward, bucket=f"{self.round.reward:+g}")
        return True

    def statistics_player(self) -> str:
        return f"{self.player} ({self.rules.preset} deck)"

    # --- values ------------------------------------------------------------
    def hand_changed(self, action: str) -> bool:
        """Whether the move put a card in the hand (Take) or turned the pile's top card (Peek)."""
        return self.round.drawn is not None if action == TAKE else self.round.mdp_state.peeked is not None

    def animating(self) -> bool:
        return self.strip_question.pending or self.card_move is not None

    def show_state(self, state) -> None:
        """The round as it is (no moves before it: no cards in hand yet)."""
        self.session.show(state)

    def strip_states(self, deck=None) -> list:
        """The states of the policy strip: every hand total with `deck` (default: as it is now), nothing peeked."""
        deck = self.round.deck if deck is None else deck
        return [RoundState(MDPState(t, None, deck), deck=deck) for t in range(self.rules.mdp.threshold + 1)]

    def _refresh_strip(self) -> None:
        """Ask the agent, off the frame loop, what it would do at each hand total with the deck as it is now (a
        decision each: its move and the values it chose it on); the cell of your hand now is the round's own
        state (a peeked card included) and, where the agent is to move there, its own decision. One total at a
        time, yours first, none while its move is being worked out, so a searching agent's move never waits
        behind the strip (the strip fills in as the answers come)."""
        c, q = self.controller, self.strip_question
        got = q.poll()
        if got is not None:
            answer, (deck, agent, total) = got
            if self.strip is None or self.strip[:2] != (deck, agent) or isinstance(self.strip[2], str):
                pass  # the strip moved on meanwhile
            elif isinstance(answer, Exception):  # shown in the strip's place; the game goes on
                self.strip = (deck, agent, f"{type(answer).__name__}: {answer}")
            else:
                self.strip[2][total] = answer.value
        learnt = self._learning_version()
        if not self.values.on or not self.values.explains or not any(self.round.deck):
            return
        deck, key = self.round.deck, self._strip_key()
        if self.strip is None or self.strip[:2] != (key, c.name) or self._strip_learnt != learnt:
            self._strip_learnt = learnt
            self.strip = (key, c.name, [None for _ in range(self.rules.mdp.threshold + 1)])
        cells = self.strip[2]
        if isinstance(cells, str):
            return
        now = self.round.mdp_state.total
        decided = c.decision_for(self.round) if not self.round.over else None
        if decided is not None and now < len(cells):  # the agent's own decision where it is to move
            cells[now] = decided.value
        if q.pending or c.thinking:
            return
        missing = sorted((t for t, v in enumerate(cells) if v is None), key=lambda t: (abs(t - now), t))
        if missing:
            t = missing[0]
            state = self.round if t == now and not self.round.over else self.strip_states(deck)[t]
            q.ask(state, "decide", rng=make_rng(self.settings.seeds.agent), about=(key, c.name, t))

    def _strip_key(self) -> tuple:
        """What the strip is of: the deck as it is and the card peeked at (your hand's cell is that state)."""
        return self.round.deck, self.round.mdp_state.peeked

    def _learning_version(self) -> int:
        """Rounds played so far when the agent learns while it plays (its strip is out of date after each one:
        it showed the first round's "T 0" in every cell all game long), else 0."""
        agent = self.controller.cached_agent()
        if isinstance(agent, LearnsWhilePlaying) and agent.is_learning():
            return sum(len(r) for r in self.rewards.values())
        return 0

    def strip_shown(self):
        """The strip to draw: the selected agent's for the deck as it is now; None if there is none yet."""
        s = self.strip
        if s is None or s[1] != self.controller.name or s[0] != self._strip_key():
            return None
        return s

    # --- GameScreen hooks ----------------------------------------------------
    def game_keys(self):
        return [("t / p / q", "take a card / peek at the next one (costs) / quit and collect", "take/peek/quit"),
                ("space", "next round", "next round"), ("1 2 3 4", "deck: small, large, standard-like, peeking", "deck"),
                ("click", "the buttons do the same")]

    def status_text(self) -> str:
        total, _, _ = self.round.mdp_state
        mean = self.total_reward / self.rounds if self.rounds else 0.0
        return (f"hand {total}/{self.rules.mdp.threshold}   this round {self.round.reward:+g}   "
                f"mean {mean:.2f} over {self.rounds} round{'s' * (self.rounds != 1)}")

    def apply_agent_action(self, action) -> None:
        self.do(str(action), by_agent=True)

    def handle_event(self, event) -> bool:
        consumed = super().handle_event(event)
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
            self.controller.warm_up()  # the new agent's values show at once
            if not self.trainer.running:
                self.trainer.view.curve = []  # (a training's kept curve gives way to the new agent's lines)
        return consumed

    def handle_game_event(self, event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for action, rect in self._buttons().items():
                if rect.collidepoint(event.pos):
                    self._human(action)
                    return True
            return False
        if event.type != pygame.KEYDOWN:
            return False
        if event.key in ACTION_KEYS:
            self._human(ACTION_KEYS[event.key])
        elif event.key == pygame.K_SPACE:
            self._human("next")
        elif event.key in PRESET_KEYS:
            self.set_preset(PRESET_KEYS[event.key])
        else:
            return False
        return True

    def _human(self, action: str) -> None:
        if action == "next":
            if self.round.over:
                self.new_round()
            else:
                self.say("finish the round first (q quits and collects)")
            return
        why = self.refusal()
        if why:
            self.say(why)
        elif not self.do(action):
            self.say("you cannot peek twice in a row" if action == PEEK else f"{action} is not possible now")

    def update_game(self, dt_ms: float) -> None:
        if self.card_move is not None:
            action, elapsed = self.card_move
            self.card_move = (action, elapsed + dt_ms) if elapsed + dt_ms < DEAL_MS else None
        self._refresh_strip()
        self.restart_when_over(dt_ms, self.round.over, AUTO_NEXT_MS + self.controller.delay_ms, self.new_round)

    # --- drawing -------------------------------------------------------------
    @staticmethod
    def _strip_fits(table: pygame.Rect) -> bool:
        """Whether the table has room for the policy strip under the deck (a small one has not)."""
        return table.bottom - 150 >= table.y + 330

    def _table(self) -> pygame.Rect:
        area = hud.board_rect(self.app.surface)
        return pygame.Rect(area.x, area.y, area.w - round(250 * self._k()), area.h)

    def _k(self) -> float:
        """How much the side column (buttons, the agent's lines) grows with the window."""
        return overlay_scale(self.app.surface)

    def _buttons(self) -> dict[str, pygame.Rect]:
        table, k = self._table(), self._k()
        x, y = table.right + 20, table.y + 10
        return {action: pygame.Rect(x, y + round(n * 66 * k), round(220 * k), round(54 * k))
                for n, action in enumerate(ACTIONS + ("next",))}

    def draw_game(self, surface, rect) -> None:
        table = self._table()
        compact = not self._strip_fits(table)  # the strip's one-line form goes under the deck
        dealing = self.card_move is not None and self.card_move[0] == TAKE
        deck_bottom = self._deck_bottom = painter.draw_blackjack(surface, table, self.rules, self.round, self.hand,
                                                                reserve=22 if compact and self.values.on else 0,
                                                                dealing=dealing)
        if self.card_move is not None:
            self._draw_card_move(surface, table)
        if deck_bottom <= table.bottom - 70:  # a small table leaves these to the HUD line
            mean = self.total_reward / self.rounds if self.rounds else 0.0
            text.draw(surface, f"round {self.round.reward:+g}", (table.right - 30, table.bottom - 70), 30,
                      palette.TEXT, anchor="topright", bold=True)
            text.draw(surface, f"{self.rounds} round{'s' * (self.rounds != 1)}, total {self.total_reward:g}, "
                      f"mean {mean:.2f}", (table.right - 30, table.bottom - 36), 22, (200, 230, 210),
                      anchor="topright")
        self._draw_buttons(surface)

    def _draw_card_move(self, surface, table: pygame.Rect) -> None:
        """The card of the last move on its way: a taken card flies from the pile to its place in the hand,
        turning face up half way; a peeked card turns over on the pile."""
        action, elapsed = self.card_move
        t = 1 - (1 - min(1.0, elapsed / DEAL_MS)) ** 2  # ease out
        pile = painter.pile_rect(table)
        hand = self.hand
        if action == TAKE:
            goal = painter.hand_slots(table, self.rules, len(hand))[-1]
            rect = pygame.Rect(round(pile.x + (goal.x - pile.x) * t), round(pile.y + (goal.y - pile.y) * t),
                               pile.w, pile.h)
            value = hand[-1]
        else:
            rect, value = pile.copy(), self.rules.mdp.card_values[self.round.mdp_state.peeked]
            painter.draw_card(surface, pile, face_down=True)  # (the painter put it face up already)
        turned = abs(1 - 2 * t)  # the card's width as it turns: 1, down to 0 half way, back to 1
        face = rect.inflate(-round(rect.w * (1 - turned)), 0)
        if face.w > 2:
            painter.draw_card(surface, face, value if t >= 0.5 else None, face_down=t < 0.5)

    def _training_place(self, board: pygame.Rect) -> pygame.Rect:
        """A training's panel goes under the buttons, in place of the agent's lines (a card over the table
        where the window leaves no room there)."""
        below = self._buttons()["next"].bottom + 16
        if board.bottom - below < 200:
            return card_over(board)
        return pygame.Rect(self._buttons()["next"].x, below, round(230 * self._k()), board.bottom - below)

    def _draw_buttons(self, surface) -> None:
        legal = set(self.rules.legal_actions(self.round))
        agent = self.controller.cached_agent()
        values = (self.values.shown(self.round) or {}) if not self.round.over else {}
        best = self.values.best() if values else set()
        keys = {TAKE: "t", PEEK: "p", QUIT: "q", "next": "space"}
        k = self._k()
        for action, rect in self._buttons().items():
            enabled = (action in legal) if action != "next" else self.round.over
            pygame.draw.rect(surface, palette.PANEL_HI if enabled else palette.PANEL, rect, border_radius=10)
            edge = palette.GOOD if action in best else palette.ACCENT if enabled else palette.BORDER
            pygame.draw.rect(surface, edge, rect, 4 if action in best else 2, border_radius=10)
            label = "Next round" if action == "next" else action
            text.draw(surface, f"{label} ({keys[action]})", (rect.x + 14, rect.centery), round(26 * k),
                      palette.TEXT if enabled else palette.MUTED, anchor="midleft", bold=enabled)
            if action in values:
                q, pays = values[action], self.round.mdp_state.total
                if action == QUIT and self.values.number(q) != self.values.number(pays):  # a learnt Q off the payoff
                    text.draw(surface, f"Q {self.values.number(q)}", (rect.right - 12, rect.centery - round(9 * k)),
                              round(18 * k), palette.GOOD, anchor="midright")
                    text.draw(surface, f"quitting pays {pays}", (rect.right - 12, rect.centery + round(11 * k)),
                              round(14 * k), palette.MUTED, anchor="midright")
                else:
                    text.draw(surface, f"Q {self.values.number(q)}", (rect.right - 12, rect.centery), round(20 * k),
                              palette.GOOD, anchor="midright")
        y = self._buttons()["next"].bottom + 20
        x = self._buttons()["next"].x
        board = hud.board_rect(surface)
        if self.trainer.shows(board) and self._training_place(board).x == x:
            return  # the training's panel has this place (its curve stays after it, until Tab)
        size, width = round(20 * k), round(230 * k)
        for line in self._agent_lines(agent):
            for part in text.wrap(line, size, width, max_lines=3):
                text.draw(surface, part, (x, y), size, palette.MUTED)
                y += size + 2
        self._draw_curve(surface, pygame.Rect(x, y + 10, width, round(150 * k)), agent)

    def _draw_curve(self, surface, rect: pygame.Rect, agent) -> None:
        """While an agent learns as it plays: its mean reward per round (moving average) against the optimum
        it reports, so the learning shows as a line closing in."""
        if not isinstance(agent, LearnsWhilePlaying) or rect.bottom > self.app.surface.get_height() - hud.BOTTOM - 10:
            return
        rewards = self.rewards.get(self.controller.name, [])
        if len(rewards) < 2:
            for k, line in enumerate(text.wrap("its learning curve appears after a few rounds it plays (Enter)", 18,
                                               rect.w, max_lines=3)):  # wrapped: it was cut at 1024
                text.draw(surface, line, (rect.x, rect.y + 20 * k), 18, palette.MUTED)
            return
        cum = np.cumsum(rewards)
        window = min(CURVE_WINDOW, len(rewards))
        avg = (cum[window - 1:] - np.concatenate([[0.0], cum[:-window]])) / window
        optimum = self.controller.last_figures.get("optimum")
        flat = [("optimum", float(optimum), palette.ACCENT)] if optimum is not None else []
        values = [float(v) for v in avg[-200:]]
        lo = min(values + [f[1] for f in flat] + [0.0])
        hi = max(values + [f[1] for f in flat]) or 1.0
        panels.draw_lines(surface, rect, [(f"mean of {window}", values, palette.GOOD)], lo, hi * 1.05,
                          x_label=f"rounds 1-{len(rewards)}", flat=flat)

    def draw_values(self, surface, rect) -> None:
        """The policy strip: for each hand total with the deck as it is, what the agent would do and its value."""
        table = self._table()
        strip = pygame.Rect(table.x + 20, table.bottom - 150, table.w - 40, 64)
        known = self.strip_shown()
        if not self._strip_fits(table):  # the same policy in one line
            self._draw_policy_line(surface, table, known)
            return
        n = self.rules.mdp.threshold + 1
        text.draw(surface, f"{self.controller.name}'s play at each hand total with this deck:",
                  (strip.x, strip.y - 22), 18, (200, 230, 210), max_width=strip.w)
        why = self._no_strip_why(known)
        if why is not None:
            text.draw(surface, why, (strip.x, strip.y + 8), 18, palette.MUTED, max_width=strip.w)
            return
        w = strip.w / n
        total = self.round.mdp_state.total
        colours = {TAKE: palette.GOOD, PEEK: palette.INFO, QUIT: palette.ACCENT}
        for t, decision in enumerate(known[2]):
            cell = pygame.Rect(int(strip.x + t * w), strip.y, max(1, int(w) - 2), strip.h)
            if decision is None:
                continue
            action, values = decision.action, decision.values
            pygame.draw.rect(surface, colours[action], cell, 0 if t == total else 2, border_radius=4)
            ink = painter.FELT_DARK if t == total else palette.TEXT
            text.draw(surface, str(t), (cell.centerx, cell.y + 3), 16, ink, anchor="midtop")
            text.draw(surface, action[0], (cell.centerx, cell.centery + 2), 22, ink, anchor="center", bold=True)
            if w >= 34:  # room for the value in the cell; else it is on the line below for your total
                text.draw(surface, text.number(values[action]), (cell.centerx, cell.bottom - 2), 14, ink,
                          anchor="midbottom")
        mine = known[2][total] if total < len(known[2]) else None
        now = f"   at your {total}: {mine.action}, value {text.number(mine.values[mine.action])}" if mine else ""
        text.draw(surface, f"T take  P peek  Q quit   (filled: your hand now){now}", (strip.x, strip.bottom + 4), 16,
                  palette.MUTED, max_width=strip.w)

    def _no_strip_why(self, known) -> str | None:
        """Why there is no policy to show (an error, no values, still working), or None if there is one."""
        if known is not None and not isinstance(known[2], str):
            return None
        return known[2] if known else (self.values.status(self.shown_state()) if not self.values.explains else "working it out...")

    def _draw_policy_line(self, surface, table: pygame.Rect, known) -> None:
        """The strip's policy as runs of hand totals ("T 0-30  P 31-35  Q 36-40"), under the deck."""
        y = getattr(self, "_deck_bottom", table.bottom) - 4
        if y + 18 > table.bottom - 4:
            return
        line = self._no_strip_why(known)
        if line is None:
            runs: list[list] = []  # [letter, first total, last total]
            for t, decision in enumerate(known[2]):
                if decision is None:
                    continue
                letter = decision.action[0]
                if runs and runs[-1][0] == letter and runs[-1][2] == t - 1:
                    runs[-1][2] = t
                else:
                    runs.append([letter, t, t])
            total = self.round.mdp_state.total
            mine = known[2][total] if total < len(known[2]) else None
            yours = f"   at your {total}: {mine.action[0]}" if mine else ""
            line = (f"{self.controller.name}: " + "  ".join(f"{a} {lo}" + (f"-{hi}" if hi > lo else "")
                                                           for a, lo, hi in runs) + yours)
        text.draw(surface, line, (table.x + 20, y), 16, (200, 230, 210), max_width=table.w - 40, min_size=13)

    def _agent_lines(self, agent) -> list[str]:
        name = self.controller.name
        if agent is None and self.controller.spec.process:  # (it lives in the agent process, not here)
            return [f"{name} decides in the agent process", "(i: what it is, v: its values)"]
        if agent is None:
            return [f"{name}: not built yet (Enter starts it)"]
        if isinstance(agent, Describes):
            return agent.describe()
        return [f"{name}: {self.controller.spec.summary}"]


SCREEN = BlackjackScreen
