"""Trainings side by side (issue 64, its second part): each training's curve is kept with the parameters it ran
with, the next one is drawn beside the earlier ones with a legend naming what differed, they come back with
the screen, and Delete forgets them."""
import pygame
import pytest

from arcade import curve_runs
from arcade.screens import open_game
from tests.helpers import key, ticks, wait_for


def test_a_runs_label_names_what_set_it_apart(settings):
    curve = [(100, {"won v random": 0.4}), (200, {"won v random": 0.6})]
    curve_runs.keep(settings, "tictactoe", "td-value", {"epsilon": 0.2, "alpha": 0.05}, curve)
    kept = curve_runs.keep(settings, "tictactoe", "td-value", {"epsilon": 0.05, "alpha": 0.05}, curve)
    assert curve_runs.labels(kept) == ["epsilon 0.2", "epsilon 0.05"]
    assert kept[1]["curve"] == curve
    for n in range(curve_runs.KEEP + 2):
        kept = curve_runs.keep(settings, "tictactoe", "td-value", {"epsilon": n / 10}, curve)
    assert len(kept) == curve_runs.KEEP and kept[-1]["params"] == {"epsilon": (curve_runs.KEEP + 1) / 10}
    assert curve_runs.labels([kept[0], kept[0]]) == ["run 1", "run 2"]
    assert curve_runs.keep(settings, "tictactoe", "td-value", {}, []) == kept  # no curve: nothing kept


def test_two_trainings_with_another_epsilon_are_drawn_together_and_come_back(app, settings, monkeypatch):
    from arcade.screens.params_view import ParamsView
    from arcade.ui import panels

    drawn = []
    real = panels.draw_runs
    monkeypatch.setattr(panels, "draw_runs", lambda surface, rect, runs: drawn.append(runs) or real(surface, rect,
                                                                                                      runs))
    screen = open_game(app, "tictactoe", agent="td-value", seed=2)
    app.push(screen)
    for epsilon in (None, "0.3"):
        if epsilon is not None:  # the second training with another epsilon, changed on screen
            key(app, pygame.K_i, mod=pygame.KMOD_SHIFT, unicode="I")
            view = app.top
            assert isinstance(view, ParamsView)
            while view.fields[view.selected].name != "epsilon":
                key(app, pygame.K_DOWN)
            for ch in epsilon:
                key(app, pygame.K_PERIOD if ch == "." else getattr(pygame, f"K_{ch}"), unicode=ch)
            key(app, pygame.K_RETURN)
            key(app, pygame.K_ESCAPE)
        before = len(screen.trainer.runs)
        key(app, pygame.K_t, unicode="t")
        assert screen.trainer.running
        assert wait_for(app, lambda: not screen.trainer.running, seconds=180)
        ticks(app, 2)
        assert len(screen.trainer.runs) == before + 1 and screen.trainer.runs[-1]["curve"]
    runs = screen.trainer.runs
    assert [r["params"]["epsilon"] for r in runs] == [0.1, 0.3]
    assert curve_runs.labels(runs) == ["epsilon 0.1", "epsilon 0.3"]
    assert drawn and [label for label, _ in drawn[-1]] == ["epsilon 0.1", "epsilon 0.3"]
    app.pop()
    again = open_game(app, "tictactoe", agent="td-value", seed=2)  # as the arcade opens it another day
    app.push(again)
    ticks(app, 2)
    assert [r["params"]["epsilon"] for r in again.trainer.runs] == [0.1, 0.3] and again.trainer.curve
    key(app, pygame.K_DELETE)
    assert again.trainer.runs == [] and curve_runs.runs(settings, "tictactoe") == []
    assert "forgotten" in again.toast[0]


