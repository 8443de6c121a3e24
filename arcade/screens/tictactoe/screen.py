"""The tic-tac-toe screen: play X or O against an agent, or hand your side over and watch.

The selected agent (Tab) always plays the other side; Enter hands it your side
too, so it plays itself. `v` shows what the agent believes of each empty cell;
`t` (shared by every screen) trains the TD agent, and its learning curve keeps
its place in the side panel here.
"""
from __future__ import annotations

import pygame

from arcade.games.tictactoe import CELL_KEYS, GAME, O, X, tables
from arcade.screens.base import GameScreen
from arcade.seats import Seats
from arcade.ui import hud, palette, text
from arcade.screens.tictactoe import painter

NUMPAD = {**{getattr(pygame, f"K_{k}"): cell for cell, k in enumerate(CELL_KEYS)},  # (the rules name the keys)
          **{getattr(pygame, f"K_KP{k}"): cell for cell, k in enumerate(CELL_KEYS)}}
AUTO_RESTART_MS = 1200  # agent-vs-agent: the next game starts by itself after this pause
MARK_NAMES = {X: "X", O: "O"}


class TicTacToeScreen(GameScreen):
    game_id = GAME.id
    once_keys = frozenset((pygame.K_x, pygame.K_o))  # (a held one acts once)
    HISTOGRAM = "results"

    def __init__(self, app, agent=None, seed=None):
        super().__init__(app, agent=agent, seed=seed)
        self.seats = Seats(self.controller, self.controller)  # the selected agent is the opponent
        self.trainer.place, self.trainer.keeps_curve = self._training_place, True
        self.tally: dict[str, list[int]] = {}  # agent -> [your wins, draws, your losses] against it
        self.selfplay: dict[str, list[int]] = {}  # agent -> [X wins, draws, O wins] playing itself
        self._tables_from_statistics()
        self.open_session()
        self.restart()

    def extra_choices(self) -> dict:
        return {"mark": MARK_NAMES[self.human_mark]}

    def apply_extra_choices(self, choices: dict) -> None:
        self.human_mark = O if choices["mark"] == "O" else X

    def _tables_from_statistics(self) -> None:
        """The side tables start from the statistics kept across runs (k), so leaving and coming back, or a
        restart of the arcade, keeps the games played."""
        for player, tally in self.stats.of(self.game_id).items():
            row = [tally.wins, tally.draws, tally.losses]
            if player.startswith("you vs "):
                self.tally[player[len("you vs "):]] = row
            elif player.endswith(" vs itself (X's results)"):
                self.selfplay[player[:-len(" vs itself (X's results)")]] = row

    # --- game flow -----------------------------------------------------------
    def restart(self) -> None:
        self.session.restart()
        self.recorded = False
        self.controller.invalidate()

    @property
    def human_mark(self) -> int:
        return X if self.seats.person == 0 else O

    @human_mark.setter
    def human_mark(self, mark: int) -> None:
        self.seats.person = 0 if mark == X else 1

    @property
    def state(self) -> int:
        return self.session.state

    @property
    def human_moved(self) -> bool:
        return self.session.played_by("you") > 0

    @property
    def mark_to_move(self) -> int:
        return int(tables().to_move[self.state])

    @property
    def over(self) -> bool:
        return self.rules.is_terminal(self.state)

    def play(self, cell: int, by_human: bool) -> bool:
        if not self.session.play(cell, self.seats.mover_name(not by_human)):
            return False
        if self.over:
            self._record_result()
        return True

    def _record_result(self) -> None:
        if self.recorded:
            return
        self.recorded = True
        winner = int(tables().winner[self.state])
        name = self.controller.name
        if self.human_moved:
            row = self.tally.setdefault(name, [0, 0, 0])
            k = 0 if winner == self.human_mark else 1 if winner == 0 else 2
            row[k] += 1
            result = ("win", "draw", "loss")[k]  # yours, as in the statistics and on the card
            self.record_game(f"you vs {name}", {"win": 1, "draw": 0.5, "loss": 0}[result], result, result)
        else:
            row = self.selfplay.setdefault(name, [0, 0, 0])
            row[{X: 0, 0: 1, O: 2}[winner]] += 1
            result = {X: "win", 0: "draw", O: "loss"}[winner]
            self.record_game(f"{name} vs itself (X's results)", {"win": 1, "draw": 0.5, "loss": 0}[result], result,
                             {X: "X won", 0: "drawn", O: "O won"}[winner])

    # --- GameScreen hooks ----------------------------------------------------
    def game_keys(self):
        return [("click / 1-9", "play a cell (numpad layout: 7 8 9 is the top row)", "play"),
                ("x / o", "play as X (first) / as O, and restart", "side"),
                ("r", "restart", "restart")]

    def status_text(self) -> str:
        if self.over:
            winner = int(tables().winner[self.state])
            return "draw" if winner == 0 else f"{MARK_NAMES[winner]} wins"
        return f"{MARK_NAMES[self.mark_to_move]} to move"

    def result_title(self) -> str:
        """The finished game's result for whoever played it: "You win" where you played, else "X wins"."""
        winner = int(tables().winner[self.state])
        if self.human_moved:
            return "Draw" if winner == 0 else "You win" if winner == self.human_mark else "You lose"
        return "Draw" if winner == 0 else f"{MARK_NAMES[winner]} wins"

    def control_label(self) -> str:
        you = MARK_NAMES[self.human_mark]
        if self.controller.enabled:
            return f"{self.controller.name} (both sides)"
        return f"You ({you}) vs {self.controller.name}"

    def agent_active(self) -> bool:
        return self.seats.stand_in_plays(self.session.to_move)

    def apply_agent_action(self, action) -> None:
        self.play(int(action), by_human=False)

    def handle_game_event(self, event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            cell = self._cell_at(event.pos)
            if cell is not None:
                self._human_play(cell)
                return True
            return False
        if event.type != pygame.KEYDOWN:
            return False
        if event.key in NUMPAD:
            self._human_play(NUMPAD[event.key])
        elif event.key in (pygame.K_x, pygame.K_o):
            self.human_mark = X if event.key == pygame.K_x else O
            self.restart()
            self.say(f"you play {MARK_NAMES[self.human_mark]}" + (" (X moves first)" if self.human_mark == O else ""))
        elif event.key == pygame.K_r:
            self.restart()
        else:
            return False
        return True

    def _human_play(self, cell: int) -> None:
        why = self.refusal()
        if why:
            self.say(why)
        elif not self.play(cell, by_human=True):
            self.say("that cell is taken")

    def update_game(self, dt_ms: float) -> None:
        self.restart_when_over(dt_ms, self.over, AUTO_RESTART_MS, self.restart)

    # --- drawing -------------------------------------------------------------
    def _layout(self, rect: pygame.Rect):
        side = min(rect.h - 20, rect.w - 330)
        board = pygame.Rect(rect.x + 20, rect.y + (rect.h - side) // 2, side, side)
        return board, side / 3

    def _cell_at(self, pos) -> int | None:
        board, cell = self._layout(self._board_area())
        if not board.collidepoint(pos):
            return None
        c, r = int((pos[0] - board.x) // cell), int((pos[1] - board.y) // cell)
        return min(r, 2) * 3 + min(c, 2)

    def _board_area(self) -> pygame.Rect:
        return hud.board_rect(self.app.surface)

    def draw_game(self, surface, rect) -> None:
        board, cell = self._layout(rect)
        painter.draw_tictactoe(surface, board, self.state)
        panel = self._panel_rect(rect, board)
        self._draw_panel(surface, panel)
        self.end_card = None
        if self.over:  # beside the board, not on it: the winning line is the result, and must stay in sight
            below = pygame.Rect(panel.x, self._panel_bottom + 8, panel.w, max(140, board.bottom - self._panel_bottom - 8))
            self.end_card = hud.draw_game_over(surface, below, self.result_title(), None, "r: again    x / o: side",
                                               shade_alpha=0)

    def _panel_rect(self, rect, board) -> pygame.Rect:
        return pygame.Rect(board.right + 30, board.y, rect.right - board.right - 40, board.h)

    def _training_place(self, board) -> pygame.Rect:
        """The training panel's place here: the foot of the side panel (the curve stays after it ends)."""
        panel = self._panel_rect(board, self._layout(board)[0])
        tall = min(250, max(150, panel.h // 2))  # (at 640x480 the half under the results table: it stays)
        return pygame.Rect(panel.x, panel.bottom - tall, panel.w, tall)

    def draw_values(self, surface, rect) -> None:
        """The agent's value of each empty cell (the best ones highlighted), and what they mean."""
        if self.over:
            return
        board, cell = self._layout(rect)
        values = self.values.shown(self.state) or {}
        best = self.values.best()
        for k, v in values.items():
            centre = (board.x + (k % 3 + 0.5) * cell, board.y + (k // 3 + 0.5) * cell)
            text.draw(surface, self.values.number(v), centre, 30, palette.GOOD if k in best else palette.MUTED,
                      anchor="center", bold=k in best)
        panel = self._panel_rect(rect, board)
        caption = self.values.legend if values else self.values.status(self.shown_state())
        if values:
            caption += "  " + self.values.status(self.shown_state())
        bottom = panel.bottom - (260 if self.trainer.running or self.trainer.curve else 0)
        top = getattr(self, "_panel_bottom", panel.y) + 12  # below the results tables
        if bottom - top < 18:  # a small window while a training's curve has the panel: the numbers say it
            return
        size, step, lines = text.block([caption], panel.w, bottom - top, sizes=(20, 18, 16, 15, 14))
        for k, line in enumerate(lines):
            text.draw(surface, line, (panel.x, bottom - step * (len(lines) - k)), size, palette.MUTED)

    def _draw_panel(self, surface, panel: pygame.Rect) -> None:
        y = panel.y
        text.draw(surface, f"You play {MARK_NAMES[self.human_mark]}" + ("" if not self.controller.enabled
                  else " (the agent plays it)"), (panel.x, y), 26, palette.TEXT, bold=True, max_width=panel.w,
                  min_size=17)
        y += 40
        if self.tally:
            y = self._draw_table(surface, panel, y, "you against", ("won", "drawn", "lost"), self.tally)
        elif not self.selfplay:
            for k, line in enumerate(text.wrap("Results appear here after the first game (k: all statistics).",
                                               20, panel.w)):
                text.draw(surface, line, (panel.x, y + 22 * k), 20, palette.MUTED)
        if self.selfplay:
            y = self._draw_table(surface, panel, y + 14, "playing itself", ("X won", "drawn", "O won"),
                                 self.selfplay)
        self._panel_bottom = y + (44 if not self.tally and not self.selfplay else 0)  # (the values go below)

    def _draw_table(self, surface, panel, y, title, columns, rows) -> int:
        """A small results table with fixed column positions; returns the y below it."""
        name_w = max(90, min(150, panel.w - 195))  # the three counts keep 65 px each; the names get the rest
        xs = [panel.x, panel.x + name_w, panel.x + name_w + 65, panel.x + name_w + 130]
        text.draw(surface, title, (xs[0], y), 22, palette.MUTED, max_width=panel.w)
        y += 24  # the column heads under the title: a narrow panel has no room beside it
        for x, label in zip(xs[1:], columns, strict=True):
            text.draw(surface, label, (x, y), 20, palette.MUTED)
        y += 24
        for name, counts in sorted(rows.items()):
            text.draw(surface, name, (xs[0], y), 22, palette.TEXT, max_width=name_w - 10, min_size=15)
            for x, n in zip(xs[1:], counts, strict=True):
                text.draw(surface, str(n), (x, y), 22, palette.TEXT)
            y += 24
        return y


SCREEN = TicTacToeScreen
