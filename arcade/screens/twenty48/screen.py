"""The 2048 screen: board with slide animation, undo, sizes 3-7, grayscale, best score per size."""
from __future__ import annotations

import math

import numpy as np
import pygame

from arcade.games.twenty48 import GAME, DOWN, LEFT, RIGHT, UP, slide_paths
from arcade.screens.base import GameScreen
from arcade.foundation.storage import BestScores
from arcade.ui import hud, palette, text
from arcade.screens.twenty48 import painter

MOVE_KEYS = {
    pygame.K_UP: UP, pygame.K_w: UP, pygame.K_DOWN: DOWN, pygame.K_s: DOWN,
    pygame.K_LEFT: LEFT, pygame.K_a: LEFT, pygame.K_RIGHT: RIGHT, pygame.K_d: RIGHT,
}
SIZE_KEYS = {pygame.K_3: 3, pygame.K_4: 4, pygame.K_5: 5, pygame.K_6: 6, pygame.K_7: 7}
VALUE_ROOM = 64  # px kept around the board for the value arrows while `v` is on
PANEL_WIDTHS = (230, 340)  # the side panel's width: in a window up to 1024 wide, and at most
TRAINING_WIDTHS = (420, 620)  # ... while a training runs: the panel holds its curve and training game too
TRAINING_CARDS_H = 270  # px of the panel's top kept for the cards while a training runs
PANEL_GAP = 30  # px between the board (or its value arrows) and the panel
POPUP_MS = 900  # a merge's "+N" rises from the score card and fades in this time, once the slide has landed
POP_MS = 120  # after the slide: merged tiles pop (grow and settle back), the new tile zooms in
POP_GROWTH = 0.2  # a merged tile's largest size in the pop: this much over a cell
LONG_GAME_MOVES = 100  # r (or a size key) on a game this long asks once before throwing it away
CONFIRM_MS = 3000  # ...and the same key again within this time starts the new game


