"""Shift+a on a game screen: an arena of the game's agents, run in the background while the window stays
responsive (any key but Esc closes the view and the arena plays on: Shift+a shows it again; leaving the
game's screen ends it). Choose the entrants (Space; an agent whose parameters were changed here with Shift+i enters
twice, as set in settings.toml and as changed) and the games a pairing (left / right), Enter starts: every
pairing plays through the runner (arcade.arena: every core but the one the game keeps, logged in the data folder's runs/arena, so a
stopped arena continues), and the table fills in pairing by pairing: two players, each pair's wins / draws /
losses and Bradley-Terry ratings with 95% intervals, drawn as a chart; one player, mean scores with their
intervals and the game's milestones, paired by seed. Esc stops it (what finished is kept). Names no game and
no agent: the entrants are the screen's controller's."""
from __future__ import annotations

import math
import threading

import pygame

from arcade import arena, kept_params, runner
from arcade.numbers import estimate
from arcade.screens.overlays import Overlay
from arcade.ui import palette, text
from arcade.ui.geometry import overlay_scale
from arcade.ui.panels import panel_box

GAMES = (4, 10, 20, 40, 100)  # games a pairing to choose from


def open_arena(screen, event=None) -> None:
    """Shift+a: the screen's arena, the one running or finished if there is one, else a new one to set up."""
    if screen.arena is None:
        screen.arena = ArenaView(screen.app, screen)
    screen.app.push(screen.arena)


