"""The parameter editor (Shift+i on every game screen): each parameter the selected agent declares, its value
here, its allowed range or choices, the course's value and the default; change one and the agent's next
decision uses it.

Keys: up / down choose a parameter, left / right step it (choices: the next one), digits type a value and Enter
sets it, c the course's value, d the default, u undoes the change (settings.toml's value plays again); Esc or
any other key closes it (as every panel over a game does). A value outside the range is refused in one line. Changes are kept in the data folder per game
and agent (arcade/kept_params.py), never in settings.toml. The view names no agent: it reads the parameters the
registry's spec declares.
"""
from __future__ import annotations

import dataclasses

import pygame

from arcade import kept_params
from arcade.screens.overlays import Overlay, parameter_text
from arcade.ui import palette, text
from arcade.ui.geometry import overlay_scale
from arcade.ui.panels import panel_box


def step_of(f: dataclasses.Field, value, up: bool):
    """The next value of a ranged field one step up or down, within its range: integers by one where the range
    is small and by doubling or halving where it is wide; numbers by a tenth of a small range (about 0.1 on
    [0, 1]), else by doubling or halving."""
    lo, hi = f.metadata["min"], f.metadata["max"]
    integer = isinstance(lo, int) and isinstance(hi, int)
    if integer:
        if hi - lo <= 20:
            new = value + (1 if up else -1)
        else:
            new = max(value * 2, value + 1) if up else value // 2
    elif hi - lo <= 10:
        new = round(value + (hi - lo) / (100 if hi - lo <= 1 else 20) * (1 if up else -1), 6)
    else:
        new = value * 2 if up and value else (1.0 if up else value / 2)
    return min(hi, max(lo, new))


