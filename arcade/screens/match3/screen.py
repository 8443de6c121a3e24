"""The match-3 screen: swap gems by click, drag or keyboard; cascades animate; `n` asks the agent for a hint."""
from __future__ import annotations

import numpy as np
import pygame

from arcade.screens.match3 import colours
from arcade.control import Question
from arcade.games.match3 import GAME
from arcade.screens.base import GameScreen
from arcade.screens.match3.phases import Clear, Wobble, turn_phases
from arcade.foundation.storage import BestScores
from arcade.ui import hud, palette, text
from arcade.screens.match3 import painter

POPUP_MS = 1100
FLOAT_MS = 800  # a cleared stage's "+N" rises a cell from where its gems were and fades
VALUE_ARROWS = 5  # swaps drawn with their values while `v` is on
ARROWS = {pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1), pygame.K_UP: (-1, 0), pygame.K_DOWN: (1, 0)}


class Match3Screen(GameScreen):
    game_id = GAME.id
    HISTOGRAM = "points per game"

    def __init__(self, app, agent=None, seed=None):
        super().__init__(app, agent=agent, seed=seed)
        self.best = BestScores(self.settings.data_dir)
        self.trainer.place = self._training_place
        self.new_game()
        self.kept.try_resume(seed is not None)

    def new_game(self) -> None:
        self.best.start_game(self.game_id)
        self.open_session()
        self.selected: tuple[int, int] | None = None
        self.cursor = (self.rules.size // 2, self.rules.size // 2)
        self.drag_from: tuple[int, int] | None = None
        self.phases: list = []  # animation phases still to show (arcade.screens.match3.phases)
        self.phase_ms = 0.0
        self.popups: list[list] = []  # [text, ms left]
        self.floats: list[list] = []  # [text, row, column (the cleared gems' middle), ms left]
        self.float_places: list[tuple[int, int, int]] = []
        self.hint = None
        self.hint_question = Question(self.controller)  # answered off the frame loop
        self.controller.invalidate()

    @property
    def state(self):
        return self.session.state

    # --- turns ---------------------------------------------------------------
    def try_swap(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        swap = (*a, *b) if a <= b else (*b, *a)
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            return False
        if swap not in self.rules.legal_actions(self.state):
            self.phases = [Wobble(swap)]
            self.phase_ms = 0.0
            self.say("no line: the swap is refused (it costs nothing)")
            return False
        self.play(swap)
        return True

    def play(self, swap, by_agent: bool = False) -> None:
        before = self.state
        if not self.session.play(tuple(swap), self.seats.mover_name(by_agent)):
            return
        result = self.session.details
        self.hint = None
        self.phases = turn_phases(before.board, swap, result.stages)
        self.sound("cascade" if len(result.stages) > 1 else "clear")
        self.phase_ms = 0.0
        if result.reshuffled:
            self.say("no swap left: the board was reshuffled (not scored)", 3000)
        if self.best.after_move(self.game_id, self.state.score, self.rules.is_terminal(self.state)):
            self.say("new best score!", 3000)
        if self.rules.is_terminal(self.state):
            score = self.state.score
            movers = self.session.movers
            player = max(dict.fromkeys(movers), key=movers.count)  # who played most of it
            low = score // 5000 * 5000
            self.record_game(player, score, bucket=f"{low}-{low + 4999}")

    def close(self) -> None:
        self.best.flush()
        self.kept.keep_progress()
        super().close()

    @property
    def gems_moving(self) -> bool:
        return bool(self.phases)

    def skip_animation(self) -> None:
        self.phases, self.floats = [], []

    # --- GameScreen hooks ----------------------------------------------------
    def game_keys(self):
        return [("click, click", "pick a gem, then a neighbour to swap with", "swap"), ("drag", "swap by dragging", ""),
                ("arrows", "move the cursor; with a gem picked up, swap that way", "keyboard"),
                ("space", "pick up / put down the gem under the cursor", ""),
                ("n", "hint: the move the selected agent would make", "hint"), ("r", "new game (new seed)", "new game")]

    def status_text(self) -> str:
        s = self.state
        end = "   GAME OVER" if self.rules.is_terminal(s) else ""
        return f"score {s.score}   turns left {s.turns_left}   best {int(self.best.get('match3'))}{end}"

    def agent_state(self):
        return None if self.gems_moving or self.rules.is_terminal(self.state) else self.state

    def apply_agent_action(self, action) -> None:
        self.play(tuple(action), by_agent=True)

    def shown_state(self):
        return None if self.rules.is_terminal(self.state) else self.state

    def animating(self) -> bool:
        return bool(self.phases or self.popups or self.floats) or self.hint_question.pending

    def show_state(self, state) -> None:
        self.session.show(state)
        self.phases, self.hint, self.selected = [], None, None

    def describe_swap(self, swap) -> str:
        """A swap in words: 'swap the red gem in row 5, column 4 with the blue gem below it'."""
        r1, c1, r2, c2 = swap
        board = self.state.board
        names = colours.GEM_NAMES
        where = "below it" if r2 > r1 else "above it" if r2 < r1 else "to its right" if c2 > c1 else "to its left"
        return (f"swap the {names[int(board[r1, c1]) % len(names)]} gem in row {r1 + 1}, column {c1 + 1} "
                f"with the {names[int(board[r2, c2]) % len(names)]} gem {where}")

    def _swap_arrow(self, surface, swap, colour, width: int, label: str | None = None) -> None:
        """A double-headed arrow between the two gems of a swap, its value in the middle."""
        ox, oy, cell = self._geometry()
        r1, c1, r2, c2 = swap
        a = (ox + (c1 + 0.5) * cell, oy + (r1 + 0.5) * cell)
        b = (ox + (c2 + 0.5) * cell, oy + (r2 + 0.5) * cell)
        dx, dy = (b[0] - a[0]) / cell, (b[1] - a[1]) / cell
        pygame.draw.line(surface, colour, a, b, width)
        for tip, sign in ((a, -1), (b, 1)):
            back = (tip[0] - sign * dx * 12, tip[1] - sign * dy * 12)
            pygame.draw.polygon(surface, colour, (tip, (back[0] - dy * 8, back[1] - dx * 8),
                                                  (back[0] + dy * 8, back[1] + dx * 8)))
        if label:
            box, size = self._label_box(swap, label)
            pygame.draw.rect(surface, palette.PANEL, box, border_radius=6)
            pygame.draw.rect(surface, colour, box, 2, border_radius=6)
            text.draw(surface, label, box.center, size, palette.TEXT, anchor="center", bold=True)

    def labelled(self, ranked: list) -> set:
        """The swaps of `ranked` ((swap, value), best first) whose value label is drawn: a label that would
        cover one of a better swap is left out (at 640x480 they covered each other), the arrow stays."""
        placed: list[pygame.Rect] = []
        out = set()
        for swap, v in ranked:
            box = self._label_box(swap, self.values.number(v))[0].inflate(4, 4)
            if box.collidelist(placed) < 0:
                placed.append(box)
                out.add(swap)
        return out

    def _label_box(self, swap, label: str) -> tuple[pygame.Rect, int]:
        """Where a swap's value label goes (between its two gems) and its type size (smaller on small cells)."""
        ox, oy, cell = self._geometry()
        r1, c1, r2, c2 = swap
        size = 20 if cell >= 50 else 16 if cell >= 42 else 13  # (small cells: a label covers less of a gem)
        box = pygame.Rect(0, 0, max(min(36, cell), text.width(label, size, True) + 8), size + 4)
        box.center = (int(ox + ((c1 + c2) / 2 + 0.5) * cell), int(oy + ((r1 + r2) / 2 + 0.5) * cell))
        return box, size

    def draw_values(self, surface, rect) -> None:
        """The best few swaps as arrows with the agent's values; the one it would choose highlighted."""
        values = self.values.shown(self.state) if not self.phases else None
        if values:
            ranked = sorted(values.items(), key=lambda kv: -kv[1])[:VALUE_ARROWS]
            best = self.values.best()
            labelled = self.labelled(ranked)
            for swap, v in reversed(ranked):  # the best drawn last, on top
                chosen = swap in best
                self._swap_arrow(surface, swap, palette.GOOD if chosen else palette.INFO, 6 if chosen else 3,
                                 self.values.number(v) if swap in labelled else None)
        if self.trainer.running:  # the training has the panel under the figures; the arrows stay
            return
        panel = self._panel_rect(rect)
        free_top = getattr(self, "_figures_bottom", panel.y + 4 * 62) + 6  # below the panel's figures
        size, step, parts = text.block([self.values.status(self.shown_state())] + ([self.values.legend] if values else []),
                                       panel.w, panel.bottom - free_top)
        y = max(free_top, panel.bottom - step * len(parts))
        for part in parts:
            text.draw(surface, part, (panel.x, y), size, palette.MUTED)
            y += step

    def handle_game_event(self, event) -> bool:
        if event.type == pygame.KEYDOWN:
            return self._key(event.key)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.skip_animation()
            cell = self._cell_at(event.pos)
            if cell is None or self.refusal() is not None:
                return cell is not None
            if self.selected is not None and self.selected != cell:
                if abs(self.selected[0] - cell[0]) + abs(self.selected[1] - cell[1]) == 1:
                    self.try_swap(self.selected, cell)
                    self.selected = None
                    return True
            self.selected = None if self.selected == cell else cell
            self.cursor = cell
            self.drag_from = cell
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag_from is not None:
            cell = self._cell_at(event.pos)
            start, self.drag_from = self.drag_from, None
            if cell is not None and cell != start and self.refusal() is None:
                self.try_swap(start, cell)
                self.selected = None
            return True
        return False

    def _key(self, key: int) -> bool:
        """A key on the board: r, n, the arrows (move the cursor, or swap the picked gem) and space (pick)."""
        self.skip_animation()
        if key == pygame.K_r:
            self.next_seed()
            self.new_game()
            return True
        if key == pygame.K_n:
            self._ask_hint()
            return True
        if key not in ARROWS and key != pygame.K_SPACE:
            return False
        why = self.refusal()
        if why:
            self.say(why)
        elif key == pygame.K_SPACE:
            self.selected = None if self.selected == self.cursor else self.cursor
        else:
            dr, dc = ARROWS[key]
            r, c = self.cursor
            target = (min(max(r + dr, 0), self.rules.size - 1), min(max(c + dc, 0), self.rules.size - 1))
            picked, self.selected = self.selected, None
            if picked is None or self.try_swap(picked, target):
                self.cursor = target  # (a refused swap leaves the cursor on the gem that did not move)
        return True

    def _ask_hint(self) -> None:
        if self.rules.is_terminal(self.state):
            return
        state, rng = self.state, np.random.default_rng(self.seed + self.state.turns_left)
        self.hint_question.ask(state, rng=rng, about=state)
        self.say(f"{self.controller.name} is thinking about a hint...")

    def update_game(self, dt_ms: float) -> None:
        if self.phases:
            self.phase_ms += dt_ms
            while self.phases and self.phase_ms >= self.phases[0].ms:
                self.phase_ms -= self.phases[0].ms
                self.phases.pop(0)
                self._float_points()
            if not self.phases:
                self.phase_ms = 0.0
        for p in self.popups:
            p[1] -= dt_ms
        self.popups = [p for p in self.popups if p[1] > 0]
        for f in self.floats:
            f[3] -= dt_ms
        self.floats = [f for f in self.floats if f[3] > 0]
        name = self.hint_question.agent
        got = self.hint_question.poll()
        if got is not None:
            move, asked = got
            if isinstance(move, Exception):
                self.say(f"no hint: {move}")
            elif asked is self.state:
                self.hint = tuple(move.value)
                self.say(f"{name}: {self.describe_swap(self.hint)}", 5000)

    def _float_points(self) -> None:
        """As a cascade stage's clear starts, its points rise from the middle of the gems it clears."""
        if self.phases and isinstance(self.phases[0], Clear):
            stage = self.phases[0].stage
            rows, cols = np.nonzero(stage.cleared)
            label = f"+{stage.points}" + (f" x{stage.level}" if stage.level > 1 else "")
            self.floats.append([label, float(rows.mean()), float(cols.mean()), FLOAT_MS])
            self.popups.append([label, POPUP_MS])  # (and the side panel's, as the score takes it in)

    def shown_score(self) -> int:
        """The score as the animation has got: the turn's stages whose clear has not started yet are not in it
        (the SCORE jumped to the whole turn's points at the first clear, before the cascade's "+60 x 2")."""
        return self.state.score - sum(p.stage.points for p in self.phases[1:] if isinstance(p, Clear))

    # --- drawing -------------------------------------------------------------
    def _geometry(self):
        area = hud.board_rect(self.app.surface)
        s = self.rules.size
        cell = min((area.h - 10) // s, (area.w - 300) // s)
        ox = area.x + 20
        oy = area.y + (area.h - cell * s) // 2
        return ox, oy, cell

    def _cell_at(self, pos) -> tuple[int, int] | None:
        ox, oy, cell = self._geometry()
        c, r = (pos[0] - ox) // cell, (pos[1] - oy) // cell
        s = self.rules.size
        return (int(r), int(c)) if 0 <= r < s and 0 <= c < s else None

    def draw_game(self, surface, rect) -> None:
        ox, oy, cell = self._geometry()
        s = self.rules.size
        pygame.draw.rect(surface, palette.PANEL, (ox - 6, oy - 6, cell * s + 12, cell * s + 12), border_radius=10)
        centre = lambda r, c: (ox + (c + 0.5) * cell, oy + (r + 0.5) * cell)  # noqa: E731
        radius = cell * 0.4
        board, offsets, fade = self.state.board, {}, None
        t = 0.0
        if self.phases:
            phase = self.phases[0]
            t = min(1.0, self.phase_ms / phase.ms)
            pose = phase.pose(t)
            board = self.state.board if pose.board is None else pose.board
            offsets, fade = pose.offsets, pose.fade
        clip = surface.get_clip()
        surface.set_clip(pygame.Rect(ox - 6, oy - 6, cell * s + 12, cell * s + 12))  # gems fall in from under the edge
        for r in range(s):
            for c in range(s):
                dr, dc = offsets.get((r, c), (0, 0))
                x, y = centre(r + dr, c + dc)
                if fade is not None and fade[r, c]:
                    painter.draw_gem(surface, int(board[r, c]), (x, y), radius * (1 + 0.3 * t), alpha=1 - t)
                else:
                    painter.draw_gem(surface, int(board[r, c]), (x, y), radius)
        surface.set_clip(clip)
        marks = [(self.cursor, palette.TEXT, 2)] + ([(self.selected, palette.ACCENT, 4)] if self.selected else [])
        for (r, c), colour, width in marks:
            pygame.draw.rect(surface, colour, (ox + c * cell + 2, oy + r * cell + 2, cell - 4, cell - 4), width,
                             border_radius=8)
        self.float_places = []  # where each rising label's centre was drawn, and its size (for a test)
        for label, r, c, left in self.floats:  # over the gems, in the game's points colour, with a shadow
            x, y = centre(r - 0.8 * (1 - left / FLOAT_MS), c)
            size = max(18, int(cell * 0.42))
            y = max(y, oy + size // 2 + 2)  # a clear in the top row rises no higher than the board's top edge
            self.float_places.append((x, y, size))
            fade = left / FLOAT_MS
            colour = tuple(int(v * fade + b * (1 - fade)) for v, b in zip(palette.ACCENT, palette.PANEL, strict=True))
            text.draw(surface, label, (x + 2, y + 2), size, (20, 20, 24), anchor="center", bold=True)
            text.draw(surface, label, (x, y), size, colour, anchor="center", bold=True)
        if self.hint and not self.phases:
            r1, c1, r2, c2 = self.hint
            for r, c in ((r1, c1), (r2, c2)):
                pygame.draw.rect(surface, palette.GOOD, (ox + c * cell + 4, oy + r * cell + 4, cell - 8, cell - 8), 3,
                                 border_radius=8)
            self._swap_arrow(surface, self.hint, palette.ACCENT, 5)
        self._draw_panel(surface, self._panel_rect(rect))
        if self.rules.is_terminal(self.state) and not self.phases:
            hud.draw_game_over(surface, pygame.Rect(ox, oy, cell * s, cell * s), "Game over",
                               f"{self.state.score} points", "r: play again with a new seed", shade_alpha=150)

    def _panel_rect(self, rect) -> pygame.Rect:
        ox, oy, cell = self._geometry()
        side = cell * self.rules.size
        return pygame.Rect(ox + side + 30, oy, rect.right - (ox + side + 40), side)

    def _training_place(self, rect) -> pygame.Rect:
        """A training's place here: the side panel under the figures (the turn's points and the values'
        caption make way for it), off the board."""
        panel = self._panel_rect(rect)
        top = panel.y + 62 * (4 // self._figure_columns(panel)) + 10
        return pygame.Rect(panel.x, top, panel.w, panel.bottom - top)

    @staticmethod
    def _figure_columns(panel) -> int:
        """A short board (a small window) puts the figures two to a row, leaving room below."""
        return 2 if panel.h - 4 * 62 < 200 and panel.w >= 220 else 1

    def _draw_panel(self, surface, panel) -> None:
        s = self.state
        rows = [("SCORE", str(self.shown_score())), ("TURNS LEFT", str(s.turns_left)),
                ("BEST", str(int(self.best.get(self.game_id)))), ("RESHUFFLES", str(s.shuffles))]
        y = panel.y
        columns = self._figure_columns(panel)
        col_w = panel.w // columns
        for k, (label, value) in enumerate(rows):
            x = panel.x + col_w * (k % columns)
            text.draw(surface, label, (x, y), 20, palette.MUTED, max_width=col_w - 8, min_size=14)
            text.draw(surface, value, (x, y + 18), 34, palette.TEXT, bold=True, max_width=col_w - 8, min_size=20)
            if k % columns == columns - 1:
                y += 62
        self._figures_bottom = y  # the values' caption goes below
        for k, (msg, left) in enumerate(self.popups[-4:] if not self.trainer.running else ()):
            alpha = min(1.0, left / 400)
            colour = tuple(int(v * alpha + b * (1 - alpha)) for v, b in zip(palette.ACCENT, palette.BACKGROUND, strict=True))
            text.draw(surface, msg, (panel.x, y + 10 + 34 * k), 34, colour, bold=True)


SCREEN = Match3Screen
