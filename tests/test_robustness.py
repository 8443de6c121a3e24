"""Classes of bad input and hard exits (issue 16): settings paths that are not files, a solver cache of the
wrong size, no audio device, and the agent process ending with the arcade even on kill -9."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from arcade.foundation import notices
from arcade.settings import load_settings

ROOT = Path(__file__).resolve().parent.parent


def test_settings_paths_that_are_not_files_give_one_line_and_the_defaults(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.toml"
    loop.symlink_to(tmp_path / "loop2.toml")
    (tmp_path / "loop2.toml").symlink_to(loop)
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    cases = {fifo: "not a regular file", loop: "cannot be used", tmp_path: "not a regular file",
             deep: "nested too deep"}
    for path, words in cases.items():
        t0 = time.perf_counter()
        s = load_settings(path)
        assert time.perf_counter() - t0 < 5 and len(s.warnings) == 1 and words in s.warnings[0], (path, s.warnings)
        assert s.window.width == 1024  # the defaults


@pytest.mark.parametrize("folder, words", [("x" * 5000, "longer than a file system allows"),
                                           ("~nosuchuser_arcade/x", "home directory"), ("", "empty")])
def test_data_folders_that_cannot_be_give_one_line_and_the_default(tmp_path, folder, words):
    path = tmp_path / "s.toml"
    path.write_text(f'[data]\nfolder = "{folder}"\n')
    s = load_settings(path)
    assert len(s.warnings) == 1 and words in s.warnings[0] and s.data.folder == "data"
    assert s.data_dir.name == "data"


def test_a_solver_cache_of_the_wrong_size_is_set_aside(tmp_path, monkeypatch):
    from agents import dots_solver
    from agents.dots_solver import _SOLVED, FORMAT_VERSION, margins
    from arcade.foundation.storage import save_npz

    # the solve itself is tested against plain minimax elsewhere: here, a table of the right size at once
    monkeypatch.setattr(dots_solver, "retrograde", lambda rows, cols: np.ones(1 << 24, dtype=np.int8))

    notices.clear()
    cache = tmp_path / "dots_solver_3x3.npz"  # only 3x3 is cached: the others solve in moments
    save_npz(cache, FORMAT_VERSION, margin=np.zeros(10, dtype=np.int8))
    kept = _SOLVED.pop((3, 3), None)
    try:
        margin = margins(3, 3, tmp_path)
    finally:
        _SOLVED.pop((3, 3), None)  # the fake table never outlives the test (a later test of the worker read it)
        if kept is not None:
            _SOLVED[(3, 3)] = kept
    assert margin.size == 1 << 24
    assert (tmp_path / "dots_solver_3x3.npz.corrupt").stat().st_size > 0 and cache.stat().st_size > 1000
    said = [n for n in notices.recent() if "dots_solver_3x3" in n]
    assert len(said) == 1 and "kept as" in said[0] and "solving it again" in said[0]


def test_no_audio_device_is_silence_and_m_mutes(app):
    from arcade.sound import Sounds, effects
    from arcade.screens import open_game
    from tests.helpers import key
    import pygame

    signals = effects()
    assert set(signals) >= {"merge", "best", "clear", "cascade", "box", "card", "win", "lose", "draw"}
    assert all(np.abs(s).max() <= 1.0 and 200 < len(s) < 20000 for s in signals.values())
    assert not Sounds(0.0).available  # volume 0: nothing is even made
    Sounds(0.0).play("win")  # and playing is a no-op, never an error
    screen = open_game(app, "2048", seed=1)
    app.push(screen)
    key(app, pygame.K_m)
    assert app.sounds.muted and "sound off" in screen.toast[0]
    key(app, pygame.K_m)
    assert not app.sounds.muted


def test_the_agent_process_ends_when_the_arcade_is_killed(tmp_path):
    code = (
        "import sys, time, numpy as np\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from arcade import agent_process\n"
        "from arcade.settings import Settings\n"
        "from arcade.games import make_rules\n"
        "rules = make_rules('2048', Settings())\n"
        "f = agent_process.submit(('t', 'expectimax-3', 0), '2048', 'expectimax-3', rules, Settings(), 'build', None, 0)\n"
        "f.result(timeout=120)\n"
        "print(*[p.pid for p in agent_process._pool._processes.values()], flush=True)\n"
        "time.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    children = [int(p) for p in proc.stdout.readline().split()]
    assert children
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(pid) for pid in children):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in children), "an agent process outlived the arcade"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_a_game_in_progress_is_kept_when_the_screen_closes_and_resumes(settings, tmp_path):
    import dataclasses

    import pygame

    from arcade.app import App
    from arcade.screens import open_game
    from arcade.screens.launcher import LauncherScreen
    from arcade.settings import SeedSettings
    from tests.helpers import key

    fresh = dataclasses.replace(settings, seeds=SeedSettings(game=-1, agent=5))  # fresh seeds: a player's arcade
    app = App(fresh, size=(1024, 720))
    try:
        app.push(LauncherScreen(app))
        for name, moves in (("2048", [pygame.K_LEFT, pygame.K_UP, pygame.K_RIGHT]), ("match3", [])):
            screen = open_game(app, name)
            app.push(screen)
            if name == "2048":
                for k in moves:
                    key(app, k)
                board = screen.game.state.board.copy()
                assert len(screen.game.history) >= 1
            else:
                swap = screen.rules.legal_actions(screen.state)[0]
                screen.play(swap)
                board = screen.state.board.copy()
            key(app, pygame.K_ESCAPE)  # leave: the game is kept
            again = open_game(app, name)
            app.push(again)
            kept = again.game.state.board if name == "2048" else again.state.board
            assert np.array_equal(kept, board) and "back where you left it" in again.toast[0]
            key(app, pygame.K_ESCAPE)
        replay = open_game(app, "2048", seed=4)  # a seed asked for: a new game, not the kept one
        assert not replay.game.history
    finally:
        app.close()


def test_the_window_is_never_smaller_than_640_by_480(app):
    from tests.helpers import resize

    resize(app, (500, 300))
    assert app.surface.get_size() == (640, 480)


def test_no_sound_card_is_one_line_not_the_sound_librarys_own(tmp_path):
    """`make run` without a sound card printed 8 ALSA lines before the arcade's one-line notice."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    code = ("import os, sys; sys.path.insert(0, sys.argv[1]); os.environ['PYGAME_HIDE_SUPPORT_PROMPT'] = '1'\n"
            "from arcade.sound import Sounds\nSounds(0.5)\nprint('after', file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, timeout=60,
                          env={**__import__("os").environ, "SDL_AUDIODRIVER": "alsa"})
    lines = done.stderr.strip().splitlines()
    assert lines[-1] == "after"  # stderr works again after the mixer opened
    assert len(lines) <= 2 and all("ALSA lib" not in line for line in lines), lines
    assert len(lines) == 1 or lines[0].startswith("arcade: no sound")
