"""Text helpers: fitting and wrapping with an ellipsis where text is cut."""
import itertools

import pygame
import pytest

from arcade.ui import text


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    yield
    text.forget()


def test_fit_keeps_short_text_and_cuts_long_text():
    assert text.fit("short", 20, 500) == "short"
    cut = text.fit("a rather long line of text that cannot fit", 20, 80)
    assert cut.endswith("…") and text.font(20).size(cut)[0] <= 80


@pytest.mark.parametrize("max_lines", [1, 2, 3])
def test_wrap_respects_lines_and_marks_a_cut(max_lines):
    blurb = "Swap gems into lines; Q-learning from rollouts decides each turn of the game."
    lines = text.wrap(blurb, 19, 120, max_lines=max_lines)
    assert len(lines) <= max_lines
    assert all(text.font(19).size(line)[0] <= 120 for line in lines)
    assert lines[-1].endswith("…")  # this text never fits in three narrow lines


def test_fit_cuts_where_shortening_a_character_at_a_time_would():
    def plain(line, size, max_width):  # the rule, a character at a time from the end (no width: no limit)
        if max_width <= 0 or text.font(size).size(line)[0] <= max_width:
            return line
        while line and text.font(size).size(line + "…")[0] > max_width:
            line = line[:-1]
        return line + "…"

    for line in ("a rather long line of text that cannot fit", "WWWW iiii WWWW iiii", "x", "mean 265,627 [12 games]"):
        for max_width in (0, 1, 8, 30, 57, 80, 140, 400):
            assert text.fit(line, 18, max_width) == plain(line, 18, max_width), (line, max_width)


def test_a_kept_line_image_is_the_one_a_fresh_render_makes_and_each_colour_has_its_own():
    surface = pygame.Surface((300, 40))
    for colour in ((250, 250, 250), pygame.Color(200, 40, 40), (250, 250, 250)):
        surface.fill((0, 0, 0))
        text.draw(surface, "value 1.25k", (0, 0), 22, color=colour)
        fresh = pygame.Surface((300, 40))
        fresh.blit(text.font(22).render("value 1.25k", True, colour), (0, 0))
        assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(fresh, "RGB")


def test_wrap_gives_each_caller_a_list_of_its_own():
    first = text.wrap("two words here", 19, 60, max_lines=3)
    first.append("changed")
    assert text.wrap("two words here", 19, 60, max_lines=3) == first[:-1]


def test_wrap_without_a_cut_has_no_ellipsis():
    assert text.wrap("two words", 19, 300, max_lines=1) == ["two words"]


def test_draw_shrinks_a_title_before_cutting_it():
    surface = pygame.Surface((400, 100))
    title, width = "Dots and Boxes", 154  # a launcher card in a 640-wide window
    assert text.font(32, True).size(title)[0] > width
    rect = text.draw(surface, title, (0, 0), 32, bold=True, max_width=width, min_size=22)
    assert rect.w <= width
    whole_widths = {text.font(s, True).size(title)[0] for s in range(22, 33)}
    assert rect.w in whole_widths  # drawn whole at a smaller size, not shortened


def test_draw_cuts_when_even_the_smallest_size_is_too_wide():
    surface = pygame.Surface((400, 100))
    rect = text.draw(surface, "a title far too long for its card", (0, 0), 32, max_width=60, min_size=22)
    assert rect.w <= 60


def test_numbers_of_one_size_keep_their_decimals():
    """Issue 25 #20: "1.59M" stood next to "1.598M"."""
    from arcade.ui.text import number

    assert (number(1_590_000), number(1_598_000), number(16_100), number(16_160)) == ("1.590M", "1.598M", "16.1k",
                                                                                      "16.2k")
    assert (number(512), number(3.25), number(0.007), number(-2_500_000)) == ("512", "3.25", "0.007", "-2.500M")
    assert (number(0.000213), number(-2.13e-05), number(0.0), number(-0.0)) == ("~0", "~0", "0", "0")
    assert number(1.27e4) == "12.7k" and number(-1.7e-4) == "~0" and number(3.2e12) == "3200.000G"
    for v in (1e-9, 0.0004, 0.001, 0.5, 99.5, 1234.5, 1e5, 1e7, 1e10, 1e15):  # never an exponent on screen
        assert "e" not in number(v) and "e" not in number(-v)


