"""Overlay panels shared by the game screens: the agent panel (`i`), the statistics view (`k`),
and small charts (bars, lines) drawn with pygame alone."""
from __future__ import annotations

import pygame

from arcade.ui import palette, text
from arcade.ui.curve_series import curve_series


def panel_box(surface: pygame.Surface, w: int, h: int) -> pygame.Rect:
    sw, sh = surface.get_size()
    shade = pygame.Surface((sw, sh), pygame.SRCALPHA)
    shade.fill(palette.OVERLAY)
    surface.blit(shade, (0, 0))
    box = pygame.Rect(0, 0, min(w, sw - 40), min(h, sh - 40))
    box.center = (sw // 2, sh // 2)
    pygame.draw.rect(surface, palette.PANEL, box, border_radius=12)
    pygame.draw.rect(surface, palette.ACCENT, box, 2, border_radius=12)
    return box


def _paragraph(surface, line: str, x: int, y: int, width: int, size: int, colour, max_lines: int = 6,
               drawn: list | None = None, step: int | None = None) -> int:
    for part in text.wrap(line, size, width, max_lines=max_lines):
        text.draw(surface, part, (x, y), size, colour)
        if drawn is not None:
            drawn.append(part)
        y += step or size + 4
    return y


def draw_agent_panel(surface: pygame.Surface, name: str, about: str, params: list[tuple[str, str, bool]],
                     figures: str, described: list[str] = (), table: str = "") -> list[str]:
    """What the agent is: its algorithm in plain sentences, what it says of itself (where its table came
    from, its solve figures), its parameters (marked where they are the course's values), and the figures
    of its last decision; `table`: the settings.toml table of its parameters. Where the window is too small for all of it as a table (640x480 with four lines
    of its own), the same in smaller type with the parameters as one wrapped paragraph. Returns the lines
    drawn (for tests)."""
    described = list(described)[:4]
    box = panel_box(surface, 680, 440 + 24 * len(described))
    x, y, width = box.x + 24, box.y + 18, box.w - 48
    figures = figures or "none yet: Enter lets it play, . plays one move, v shows its values"
    about_lines = len(text.wrap(about, 22, width, max_lines=5))
    decision_lines = len(text.wrap(figures, 22, width, max_lines=3))
    # the table layout's height: title, sentences, own lines, parameter rows, then the last decision and the
    # closing line in the 90 px the parameter rows leave free (more where the decision takes more lines)
    table_h = 164 + 26 * about_lines + 24 * len(described) + 26 * max(1, len(params)) + 26 * (decision_lines - 1)
    compact = table_h > box.h
    drawn = [name]  # (its title and id: "Expectimax search (strong) - expectimax")
    text.draw(surface, drawn[0], (x, y), 34, palette.ACCENT, bold=True, max_width=width, min_size=16)
    size, step = (20, 22) if compact else (22, 26)
    y = _paragraph(surface, about, x, y + 46, width, size, palette.TEXT, max_lines=5, drawn=drawn, step=step)
    for line in described:
        text.draw(surface, line, (x, y), 18 if compact else 21, palette.INFO, max_width=width, min_size=14)
        drawn.append(line)
        y += 20 if compact else 24
    y += 10
    text.draw(surface, f"PARAMETERS (settings.toml {table})".replace(" )", ")"), (x, y), 20, palette.MUTED, bold=True,
              max_width=width)
    y += 26
    if not params:
        drawn.append("none: it has no parameters to set")
        text.draw(surface, drawn[-1], (x, y), 22, palette.MUTED)
        y += 26
    elif compact:
        line = ",  ".join(f"{key} {value}" + (" (the course's)" if is_course else "") for key, value, is_course in params)
        # as many lines as the box holds above the last decision (an agent with many parameters: smaller type)
        room = box.bottom - 12 - 20 - 8 - 26 - step * decision_lines - y
        for p_size, p_step in ((18, 21), (16, 19), (14, 17)):
            if len(text.wrap(line, p_size, width, max_lines=99)) * p_step <= room:
                break
        y = _paragraph(surface, line, x, y, width, p_size, palette.TEXT, max_lines=max(3, room // p_step),
                       drawn=drawn, step=p_step)
    for key, value, is_course in params if not compact else ():
        if y > box.bottom - 90:
            break
        text.draw(surface, key, (x, y), 22, palette.TEXT, max_width=width // 2)
        text.draw(surface, value + ("   (the course's value)" if is_course else ""), (x + width // 2, y), 22,
                  palette.GOOD if is_course else palette.TEXT, max_width=width // 2)
        drawn.append(f"{key} {value}")
        y += 26
    y += 8
    text.draw(surface, "LAST DECISION", (x, y), 20, palette.MUTED, bold=True)
    _paragraph(surface, figures, x, y + 26, width, size, palette.TEXT, max_lines=3, drawn=drawn, step=step)
    text.draw(surface, "i or any key closes this panel", (box.centerx, box.bottom - 12), 20, palette.MUTED,
              anchor="midbottom")
    return drawn


def draw_bars(surface, rect: pygame.Rect, labels: list[str], counts: list[int], colour=palette.INFO) -> None:
    """A histogram: one bar per label, its count above it."""
    if not counts:
        return
    top = max(counts) or 1
    n = len(counts)
    gap = 6
    bw = max(4, min(90, (rect.w - gap * (n - 1)) // n))
    x0 = rect.x + (rect.w - (bw * n + gap * (n - 1))) // 2  # a few bars stand in the middle, not stretched
    for i, (label, c) in enumerate(zip(labels, counts, strict=True)):
        h = int((rect.h - 40) * c / top)
        bar = pygame.Rect(x0 + i * (bw + gap), rect.bottom - 20 - h, bw, h)
        pygame.draw.rect(surface, colour, bar, border_radius=3)
        text.draw(surface, str(c), (bar.centerx, bar.y - 2), 18, palette.TEXT, anchor="midbottom")
        text.draw(surface, label, (bar.centerx, rect.bottom - 18), 16, palette.MUTED, anchor="midtop",
                  max_width=bw + gap)


def draw_lines(surface, rect: pygame.Rect, series: list[tuple[str, list[float], tuple]], lo: float, hi: float,
               x_label: str = "", flat: list[tuple[str, float, tuple]] = (), legend_values: bool = True,
               axis: tuple[str, str] | None = None, right_axis: tuple[str, str] | None = None) -> None:
    """A line chart of several series over the same x (their index), scaled to [lo, hi]; `flat` adds
    horizontal reference lines (e.g. an optimum). A legend goes on the top lines (with each series' last
    value unless legend_values is False: the labels carry it; each reference line with its value; an item
    wider than the chart shrinks, then is shortened, never drawn past its edge), the axis' numbers in a
    gutter left of the plot (or `axis`: its top and bottom words), and `right_axis`'s words in a gutter on
    the right where a second scale shares the plot: no text is written over the lines."""
    pygame.draw.rect(surface, palette.BACKGROUND, rect, border_radius=6)
    pygame.draw.rect(surface, palette.BORDER, rect, 1, border_radius=6)
    # the legend flows over as many lines as it needs; the plot takes the rest
    x, y = rect.x + 10, rect.y + 6
    items = [(f"{label}{f': {values[-1]:.2f}' if values and legend_values else ''}", colour)
             for label, values, colour, *_ in series]
    items += [(f"{label} {text.number(value)} (line)", colour) for label, value, colour in flat]
    for item, colour in items:
        w = min(text.width(item, 17), rect.w - 20)
        if x + w > rect.right - 8 and x > rect.x + 10:
            x, y = rect.x + 10, y + 19
        x = text.draw(surface, item, (x, y), 17, colour, max_width=rect.w - 20, min_size=13).right + 14
    # the axis' numbers stand in a gutter of their own, left of the plot, never on its lines
    top_label, bottom_label = axis or (text.number(hi), text.number(lo))
    gutter = max(text.width(t, 15) for t in (top_label, bottom_label)) + 8
    right = max(text.width(t, 15) for t in right_axis) + 8 if right_axis else 0
    plot = pygame.Rect(rect.x + 6 + gutter, y + 26, rect.w - 16 - gutter - right, rect.bottom - 22 - (y + 26))
    span = (hi - lo) or 1.0

    def y_of(v: float) -> float:
        return plot.bottom - (min(max(v, lo), hi) - lo) / span * plot.h

    for _, value, colour in flat:  # a reference line: named in the legend, nothing written on the plot
        y = y_of(value)
        pygame.draw.line(surface, colour, (plot.x, y), (plot.right, y), 1)
    for _, values, colour, *where in series:  # (a fourth item: each value's x, 0 to 1; else evenly spread)
        xs = where[0] if where else [i / max(1, len(values) - 1) for i in range(len(values))]
        points = [(plot.x + x * plot.w, y_of(v)) for x, v in zip(xs, values, strict=True)]
        if len(points) >= 2:
            pygame.draw.lines(surface, colour, False, points, 2)
        elif points:
            pygame.draw.circle(surface, colour, (int(points[0][0]), int(points[0][1])), 3)
    text.draw(surface, top_label, (plot.x - 4, plot.y), 15, palette.MUTED, anchor="midright")
    text.draw(surface, bottom_label, (plot.x - 4, plot.bottom), 15, palette.MUTED, anchor="midright")
    if right_axis:
        text.draw(surface, right_axis[0], (plot.right + 4, plot.y), 15, palette.MUTED, anchor="midleft")
        text.draw(surface, right_axis[1], (plot.right + 4, plot.bottom), 15, palette.MUTED, anchor="midleft")
    if x_label:
        text.draw(surface, x_label, (rect.right - 8, rect.bottom - 4), 16, palette.MUTED, anchor="bottomright")


def draw_statistics(surface: pygame.Surface, title: str, rows: list[tuple[str, object]], has_results: bool,
                    histogram_title: str, highlight: str | None, unit: str = "games", footer: str = "") -> None:
    """The statistics view: a row per player (games, mean, best, and wins / draws / losses where the
    game has them), the histogram of the highlighted player (or the one with most games), and `footer` (the
    last arena's results) in up to three lines at the bottom."""
    box = full = panel_box(surface, 760, 520)
    x, y, width = box.x + 24, box.y + 18, box.w - 48
    text.draw(surface, f"{title}: statistics (kept across runs)", (x, y), 32, palette.ACCENT, bold=True,
              max_width=width, min_size=20)
    y += 48
    if footer:
        size = 15 if surface.get_width() < 800 else 17
        parts = text.wrap(footer, size, width, max_lines=3)
        top = box.bottom - 40 - len(parts) * (size + 4)
        for k, part in enumerate(parts):
            text.draw(surface, part, (x, top + k * (size + 4)), size, palette.INFO)
        box = pygame.Rect(box.x, box.y, box.w, top - box.y + 30)  # (the histogram ends above it)
    if not rows:
        one = unit[:-1] if unit.endswith("s") else unit
        text.draw(surface, f"no {one} finished yet: the figures appear here as {unit} end", (x, y), 22,
                  palette.MUTED, max_width=width)
        text.draw(surface, "k or any key closes this view", (full.centerx, full.bottom - 12), 20, palette.MUTED,
                  anchor="midbottom")
        return
    cols = ["player", unit, "mean", "best"] + (["won", "drawn", "lost"] if has_results else [])
    step = min(80, max(58, (width - 200) // (len(cols) - 1)))  # the figures' columns fit a 640 window
    name_w = width - step * (len(cols) - 1)
    xs = [x] + [x + name_w + step * k for k in range(len(cols) - 1)]
    for cx, label in zip(xs, cols, strict=True):
        text.draw(surface, label, (cx, y), 20, palette.MUTED)
    y += 26
    for player, t in rows[:8]:
        colour = palette.ACCENT if player == highlight else palette.TEXT
        cells = [player, str(t.games), f"{t.mean:.1f}" if t.mean is not None else "-",
                 f"{t.best:g}" if t.best is not None else "-"]
        if has_results:
            cells += [str(t.wins), str(t.draws), str(t.losses)]
        for cx, cell in zip(xs, cells, strict=True):
            # a long name gets smaller before it is cut ("policy-iteration vs random (2x3)")
            text.draw(surface, cell, (cx, y), 22, colour, max_width=name_w - 10 if cx == x else step - 4,
                      min_size=13 if cx == x else 16)
        y += 26
    shown = next((t for p, t in rows if p == highlight), None) or max((t for _, t in rows), key=lambda t: t.games)
    who = next(p for p, t in rows if t is shown)
    if shown.histogram and box.bottom - y - 80 > 40:  # (room for it above the arena's lines)
        y += 10
        text.draw(surface, f"{histogram_title} - {who}", (x, y), 20, palette.MUTED, bold=True, max_width=width,
                  min_size=13)
        labels = sorted(shown.histogram, key=_bucket_order)
        draw_bars(surface, pygame.Rect(x, y + 26, width, box.bottom - y - 70), labels,
                  [shown.histogram[k] for k in labels])
    text.draw(surface, "k or any key closes this view", (full.centerx, full.bottom - 12), 20, palette.MUTED,
              anchor="midbottom")


def _bucket_order(label: str):
    """Buckets sort by their leading number ('1024', '-1', '2000-2999'), others after."""
    head = label.split("-")[0] if not label.startswith("-") else "-" + label[1:].split("-")[0]
    try:
        return (0, float(head))
    except ValueError:
        return (1, label)


CURVE_COLOURS = (palette.GOOD, palette.BAD, palette.INFO, palette.ACCENT, palette.VIOLET, palette.TEAL)


def draw_runs(surface, rect: pygame.Rect, runs: list[tuple[str, list[tuple[int, dict]]]]) -> None:
    """Trainings side by side: one series in every run (the newest run's first, the one its curve leads with)
    against the games each had played, the runs on one scale (shares 0-100%, scores 0 to the largest), the legend naming each run
    (what set it apart) with its last value. The newest run last, in the first colour."""
    newest = next((points for _, points in reversed(runs) if points), None)
    if newest is None:
        return
    # one measure for every run: the newest run's first series, read by its name from each run (each run's
    # own first series could be another: "drawn v minimax" beside "won v random")
    lead = curve_series(newest)[0]
    firsts = [(label, next(s for s in curve_series(points) if s.label == lead.label))
              for label, points in runs if points and any(lead.label in p[1] for p in points)]
    share = all(s.share for _, s in firsts)
    top = 1.0 if share else max(max(max(s.values) for _, s in firsts), 1e-9)
    last = max(s.at[-1] for _, s in firsts) or 1
    lines = []
    for k, (label, s) in enumerate(reversed(firsts)):
        shown = f"{s.values[-1]:.0%}" if s.share else text.number(s.values[-1])
        colour = CURVE_COLOURS[k % len(CURVE_COLOURS)]
        lines.append((f"{label}: {s.label} {shown}", [v / top for v in s.values], colour, [d / last for d in s.at]))
    axis = ("100%", "0%") if share else (text.number(top), "0")
    draw_lines(surface, rect, lines[::-1], 0.0, 1.0, x_label=f"games 0-{last:,}", legend_values=False, axis=axis)


def draw_curve(surface, rect: pygame.Rect, points: list[tuple[int, dict]]) -> None:
    """A learning curve from training checkpoints (arcade.training): the series curve_series picks. Shares
    run on a 0-100% axis; a figure of its own scale (a mean score) on an axis from 0 to its largest value.
    Both kinds together: the score's axis on the left, the shares' on the right, each legend item saying
    which; several scores are each drawn against their own top (the legend gives it)."""
    every = curve_series(points)
    scaled = [s for s in every if not s.share]
    both = bool(scaled) and len(scaled) < len(every)
    done = points[-1][0] if points else 0
    lines = []
    for k, s in enumerate(every):
        colour = CURVE_COLOURS[k % len(CURVE_COLOURS)]
        at = [d / max(done, 1) for d in s.at]  # (each value where its games were: a rating stands at its own)
        if s.share:
            lines.append((f"{s.label} {s.values[-1]:.0%}" + (" (right)" if both else ""), s.values, colour, at))
        else:
            top = max(max(s.values), 1e-9)
            own = "" if len(scaled) == 1 else f" (top of chart {text.number(top)})"
            lines.append((f"{s.label} {text.number(s.values[-1])}{own}", [v / top for v in s.values], colour, at))
    # the axis says what its ends are: a score is drawn against its own top, shares 0-100%
    if len(scaled) == 1:
        axis = (text.number(max(max(scaled[0].values), 1e-9)), "0")
    else:
        axis = ("top", "0") if scaled else ("100%", "0%")
    draw_lines(surface, rect, lines, 0.0, 1.0, x_label=f"games 0-{done:,}", legend_values=False, axis=axis,
               right_axis=("100%", "0%") if both else None)


def draw_waiting(surface, rect: pygame.Rect, message: str) -> None:
    """An empty chart frame with a line saying what will appear there."""
    pygame.draw.rect(surface, palette.BACKGROUND, rect, border_radius=6)
    pygame.draw.rect(surface, palette.BORDER, rect, 1, border_radius=6)
    for k, line in enumerate(text.wrap(message, 18, rect.w - 20, max_lines=3)):
        text.draw(surface, line, (rect.x + 10, rect.y + 10 + 22 * k), 18, palette.MUTED)


def draw_bar(surface, rect: pygame.Rect, fraction: float, caption: str) -> None:
    """A progress bar filled to `fraction`, its caption above it."""
    pygame.draw.rect(surface, palette.PANEL, rect, border_radius=6)
    fill = rect.copy()
    fill.w = int(rect.w * min(1.0, max(0.0, fraction)))
    pygame.draw.rect(surface, palette.GOOD, fill, border_radius=6)
    pygame.draw.rect(surface, palette.BORDER, rect, 1, border_radius=6)
    text.draw(surface, caption, (rect.x, rect.y - 22), 18, palette.TEXT, max_width=rect.w, min_size=13)


def draw_welcome(surface: pygame.Surface, board: pygame.Rect, title: str, lines: list[str]) -> pygame.Rect:
    """The first visit's card over the board: a title, then its lines (the first, the aim of the game, as a
    paragraph; the rest one key each), at the largest size whose lines all fit. Returns the card's rect."""
    w = min(board.w - 24, 640)
    inner = w - 40
    for size in (22, 20, 18, 16, 15, 14):
        wrapped = [text.wrap(line, size, inner, max_lines=6) for line in lines]
        height = 44 + sum(len(part) * (size + 4) + 8 for part in wrapped) + 12
        if height <= board.h - 16:
            break
    card = pygame.Rect(0, 0, w, min(height, board.h - 16))
    card.center = board.center
    shade = pygame.Surface(card.inflate(16, 16).size, pygame.SRCALPHA)
    shade.fill(palette.OVERLAY)
    surface.blit(shade, card.inflate(16, 16).topleft)
    pygame.draw.rect(surface, palette.PANEL, card, border_radius=12)
    pygame.draw.rect(surface, palette.ACCENT, card, 2, border_radius=12)
    text.draw(surface, title, (card.x + 20, card.y + 12), 26, palette.ACCENT, bold=True, max_width=inner, min_size=18)
    y = card.y + 44
    for k, part in enumerate(wrapped):
        for line in part:
            text.draw(surface, line, (card.x + 20, y), size, palette.TEXT if k == 0 else palette.MUTED)
            y += size + 4
        y += 8
    return card
