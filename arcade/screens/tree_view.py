"""The search tree view (Shift+v on every game screen): the tree behind the selected agent's values at the
position on the board, drawn a node at a time: where you are (the path from the root), that node's value and
figures, and its children as rows, each with its move or chance's outcome, probability, value and figures.

The tree is asked of the agent off the frame loop, as a decision is (the agent process or a worker thread),
through the registry's ShowsTree capability: the view names no agent. Keys: up / down choose a child, right or
Enter opens it, left or Backspace goes back up, Home to the root, Esc or any other key closes (as every panel
over a game does); a click on a row opens it. The game under it goes on (an agent keeps playing); the tree stays the one of the position it was
asked at.
"""
from __future__ import annotations

import pygame

from agents import ShowsTree, agents_for
from arcade.control import Question
from arcade.screens.overlays import Overlay
from arcade.tree_text import edge_label, node_figures
from arcade.ui import palette, text
from arcade.games.base import has_chance
from arcade.screens import paint_state
from arcade.ui.geometry import overlay_scale
from arcade.ui.panels import panel_box

ROW = 30  # a child's row, px at 1024x720 (less on a small window)
KIND_WORDS = {"max": "the side to move chooses (max)", "min": "the other side chooses (min)",
              "chance": "chance: the outcomes below, each with its probability", "leaf": "the search ends here"}


def open_tree(screen) -> None:
    """Shift+v on a game screen: the tree view, or one line saying why there is none."""
    spec = screen.controller.spec
    if not spec.can(ShowsTree):
        searchers = [s.name for s in agents_for(screen.info.id, ShowsTree)]
        screen.say(f"{spec.name} shows no search tree" + (f" (Tab to {' or '.join(searchers)})" if searchers else ""))
        return
    state = screen.shown_state()
    if state is None:
        screen.say("no tree: the game is over (r starts a new one)")
        return
    screen.app.push(TreeView(screen.app, screen, state))


