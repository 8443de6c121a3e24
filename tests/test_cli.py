"""The command line: each subcommand's happy path and its error path (exit 2, one line)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arcade.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args, env_extra=None, drop=()):
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)


def one_line_error(capsys, argv):
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert err.startswith("main.py: error: ")
    return err


@pytest.fixture
def settings_file(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n')
    return str(path)


def test_agents_lists_every_game(capsys, settings_file):
    assert main(["--settings", settings_file, "agents"]) == 0
    out = capsys.readouterr().out
    for game in ("2048", "tictactoe", "dots", "match3", "blackjack"):
        assert game in out
    assert out.count("  random ") == 5 and "expectimax-3" in out and "greedy" in out


def test_bench_json(capsys, settings_file):
    assert main(["--settings", settings_file, "bench", "2048", "--agent", "random", "--games", "3",
                 "--seed", "4", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["agent"] == "random" and len(data["per_game"]) == 3
    assert data["summary"]["games"] == 3 and data["summary"]["score"]["mean"] > 0
    assert set(data["summary"]["reached"]) >= {"64", "128", "2048"}
    assert "2048 random [" in captured.err  # the progress bar


def test_bench_table_is_replayable(capsys, settings_file):
    main(["--settings", settings_file, "bench", "2048", "--agent", "greedy", "--games", "2", "--seed", "9"])
    first = capsys.readouterr().out
    main(["--settings", settings_file, "bench", "2048", "--agent", "greedy", "--games", "2", "--seed", "9"])
    second = capsys.readouterr().out
    assert "largest tile reached" in first and "decision time" in first
    assert first.splitlines()[:4] == second.splitlines()[:4]


@pytest.mark.parametrize("argv, words", [
    (["bench", "chess", "--agent", "random"], "unknown game 'chess'"),
    (["bench", "2048", "--agent", "nobody"], "unknown agent 'nobody' for 2048"),
    (["bench", "2048", "--agent", "random", "--opponent", "random"], "one-player game"),
    (["bench", "2048", "--games", "0"], "--games must be 1 to 1,000,000"),
    (["bench", "2048", "--games", "many"], "--games must be a whole number"),
    (["decide", "2048", "--agent", "expectimax-3", "--state", "1,2/3"], "--state"),
    (["decide", "2048", "--agent", "expectimax-3", "--state", "2,4,2/4,2,4/2,4,2"], "game is over"),
    (["decide", "2048", "--agent", "expectimax-3"], "required: --state"),
    (["train", "2048", "--agent", "random"], "does not learn"),
    (["play", "chess"], "unknown game"),
    (["frobnicate"], "invalid choice"),
    (["bench", "2048", "--frob"], "unrecognized arguments"),
])
def test_errors_are_one_line_and_exit_2(capsys, settings_file, argv, words):
    err = one_line_error(capsys, ["--settings", settings_file, *argv])
    assert words in err


def test_decide_json_seed_example(capsys, settings_file):
    assert main(["--settings", settings_file, "decide", "2048", "--agent", "expectimax-3", "--state",
                 "2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,0 score=100", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["move"] == "left" and data["action"] == 2  # (the name, and the action's index for programs)
    assert data["values"]["left"] == data["values"]["right"] == 112.0 and "up" not in data["values"]


def test_decide_text(capsys, settings_file):
    assert main(["--settings", settings_file, "decide", "2048", "--agent", "greedy", "--state",
                 "2,2,0/0,0,0/0,0,0"]) == 0
    assert "greedy plays left" in capsys.readouterr().out


def test_bad_setting_is_one_line_and_the_command_still_runs(capsys, tmp_path):
    bad = tmp_path / "s.toml"
    bad.write_text("[window]\nwidth = 'huge'\n")
    assert main(["--settings", str(bad), "agents"]) == 0
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert "\n" not in err and str(bad) in err and "width" in err and "expected an integer" in err
    assert "using the default 1024" in err and "expectimax" in captured.out


def test_no_display_is_one_line_in_a_real_process(settings_file):
    result = run("--settings", settings_file, drop=("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "no display" in result.stderr and "bench" in result.stderr


def test_help_and_real_process_error(settings_file):
    assert run("--help").returncode == 0
    result = run("--settings", settings_file, "decide", "2048", "--agent", "x", "--state", "0")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


def test_play_opens_the_game_window_headless(settings_file, monkeypatch):
    """`play` with the dummy driver: the window opens on the game, and Esc three times quits (the first closes
    the first visit's how-to-play card)."""
    import pygame

    from arcade import app as app_module

    seen = {}
    original_run = app_module.App.run

    def run_briefly(self):
        seen["screens"] = [type(s).__name__ for s in self.stack]
        seen["agent"] = self.top.controller.name if hasattr(self.top, "controller") else None
        for _ in range(3):  # the first visit's card, the game, the launcher (a KEYDOWN with no KEYUP after it is
            # a held key: it acts once)
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_ESCAPE, mod=0, unicode=""))
        original_run(self)

    monkeypatch.setattr(app_module.App, "run", run_briefly)
    monkeypatch.setattr(app_module, "ESC_SETTLE_S", 0.0)  # (three Esc in one frame: the last closes the arcade)
    assert main(["--settings", settings_file, "play", "2048", "--agent", "greedy", "--seed", "3"]) == 0
    assert seen == {"screens": ["LauncherScreen", "Screen2048"], "agent": "greedy"}