class ArenaView(Overlay):
    """In: the app and the game screen under it."""

    def __init__(self, app, under):
        super().__init__(app, under)
        game = under.info.id
        names = [s.name for s in under.controller.specs if s.cannot_play(under.rules) is None]
        changed = kept_params.kept(under.app.settings, game)
        self.choices = [(n, n) for n in names]  # (label, entrant text)
        for name, params in changed.items():
            if name in names and params:
                changes = ", ".join(f"{k} {v}" for k, v in params.items())
                self.choices.append((f"{name} (changed here: {changes})",
                                     f"{name}:" + ":".join(f"{k}={v}" for k, v in params.items())))
        # the entrants chosen the last time on this screen (closed before it started, or another arena)
        before = getattr(under, "arena_chosen", None)
        self.chosen = {i for i, (_, entrant) in enumerate(self.choices) if entrant in before} if before else \
            {0, 1} & set(range(len(self.choices)))
        self.selected, self.games = 0, 1
        self.thread: threading.Thread | None = None
        self.backend = None
        self.progress: tuple[str, int, int] | None = None
        self.table: dict | None = None
        self.problem = ""
        self.finished = False

    # --- keys ------------------------------------------------------------------------------------------------
    def handle_event(self, event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        if self.thread is not None or self.finished:
            if self.finished or not self.thread.is_alive():
                self.under.arena = None  # (over: the next Shift+a sets up a new one)
            elif event.key == pygame.K_ESCAPE:
                self.stop()
                self.under.arena = None
            self.app.pop()  # (another key: the view closes, the arena plays on)
            return True
        if event.key in (pygame.K_UP, pygame.K_DOWN) and self.choices:
            self.selected = (self.selected + (1 if event.key == pygame.K_DOWN else -1)) % len(self.choices)
        elif event.key == pygame.K_SPACE and self.choices:
            self.chosen ^= {self.selected}
            self.under.arena_chosen = {self.choices[i][1] for i in self.chosen}
        elif event.key in (pygame.K_LEFT, pygame.K_RIGHT):
            self.games = min(max(self.games + (1 if event.key == pygame.K_RIGHT else -1), 0), len(GAMES) - 1)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
        else:
            self.under.arena = None  # (closed before it started: nothing to keep)
            self.app.pop()
        return True

    # --- the run ---------------------------------------------------------------------------------------------
    def start(self) -> None:
        screen = self.under
        need = 2  # (an arena compares: one entrant alone is a bench run)
        if len(self.chosen) < need:
            self.problem = f"choose {need} entrants or more (Space)"
            return
        text_of = ",".join(self.choices[i][1] for i in sorted(self.chosen))
        try:
            entrants = arena.parse_entrants(screen.info.id, text_of)
        except ValueError as exc:
            self.problem = str(exc)
            return
        self.problem = ""
        # every core but one, in processes that take only CPU time nothing else wants: the window and the game's
        # own agent keep a core (on 2 cores, two idle-class workers still made frames wait: p99 20-23 ms, one
        # worker 19.5), and no game is played in the window's process (its GIL is the frames')
        jobs = max(1, runner.default_jobs() - 1)
        self.backend = runner.LocalProcesses(jobs, give_way=True, keep_workers=True)  # (one pool, every pairing)
        self.thread = threading.Thread(target=self._run, args=(entrants, GAMES[self.games]), name="arena",
                                       daemon=True)
        self.thread.start()

    def _run(self, entrants, games: int) -> None:
        screen = self.under
        settings = self.base_settings()
        folder = settings.data_dir / "runs" / "arena"
        played: list = []
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for pairing in arena.pairings(entrants, screen.rules.players):
                entered = [pairing.first] + ([pairing.second] if pairing.second is not None else [])
                got = arena.play(screen.info.id, screen.rules, settings, entered, games, 0, self.backend, folder,
                                 lambda label, done, total, records, p=pairing, before=list(played): self._so_far(
                                     entrants, before, p, label, done, total, records))
                played += got
                self.table = self._table(entrants, played)
                done = len(played) == len(arena.pairings(entrants, screen.rules.players)) and all(
                    p.complete for p in played)
                arena.keep_results(settings.data_dir, screen.info.id, settings, self.table, games, done)
                self.progress = None  # (the next pairing: its agents made and its workers started first)
                if not all(p.complete for p in got) or self.thread is None:
                    return
            self.finished = True
        except (ValueError, OSError, runner.RunError) as exc:
            self.problem = str(exc)
        finally:
            self.progress = None
            if self.backend is not None:
                self.backend.shutdown()

    def _so_far(self, entrants, played, pairing, label, done, total, records) -> None:
        """A pairing's games as they finish: its progress, and the table of every game finished so far (the
        first entrant of a one-player arena is not hidden until all its games are played)."""
        self.progress = (label, done, total)
        if records:
            partial = arena.Pairing(pairing.first, pairing.second, sorted(records, key=lambda r: r["index"]))
            self.table = self._table(entrants, played + [partial])

    def base_settings(self):
        """What every entrant is built from before its own parameters: settings.toml's (not what was changed
        here: an entrant "NAME" is settings.toml's agent, "NAME:param=value" the one changed here), with no
        clock (every entrant stops on its counted work: the same table on any machine, any jobs)."""
        return self.under.app.settings.with_table("agents", budget_clock="none")

    def _table(self, entrants, played) -> dict:
        if self.under.rules.players == 2:
            return arena.two_player_table(entrants, played)
        return arena.one_player_table(self.under.info.id, played)

    def stop(self) -> None:
        """Stop the games in play (the finished ones stay in the logs: the same arena continues from them)."""
        thread, self.thread = self.thread, None
        if thread is not None and self.backend is not None:
            self.backend.stop()
            thread.join(timeout=30)

    def busy(self) -> bool:
        return (self.thread is not None and not self.finished) or self.under.busy()

    # --- drawing ---------------------------------------------------------------------------------------------
    def draw_over(self, surface) -> list[str]:
        k = overlay_scale(surface)
        box = panel_box(surface, round(900 * k), round(620 * k))
        x, width = box.x + 22, box.w - 44
        small = surface.get_width() < 800
        size = 15 if small else round(18 * k)
        title = f"Arena: {self.under.info.title}"
        text.draw(surface, title, (x, box.y + 14), 24 if small else round(30 * k), palette.ACCENT, bold=True,
                  max_width=width)
        y = box.y + (48 if small else 58)
        drawn = [title]
        if self.thread is None and not self.finished and self.table is None:
            drawn += self._draw_choice(surface, x, y, width, size)
            keys = "up/down: choose  Space: in / out  left/right: games  Enter: start  another key: close"
        else:
            drawn += self._draw_table(surface, pygame.Rect(x, y, width, box.bottom - y - size - 20), size)
            running = self.thread is not None and self.thread.is_alive() and not self.finished
            keys = ("Esc: stop (what finished is kept: the same arena continues)  another key: play on beside it"
                    if running else "any key: close")
        if self.problem:
            text.draw(surface, self.problem, (x, box.bottom - 2 * size - 20), size - 2, palette.BAD, max_width=width)
            drawn.append(self.problem)
        text.draw(surface, keys, (x, box.bottom - size - 12), size - 2, palette.MUTED, max_width=width)
        return drawn + [keys]

    def _draw_choice(self, surface, x, y, width, size) -> list[str]:
        drawn = []
        how = ("sides alternate; each game's seed the same for every pairing" if self.under.rules.players == 2
               else "each entrant plays the same seeds, so scores pair game by game")
        line = f"games {'a pairing' if self.under.rules.players == 2 else 'each'}: {GAMES[self.games]} ({how})"
        text.draw(surface, line, (x, y), size - 2, palette.MUTED, max_width=width)
        drawn.append(line)
        y += size + 12
        for i, (label, _) in enumerate(self.choices):
            mark = "[x]" if i in self.chosen else "[ ]"
            row = f"{mark}  {label}"
            if i == self.selected:
                pygame.draw.rect(surface, palette.PANEL_HI, (x - 6, y - 2, width + 12, size + 10), border_radius=6)
            text.draw(surface, row, (x, y + 2), size, palette.TEXT if i in self.chosen else palette.MUTED,
                      max_width=width)
            drawn.append(row)
            y += size + 12
        return drawn

    def _draw_table(self, surface, area: pygame.Rect, size: int) -> list[str]:
        drawn = []
        x, y = area.x, area.y
        if self.progress is not None:
            label, done, total = self.progress
            line = f"playing {label}: {done} of {total} games" + ("" if done else
                                                                    " (an agent that searches deep takes a while a game)")
            text.draw(surface, line, (x, y), size - 2, palette.INFO, max_width=area.w)
            drawn.append(line)
            y += size + 8
        elif self.thread is not None and self.thread.is_alive() and not self.finished:
            text.draw(surface, "getting the next pairing ready (its agents, its worker processes)...", (x, y), size - 2,
                      palette.INFO, max_width=area.w)
            y += size + 8
        if self.table is None:
            return drawn
        rows = self.table.get("ratings") or self.table.get("entrants") or []
        rated = "ratings" in self.table
        scale = ("ratings on the Elo scale (mean 0: the entrants' average), 95% intervals; a sweep's is a bound"
                 if rated else f"mean {self.under.info.unit or 'score'} a game, 95% intervals")
        text.draw(surface, scale, (x, y), size - 3, palette.MUTED, max_width=area.w)
        drawn.append(scale)
        y += size + 4
        finite = [v for r in rows for v in (r.get("low", r.get("mean", 0) - r.get("ci", 0)),
                                            r.get("high", r.get("mean", 0) + r.get("ci", 0))) if math.isfinite(v)]
        lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
        span = (hi - lo) or 1.0
        chart = pygame.Rect(x + area.w // 2, 0, area.w // 2 - 8, size)
        at = lambda v: chart.x + int(min(max((v - lo) / span, 0.0), 1.0) * chart.w)
        for r in rows:  # the chart: each entrant's rating (or mean) with its 95% interval
            centre = r.get("rating", r.get("mean", 0.0))
            low, high = r.get("low", centre - r.get("ci", 0.0)), r.get("high", centre + r.get("ci", 0.0))
            words = (f"{r['entrant']}: {arena.rating_text(r)}, {r['games']} games" if rated
                     else f"{r['entrant']}: mean {estimate(centre, r['ci'])}, {r['games']} games")
            text.draw(surface, words, (x, y), size - 2, palette.TEXT, max_width=area.w // 2 - 12, min_size=11)
            chart.y = y + 2
            if math.isfinite(centre):
                pygame.draw.line(surface, palette.BORDER, (chart.x, chart.centery), (chart.right, chart.centery), 1)
                pygame.draw.line(surface, palette.INFO, (at(low), chart.centery), (at(high), chart.centery), 3)
                pygame.draw.circle(surface, palette.ACCENT, (at(centre), chart.centery), 5)
            drawn.append(words)
            y += size + 10
        if rows:  # the chart's scale: its ends and, on the Elo scale, the mean
            unit = "Elo" if rated else ""
            ticks = [(lo, f"{lo:+,.0f}" if rated else f"{lo:,.0f}", "topleft"),
                     (hi, (f"{hi:+,.0f}" if rated else f"{hi:,.0f}") + (f" {unit}" if unit else ""), "topright")]
            if rated and lo < 0 < hi and chart.w * min(-lo, hi) / span > 40:  # (room for it between the ends)
                ticks.append((0.0, "0", "midtop"))
            for value, label, anchor in ticks:
                pygame.draw.line(surface, palette.MUTED, (at(value), y - 6), (at(value), y - 2), 1)
                text.draw(surface, label, (at(value), y - 2), size - 5, palette.MUTED, anchor=anchor)
            y += size
        y += 6
        columns = (0, area.w // 2 - 110, area.w // 2 - 50, area.w // 2 + 10, area.w // 2 + 80)
        pairs = [("pair", "wins", "draws", "losses", "difference, 95% interval")] + [
            (f"{p['first']} vs {p['second']}", str(p["wins"]), str(p["draws"]), str(p["losses"]),
             arena.difference_text(p)) for p in self.table.get("pairs", [])]
        for row in pairs if len(pairs) > 1 else []:
            if y > area.bottom - size:
                break
            for k, (at_x, cell) in enumerate(zip(columns, row, strict=True)):
                room = (columns[k + 1] if k + 1 < len(columns) else area.w) - at_x - 8
                text.draw(surface, cell, (x + at_x, y), size - 3, palette.MUTED, max_width=room, min_size=10)
            drawn.append("  ".join(row))
            y += size + 2
        if self.finished:
            done = "the arena is over: its logs are kept (the same arena again shows them at once)"
            text.draw(surface, done, (x, min(y + 6, area.bottom - size)), size - 2, palette.GOOD, max_width=area.w)
            drawn.append(done)
        return drawn