class Screen2048(GameScreen):
    game_id = GAME.id
    once_keys = frozenset((pygame.K_g, pygame.K_e))  # (a held one acts once)
    HISTOGRAM = "largest tile reached"

    def __init__(self, app, agent=None, seed=None, size=None):
        super().__init__(app, agent=agent, seed=seed, size=size)
        self.grayscale = False
        self.best = BestScores(self.settings.data_dir)
        self.anim_ms = self.settings.game2048.animation_ms
        self.anim = None  # (paths, previous state, elapsed ms, merged cells, the new tile's cells): slide then pop
        self.popups: list[list] = []  # ["+N", ms left] of the last merges
        self._restart_asked: tuple[int, int] | None = None  # (key, ticks) of a restart that asked to be sure
        self.trainer.place = self._training_place
        self.new_game()
        self.kept.try_resume(seed is not None)

    # --- game actions --------------------------------------------------------
    def new_game(self, size: int | None = None) -> None:
        if size is not None and size != self.rules.size:
            from arcade.games import make_rules

            self.rules = make_rules(self.game_id, self.settings, size=size)
            self.controller.set_rules(self.rules)
        self.open_session()
        self.best.start_game(self.best_key)
        self.anim = None
        self.controller.invalidate()

    @property
    def game(self):
        return self.session

    def do_move(self, direction: int, by_agent: bool = False) -> bool:
        before = self.game.state
        if not self.game.play(direction, self.seats.mover_name(by_agent)):
            return False
        self.anim = self._slide(before, direction) if self.anim_ms > 0 else None
        self._best_before = int(self.best.get(self.best_key))  # (before this move may raise it)
        if self.game.state.score > before.score:
            self.sound("merge")
            wait = self.anim_ms if self.anim is not None else 0  # the "+N" comes when the slide lands
            self.popups = (self.popups + [[f"+{self.game.state.score - before.score}", POPUP_MS + wait]])[-3:]
        if self.best.after_move(self.best_key, self.game.state.score, self.game.over):
            self.say("new best score!")
            self.sound("best")
        if self.game.over:
            st = self.game.state
            movers = self.game.movers
            player = max(dict.fromkeys(movers), key=movers.count)  # who played most of it
            self.record_game(self._row(player), st.score, bucket=str(st.max_tile()))
        return True

    def _row(self, player: str) -> str:
        return f"{player} ({self.rules.size}x{self.rules.size})"

    def statistics_player(self) -> str:
        return self._row(self.controller.name if self.controller.enabled else "you")

    def close(self) -> None:
        self.best.flush()
        self.kept.keep_progress()
        super().close()

    def extra_choices(self) -> dict:
        return {"size": self.rules.size, "grayscale": self.grayscale}

    def apply_extra_choices(self, choices: dict) -> None:
        self.grayscale = bool(choices.get("grayscale", False))
        size = int(choices["size"])
        if 3 <= size <= 7 and size != self.rules.size and not self.game.moves:  # never over a resumed game
            self.new_game(size)

    def use_variant(self, params: dict) -> None:
        size = int(params["size"])
        if not 3 <= size <= 7 or params.get("spawn_four_probability", self.rules.spawn_four_probability) \
                != self.rules.spawn_four_probability:
            raise ValueError(f"a kept game of other rules ({params})")
        self.new_game(size)

    def _slide(self, before, direction: int):
        paths = slide_paths(before.board, direction)
        merged = tuple({to for _, to, _, joined in paths if joined})
        slid = self.rules.after_move(before, direction).board
        spawned = tuple((int(r), int(c)) for r, c in np.argwhere(self.game.state.board != slid))
        return paths, before, 0.0, merged, spawned

    def shown_score(self) -> int:
        """The score the panel shows: the one before the move until its slide lands."""
        return self.shown_figures()["SCORE"]

    def shown_figures(self) -> dict[str, int]:
        """SCORE, BEST, LARGEST and MOVES as the panel and the status line show them: all of them the move's
        figures only once its slide lands, so none runs ahead of the board (BEST read above SCORE mid-slide)."""
        if self.anim is not None and self.anim[2] < self.anim_ms:
            before = self.anim[1]
            return {"SCORE": before.score, "BEST": self._best_before, "LARGEST": before.max_tile(),
                    "MOVES": len(self.game.history) - 1}
        st = self.game.state
        return {"SCORE": st.score, "BEST": int(self.best.get(self.best_key)), "LARGEST": st.max_tile(),
                "MOVES": len(self.game.history)}

    def tile_scale(self, cell: tuple[int, int]) -> float:
        """The size of the tile at `cell` now, as a share of a cell: a merged tile pops above 1 after the slide,
        the new tile grows from 0; 1 otherwise."""
        if self.anim is None or self.anim[2] < self.anim_ms:
            return 1.0
        _, _, elapsed, merged, spawned = self.anim
        u = min(1.0, (elapsed - self.anim_ms) / POP_MS)
        if cell in spawned:
            return u
        if cell in merged:
            return 1.0 + POP_GROWTH * math.sin(math.pi * u)
        return 1.0

    @property
    def best_key(self) -> str:
        return f"2048/{self.rules.size}x{self.rules.size}"

    def undo(self) -> None:
        if self.game.undo():
            self.anim = None
            self.controller.invalidate()
        else:
            self.say("nothing to undo: this is the start of the game")

    # --- GameScreen hooks ----------------------------------------------------
    def game_keys(self):
        return [
            ("arrows / WASD", "slide the tiles", "move"),
            ("u", "undo a move (back to the start)", "undo"),
            ("r", "restart", "restart"),
            ("3 - 7", "restart at that board size", "size"),
            ("g", "grayscale on / off", "gray"),
            ("e", "switch to the strongest agent (the first in Tab)", "strongest"),
        ]

    def status_text(self) -> str:
        shown = self.shown_figures()
        over = "   GAME OVER" if self.game.over else ""
        return f"score {shown['SCORE']}   best {shown['BEST']}   largest {shown['LARGEST']}{over}"

    def animating(self) -> bool:
        return self.anim is not None or bool(self.popups)

    def show_state(self, state) -> None:
        self.game.show(state)
        self.anim = None

    def apply_agent_action(self, action) -> None:
        self.do_move(int(action), by_agent=True)

    def _confirmed_restart(self, key: int) -> bool:
        """Whether a key that starts a new game may throw this one away: at once for a short or finished game;
        a long one (LONG_GAME_MOVES moves or more) asks once, and the same key again within CONFIRM_MS does it."""
        moves = self.game.moves
        if self.game.over or moves < LONG_GAME_MOVES:
            return True
        now = pygame.time.get_ticks()
        if self._restart_asked is not None and self._restart_asked[0] == key and now - self._restart_asked[1] <= CONFIRM_MS:
            self._restart_asked = None
            return True
        self._restart_asked = (key, now)
        self.say(f"this game has {moves} moves and {self.game.state.score:,} points: press {pygame.key.name(key)} "
                 "again to start a new one", CONFIRM_MS)
        return False

    def handle_game_event(self, event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        self.anim = None  # a key finishes any animation at once
        if event.key in MOVE_KEYS:
            why = self.refusal()
            if why:
                self.say(why)
            else:
                self.do_move(MOVE_KEYS[event.key])
            return True
        if event.key == pygame.K_u:
            self.undo()
        elif event.key == pygame.K_r or event.key in SIZE_KEYS:
            if self._confirmed_restart(event.key):
                self.next_seed()
                self.new_game(SIZE_KEYS.get(event.key))
        elif event.key == pygame.K_g:
            self.grayscale = not self.grayscale
        elif event.key == pygame.K_e:
            strongest = self.controller.specs[0].name  # the registry orders each game's agents strongest first
            self.controller.select(strongest)
            self.say(f"agent: {strongest} (the strongest)" +
                     ("; it plays now" if self.controller.enabled else "; Enter hands it control"))
        else:
            return False
        return True

    def update_game(self, dt_ms: float) -> None:
        if self.anim:
            paths, before, elapsed, merged, spawned = self.anim
            elapsed += dt_ms
            self.anim = None if elapsed >= self.anim_ms + POP_MS else (paths, before, elapsed, merged, spawned)
        for p in self.popups:
            p[1] -= dt_ms
        self.popups = [p for p in self.popups if p[1] > 0]

    # --- drawing -------------------------------------------------------------
    def _layout(self, rect: pygame.Rect):
        """(board, gap, cell, the side panel): the board as large as the height allows, the panel beside it
        wider where the window is wide (up to PANEL_WIDTHS[1]), the two centred together."""
        s = self.rules.size
        room = VALUE_ROOM if self.values.on else 0
        narrow, wide = TRAINING_WIDTHS if self._training_beside(rect) else PANEL_WIDTHS
        side = min(rect.h - 2 * room, rect.w - narrow - PANEL_GAP - 2 * room)
        panel_w = min(wide, max(narrow, (rect.w - side - 2 * room - PANEL_GAP) // 2))
        group = side + 2 * room + PANEL_GAP + panel_w
        board = pygame.Rect(rect.x + (rect.w - group) // 2 + room, rect.y + (rect.h - side) // 2, side, side)
        panel = pygame.Rect(board.right + PANEL_GAP + room, board.y - room, panel_w, board.h + 2 * room)
        return (board, *painter.grid_2048(board, s), panel)

    def draw_game(self, surface, rect) -> None:
        board, gap, cell, panel = self._layout(rect)
        s = self.rules.size
        sliding = self.anim is not None and self.anim[2] < self.anim_ms
        tiles = self.game.state.values()
        values = tiles
        if self.anim is not None and not sliding:  # landed: the popping and zooming tiles are drawn on top
            values = tiles.copy()
            for at in self.anim[3] + self.anim[4]:
                values[at] = 0
        painter.draw_2048(surface, board, None if sliding else values, s, self.grayscale)
        if sliding:
            paths, _, elapsed, _, _ = self.anim
            t = min(1.0, elapsed / self.anim_ms)
            t = 1 - (1 - t) ** 2  # ease out
            for (r0, c0), (r1, c1), exponent, _merged in paths:
                pos = painter.cell_rect_2048(board, gap, cell, r0 + (r1 - r0) * t, c0 + (c1 - c0) * t)
                painter.draw_tile(surface, pos, 1 << exponent, self.grayscale)
        elif self.anim is not None:
            for at in self.anim[3] + self.anim[4]:
                scale = self.tile_scale(at)
                if scale > 0.05:
                    pos = painter.cell_rect_2048(board, gap, cell, *at)
                    pos = pos.inflate(round(pos.w * (scale - 1)), round(pos.h * (scale - 1)))
                    painter.draw_tile(surface, pos, int(tiles[at]), self.grayscale)
        if self._training_beside(rect):  # the cards on top, smaller; the training under them (_training_place)
            self._draw_panel(surface, pygame.Rect(panel.x, panel.y, panel.w, TRAINING_CARDS_H))
        elif not self.trainer.running:  # (in a small window a training takes the whole panel: the HUD keeps
            self._draw_panel(surface, panel)  # the score)
        if self.game.over and not self.anim:
            self._draw_game_over(surface, board)

    def _training_beside(self, rect: pygame.Rect) -> bool:
        """Whether a training runs and the window has room for it beside the board (at 640x480 it has not:
        the training's card goes over the board there)."""
        room = VALUE_ROOM if self.values.on else 0
        return (self.trainer.running and rect.w - TRAINING_WIDTHS[0] - PANEL_GAP - 2 * room >= 360
                and rect.h >= TRAINING_CARDS_H + 220)

    def _training_place(self, area: pygame.Rect) -> pygame.Rect:
        """A training's bar, curve and training game: the side panel under its cards (the board shrinks to
        make room while it runs; a card over the board hid the game the agent keeps playing). In a small
        window (640x480) the whole side panel, in place of the cards."""
        panel = self._layout(area)[3]
        if not self._training_beside(area):
            return panel
        top = panel.y + TRAINING_CARDS_H
        return pygame.Rect(panel.x, top, panel.w, panel.bottom - top)

    def draw(self, surface) -> None:
        super().draw(surface)
        if self.grayscale:  # the whole screen, HUD included
            surface.blit(pygame.transform.grayscale(surface), (0, 0))

    def _draw_panel(self, surface, panel: pygame.Rect) -> None:
        shown = self.shown_figures()
        rows = [("SCORE", str(shown["SCORE"])), ("BEST", str(shown["BEST"])), ("LARGEST", str(shown["LARGEST"])),
                ("BOARD", f"{self.rules.size} x {self.rules.size}"), ("MOVES", str(shown["MOVES"]))]
        box_h = self.card_height(panel.h, len(rows))
        y = panel.y
        for label, value in rows:
            box = pygame.Rect(panel.x, y, panel.w, box_h)
            pygame.draw.rect(surface, palette.PANEL, box, border_radius=8)
            small = box_h < 56
            text.draw(surface, label, (box.x + 12, box.y + (4 if small else 8)), 16 if small else 20, palette.MUTED)
            text.draw(surface, value, (box.x + 12, box.y + (18 if small else 28)), 24 if small else 32, palette.TEXT,
                      bold=True)
            if label == "SCORE":  # the merges' "+N", rising inside the score card and fading
                shown = [p for p in reversed(self.popups) if p[1] <= POPUP_MS]  # (the slide has landed)
                below = box.y + (4 if small else 30)  # where the next (older) one may start
                for k, (msg, left) in enumerate(shown[:1 if small else 3]):
                    t = left / POPUP_MS
                    colour = tuple(int(v * t + b * (1 - t)) for v, b in zip(palette.ACCENT, palette.PANEL, strict=True))
                    size = 22 if small else 26 - 4 * k
                    # the newest rises as it fades; older ones keep their slot under it, so none is drawn over
                    # another when merges come faster than they fade (an agent at 0 ms)
                    top = below - (int(18 * (1 - t)) if k == 0 and not small else 0)
                    below += text.font(size, bold=True).get_ascent() + 2  # ("+N": no descenders)
                    if top + text.font(size, bold=True).get_ascent() > box.bottom - 2:
                        break  # the older ones would spill out of the card: left out
                    text.draw(surface, msg, (box.right - 12, top), size, colour, anchor="topright", bold=True)
            y += box_h + 10
        p4 = self.rules.spawn_four_probability
        spawns = f"new tiles: 2, or 4 {p4:.0%} of the time" if p4 else "new tiles: always 2"
        for k, line in enumerate(text.wrap(spawns, 19, panel.w)):
            text.draw(surface, line, (panel.x, y + 4 + 20 * k), 19, palette.MUTED)

    def card_height(self, panel_h: int, cards: int) -> int:
        """The side cards' height: smaller in a small window with v on (all five stay; the values' figures
        keep their room under them)."""
        room = panel_h - (110 if self.values.on else 60)  # the spawns line, and with v the figures under it
        return max(36, min(62, room // cards - 10))

    def draw_values(self, surface, rect) -> None:
        """An arrow on each side of the board for each legal direction, with the agent's value; the
        direction it would choose is highlighted. Figures of the decision go under the panel."""
        board, _, _, side = self._layout(rect)
        values = self.values.shown(self.game.state)
        pick = self.values.choice() if values else None  # one arrow is the move, even when values tie
        places = {UP: (board.centerx, board.y - VALUE_ROOM // 2), DOWN: (board.centerx, board.bottom + VALUE_ROOM // 2),
                  LEFT: (board.x - VALUE_ROOM // 2, board.centery), RIGHT: (board.right + VALUE_ROOM // 2, board.centery)}
        legal = set(self.rules.legal_actions(self.game.state)) if not self.game.over else set()
        for d, (x, y) in places.items():
            if d not in legal:
                continue
            chosen = d == pick
            colour = palette.GOOD if chosen else palette.MUTED
            dx, dy = {UP: (0, -1), DOWN: (0, 1), LEFT: (-1, 0), RIGHT: (1, 0)}[d]
            if dx:  # left / right: the arrow above its value
                centre, label_pos, anchor = (x, y - 16), (x, y + 14), "center"
            else:  # up / down: the arrow left of its value
                centre, label_pos, anchor = (x - 40, y), (x - 18, y), "midleft"
            tip = (centre[0] + dx * 14, centre[1] + dy * 14)
            pygame.draw.line(surface, colour, (centre[0] - dx * 14, centre[1] - dy * 14), tip, 5 if chosen else 3)
            pygame.draw.polygon(surface, colour, (tip, (tip[0] - dx * 10 - dy * 8, tip[1] - dy * 10 - dx * 8),
                                                  (tip[0] - dx * 10 + dy * 8, tip[1] - dy * 10 + dx * 8)))
            label = self.values.number(values[d]) if values and d in values else "..."
            text.draw(surface, label, label_pos, 26 if chosen else 22, palette.TEXT if chosen else palette.MUTED,
                      anchor=anchor, bold=chosen)
        panel = pygame.Rect(side.x, side.bottom - 64, side.w, 64)
        if self.trainer.running:  # (the training's panel is there)
            return
        # smaller type before a word is cut (an agent's figures under its title take four lines at 640x480)
        size, step, lines = text.block([self.values.status(self.shown_state())], panel.w, panel.h,
                                       sizes=(18, 16, 15, 14, 13, 12))
        for k, line in enumerate(lines):
            text.draw(surface, line, (panel.x, panel.y + step * k), size, palette.MUTED)

    def _draw_game_over(self, surface, board: pygame.Rect) -> None:
        hud.draw_game_over(surface, board, "Game over", f"score {self.game.state.score}",
                           "r: play again    u: undo the last move", shade_alpha=150)


SCREEN = Screen2048