def test_a_two_line_message_grows_its_bar_instead_of_being_clipped():
    """Issue 25 #14: two-line messages were clipped at the top of the message bar."""
    import pygame

    from arcade.ui import hud

    pygame.font.init()
    surface = pygame.Surface((640, 480))
    surface.fill((0, 0, 0))
    hud.draw_toast(surface, "a message long enough to need two lines in a window of 640 pixels: " * 2)
    pixels = pygame.surfarray.array3d(surface).transpose(1, 0, 2).astype(int)
    bar_top = next(y for y in range(480) if pixels[y, 5].sum() > 0)  # the bar's coloured top edge
    text_rows = [y for y in range(bar_top + 3, 480) if (pixels[y, 14:620].sum(axis=1) > 600).any()]
    bands = sum(1 for a, b in itertools.pairwise(text_rows) if b > a + 1) + 1
    assert bands == 2 and text_rows[0] > bar_top + 2 and text_rows[-1] < 479  # two lines, both whole
    assert not (pixels[:bar_top] > 0).any()  # nothing drawn above the bar


def test_statistics_columns_fit_a_640_window():
    """Issue 25 #16: rows were cut to "policy-iteration vs random (2..." and the columns ran off a small box."""
    import pygame

    from arcade.statistics import Tally
    from arcade.ui import panels

    pygame.font.init()
    surface = pygame.Surface((640, 480))
    rows = [("policy-iteration vs random (2x3)", Tally(3, 6.0, 3.0, 2, 0, 1, {"+1": 3})),
            ("policy-iteration vs random (2x2)", Tally(2, 2.0, 1.0, 1, 1, 0, {"+1": 2}))]
    panels.draw_statistics(surface, "Dots and Boxes", rows, True, "margin", rows[0][0])  # draws without error
    box_right = (640 + min(760, 640 - 40)) // 2
    width = min(760, 640 - 40) - 48
    step = min(80, max(58, (width - 200) // 6))
    assert (640 - min(760, 640 - 40)) // 2 + 24 + (width - 6 * step) + 6 * step <= box_right


def test_a_chart_writes_nothing_over_its_plot_but_the_lines():
    """Issue 25 #15: the axis' numbers and the optimum's name crowded the optimum line. A reference line is
    named (with its value) in the legend and the axis' numbers stand left of the plot: drawing the chart
    with a reference line changes the plot only on that line's own rows."""
    import numpy as np

    from arcade.ui import palette, panels

    pygame.font.init()
    rect = pygame.Rect(0, 0, 420, 160)
    series = [("mean of 20", [0.5, 3.3, 6.0, 6.9], palette.GOOD)]
    shots = []
    for flat in ([], [("optimum", 3.5, palette.ACCENT)]):
        surface = pygame.Surface(rect.size)
        panels.draw_lines(surface, rect, series, 0.0, 7.2, x_label="rounds 1-21", flat=flat)
        shots.append(pygame.surfarray.array3d(surface).transpose(1, 0, 2))
    without, with_line = shots
    plot_rows = slice(40, rect.h - 24)
    changed = np.flatnonzero((without[plot_rows] != with_line[plot_rows]).any(axis=(1, 2))) + 40
    assert changed.size and changed.max() - changed.min() <= 2, changed  # the line, nothing written by it
    legend = (without[:30] != with_line[:30]).any(axis=2)
    assert legend[:, 200:].any()  # 'optimum 6.83 (line)' joined the legend


def test_a_fast_decision_is_not_shown_as_0_ms():
    from arcade.progress import ms_text

    assert [ms_text(v) for v in (0.13, 2.4, 9.96, 84.2, 1801.0)] == ["0.13 ms", "2.4 ms", "10 ms", "84 ms", "1801 ms"]


def test_a_progress_bar_in_a_file_writes_a_line_each_tenth_and_at_least_each_minute(monkeypatch):
    """A long run logged to a file shows it is alive: deciles, and a line when a minute passed without one."""
    import io

    from arcade import progress

    now = [1000.0]
    monkeypatch.setattr(progress.time, "perf_counter", lambda: now[0])
    out = io.StringIO()
    bar = progress.Progress(1_000_000, "train", stream=out)
    for done in (1, 2, 3):  # the first tenth: only the first update writes
        bar.update(done)
    assert len(out.getvalue().splitlines()) == 1
    now[0] += 61.0  # a minute without a new tenth
    bar.update(4)
    now[0] += 30.0
    bar.update(5)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[-1].startswith("train [") and " 4/1000000 " in lines[-1]
    bar.update(100_000)  # a new tenth writes at once
    assert len(out.getvalue().splitlines()) == 3


@pytest.mark.parametrize("board_w", [234, 120, 600])
def test_the_end_of_game_card_holds_its_words_on_a_small_board(board_w, monkeypatch):
    """Every pixel the words change lies inside the card's border, however narrow the board (a 3x3 dots board
    in a 640x480 window is 234 px: its key line reached past the card)."""
    from arcade.ui import hud

    def draw(with_words: bool):
        surface = pygame.Surface((640, 480))
        surface.fill((40, 90, 40))
        if not with_words:
            monkeypatch.setattr(text, "draw", lambda *a, **k: pygame.Rect(0, 0, 0, 0))
        box = pygame.Rect(40, 120, board_w, board_w)
        card = hud.draw_game_over(surface, box, "Mcts wins", "mcts 8 - 1 random", "r: again    f: side    o: opponent",
                                  shade_alpha=110)
        monkeypatch.undo()
        return pygame.surfarray.array3d(surface), card

    words, card = draw(True)
    blank, same_card = draw(False)
    assert card == same_card and card.left >= 8 and card.right <= 640 - 8
    ys, xs = ((words != blank).any(axis=2)).T.nonzero()  # array3d is x-major
    assert xs.size > 200  # the words were drawn
    inner = card.inflate(-4, -4)
    assert inner.left <= xs.min() and xs.max() < inner.right and inner.top <= ys.min() and ys.max() < inner.bottom


def test_every_agents_about_text_fits_the_agent_panel_at_640x480():
    """The `i` panel gives an agent's plain sentences five lines; at 640x480 none is cut with an ellipsis."""
    from agents import agents_for
    from arcade.games import GAMES

    width = min(680, 640 - 40) - 48  # the panel's text width in a 640-wide window (arcade/ui/panels.py)
    for game in GAMES:
        for spec in agents_for(game.id):
            lines = text.wrap(spec.about, 22, width, max_lines=5)
            assert not lines[-1].endswith("…"), f"{game.id} {spec.name}: {lines[-1]}"


@pytest.mark.parametrize("size", [(640, 480), (1024, 720)])
def test_the_agent_panel_shows_every_parameter_uncut(size):
    """An agent with four lines of its own and four parameters (ntuple's panel): at 640x480 the table did
    not fit and three parameters were left out without a word; every parameter now shows, nothing cut."""
    from arcade.ui import panels

    surface = pygame.Surface(size)
    about = ("A value for every board the player's move leaves: a sum of table weights looked up by the tiles in "
             "a few groups of cells (at the board's 8 rotations and reflections). Learnt by TD(0): after each "
             "move the last afterstate's value moves toward the next reward plus the next afterstate's value.")
    params = [("tuples", "4x6", False), ("learning_rate", "0.4", False), ("games", "100000", False),
              ("restart_tile", "0", False), ("restart_share", "0.5", False), ("rates", "fixed", False)]
    described = ["network: shipped (ntuple_2048_p0.1.npz)", "tuples 4x6: 4 x 8 symmetries, 12,175,798 weights",
                 "trained 200,000 games, 737,028,666 moves", "learnt for the standard rules"]
    drawn = panels.draw_agent_panel(surface, "ntuple", about, params, "", described, "[2048.ntuple]")
    joined = " ".join(drawn)
    for key, value, _ in params:
        assert f"{key} {value}" in joined
    assert not any(line.endswith("…") for line in drawn)
    assert "none yet" in joined


def test_the_key_help_lists_every_key_at_640x480():
    """2048's help (18 keys, one description on two lines) at 640x480 left out F11 and Esc without a word."""
    from arcade.ui import hud

    keys = [(f"key {i}", "a short description of what the key does") for i in range(17)]
    keys.insert(9, ("t / Shift+t", "train the learning agent in the background (again: stop and save) / from "
                                   "scratch, a description long enough to wrap onto a second line here"))
    assert hud.draw_help_overlay(pygame.Surface((640, 480)), "2048", keys) == [k for k, _ in keys]
    # a window too small for all of them says how many it left out
    assert len(hud.draw_help_overlay(pygame.Surface((640, 300)), "2048", keys)) < len(keys)


def test_the_statistics_view_at_640x480_shrinks_its_titles_instead_of_cutting_them(monkeypatch):
    """'Dots and Boxes: statistics (kept across runs)' and the margin chart's title were cut at 640x480."""
    from types import SimpleNamespace

    from arcade.ui import panels

    from tests.helpers import record_cuts

    cut = record_cuts(monkeypatch)
    tally = SimpleNamespace(games=2, mean=8.0, best=8, wins=2, draws=0, losses=0, histogram={"+7": 2})
    panels.draw_statistics(pygame.Surface((640, 480)), "Dots and Boxes", [("mcts vs random (3x3)", tally)], True,
                           "box margin at the end (yours minus the opponent's)", "mcts vs random (3x3)")
    assert cut == []


def test_block_takes_smaller_type_before_cutting_and_cuts_only_the_last_line():
    words = "the numbers are the mean result of the simulations through that move " * 2
    size, step, lines = text.block([words], 300, 400)
    assert size == 18 and step == 20 and not any(line.endswith("…") for line in lines)
    size, step, lines = text.block([words], 300, 2 * 16)  # three lines even at 14 px, room for two: the last cut
    assert size == 14 and len(lines) == 2 and lines[-1].endswith("…") and not lines[0].endswith("…")


def test_a_learning_curve_axis_says_what_its_ends_are(monkeypatch):
    """It read "1" and "0" beside a mean score drawn against its own top; now "top"/"0" where a score is
    drawn, "100%"/"0%" where only shares are, and the x axis counts games."""
    import pygame

    from arcade.ui import panels

    seen = []
    monkeypatch.setattr(panels, "draw_lines", lambda *args, **kw: seen.append((kw["axis"], kw["x_label"])))
    surface = pygame.Surface((400, 300))
    panels.draw_curve(surface, surface.get_rect(), [(100, {"mean score": 900.0}), (200, {"mean score": 1500.0})])
    panels.draw_curve(surface, surface.get_rect(), [(100, {"won v random": 0.4}), (200, {"won v random": 0.6})])
    assert seen == [(("1500", "0"), "games 0-200"), (("100%", "0%"), "games 0-200")]


def test_a_curve_of_a_score_and_a_share_has_an_axis_for_each_and_a_legend_inside_the_chart(monkeypatch):
    """Issue 61 #12: 2048's training chart carried the mean score and the share reaching 2048 on one axis
    ("top"/"0"), and its legend ran past the chart's edge. Now the score's axis is on the left (0 to its
    top), the share's on the right (0-100%), and no legend item is drawn past the chart."""
    import pygame

    from arcade.ui import panels

    points = [(0, {"mean score": 1200.0, "share reaching 2048": 0.0}),
              (5000, {"mean score": 35_600.0, "share reaching 2048": 0.62})]
    seen = []
    real = panels.draw_lines
    monkeypatch.setattr(panels, "draw_lines", lambda *a, **kw: seen.append(kw) or real(*a, **kw))
    drawn = []
    real_draw = text.draw
    monkeypatch.setattr(text, "draw", lambda surface, line, pos, *a, **k: drawn.append(
        real_draw(surface, line, pos, *a, **k)) or drawn[-1])
    surface = pygame.Surface((260, 200))
    chart = pygame.Rect(10, 10, 240, 180)
    panels.draw_curve(surface, chart, points)
    assert seen[0]["axis"] == ("35.6k", "0") and seen[0]["right_axis"] == ("100%", "0%")
    assert all(chart.contains(r) for r in drawn), [r for r in drawn if not chart.contains(r)]


def test_a_number_and_its_unit_stay_on_one_line():
    """Issue 42 #17: a figure was wrapped mid-number ("waiting (last 19" / "ms)")."""
    line = "agent mcts: waiting (last 19 ms)"
    for width in range(40, 400, 3):
        lines = text.wrap(line, 18, width, max_lines=3)
        assert not any(a.endswith("19") and b.startswith("ms") for a, b in itertools.pairwise(lines)), lines
    assert text.wrap("a b", 18, 1000) == ["a b"] and text.wrap("took 2.4 s, then 10 ms", 18, 1000) == [
        "took 2.4 s, then 10 ms"]


def test_a_file_name_wider_than_the_line_is_broken_at_its_underscores_not_cut():
    """Issue 61 #12: blackjack's panel cut "(q_learning_blackjack_standard.json)" with an ellipsis."""
    lines = text.wrap("table: trained (q_learning_blackjack_standard.json)", 20, 230, max_lines=3)
    assert not any(line.endswith("…") for line in lines)
    assert "".join(lines).replace(" ", "") == "table:trained(q_learning_blackjack_standard.json)"
    assert all(text.font(20).size(line)[0] <= 230 for line in lines)
