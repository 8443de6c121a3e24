"""The dots and boxes screen: draw lines by mouse or keyboard against a chosen opponent.

The agent in the HUD (Enter, Tab) plays your side when you hand it over; the
opponent (`o` cycles through the game's agents, the weakest first) always plays
the other side. With `v`, every undrawn line is coloured by the selected agent's
value of it for the side to move.
"""
from __future__ import annotations

import pygame

from arcade.control import AgentController
from arcade.games import make_rules
from arcade.games.dots import GAME, SIZES, Board, completed_by, owners
from arcade.screens.base import GameScreen
from arcade.seats import Seats
from arcade.ui import hud, palette, text
from arcade.ui.geometry import overlay_scale
from arcade.screens.dots import painter

SIZE_KEYS = dict(zip((pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5), SIZES, strict=True))
ARROWS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1)}
PANEL_SCORES_H = 170  # px of the side panel's top its scores, opponent and boxes left take


class DotsScreen(GameScreen):
    game_id = GAME.id
    once_keys = frozenset((pygame.K_f, pygame.K_o))  # (a held one acts once)
    HISTOGRAM = "box margin at the end (yours minus the opponent's)"
    VARIANT_CHOICES = ("board",)  # rows x cols

    def __init__(self, app, agent=None, seed=None, size=None):
        super().__init__(app, agent=agent, seed=seed, size=size)
        self.opponent = AgentController(self.game_id, self.rules, self.settings)
        self.opponent.select(self.opponent.specs[-1].name)  # the weakest (the registry lists the strongest first)
        self.opponent.set_enabled(True)  # the opponent always plays its side
        self.seats = Seats(self.controller, self.opponent)
        self.trainer.place = self._training_place
        self.hover: int | None = None
        self.cursor = 0
        self.restart()

    # --- game flow -----------------------------------------------------------
    def restart(self, size: tuple[int, int] | None = None) -> None:
        if size is not None and size != (self.rules.rows, self.rules.cols):
            self.rules = make_rules(self.game_id, self.settings, rows=size[0], cols=size[1])
            self.controller.set_rules(self.rules)
            self.opponent.set_rules(self.rules)
            self.say(self.controller.keep_playable(self.rules), 4500)
            self.say(self.opponent.keep_playable(self.rules, "opponent"), 4500)
        self.open_session()
        self.final_names: tuple[str, str] | None = None  # who played each seat of the finished game
        self.cursor = 0
        self.controller.invalidate()
        self.opponent.invalidate()

    @property
    def human_seat(self) -> int:
        return self.seats.person

    @human_seat.setter
    def human_seat(self, seat: int) -> None:
        self.seats.person = seat

    @property
    def state(self):
        return self.session.state

    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def over(self) -> bool:
        return self.rules.is_terminal(self.state)

    def draw_line(self, bit: int, by: str = "you") -> bool:
        if self.over or (self.state.lines >> bit) & 1:
            return False
        before = self.state.lines
        if not self.session.play(bit, by):
            return False
        if completed_by(self.board, before, bit):
            self.sound("box")
        if self.over:
            self.final_names = (self.seat_name(0), self.seat_name(1))
            mine, theirs = self.state.scores[self.human_seat], self.state.scores[1 - self.human_seat]
            result = "win" if mine > theirs else "loss" if mine < theirs else "draw"
            self.record_game(f"{self.seat_name(self.human_seat)} vs {self.opponent.name} ({self.board.rows}x"
                             f"{self.board.cols})", mine, result, f"{mine - theirs:+d}")
        return True

    def extra_choices(self) -> dict:
        return {"board": [self.rules.rows, self.rules.cols], "seat": self.human_seat, "opponent": self.opponent.name}

    def apply_extra_choices(self, choices: dict) -> None:
        rows, cols = (int(v) for v in choices["board"])
        self.human_seat = 1 if choices.get("seat") == 1 else 0
        if choices.get("opponent") in [s.name for s in self.opponent.specs]:
            self.opponent.select(choices["opponent"])
        self.restart((rows, cols) if (rows, cols) != (self.rules.rows, self.rules.cols) else None)
        self.say(self.opponent.keep_playable(self.rules, "opponent"), 4500)

    def seat_name(self, seat: int) -> str:
        """Who plays a seat: you, or the agent you handed your side to, or the opponent; once the game is over,
        who played it (taking control back afterwards does not relabel a finished game)."""
        if self.over and self.final_names:
            return self.final_names[seat]
        return self.seats.name(seat)

    # --- GameScreen hooks ----------------------------------------------------
    def game_keys(self):
        return [("click", "draw the highlighted line (the one nearest the mouse)", "draw"),
                ("arrows + space", "move the line cursor, draw the line", ""),
                ("1 - 5", "a board of 2x2, 2x3, 3x3, 4x4 or 5x5 boxes", "size"),
                ("f", "move first / second (restarts)", "first/second"),
                ("o", "next opponent (the game's agents, weakest first)", "opponent"), ("r", "restart", "restart")]

    def status_text(self) -> str:
        me, other = self.seat_name(self.human_seat), self.seat_name(1 - self.human_seat)
        if me == other:
            me, other = f"{me} (first)" if self.human_seat == 0 else f"{me} (second)", f"{other} (opponent)"
        you, them = self.state.scores[self.human_seat], self.state.scores[1 - self.human_seat]
        who = self.seat_name(self.state.mover)
        if self.over:
            return f"{me} {you} - {them} {other}: {self.verdict()}   (r: again)"
        # the board first and whose move last: in a narrow window with long agent names the line is cut at its
        # end, and the side panel marks whose move it is too
        return f"{self.board.rows}x{self.board.cols} board   {me} {you} - {them} {other}   {who} to move"

    def verdict(self) -> str:
        """The result of a finished game in words, for the side you play: "You win", "solver wins", "A draw"."""
        you, them = self.state.scores[self.human_seat], self.state.scores[1 - self.human_seat]
        if you == them:
            return "A draw"
        winner = self.seat_label(self.human_seat if you > them else 1 - self.human_seat)
        return "You win" if winner == "You" else f"{winner} wins"

    def seat_label(self, seat: int) -> str:
        """A seat's name as shown: "You", else the agent's name as the agent list writes it (never
        capitalised), the other side's marked "(opponent)" when one agent plays both."""
        name = self.seat_name(seat)
        if name == "you":
            return "You"
        if seat != self.human_seat and name == self.seat_name(self.human_seat):
            return f"{name} (opponent)"
        return name

    def control_label(self) -> str:
        side = "first" if self.human_seat == 0 else "second"
        return f"{self.controller.name if self.controller.enabled else 'You'} ({side}) vs {self.opponent.name}"

    def agent_state(self):
        return None if self.over or self.state.mover != self.human_seat else self.state

    def apply_agent_action(self, action) -> None:
        self.draw_line(int(action), self.controller.name)

    def update_game(self, dt_ms: float) -> None:
        if not self.over and self.state.mover != self.human_seat:
            action = self.opponent.poll(self.state, active=True)
            if action is not None:
                self.draw_line(int(action), self.opponent.name)

    def handle_game_event(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.hover = self._line_near(event.pos)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            line = self._line_near(event.pos)
            if line is not None:
                self._human_draw(line)
                return True
            return False
        if event.type != pygame.KEYDOWN:
            return False
        if event.key in ARROWS:
            self.cursor = self._step_cursor(ARROWS[event.key])
        elif event.key == pygame.K_SPACE:
            self._human_draw(self.cursor)
        elif event.key in SIZE_KEYS:
            self.restart(SIZE_KEYS[event.key])  # an agent that builds tables for it shows their progress bar
        elif event.key == pygame.K_f:
            self.human_seat = 1 - self.human_seat
            self.restart()
            self.say("you move " + ("first" if self.human_seat == 0 else "second"))
        elif event.key == pygame.K_o:
            skipped = self.opponent.cycle(-1)  # from the weakest up
            note = f"  (skipped: {'; '.join(skipped)})" if skipped else ""
            self.say(f"opponent: {self.opponent.name} ({self.opponent.spec.summary}){note}", 4000 if skipped else 2500)
        elif event.key == pygame.K_r:
            self.restart()
        else:
            return False
        return True

    def _human_draw(self, line: int) -> None:
        why = self.refusal()
        if why:
            self.say(why)
        elif self.draw_line(line):
            self.cursor = self._nearest_free(line)  # the cursor leaves the line just drawn, so its colour shows
        else:
            self.say("that line is already drawn")

    # --- geometry --------------------------------------------------------------
    def _usable(self) -> pygame.Rect:
        """The board's area: left of the side panel (and the value labels' room), as wide as the board, the
        board and the panel together centred in a wide window."""
        area, k = hud.board_rect(self.app.surface), overlay_scale(self.app.surface)
        full = pygame.Rect(area.x + 36, area.y + 24, area.w - 36 - round(326 * k) - 10, area.h - 48)
        board_w = min(full.w // self.board.cols, full.h // self.board.rows) * self.board.cols
        return pygame.Rect(full.x + (full.w - board_w) // 2, full.y, board_w, full.h)

    def _geometry(self):
        return painter.dots_geometry(self._usable(), self.board.rows, self.board.cols)

    def _dot(self, r: int, c: int):
        ox, oy, gap = self._geometry()
        return ox + c * gap, oy + r * gap

    def _midpoints(self) -> list[tuple[float, float]]:
        """The middle of every line on screen, by line (kept while the board and window stay: a mouse move
        tests every line)."""
        key = (self._geometry(), self.board.rows, self.board.cols)
        if getattr(self, "_midpoints_of", (None,))[0] != key:
            ox, oy, gap = key[0]
            ends = [self.board.line_ends(bit) for bit in range(self.board.n_lines)]
            self._midpoints_of = (key, [(ox + (c1 + c2) * gap / 2, oy + (r1 + r2) * gap / 2)
                                        for (r1, c1), (r2, c2) in ends])
        return self._midpoints_of[1]

    def _midpoint(self, bit: int) -> tuple[float, float]:
        return self._midpoints()[bit]

    def _line_near(self, pos) -> int | None:
        """The undrawn line whose middle is nearest the point, if near enough."""
        _, _, gap = self._geometry()
        best, best_d = None, (gap * 0.5) ** 2
        middles, lines = self._midpoints(), self.state.lines
        for bit in range(self.board.n_lines):
            if (lines >> bit) & 1:
                continue
            mx, my = middles[bit]
            d = (mx - pos[0]) ** 2 + (my - pos[1]) ** 2
            if d < best_d:
                best, best_d = bit, d
        return best

    def _nearest_free(self, line: int) -> int:
        """The undrawn line whose middle is nearest `line`'s (`line` itself when none is left)."""
        middles = self._midpoints()
        cx, cy = middles[line]
        free = [bit for bit in range(self.board.n_lines) if not (self.state.lines >> bit) & 1]
        return min(free, key=lambda bit: (middles[bit][0] - cx) ** 2 + (middles[bit][1] - cy) ** 2, default=line)

    def _step_cursor(self, direction) -> int:
        """The nearest undrawn line whose middle lies in that direction from the cursor's."""
        middles = self._midpoints()
        cx, cy = middles[self.cursor]
        dx, dy = direction
        best, best_score = self.cursor, None
        for bit in range(self.board.n_lines):
            if (self.state.lines >> bit) & 1:
                continue
            mx, my = middles[bit]
            along = (mx - cx) * dx + (my - cy) * dy
            if along <= 0:
                continue
            across = abs((mx - cx) * dy) + abs((my - cy) * dx)
            score = along + 2 * across
            if best_score is None or score < best_score:
                best, best_score = bit, score
        return best

    # --- drawing -------------------------------------------------------------
    def draw_game(self, surface, rect) -> None:
        painter.draw_dots(surface, self._usable(), self.state, *self.owners(),
                         (self.seat_name(0), self.seat_name(1)), self.hover if self.refusal() is None else None)
        if self.refusal() is None and not (self.state.lines >> self.cursor) & 1:
            # the keyboard cursor: the whole line, outlined, and a ring at its middle (never over a drawn line)
            (r1, c1), (r2, c2) = self.board.line_ends(self.cursor)
            a, z = self._dot(r1, c1), self._dot(r2, c2)
            radius, drawn_w, _ = self._widths()
            pygame.draw.line(surface, palette.TEXT, a, z, drawn_w + 4)
            pygame.draw.line(surface, palette.ACCENT, a, z, drawn_w)
            pygame.draw.circle(surface, palette.ACCENT, [int(v) for v in self._midpoint(self.cursor)], radius + 4, 3)
            self._draw_dots(surface)
        self._draw_panel(surface, self._side_panel(rect))
        if self.over:
            ox, oy, gap = self._geometry()
            board = pygame.Rect(ox, oy, gap * self.board.cols, gap * self.board.rows)
            you, them = self.state.scores[self.human_seat], self.state.scores[1 - self.human_seat]
            hud.draw_game_over(surface, board, self.verdict(),
                               f"{self.seat_label(self.human_seat)} {you} - {them} {self.seat_label(1 - self.human_seat)}",
                               "r: again    f: side    o: opponent", shade_alpha=110)

    def _side_panel(self, rect) -> pygame.Rect:
        """Right of the board, past the room its value labels take; wider, with larger type, in a larger
        window."""
        k = overlay_scale(self.app.surface)
        return pygame.Rect(self._usable().right + round(56 * k), rect.y + 10, round(270 * k), rect.h - 20)

    def _training_place(self, rect) -> pygame.Rect:
        """A training's place here: the side panel under the scores (the values' caption makes way for it),
        off the board."""
        panel = self._side_panel(rect)
        top = panel.y + round(PANEL_SCORES_H * overlay_scale(self.app.surface))
        return pygame.Rect(panel.x, top, panel.w, panel.bottom - top)

    def _widths(self) -> tuple[int, int, int]:
        return painter.dots_widths(self._geometry()[2])

    def _draw_dots(self, surface) -> None:
        radius = self._widths()[0]
        for r in range(self.board.rows + 1):
            for c in range(self.board.cols + 1):
                pygame.draw.circle(surface, palette.TEXT, self._dot(r, c), radius)

    def _draw_panel(self, surface, panel) -> None:
        k = overlay_scale(self.app.surface)
        big, small = round(28 * k), round(20 * k)
        y = panel.y
        seats = ((self.human_seat, self.seat_label(self.human_seat)), (1 - self.human_seat, self.seat_label(1 - self.human_seat)))
        for seat, name in seats:
            colour = palette.SEAT_COLOURS[seat]
            pygame.draw.rect(surface, colour, (panel.x, y + round(4 * k), round(18 * k), round(18 * k)),
                             border_radius=4)
            marker = "  <- to move" if self.state.mover == seat and not self.over else ""
            text.draw(surface, f"{name}: {self.state.scores[seat]}{marker}", (panel.x + round(28 * k), y), big,
                      palette.TEXT, bold=True, max_width=panel.w - round(28 * k), min_size=18)
            y += round(36 * k)
        y += round(10 * k)
        for n, line in enumerate(text.wrap(f"opponent {self.opponent.name}: {self.opponent.status()}", small,
                                           panel.w)):
            text.draw(surface, line, (panel.x, y + (small + 2) * n), small, palette.MUTED)
        y += round(48 * k)
        left = self.board.n_boxes - sum(self.state.scores)
        text.draw(surface, f"boxes left: {left}", (panel.x, y), small, palette.MUTED)
        self._panel_bottom = y + small + 2  # the values' caption goes below

    # --- values ------------------------------------------------------------
    def shown_state(self):
        return None if self.over else self.state

    def animating(self) -> bool:
        return not self.over and self.state.mover != self.human_seat  # the opponent's turn

    def owners(self) -> tuple[dict[int, int], dict[int, int]]:
        """Who drew each line and took each box, read off the session (one reading per move: drawn each frame)."""
        key = (id(self.session), len(self.session.history), self.state)
        if getattr(self, "_owners", (None,))[0] != key:
            self._owners = (key, owners([*self.session.history, self.state]))
        return self._owners[1]

    def show_state(self, state) -> None:
        """The position as it is (no moves before it: nobody owns its lines yet)."""
        if (state.rows, state.cols) != (self.rules.rows, self.rules.cols):
            self.rules = make_rules(self.game_id, self.settings, rows=state.rows, cols=state.cols)
            self.open_session()
        self.session.show(state)

    def marked_lines(self, values: dict) -> set:
        """The lines drawn thick and labelled: the best ones; none when every line is alike (a board of thick
        yellow hid the drawn lines); on a tight board only the one it would draw, so labels do not overlap."""
        if not values or min(values.values()) == max(values.values()):
            return set()
        return self.values.best() if self._geometry()[2] >= 90 else {self.values.choice()}

    def draw_values(self, surface, rect) -> None:
        """Every undrawn line coloured from purple (worst) to yellow (best) by the agent's value for the side
        to move; the best lines thick and marked, with their numbers and the hovered line's."""
        values = self.values.shown(self.state) if not self.over else None
        panel = self._side_panel(rect)  # (the caption grows upward from its foot)
        if values:
            drawn_w = self._widths()[1]
            lo, hi = min(values.values()), max(values.values())
            best = self.marked_lines(values)
            for bit, v in values.items():
                (r1, c1), (r2, c2) = self.board.line_ends(bit)
                a, z = self._dot(r1, c1), self._dot(r2, c2)
                t = 0.5 if hi == lo else (v - lo) / (hi - lo)
                colour = palette.value_colour(t)
                pygame.draw.line(surface, colour, a, z, drawn_w + 1 if bit in best else max(drawn_w - 3, 2))
                if bit in best or bit == self.hover:
                    mx, my = self._midpoint(bit)
                    shown = self.values.number(v)  # (a tiny value is 8 or 9 characters: the label grows to fit it)
                    label = pygame.Rect(0, 0, max(58, text.width(shown, 20, True) + 12), 26)
                    label.center = (int(mx), int(my))
                    pygame.draw.rect(surface, palette.PANEL, label, border_radius=6)
                    pygame.draw.rect(surface, colour, label, 2, border_radius=6)
                    text.draw(surface, shown, label.center, 20, palette.TEXT, anchor="center", bold=True)
            self._draw_dots(surface)  # over the coloured lines
        if self.trainer.running:  # the training has the side panel under the scores; the lines keep their colours
            return
        # under the side panel's scores, down to the board's bottom: smaller type before anything is left out
        top = getattr(self, "_panel_bottom", panel.y) + 16
        tie = [f"every line is worth {self.values.number(next(iter(values.values())))} to the side to move"] \
            if values and not self.marked_lines(values) else []  # (no line is marked on the board then)
        colours = [f"line colours: yellow the best for the side to move ({self.values.number(max(values.values()))}),"
                   f" purple the worst ({self.values.number(min(values.values()))})"] \
            if values and not tie else []  # (the map the values paint the free lines with, said)
        size, step, lines = text.block([self.values.status(self.shown_state())] + tie + colours
                                       + ([self.values.legend] if values else []), panel.w, panel.bottom - top,
                                       _caption_sizes(overlay_scale(self.app.surface)))
        y = max(top, panel.bottom - step * len(lines))
        for part in lines:
            text.draw(surface, part, (panel.x, y), size, palette.MUTED)
            y += step

    def close(self) -> None:
        self.opponent.close()
        super().close()


SCREEN = DotsScreen


def _caption_sizes(k: float) -> tuple[int, ...]:
    """The side panel's caption sizes, largest first: grown with the window, down to the smallest readable."""
    return tuple(sorted({round(18 * k), round(16 * k), 16, 15, 14}, reverse=True))
