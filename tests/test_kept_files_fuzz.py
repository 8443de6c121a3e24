"""Every file the arcade keeps in its data folder is as safe as settings.toml: whatever bytes or JSON shape it
holds (cut short, empty, random bytes, one bad byte, a value of the wrong type or out of its range), reading
it gives at most a few one-line notices naming the file, never a traceback, and nothing readable is lost.

Each kind below writes a valid file the way the arcade does, then every mutation of it is read back by what
reads it (the window's code and the command line's)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from arcade import arena, curve_runs, finished_games, kept_params
from arcade.foundation import notices
from arcade.settings import AgentSettings, DataSettings, SeedSettings, Settings
from arcade.statistics import Statistics
from arcade.foundation.storage import BestScores, PerGame
from tests.helpers import key

WRONG = ([], {}, "x", 5, -1, 1e12, None, True, [1, "a"], {"a": 1})  # values of every JSON type, some out of range
MAX_NOTICES = 4  # a damaged file is said in a line or few, never a flood


def _settings(tmp_path) -> Settings:
    return Settings(data=DataSettings(folder=str(tmp_path / "data")), seeds=SeedSettings(game=3, agent=5),
                    agents=AgentSettings(delay_ms=0, time_budget_ms=20, budget_clock="none"), base_dir=str(tmp_path))


def _byte_mutations(raw: bytes) -> list[tuple[str, bytes]]:
    rng = np.random.default_rng(len(raw))
    middle = len(raw) // 2
    return [("cut", raw[:middle]), ("empty", b""), ("random", rng.integers(0, 256, 96, dtype=np.uint8).tobytes()),
            ("bad byte", raw[:middle] + b"\xff" + raw[middle:]), ("NUL bytes", b"\0" * 40),
            ("not JSON", b"{this is not json"), ("a JSON list", b"[1, 2, 3]"), ("a JSON number", b"5")]


def _shape_mutations(value, path=()) -> list:
    """The document with one part (each in turn: every container and leaf) replaced by each of WRONG."""
    out = []
    if path:
        for wrong in WRONG:
            out.append((path, wrong))
    if isinstance(value, dict):
        for k, v in value.items():
            out += _shape_mutations(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            out += _shape_mutations(v, path + (i,))
    return out


def _replaced(doc, path, wrong):
    doc = json.loads(json.dumps(doc))
    at = doc
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = wrong
    return doc


# --- the kinds: a valid file written as the arcade writes it, and the readers of it -------------------------

def _params_write(settings):
    kept_params.keep(settings, "dots", "alpha-beta", "position_budget", 50)
    kept_params.keep(settings, "tictactoe", "mcts", "exploration", 0.5)
    return settings.data_dir / kept_params.FILE


def _params_read(settings):
    for game in ("dots", "tictactoe", "2048"):
        kept_params.with_kept(settings, game).agent_params(game, "mcts")
        kept_params.kept(settings, game)


def _curves_write(settings):
    curve_runs.keep(settings, "tictactoe", "td-value", {"epsilon": 0.1}, [(100, {"won v random": 0.5})])
    return settings.data_dir / curve_runs.FILE


def _curves_read(settings):
    kept = curve_runs.runs(settings, "tictactoe")
    curve_runs.labels(kept)


def _arena_write(settings):
    table = {"ratings": [{"entrant": "a", "rating": 10.0, "low": -5.0, "high": 25.0, "games": 4}],
             "pairs": [{"first": "a", "second": "b", "wins": 3, "draws": 0, "losses": 1}]}
    arena.keep_results(settings.data_dir, "tictactoe", settings, table, 4, True)
    return settings.data_dir / arena.KEPT


def _arena_read(settings):
    got = arena.kept_results(settings.data_dir, "tictactoe", settings)
    if got is not None:
        arena.summary_line(got)


def _stats_write(settings):
    Statistics(settings.data_dir).record("2048", "you", 1200.0, None, "1024")
    Statistics(settings.data_dir).record("tictactoe", "you", 1.0, "win")
    return settings.data_dir / "statistics.json"


def _stats_read(settings):
    import pygame

    from arcade.ui import panels

    pygame.font.init()
    stats = Statistics(settings.data_dir)
    surface = pygame.Surface((1024, 720))
    for game, players in (("2048", 1), ("tictactoe", 2)):
        rows = sorted(stats.of(game).items(), key=lambda kv: -kv[1].games)
        panels.draw_statistics(surface, game, rows, players == 2, "score", "you", unit="points")


def _best_write(settings):
    scores = BestScores(settings.data_dir)
    scores.offer("2048/4x4", 1200)
    scores.flush()
    return scores.path


def _best_read(settings):
    BestScores(settings.data_dir).get("2048/4x4")


def _finished_write(settings):
    from arcade.games import make_rules
    from arcade.session import GameSession

    rules = make_rules("tictactoe", settings)
    for seed in range(3):
        session = GameSession(rules, seed)
        rng = np.random.default_rng(seed)
        while not session.over:
            actions = rules.legal_actions(session.state)
            session.play(actions[int(rng.integers(len(actions)))], by="you")
        finished_games.keep(settings.data_dir, "tictactoe", session, {}, "you")
    return finished_games.path_of(settings.data_dir, "tictactoe")


def _finished_read(settings):
    from arcade.cli import main
    from arcade.games import make_rules
    from arcade.session import GameSession

    games = finished_games.kept(settings.data_dir, "tictactoe")
    for record in games:
        try:
            GameSession.replayed(make_rules("tictactoe", settings, **(record.get("variant") or {})), record)
        except (ValueError, TypeError):
            pass  # (one line in the window: "that game does not replay here")
    settings_file = settings.data_dir.parent / "fuzz.toml"
    settings_file.write_text(f'[data]\nfolder = "{settings.data_dir}"\n')
    for index in range(max(1, len(games))):
        assert main(["--settings", str(settings_file), "replay", "--kept", "tictactoe", "--index", str(index)]) in (0, 1, 2)
    return games


def _run_log_write(settings):
    from arcade import runner

    spec = runner.RunSpec.of("tictactoe", "minimax", "random", 4, 0, settings)
    path = settings.data_dir / "runs" / "arena" / "log.jsonl"
    log = runner.GameLog.create(path, spec)
    for index in range(2):
        log.append({"index": index, "seed": index, "agent_seat": index % 2, "moves": 7, "score": 1.0,
                    "outcome": {"scores": [1, 0], "winner": 0}, "result": "win", "decision_ms": [1.0, 2.0],
                    "opponent_ms": [0.5], "figures": {}})
    return path


def _run_log_read(settings):
    from arcade import runner

    try:
        log = runner.GameLog.open(settings.data_dir / "runs" / "arena" / "log.jsonl")
    except runner.RunError as exc:  # (one line, said by the command or the arena view as it is)
        assert "\n" not in str(exc) and "log.jsonl" in str(exc)
        return
    if log.skipped_line():
        notices.notice(log.skipped_line())


def _blackjack_write(settings):
    from agents import find
    from arcade.games import make_rules

    rules = make_rules("blackjack", settings)
    agent = find("blackjack", "q-learning").create(rules, settings)
    agent.train(200, np.random.default_rng(0))
    assert agent.save()
    return agent.default_path()


def _blackjack_read(settings):
    from agents import find
    from arcade.games import make_rules

    rules = make_rules("blackjack", settings)
    agent = find("blackjack", "q-learning").create(rules, settings)
    agent.load(agent.default_path())
    agent.act(rules.new_state(np.random.default_rng(1)), np.random.default_rng(2))


KINDS = {"params": (_params_write, _params_read), "curves": (_curves_write, _curves_read),
         "arena results": (_arena_write, _arena_read), "statistics": (_stats_write, _stats_read),
         "best scores": (_best_write, _best_read), "finished games": (_finished_write, _finished_read),
         "run logs": (_run_log_write, _run_log_read), "blackjack q table": (_blackjack_write, _blackjack_read)}


def _cases():
    for kind in KINDS:
        for name in ("cut", "empty", "random", "bad byte", "NUL bytes", "not JSON", "a JSON list", "a JSON number"):
            yield kind, "bytes", name
        yield kind, "shapes", "every part of the wrong type or out of range"


@pytest.mark.parametrize("kind, how, name", list(_cases()))
def test_a_damaged_kept_file_is_said_in_a_line_never_a_traceback(tmp_path, capsys, kind, how, name):
    settings = _settings(tmp_path)
    write, read = KINDS[kind]
    path = write(settings)
    raw = path.read_bytes()
    if how == "bytes":
        mutations = [(name, dict(_byte_mutations(raw))[name])]
    elif path.suffix == ".jsonl":  # each line's parts, one at a time
        first = json.loads(raw.splitlines()[0])
        mutations = [(f"{p}={w!r}", json.dumps(_replaced(first, p, w)).encode() + b"\n" + raw)
                     for p, w in _shape_mutations(first)]
    else:
        doc = json.loads(raw)
        mutations = [(f"{p}={w!r}", json.dumps(_replaced(doc, p, w)).encode()) for p, w in _shape_mutations(doc)]
    for label, content in mutations:
        for aside in path.parent.glob(path.name + ".corrupt*"):
            aside.unlink()
        path.write_bytes(content)
        before = notices.count()
        try:
            read(settings)
            read(settings)  # (read twice: what was said or set aside is not said again and again)
        except Exception as exc:  # noqa: BLE001  (the point: nothing may escape)
            pytest.fail(f"{kind}, {label}: {type(exc).__name__}: {exc}")
        said = notices.recent()[-(notices.count() - before):] if notices.count() > before else []
        assert len(said) <= MAX_NOTICES, f"{kind}, {label}: {len(said)} notices: {said}"
        assert all("\n" not in line and str(path.name) in line for line in said), f"{kind}, {label}: {said}"
        capsys.readouterr()


def test_a_damaged_line_among_kept_games_loses_no_readable_game(tmp_path, capsys):
    settings = _settings(tmp_path)
    path = _finished_write(settings)
    good = path.read_bytes().splitlines()
    damaged = [good[0], b'{"start_rng": 5, "actions": "x"}', good[1], b"\xff\xfe not utf-8", good[2][:20]]
    path.write_bytes(b"\n".join(damaged) + b"\n")
    games = finished_games.kept(settings.data_dir, "tictactoe")
    assert len(games) == 2  # the two whole games, newest first
    said = [line for line in notices.recent() if str(path) in line]
    assert len(said) == 1 and "3 damaged lines" in said[0] and "tictactoe.jsonl.corrupt" in said[0]
    assert (path.parent / "tictactoe.jsonl.corrupt").read_bytes() == b"\n".join(damaged) + b"\n"  # nothing lost
    assert path.read_bytes() == good[0] + b"\n" + good[1] + b"\n"  # the readable ones, in their order
    assert finished_games.kept(settings.data_dir, "tictactoe") == games  # read again: clean, nothing said
    assert len([line for line in notices.recent() if str(path) in line]) == 1


def test_the_wrong_shape_of_params_opens_the_screen(app):
    from arcade.screens import open_game

    PerGame(app.settings.data_dir, kept_params.FILE).put("tictactoe", 5)
    screen = open_game(app, "tictactoe")
    app.push(screen)
    assert screen.settings.agent_params("tictactoe", "mcts") == app.settings.agent_params("tictactoe", "mcts")
    assert any("params.json" in line and "tictactoe" in line for line in notices.recent())


def test_decide_kept_with_params_of_the_wrong_shape_says_one_line(tmp_path, capsys, monkeypatch):
    from arcade.cli import main

    monkeypatch.setattr(kept_params, "_said", set())  # (as in a new process)
    settings = _settings(tmp_path)
    PerGame(settings.data_dir, kept_params.FILE).put("tictactoe", {"mcts": [1, 2], "minimax": {"x": 1}})
    settings_file = tmp_path / "cli.toml"
    settings_file.write_text(f'[data]\nfolder = "{settings.data_dir}"\n[agents]\nbudget_clock = "none"\n')
    capsys.readouterr()
    assert main(["--settings", str(settings_file), "decide", "tictactoe", "--agent", "minimax", "--state",
                 ".../.../...", "--kept"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("params.json") == 2, err  # (the two entries, a line each)


SCREEN_FILES = ("in_progress.json", "choices.json", "visited.json")


@pytest.mark.parametrize("name", SCREEN_FILES)
def test_what_a_screen_keeps_damaged_any_way_the_screen_still_opens(app, name):
    """The game in progress, the player's choices and the first-visit record: every byte and shape mutation,
    and the 2048 and tic-tac-toe screens open on it."""
    from arcade.screens import open_game

    for game in ("2048", "tictactoe"):
        screen = open_game(app, game, agent=None)
        app.push(screen)
        screen.controller.set_enabled(False)
        if screen.session is not None:
            actions = screen.rules.legal_actions(screen.session.state)
            screen.session.play(actions[0], by="you")
        screen.kept.keep_progress()
        screen.kept.keep_choices()
        app.pop()
    path = app.settings.data_dir / name
    if not path.exists():
        PerGame(app.settings.data_dir, name).put("2048", {"seen": True})
    raw = path.read_bytes()
    doc = json.loads(raw)
    mutations = _byte_mutations(raw) + [(f"{p}={w!r}", json.dumps(_replaced(doc, p, w)).encode())
                                        for p, w in _shape_mutations(doc)[:60]]
    for label, content in mutations:
        path.write_bytes(content)
        for game in ("2048", "tictactoe"):
            try:
                screen = open_game(app, game)
                app.push(screen)
                screen.update(16.0)
                app.pop()
            except Exception as exc:  # noqa: BLE001
                pytest.fail(f"{name}, {label}, {game}: {type(exc).__name__}: {exc}")


def test_the_replay_list_opens_on_kept_games_damaged_any_way(app):
    """Shift+k on a kept-games file with any line damaged (bytes, a field missing or of the wrong type): the
    list opens and draws; only whole games are listed."""
    import pygame

    from arcade.screens import open_game
    from arcade.screens.replay_view import ReplayView

    path = _finished_write(app.settings)
    raw = path.read_bytes()
    first = json.loads(raw.splitlines()[0])
    mutations = _byte_mutations(raw) + [(f"{p}={w!r}", json.dumps(_replaced(first, p, w)).encode() + b"\n" + raw)
                                        for p, w in _shape_mutations(first)]
    mutations += [(f"without {k}", json.dumps({f: v for f, v in first.items() if f != k}).encode() + b"\n")
                  for k in first]
    for label, content in mutations:
        for aside in path.parent.glob(path.name + ".corrupt*"):
            aside.unlink()
        path.write_bytes(content)
        try:
            screen = open_game(app, "tictactoe")
            app.push(screen)
            screen.controller.set_enabled(False)
            key(app, pygame.K_k, mod=pygame.KMOD_SHIFT, unicode="K")
            if isinstance(app.top, ReplayView):
                app.top.draw_over(app.surface)
                key(app, pygame.K_RETURN)  # (opens the first game listed, if any)
                app.top.draw(app.surface)
            while app.top is not screen and len(app.stack) > 2:
                app.pop()
            app.pop()
        except Exception as exc:  # noqa: BLE001
            pytest.fail(f"{label}: {type(exc).__name__}: {exc}")
