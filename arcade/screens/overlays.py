"""The panels a game screen opens over itself, pushed on the app's stack: the key help (`h`), the agent
panel (`i`) and the statistics view (`k`).

An overlay draws the game screen under it and then itself; the game under it keeps going (an agent keeps
playing, a training keeps reporting). Any key closes it (Esc too, without leaving the game).
"""
from __future__ import annotations


import pygame

from agents import Describes, find
from arcade import kept_params
from arcade.progress import ms_text
from arcade.screens.stacked import Screen
from arcade.settings import course_value
from arcade.ui import hud, panels


class Overlay(Screen):
    """In: the app and the game screen under the overlay."""

    def __init__(self, app, under):
        self.app = app
        self.under = under

    def handle_event(self, event) -> bool:
        if event.type == pygame.KEYDOWN:
            self.app.pop()
            return True
        return False

    def update(self, dt_ms: float) -> None:
        self.under.update(dt_ms)

    def busy(self) -> bool:
        return self.under.busy()

    def say(self, message: str | None, ms: float = 2500) -> None:
        self.under.say(message, ms)

    def draw(self, surface: pygame.Surface) -> None:
        self.under.draw(surface)
        self.draw_over(surface)
        self.under.draw_progress(surface)  # (a compile the panel's question waits for: its bar stays in sight)

    def draw_over(self, surface: pygame.Surface) -> list[str]:
        """Draw the panel over the game; returns the lines drawn (for tests)."""
        raise NotImplementedError


class KeyHelp(Overlay):
    """`h` or `?`: every key of the screen and what it does; where the window is too small for all of them,
    up / down (and PgUp / PgDn) scroll them, any other key closes it."""

    SCROLL_KEYS = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -5, pygame.K_PAGEDOWN: 5}

    def __init__(self, app, under):
        super().__init__(app, under)
        self.first = 0  # the first key listed
        self.scrolls = False  # the last frame could not list every key

    def handle_event(self, event) -> bool:
        if event.type == pygame.KEYDOWN and self.scrolls and event.key in self.SCROLL_KEYS:
            keys = len(self.under.help_entries())
            self.first = min(max(0, self.first + self.SCROLL_KEYS[event.key]), keys - 1)
            return True
        return super().handle_event(event)

    def draw_over(self, surface):
        keys = [k[:2] for k in self.under.help_entries()]
        listed = hud.draw_help_overlay(surface, self.under.info.title, keys, self.first)
        self.scrolls = self.first > 0 or len(listed) < sum(1 for key, _ in keys if key)
        return listed


class AgentPanel(Overlay):
    """`i`: what the selected agent is, its parameters and its last decision."""

    def draw_over(self, surface):
        return panels.draw_agent_panel(surface, *agent_panel_lines(self.under))


class StatisticsView(Overlay):
    """`k`: the statistics of this game kept across runs, the current player's histogram shown."""

    def draw_over(self, surface):
        screen = self.under
        tallies = screen.stats.of(screen.info.id)
        rows = sorted(tallies.items(), key=lambda kv: -kv[1].games)
        now = screen.statistics_player()  # the current player's histogram, where it has games; else the last's
        from arcade import arena

        kept = arena.kept_results(screen.settings.data_dir, screen.info.id, screen.settings)
        footer = arena.summary_line(kept) + " (Shift+a: the arena)" if kept else ""
        panels.draw_statistics(surface, screen.info.title, rows, screen.rules.players == 2, screen.HISTOGRAM,
                               now if now in tallies else screen.last_player, unit=screen.info.unit, footer=footer)
        return [name for name, _ in rows] + ([footer] if footer else [])


def agent_parameters(settings, game, name: str, rules) -> tuple[list[tuple[str, str, bool]], str]:
    """Agent `name`'s parameters on `game` (those it reads on `rules`) as (key, value shown, whether it is the
    course's value), and the settings.toml table that sets them ("" for an agent without parameters)."""
    values = settings.agent_params(game.id, name)
    if values is None:
        return [], ""
    params = []
    for f in find(game.id, name).params_here(rules, values):
        value = getattr(values, f.name)
        params.append((f.name, parameter_text(settings, f.name, value), course_value(type(values), f.name) == value))
    return params, f"[{game.table}.{name}]"


def parameter_text(settings, name: str, value) -> str:
    """A parameter's value as a person reads it: a time budget of 0 is the [agents] one, said with its value."""
    if name == "time_budget_ms" and not value:
        return f"0: the [agents] one, {settings.agents.time_budget_ms} ms"
    return f"{value:g}" if isinstance(value, float) else str(value)


def agent_panel_lines(screen):
    """The agent panel's content for a game screen's selected agent: (its title and id, about, parameters as
    (key, value, whether it is the course's value), its last decision's figures, what it says of itself,
    the settings.toml table of its parameters)."""
    spec = screen.controller.spec
    params, table = agent_parameters(screen.settings, screen.info, spec.name, screen.rules)
    changed = kept_params.kept(screen.app.settings, screen.info.id).get(spec.name, {})
    params = [(k, f"{v} (changed here)" if k in changed else v, course) for k, v, course in params]
    if changed:
        table += ", Shift+i for those changed here"
    figures = screen.controller.last_figures
    shown = ", ".join(ms_text(v) if k == "ms" else f"{k} {v:,.0f}" if isinstance(v, (int, float)) else f"{k} {v}"
                      for k, v in figures.items())
    agent = screen.controller.cached_agent()
    described = agent.describe() if isinstance(agent, Describes) else []
    name = spec.shown if spec.shown == spec.name else f"{spec.shown} - {spec.name}"  # (its title, and its id)
    return name, spec.about, params, shown, described, table