def test_a_python_without_the_arcades_packages_says_which_python_to_use(tmp_path):
    """The system's Python (no pygame, numpy...) running main.py: one line naming the environment make built."""
    blocker = tmp_path / "sitecustomize.py"  # an interpreter where pygame and numpy cannot be imported
    blocker.write_text("import sys\nclass _No:\n    def find_spec(self, name, path=None, target=None):\n"
                       "        if name.split('.')[0] in ('pygame', 'numpy'):\n"
                       "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
                       "sys.meta_path.insert(0, _No())\n")
    done = run("agents", env_extra={"PYTHONPATH": str(tmp_path)})
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "is not installed for this Python" in done.stderr and ".venv/bin/python main.py" in done.stderr


def test_train_into_a_folder_that_cannot_be_made_is_one_line_before_any_training(capsys):
    err = one_line_error(capsys, ["train", "tictactoe", "--agent", "td-value", "--out", "/proc/no-such-folder/t.npz"])
    assert "nothing can be written in /proc/no-such-folder" in err


def test_decide_on_a_board_an_agent_cannot_play_says_so_before_the_agent_is_built(capsys, monkeypatch):
    import agents.ntuple

    monkeypatch.setattr(agents.ntuple.NTupleAgent, "__init__", lambda *a: pytest.fail("the network was loaded"))
    err = one_line_error(capsys, ["decide", "2048", "--agent", "ntuple", "--state", "2,2,0/0,4,0/0,0,0"])
    assert "4x4 boards only" in err and "3x3" in err


def test_a_settings_file_that_does_not_exist_is_one_line_before_anything_runs(capsys, tmp_path):
    missing = tmp_path / "my.toml"
    assert main(["--settings", str(missing), "agents"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert str(missing) in captured.err and "no such file" in captured.err


def test_a_settings_file_with_a_byte_order_mark_reads_as_its_text(capsys, tmp_path):
    marked = tmp_path / "bom.toml"
    marked.write_bytes("\ufeff[window]\nwidth = 800\n".encode("utf-8"))
    from arcade.settings import load_settings

    loaded = load_settings(marked)
    assert loaded.window.width == 800 and not loaded.warnings


def test_a_bench_whose_ray_cluster_cannot_be_reached_leaves_no_log(tmp_path, settings_file):
    """In a process of its own: Ray fixes its authentication mode when it is imported, which would put the
    Ray tests sharing this worker in the wrong mode."""
    log = tmp_path / "runs" / "ray.jsonl"
    for _ in range(2):  # and a retry leaves none either
        result = run("--settings", settings_file, "bench", "2048", "--agent", "greedy", "--games", "1",
                     "--ray", "127.0.0.1:9", "--log", str(log))
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert not log.exists() and not log.parent.exists()


def test_sigterm_closes_the_window_with_a_line_of_the_arcades_own(settings_file):
    """SDL turned SIGTERM into a silent quit; at start-up it gave no line at all. Either way: one line, 143."""
    import signal
    import time

    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "--settings", settings_file, "play", "2048"],
                               stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
                               env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    deadline = time.monotonic() + 60
    time.sleep(1.5)  # (in start-up or with the window open: both must say so)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
    said = [line for line in err.splitlines() if "SIGTERM" in line]
    assert process.returncode == 143 and len(said) == 1, err
    assert said[0] in ("arcade: closed: terminated (SIGTERM)", "main.py: terminated (SIGTERM) before the window opened")


@pytest.mark.parametrize("after", [0.3, 0.9, 2.0])
def test_sigterm_at_any_moment_of_start_up_ends_the_arcade(settings_file, after):
    """Issue 73 item 15: once in 22 tries the launcher ignored a SIGTERM sent 2 s into its start (SDL's own
    handler, installed as it started, replaced the arcade's). Whenever it comes, the arcade ends with its line."""
    import signal
    import time

    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "--settings", settings_file],
                               stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
                               env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    time.sleep(after)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)  # (the target is 2 s; a loaded machine gets a generous bound)
    # before Python has read main.py the signal's own default ends it (-15); from then on the arcade's line
    assert process.returncode in (143, -15) and "Traceback" not in err, err
    assert process.returncode == -15 or "SIGTERM" in err, err


def test_bench_stopped_by_sigterm_says_what_finished_and_how_to_continue(settings_file, tmp_path):
    import signal
    import time

    log = tmp_path / "bench.jsonl"
    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "--settings", settings_file, "bench",
                                "tictactoe", "--agent", "minimax", "--games", "100000", "--jobs", "1", "--log",
                                str(log)], stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not log.exists() or len(log.read_bytes().splitlines()) < 3):
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert "Traceback" not in err and "stopped:" in err and f"--resume {log}" in err, err


def test_one_esc_on_a_game_never_closes_the_arcade_too(app):
    """Issue 73 item 16: once, one Esc on 2048 closed the arcade ("Esc on the launcher"). The same press seen
    twice (a key repeat, a bounce behind a slow frame) closes the game only; a later Esc closes the arcade."""
    import time

    import pygame

    from arcade import app as app_module
    from arcade.screens import open_game

    app.push(open_game(app, "2048"))
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=0)
    up = pygame.event.Event(pygame.KEYUP, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=0)
    for event in (down, up, down, up):  # (one press delivered twice)
        app.handle(event)
    assert app.running and len(app.stack) == 1
    time.sleep(app_module.ESC_SETTLE_S + 0.05)
    app.handle(down)
    assert not app.running and app.closed_because == "Esc on the launcher"


def test_every_way_the_main_loop_ends_has_a_reason(app):
    import pygame

    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.tick(16)
    assert not app.running and app.closed_because == "the window was closed"
    app.running, app.closed_because = True, None
    app.pop()  # the launcher, the last screen: Esc there
    assert not app.running and app.closed_because == "Esc on the launcher"