class ParamsView(Overlay):
    """In: the app and the game screen under it; edits the parameters of the agent selected there."""

    def __init__(self, app, under):
        super().__init__(app, under)
        self.spec = under.controller.spec
        self.fields = list(self.spec.params_here(under.rules, self.values()))  # (those it reads here, as set)
        self.selected = 0
        self.typed = ""
        self.line = "" if self.fields else f"{self.spec.name} has no parameters to change"

    def values(self) -> object:
        return self.under.settings.agent_params(self.under.info.id, self.spec.name)

    def changed(self) -> dict:
        return kept_params.kept(self.under.app.settings, self.under.info.id).get(self.spec.name, {})

    def set(self, value) -> None:
        """Keep `value` for the selected parameter (None: forget it) and hand the new settings to the agent."""
        screen, f = self.under, self.fields[self.selected]
        try:
            kept_params.keep(screen.app.settings, screen.info.id, self.spec.name, f.name, value)
        except ValueError as exc:
            self.line = f"refused: {exc}"
            return
        screen.settings = kept_params.with_kept(screen.app.settings, screen.info.id)
        screen.controller.set_settings(screen.settings)
        screen.values.forget()
        self.fields = list(self.spec.params_here(screen.rules, self.values()))  # (one may decide another's use)
        self.selected = next((i for i, g in enumerate(self.fields) if g.name == f.name), 0)
        now = getattr(self.values(), f.name)
        self.line = f"{f.name} {now}: {self.spec.name} is built again with it; its next decision uses it"

    def handle_event(self, event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        key, shift = event.key, bool(event.mod & pygame.KMOD_SHIFT)
        if key == pygame.K_ESCAPE or (key == pygame.K_i and shift):
            self.app.pop()
            return True
        if not self.fields:  # nothing to change: any key closes it
            self.app.pop()
            return True
        f = self.fields[self.selected]
        value = getattr(self.values(), f.name)
        if key in (pygame.K_UP, pygame.K_DOWN):
            self.selected = (self.selected + (1 if key == pygame.K_DOWN else -1)) % len(self.fields)
            self.typed = ""
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            choices = f.metadata.get("choices")
            if choices:
                self.set(choices[(choices.index(value) + (1 if key == pygame.K_RIGHT else -1)) % len(choices)])
            else:
                self.set(step_of(f, value, key == pygame.K_RIGHT))
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.typed:
            self._set_typed(f)
        elif key == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
        elif event.unicode and event.unicode in "0123456789.-e" and "choices" not in f.metadata:
            self.typed += event.unicode
        elif key == pygame.K_c:
            course = f.metadata.get("course")
            if course is None:
                self.line = f"the course gives no value of {f.name}"
            else:
                self.set(course)
        elif key == pygame.K_d:
            self.set(f.default)
        elif key == pygame.K_u:
            self.set(None)
        else:  # any other key closes it, as every panel over a game closes
            self.app.pop()
        return True

    def _set_typed(self, f) -> None:
        typed, self.typed = self.typed, ""
        integer = isinstance(f.metadata["min"], int) and isinstance(f.metadata["max"], int)
        try:
            value = int(typed) if integer else float(typed)
        except ValueError:
            self.line = f"refused: {typed!r} is not {'a whole number' if integer else 'a number'}"
            return
        self.set(value)

    def draw_over(self, surface) -> list[str]:
        k = overlay_scale(surface)
        box = panel_box(surface, round(860 * k), round(560 * k))
        small = surface.get_width() < 800
        size, row = (15, 24) if small else (round(19 * k), round(32 * k))
        x, width = box.x + 22, box.w - 44
        drawn = [f"Parameters: {self.spec.name}"]
        text.draw(surface, drawn[0], (x, box.y + 14), 26 if small else round(30 * k), palette.ACCENT, bold=True,
                  max_width=width)
        y = box.y + (50 if small else round(58 * k))
        values, changed = self.values(), self.changed()
        columns = (x, x + int(width * 0.30), x + int(width * 0.50), x + int(width * 0.80))
        for label, cx in zip(("parameter", "value", "allowed", "course / default"), columns, strict=True):
            text.draw(surface, label, (cx, y), size - 2, palette.MUTED, bold=True)
        y += row - 6
        bottom = box.bottom - 2 * (size + 10)
        first = max(0, self.selected - max(1, (bottom - y) // row) + 1)
        for i, f in enumerate(self.fields[first:], start=first):
            if y + row > bottom:
                break
            rect = pygame.Rect(x - 6, y - 2, width + 12, row - 4)
            if i == self.selected:
                pygame.draw.rect(surface, palette.PANEL_HI, rect, border_radius=6)
            value = getattr(values, f.name)
            shown = self.typed + "_" if i == self.selected and self.typed else \
                parameter_text(self.under.settings, f.name, value)
            mark = "  (changed here)" if f.name in changed else ""
            meta = f.metadata
            allowed = " | ".join(map(str, meta["choices"])) if "choices" in meta else f"{meta['min']} .. {meta['max']}"
            course = meta.get("course")
            known = f"{course if course is not None else '-'} / {f.default}"
            cells = (f.name, shown + mark, allowed, known)
            colours = (palette.TEXT, palette.ACCENT if mark else palette.TEXT, palette.MUTED, palette.MUTED)
            for cell, cx, nx, colour in zip(cells, columns, (*columns[1:], x + width), colours, strict=True):
                text.draw(surface, cell, (cx, y + 2), size, colour, max_width=nx - cx - 10, min_size=11)
            drawn.append(" | ".join(cells))
            y += row
        unused = self.spec.unused_params(self.under.rules, values)
        for name, why in unused.items():  # (not offered: said, so a parameter does not vanish without a word)
            if y + size > bottom:
                break
            line = f"{name}: not used here ({why})"
            text.draw(surface, line, (x, y + 2), size - 3, palette.MUTED, max_width=width, min_size=11)
            drawn.append(line)
            y += size + 2
        keys = "up/down: choose  left/right: step  digits + Enter: type  c: course  d: default  u: undo  other: close"
        if self.line:
            text.draw(surface, self.line, (x, bottom + 4), size, palette.BAD if self.line.startswith("refused")
                      else palette.GOOD, max_width=width, min_size=12)
            drawn.append(self.line)
        text.draw(surface, keys, (x, bottom + size + 12), size - 3, palette.MUTED, max_width=width, min_size=11)
        drawn.append(keys)
        return drawn
