"""Shift+k on a game screen: the games finished here (kept in the data folder, arcade.finished_games), newest
first; one opens as a replay, its board as it was at any move (left / right a move, Page Up / Down ten, Home /
End), v shows what the screen's selected agent believes at the move shown (its values, worked out on demand
off the frame loop, the move played there marked), Shift+v its search tree there, and Enter continues the game
from that move on the screen (by hand, or Enter again hands it to the selected agent). Names no game and no
agent: the board is the game's own painter's, the values whatever the registry says the agent can give."""
from __future__ import annotations

import pygame

from agents import Explains, ShowsTree
from arcade.control import Question
from arcade.finished_games import kept, played_by
from arcade.kept_games import RESUME_ERRORS
from arcade.screens import paint_state
from arcade.screens.overlays import Overlay
from arcade.seeds import make_rng
from arcade.session import GameSession, as_action
from arcade.ui import palette, text
from arcade.ui.geometry import overlay_scale
from arcade.ui.panels import panel_box

LISTED = 200  # the newest kept games the list reads
STEPS = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_PAGEUP: -10, pygame.K_PAGEDOWN: 10}


class ReplayView(Overlay):
    """In: the app and the game screen under it."""

    def __init__(self, app, under):
        super().__init__(app, under)
        self.games = kept(under.settings.data_dir, under.info.id, LISTED)
        self.selected = 0
        self.states: list | None = None  # the replayed game's positions, move 0 to the end (a game open)
        self.move = 0
        self.problem = ""
        self.values_on = False  # v: the selected agent's values at each move shown
        self.values: dict | None = None  # {"move": m, "agent": name, "values": {...}} or {"problem": line}
        self.question = Question(under.controller, follows_moves=False)
        self._seed = under.settings.seeds.agent  # its decisions play no move: they draw as `decide` does

    # --- keys ------------------------------------------------------------------------------------------------
    def handle_event(self, event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        if self.states is None:
            return self._in_list(event.key)
        if event.key == pygame.K_v:
            self._beliefs(tree=bool(event.mod & pygame.KMOD_SHIFT))
            return True
        return self._in_replay(event.key)

    def _in_list(self, key) -> bool:
        if key in (pygame.K_UP, pygame.K_DOWN) and self.games:
            self.selected = (self.selected + (1 if key == pygame.K_DOWN else -1)) % len(self.games)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.games:
            self._open(self.games[self.selected])
        else:
            self.app.pop()
        return True

    def _in_replay(self, key) -> bool:
        last = len(self.states) - 1
        if key in STEPS:
            self.move = min(max(self.move + STEPS[key], 0), last)
        elif key == pygame.K_HOME:
            self.move = 0
        elif key == pygame.K_END:
            self.move = last
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._continue_here()
        elif key == pygame.K_ESCAPE:
            self.states = None  # back to the list
            self.values_on, self.values = False, None
        if self.values_on:
            self._ask_values()
        return True

    def _beliefs(self, tree: bool) -> None:
        """v: the values at each move shown, on or off; Shift+v: the tree at this move (the tree view)."""
        controller = self.under.controller
        if self.rules is not self.under.rules and self.rules != self.under.rules:
            self.under.say(f"{controller.name} is set up for this screen's {self.under.info.title}, not this "
                           "game's: Enter plays on from here in it")
            return
        state = self.states[self.move]
        if tree:
            if not controller.spec.can(ShowsTree):
                self.under.say(f"{controller.name} shows no search tree (Tab on the screen chooses another agent)")
            elif self.rules.is_terminal(state):
                self.under.say("no tree: the game is over at this move")
            else:
                from arcade.screens.tree_view import TreeView

                self.app.push(TreeView(self.app, self.under, state, f"move {self.move} of the kept game"))
            return
        if not controller.spec.can(Explains):
            self.under.say(f"{controller.name} gives no values (Tab on the screen chooses another agent)")
            return
        self.values_on = not self.values_on
        self.values = None
        if self.values_on:
            self._ask_values()

    def _ask_values(self) -> None:
        state = self.states[self.move]
        if self.values is not None and self.values.get("move") == self.move:
            return
        if self.rules.is_terminal(state):
            self.question.forget()
            self.values = {"move": self.move, "problem": "the game is over at this move: no values"}
            return
        self.values = None
        self.question.ask(state, "decide", rng=make_rng(self._seed), about=(self.move, self.under.controller.name))

    def update(self, dt_ms: float) -> None:
        super().update(dt_ms)
        answered = self.question.poll()
        if answered is None or not self.values_on or answered[1][0] != self.move:
            return  # (an answer for a move no longer shown is dropped)
        answer, agent = answered[0], answered[1][1]
        if isinstance(answer, Exception):
            self.values = {"move": self.move, "problem": f"{agent} could not value this move: {answer}"}
        else:
            self.values = {"move": self.move, "agent": agent, "values": answer.value.values or {},
                           "choice": answer.value.action, "legend": answer.legend}

    def busy(self) -> bool:
        return self.question.pending or super().busy()

    # --- what they do ----------------------------------------------------------------------------------------
    def _rules_of(self, record):
        from arcade.games import make_rules

        variant = record.get("variant") or {}
        return make_rules(self.under.info.id, self.under.settings, **variant) if variant else self.under.rules

    def _open(self, record) -> None:
        try:
            rules = self._rules_of(record)
            session = GameSession.replayed(rules, record)
        except (ValueError, TypeError, KeyError) as exc:
            self.problem = f"that game does not replay here: {exc}"
            return
        self.problem = ""
        self.record, self.rules = record, rules
        self.states = [*session.history, session.state]
        self.move = 0
        self.values_on, self.values = False, None

    def _continue_here(self) -> None:
        """The game from this move on, on the screen: the player (or an agent) plays on."""
        session = GameSession.replayed(self.rules, self.record, self.move)
        if session.over:
            self.under.say("the game is over at this move: step back to play on from an earlier one")
            return
        if not session.moves:
            self.under.say("move 0 is a new game: step forward first")
            return
        try:
            self.under.resume_from({"session": session.snapshot(), "variant": self.record.get("variant") or {}})
        except RESUME_ERRORS as exc:
            self.under.say(f"this game cannot be continued here ({exc})")
            return
        self.app.pop()
        who = (f"{self.under.controller.name} plays on (Enter: you do)" if self.under.controller.enabled
               else "your move (Enter: the agent's)")
        self.under.say(f"on from move {self.move} of the kept game: {who}", 4000)

    # --- drawing ---------------------------------------------------------------------------------------------
    def draw_over(self, surface) -> list[str]:
        k = overlay_scale(surface)
        box = panel_box(surface, round(900 * k), round(620 * k))
        x, width = box.x + 22, box.w - 44
        small = surface.get_width() < 800
        size = 15 if small else round(18 * k)
        title = f"Finished games: {self.under.info.title}" if self.states is None else self._title()
        text.draw(surface, title, (x, box.y + 14), 24 if small else round(30 * k), palette.ACCENT, bold=True,
                  max_width=width)
        top = box.y + (48 if small else 58)
        keys_y = box.bottom - (size + 12)
        drawn = [title]
        if self.states is None:
            drawn += self._draw_list(surface, x, top, width, keys_y, size)
            keys = "up/down: choose  Enter: replay it  another key: close" if self.games else "any key: close"
        else:
            drawn += self._draw_replay(surface, pygame.Rect(x, top, width, keys_y - top - 8), size)
            keys = ("left/right: a move  PgUp/PgDn: ten  Home/End  v: values  Shift+v: tree  Enter: play on from "
                    "here  Esc: the list")
        text.draw(surface, keys, (x, keys_y), size - 2, palette.MUTED, max_width=width)
        return drawn + [keys]

    def _title(self) -> str:
        r = self.record
        return f"{played_by(r)}, {r.get('when', '')}: move {self.move} of {len(self.states) - 1}"

    def _draw_list(self, surface, x, y, width, bottom, size) -> list[str]:
        if not self.games:
            line = ("no finished game of this one is kept yet: each game that ends here is kept, to be replayed "
                    "move by move")
            for part in text.wrap(line, size, width, max_lines=3):
                text.draw(surface, part, (x, y), size, palette.MUTED)
                y += size + 6
            return [line]
        row = size + 12
        fits = max(1, (bottom - y - 8) // row)
        first = min(max(0, self.selected - fits + 1), max(0, len(self.games) - fits))
        drawn = []
        if self.problem:
            text.draw(surface, self.problem, (x, y), size - 2, palette.BAD, max_width=width)
            y += row
        for i in range(first, min(len(self.games), first + fits)):
            r = self.games[i]
            line = f"{r.get('when', '')}   {played_by(r)}   {_ending(r, self.under.rules.seat_names)}   {r['moves']} moves"
            if i == self.selected:
                pygame.draw.rect(surface, palette.PANEL_HI, (x - 6, y - 2, width + 12, row - 2), border_radius=6)
            text.draw(surface, line, (x, y + 2), size, palette.TEXT, max_width=width, min_size=12)
            drawn.append(line)
            y += row
        return drawn

    def _draw_replay(self, surface, area: pygame.Rect, size: int) -> list[str]:
        board = pygame.Rect(area.x, area.y, int(area.w * 0.6), area.h)
        paint_state(surface, board, self.under.info.id, self.rules, self.states[self.move], self.states[:self.move])
        x, y, width = board.right + 16, area.y, area.right - board.right - 16
        actions, movers = self.record["actions"], self.record.get("movers", [])
        lines = []
        for k in range(max(0, self.move - 6), min(len(actions), self.move + 6)):
            marker = ">" if k == self.move else " "
            who = movers[k] if k < len(movers) else "?"
            lines.append((f"{marker} {k + 1}. {self.rules.format_action(as_action(actions[k]))}  ({who})",
                          palette.ACCENT if k == self.move else palette.TEXT if k < self.move else palette.MUTED))
        drawn = []
        text.draw(surface, "the moves (> the next one)", (x, y), size - 2, palette.MUTED, max_width=width)
        y += size + 6
        for line, colour in lines:
            text.draw(surface, line, (x, y), size - 2, colour, max_width=width, min_size=11)
            drawn.append(line)
            y += size + 2
        if self.move == len(self.states) - 1:
            end = f"the end: {_ending(self.record, self.rules.seat_names)}"
            text.draw(surface, end, (x, y + 6), size - 2, palette.GOOD, max_width=width)
            drawn.append(end)
            y += size + 8
        if self.values_on:
            drawn += self._draw_values(surface, x, y + 10, width, area.bottom, size - 2)
        return drawn

    def _draw_values(self, surface, x, y, width, bottom, size) -> list[str]:
        """The selected agent's values at the move shown, best first, the move played there and the move the
        agent would play (its decision, from the same search) marked."""
        got = self.values
        if got is None:
            lines = [(f"{self.under.controller.name} is working out its values here...", palette.MUTED)]
        elif "problem" in got:
            lines = [(got["problem"], palette.BAD)]
        else:
            actions = self.record["actions"]
            played = as_action(actions[self.move]) if self.move < len(actions) else None
            ranked = sorted(got["values"].items(), key=lambda kv: -kv[1])
            number = text.numbers_for(got["values"].values())  # (as the board writes them)
            lines = [(f"{got['agent']}'s values here:", palette.INFO)]
            for action, value in ranked[: max(1, (bottom - y) // (size + 2) - 2)]:
                marks = (["played"] if action == played else []) + ([f"{got['agent']}'s move"]
                                                                     if action == got["choice"] else [])
                mark = f"  <- {', '.join(marks)}" if marks else ""
                lines.append((f"{self.rules.format_action(action)}:  {number(value)}{mark}",
                              palette.ACCENT if mark else palette.TEXT))
            if len(ranked) > len(lines) - 1:
                lines.append((f"({len(ranked) - len(lines) + 1} more)", palette.MUTED))
        drawn = []
        for line, colour in lines:
            if y + size > bottom:
                break
            text.draw(surface, line, (x, y), size, colour, max_width=width, min_size=11)
            drawn.append(line)
            y += size + 2
        return drawn


def _ending(record: dict, seats: tuple[str, ...]) -> str:
    """How a kept game ended, in a few words: its score, or its winner (by the game's seat names)."""
    outcome = record.get("outcome") or {}
    if "score" in outcome:
        return f"score {outcome['score']:,}" if isinstance(outcome["score"], int) else f"score {outcome['score']:g}"
    if "winner" in outcome:
        scores = outcome.get("scores")
        won = "a draw" if outcome["winner"] is None else f"{seats[outcome['winner']]} won"
        return f"{scores[0]}-{scores[1]}, {won}" if scores else won
    return "finished"