@pytest.mark.parametrize("size", [(640, 480), (1024, 720), (1600, 900)])
def test_the_runs_chart_keeps_its_legend_inside(app, size, monkeypatch):
    from arcade.ui import panels
    from tests.helpers import record_cuts

    surface = pygame.Surface(size)
    cuts = record_cuts(monkeypatch)
    rect = pygame.Rect(10, 10, size[0] // 3, size[1] // 3)
    runs = [(f"epsilon 0.{n}", [(100 * k, {"won v random": k / 10}) for k in range(1, 8 - n)]) for n in range(1, 4)]
    panels.draw_runs(surface, rect, runs)
    assert not cuts, cuts  # every legend item fits, shrunk where it must


def test_curves_of_another_deck_or_measure_are_never_drawn_together_and_the_legend_names_the_deck(settings):
    """Issue 73 item 7: the legend compared "epsilon 0.2: drawn v minimax" with "epsilon 0.1: won v random"
    (different series), and a large-deck and two small-deck blackjack runs shared a chart, two lines both
    "epsilon 0.05" (the deck not named)."""
    from arcade import curve_runs

    small, large = {"preset": "small"}, {"preset": "large"}
    share = [(100, {"share of the optimum's return": 0.5})]
    curve_runs.keep(settings, "blackjack", "q-learning", {"epsilon": 0.05}, share, small)
    curve_runs.keep(settings, "blackjack", "q-learning", {"epsilon": 0.05}, share, large)
    curve_runs.keep(settings, "blackjack", "q-learning", {"epsilon": 0.2}, share, small)
    curve_runs.keep(settings, "blackjack", "q-learning", {"epsilon": 0.2}, [(100, {"another measure": 1.0})], small)
    kept = curve_runs.runs(settings, "blackjack")
    assert [r["variant"] for r in kept] == [small, large, small, small]
    together = curve_runs.comparable(kept, small, {"share of the optimum's return"})
    assert [r["params"]["epsilon"] for r in together] == [0.05, 0.2]  # the small deck's, of one measure
    assert curve_runs.labels(together) == ["epsilon 0.05", "epsilon 0.2"]
    assert curve_runs.labels(kept[:2]) == ["preset small", "preset large"]  # where the deck differs, it is named


def test_a_resumed_training_extends_the_stopped_runs_curve_and_says_what_it_added(settings):
    """Issue 73 item 7: after a second run that resumed a stopped one, the chart drew two runs ("run 1", "run 2")
    and the line said "trained 448,000 games" (the resumed run's count) after 12 s. The resumed run's points
    continue the stopped run's curve; a run of other parameters or another variant is a run of its own."""
    stopped = curve_runs.run_of("q-learning", {"epsilon": 0.05}, [(100, {"share": 0.5}), (200, {"share": 0.6})],
                                {"preset": "small"})
    rest = curve_runs.run_of("q-learning", {"epsilon": 0.05}, [(300, {"share": 0.7}), (400, {"share": 0.8})],
                             {"preset": "small"})
    merged = curve_runs.added([stopped], rest, continues=200)
    assert len(merged) == 1 and [p[0] for p in merged[0]["curve"]] == [100, 200, 300, 400]
    assert len(curve_runs.added([stopped], rest, continues=0)) == 2  # a run of its own (not resumed)
    other = dict(rest, params={"epsilon": 0.2})
    assert len(curve_runs.added([stopped], other, continues=200)) == 2
    kept = curve_runs.keep(settings, "blackjack", "q-learning", {"epsilon": 0.05}, stopped["curve"], {"preset": "small"})
    kept = curve_runs.keep(settings, "blackjack", "q-learning", {"epsilon": 0.05}, rest["curve"], {"preset": "small"},
                           continues=200)
    assert len(kept) == 1 and kept[0]["curve"][-1][0] == 400


def test_blackjack_keeps_its_training_curve_after_y_stops_until_tab(app, settings):
    """Issue 73 item 7: the blackjack curves vanished when `y` stopped: the curve stays in its place under the
    buttons (the agent's lines give way to it) until Tab picks another agent."""
    from arcade.ui import hud

    screen = open_game(app, "blackjack", agent="q-learning")
    app.push(screen)
    screen.trainer.view.curve = [(100, {"share of the optimum's return": 0.5})]  # (a training that just ended)
    board = hud.board_rect(app.surface)
    assert not screen.trainer.running and screen.trainer.shows(board)
    key(app, pygame.K_TAB)
    assert not screen.trainer.shows(board)


def test_runs_drawn_together_are_drawn_on_one_series(monkeypatch):
    """Seen in the window (issue 73 item 7 again): the legend read "run 1: drawn v minimax 100%" beside "run 2:
    won v random 92%": each run drew its own first series. Every run is drawn on the newest run's."""
    from arcade.ui import panels

    got = []
    monkeypatch.setattr(panels, "draw_lines", lambda surface, rect, lines, *a, **k: got.extend(lines))
    old = [(100, {"drawn v minimax": 0.9, "won v random": 0.7}), (200, {"drawn v minimax": 1.0, "won v random": 0.8})]
    new = [(100, {"won v random": 0.85, "drawn v minimax": 0.95})]
    panels.draw_runs(pygame.Surface((400, 300)), pygame.Rect(0, 0, 400, 300), [("run 1", old), ("run 2", new)])
    assert [line[0] for line in got] == ["run 1: won v random 80%", "run 2: won v random 85%"]
