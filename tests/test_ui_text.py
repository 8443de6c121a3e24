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
