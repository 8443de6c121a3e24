"""Text helpers: fitting and wrapping with an ellipsis where text is cut."""
import pygame
import pytest

from arcade.ui import text


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    yield
    text.font.cache_clear()


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