class TreeView(Overlay):
    """In: the app, the game screen under it, the position whose tree to show and what that position is."""

    def __init__(self, app, under, state, where: str = "the position on the board"):
        super().__init__(app, under)
        self.where = where  # what the root is, said above the rows
        self.agent = under.controller.name
        self.question = Question(under.controller, follows_moves=False)
        # a decision with its tree (its top levels: what a frame can take at once): the values beside the board
        # and, where the agent is to move here, its move are this search's
        self.question.ask(state, "decide_tree_shown", about=state)
        self.root_state = state
        self.tree: dict | None = None
        self.problem = ""
        self.path: list[dict] = []  # the edges followed from the root
        self.selected = 0
        self.rows: list[tuple[pygame.Rect, int]] = []  # (where a child's row was drawn, its index)

    # --- where we are ----------------------------------------------------------------------------------------
    def at(self) -> dict:
        return self.path[-1]["node"] if self.path else self.tree

    def children(self) -> list[dict]:
        return self.at()["children"] if self.tree is not None else []

    def position(self):
        """The position the chosen row leads to, where it can be known: an edge's own state (what chance
        drew, as the agent saw it), or the rules' step of a move where nothing is drawn after it (the move
        alone, before chance, where the rules can say: after_move); None where neither can."""
        return self.positions()[-1]

    def positions(self) -> list:
        """The positions from the root to the one the chosen row leads to (None where one cannot be known): a
        painter reads from them who made each move and which move led to the last (it marks it)."""
        rules, state = self.under.rules, self.root_state
        out = [state]
        kids = self.children()
        edges = self.path + ([kids[self.selected]] if 0 <= self.selected < len(kids) else [])
        for e in edges:  # (an edge that carries its state is known even where the edge above it was not)
            if "state" in e:
                state = e["state"]
            elif state is None:
                continue
            elif "action" in e and not has_chance(rules):
                try:
                    state = rules.step(state, e["action"], None)
                except ValueError:
                    state = None
            elif "action" in e and hasattr(rules, "after_move"):
                state = rules.after_move(state, e["action"])
            else:
                state = None
            out.append(state)
        return out

    def open_child(self, index: int) -> None:
        kids = self.children()
        if 0 <= index < len(kids):
            self.path.append(kids[index])
            self.selected = 0

    def back(self) -> None:
        if self.path:
            gone = self.path.pop()
            self.selected = next((i for i, e in enumerate(self.children()) if e is gone), 0)

    # --- input and time ------------------------------------------------------------------------------------
    def update(self, dt_ms: float) -> None:
        super().update(dt_ms)
        answered = self.question.poll()
        if answered is None:
            return
        answer = answered[0]
        if isinstance(answer, Exception):
            self.problem = f"{self.agent} could not build its tree: {answer}"
        else:
            self.tree = answer.value.tree
            self.under.controller.adopt(answered[1], self.agent, answer)

    def busy(self) -> bool:
        return self.tree is None and not self.problem or super().busy()

    def handle_event(self, event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for rect, index in self.rows:
                if rect.collidepoint(event.pos):
                    self.selected = index
                    self.open_child(index)
            return True
        if event.type != pygame.KEYDOWN:
            return False
        key, shift = event.key, bool(event.mod & pygame.KMOD_SHIFT)
        if key == pygame.K_ESCAPE or (key == pygame.K_v and shift):
            self.app.pop()
        elif key == pygame.K_UP:
            self.selected = max(0, self.selected - 1)
        elif key == pygame.K_DOWN:
            self.selected = min(max(0, len(self.children()) - 1), self.selected + 1)
        elif key in (pygame.K_RIGHT, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.open_child(self.selected)
        elif key in (pygame.K_LEFT, pygame.K_BACKSPACE):
            self.back()
        elif key == pygame.K_HOME:
            self.path, self.selected = [], 0
        else:  # any other key closes it, as every panel over a game closes
            self.app.pop()
        return True

    # --- drawing ---------------------------------------------------------------------------------------------
    @staticmethod
    def _row_figures(e: dict, number) -> str:
        """A child's row beside its move: its kind and brief figures, and whether it opens."""
        opens = "  >" if e["node"]["children"] else "  (below: not kept)" if e["node"].get("hidden") else ""
        return f"{e['node']['kind']}: {node_figures(e['node'], number, brief=True)}{opens}"

    def draw_over(self, surface) -> list[str]:
        k = overlay_scale(surface)
        box = panel_box(surface, round(900 * k), round(620 * k))
        x, width = box.x + 22, box.w - 44
        small = surface.get_width() < 800
        size, row = (15, 24) if small else (round(18 * k), round(ROW * k))
        drawn = [f"Search tree: {self.agent}"]
        text.draw(surface, drawn[0], (x, box.y + 14), 26 if small else round(30 * k), palette.ACCENT, bold=True,
                  max_width=width)
        y = box.y + (46 if small else round(54 * k))
        if self.tree is None:
            line = self.problem or f"{self.agent} is searching the position on the board..."
            text.draw(surface, line, (x, y), size + 2, palette.BAD if self.problem else palette.TEXT, max_width=width)
            return drawn + [line]
        where = f"root ({self.where})" + "".join(f" > {edge_label(e, text.number, self.under.rules.format_action)}" for e in self.path)
        # the node's value and its children's in one format (the node's is one of theirs, or their mean)
        number = text.numbers_for([self.at()["value"]] + [e["node"]["value"] for e in self.children()])
        for line, colour in ((where, palette.MUTED),
                             (f"{KIND_WORDS[self.at()['kind']]}; {node_figures(self.at(), number)}", palette.TEXT)):
            for part in text.wrap(line, size, width, max_lines=2):
                text.draw(surface, part, (x, y), size, colour)
                drawn.append(part)
                y += size + 5
        chosen = self.children()[self.selected] if self.children() else None
        detail = chosen and node_figures(chosen["node"], number)
        if detail and detail != node_figures(chosen["node"], number, brief=True):  # its own figures, in full
            label = edge_label(chosen, text.number, self.under.rules.format_action)
            for part in text.wrap(f"{label}: {detail}", size - 2, width, max_lines=2):
                text.draw(surface, part, (x, y), size - 2, palette.INFO)
                drawn.append(part)
                y += size + 3
        y += 6
        keys = "up/down: choose  right or Enter: open  left: back  Home: root  another key: close"
        bottom, full = box.bottom - (size + 14), width  # (the keys' line runs under the small board too)
        line = self.positions() if self.children() or self.path else [None]
        at = line[-1]
        if at is not None:  # the chosen row's position, small, at the right: the rows keep the rest
            side = min(round(200 * k) if not small else 120, (bottom - y) // 2)
            board = pygame.Rect(box.right - 22 - side, y, side, side)
            before = line[:-1] if all(s is not None for s in line[:-1]) else []  # (the move that led there marked)
            paint_state(surface, board, self.under.info.id, self.under.rules, at, before)
            caption = "the chosen row's position"
            text.draw(surface, caption, (board.x, board.bottom + 4), size - 4, palette.MUTED, max_width=side)
            drawn.append(caption)
            width -= side + 20
        self.rows = []
        kids = self.children()
        if not kids:
            here = self.at()
            line = here.get("hidden") or ("below here the search was not kept" if here.get("more")
                                          else "no moves below: the game ends or the search stopped here")
            text.draw(surface, line, (x, y), size, palette.MUTED, max_width=width)
            drawn.append(line)
        fits = max(1, (bottom - y - 8) // row)
        if len(kids) > fits:  # a line above the keys says how many rows there are
            fits = max(1, (bottom - size - 2 - y - 8) // row)
        first = min(max(0, self.selected - fits + 1), max(0, len(kids) - fits))
        values = [e["node"]["value"] for e in kids]
        lo, hi = (min(values), max(values)) if values else (0.0, 0.0)
        shown = range(first, min(len(kids), first + fits))
        # the rows' figures at one size (each shrunk alone, the rows read unevenly): the largest that fits them all
        room = (x - 6 + width + 12) - (width + 12) // 5 - (x + width // 3 + 10) - 8
        row_size = size
        while row_size > 12 and any(text.width(self._row_figures(kids[i], number), row_size) > room for i in shown):
            row_size -= 1
        for i in shown:
            e = kids[i]
            rect = pygame.Rect(x - 6, y, width + 12, row - 4)
            if i == self.selected:
                pygame.draw.rect(surface, palette.PANEL_HI, rect, border_radius=6)
            # the value as a bar in the row's last fifth: the worst child's shortest, the best's full
            share = 1.0 if hi == lo else (e["node"]["value"] - lo) / (hi - lo)
            lane = pygame.Rect(rect.right - rect.w // 5, rect.y + 6, rect.w // 5 - 8, rect.h - 12)
            pygame.draw.rect(surface, palette.BORDER, lane, 1, border_radius=3)
            pygame.draw.rect(surface, palette.INFO, (lane.x, lane.y, max(3, int(lane.w * share)), lane.h),
                             border_radius=3)
            label = edge_label(e, text.number, self.under.rules.format_action)
            left = text.draw(surface, label, (x, y + 2), size, palette.TEXT, max_width=width // 3, min_size=12)
            figures = self._row_figures(e, number)
            at = max(left.right + 14, x + width // 3 + 10)
            text.draw(surface, figures, (at, y + 2 + (size - row_size) // 2), row_size, palette.MUTED,
                      max_width=lane.x - at - 8, min_size=12)
            drawn.append(f"{label} | {figures}")
            self.rows.append((rect, i))
            y += row
        if len(kids) > fits:
            count = f"{len(kids)} children, {fits} shown from {first + 1} (up/down scrolls)"
            text.draw(surface, count, (x, bottom + 2 - size), size - 2, palette.MUTED, max_width=width)
            drawn.append(count)
        text.draw(surface, keys, (x, bottom + 4), size - 2, palette.MUTED, max_width=full)
        drawn.append(keys)
        return drawn
