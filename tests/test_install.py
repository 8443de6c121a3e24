"""The arcade as others install it: the wheel built from this checkout, installed into a throwaway
environment, run from an empty folder (the console command, an environment, a shipped network), writing
only into the user's data folder."""
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEFT_OUT = (".git", ".venv*", "data", "docs", "tests", "benchmarks", "__pycache__", "build", "dist", "*.egg-info",
            ".hypothesis", ".ruff_cache")


# Run by the installed copy: every game's screen opened and drawn headless, every environment rendered in
# each of its modes and checked by Gymnasium's and PettingZoo's own checkers (a view package left out of the
# wheel fails here, as it did on the first frame for a user).
SCREENS_AND_RENDERS = """
import os
os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
import gymnasium as gym
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import render_test
import arcade.envs
from arcade.app import App
from arcade.envs import ENVIRONMENTS, dots_and_boxes_v0, tictactoe_v0
from arcade.games import GAMES
from arcade.screens import open_game
from arcade.screens.launcher import LauncherScreen
from arcade.settings import DEFAULT_SETTINGS, load_settings

app = App(load_settings(DEFAULT_SETTINGS), size=(640, 480))
app.push(LauncherScreen(app))
app.tick(16)
for game in GAMES:
    app.push(open_game(app, game.id, seed=1))
    for _ in range(3):
        app.tick(16)
    app.pop()
app.close()
print("screens")
for env_id in ENVIRONMENTS:
    for mode in ("rgb_array", "ansi"):
        env = gym.make(env_id, render_mode=mode)
        env.reset(seed=0)
        frame = env.render()
        assert frame is not None and len(frame) > 0, (env_id, mode)
        if mode == "rgb_array":  # (the checker's render check draws with the installed screens)
            check_env(env.unwrapped)
        env.close()
def unpaced(make):  # "human" at its 2 frames a second would wait 7 s a game: its pacing is tested in the checkout
    def env_fn(render_mode=None):
        env = make(render_mode=render_mode)
        env.unwrapped.metadata = {**env.unwrapped.metadata, "render_fps": 1000}
        return env
    return env_fn
for module in (tictactoe_v0, dots_and_boxes_v0):
    render_test(unpaced(module.env))
print("renders")
"""


def _run(argv, cwd, env, timeout=300):
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _copy_and_venv(tmp_path, link_assets: bool = False) -> tuple[Path, Path, Path]:
    """A copy of this checkout (building writes build/ and egg-info beside the sources) and a throwaway venv
    that reaches the pinned dependencies of this environment through a .pth (installing them again would
    download them): (the copy, the venv's python, its site-packages). link_assets: the copy's assets/ is a
    link to this checkout's (44 MB this suite need not write and delete again where nothing builds a wheel)."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*LEFT_OUT, *(("assets",) if link_assets else ())))
    if link_assets:
        (source / "assets").symlink_to(ROOT / "assets", target_is_directory=True)
    venv = tmp_path / "venv"
    assert _run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path, None).returncode == 0
    python = venv / "bin" / "python"
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path,
                     None).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return source, python, site


def test_the_wheel_installs_and_runs_from_an_empty_folder(tmp_path):
    source, python, site = _copy_and_venv(tmp_path, link_assets=True)  # (the wheel takes the files the link shows)
    venv = python.parent.parent
    dist = tmp_path / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", dist, source],
                 tmp_path, None)
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("agents_arcade-*.whl")
    installed = _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q",
                      wheel], tmp_path, None)
    assert installed.returncode == 0, installed.stderr

    empty, home = tmp_path / "empty", tmp_path / "home"
    empty.mkdir()
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(home), "XDG_DATA_HOME": str(home / "share")}
    # one interpreter for the three questions to the installed modules (each start is a second of the suite)
    asked = _run([python, "-c", "import arcade, agents; print(arcade.__file__, agents.__file__)\n"
                  "from agents.ntuple import read\nfrom arcade.foundation.storage import ASSETS\n"
                  "print(read(ASSETS / 'ntuple_2048_p0.1.npz', 'x').meta['games'])\n"
                  "import gymnasium as gym, arcade.envs\n"
                  "env = gym.make('arcade/2048-v0'); env.reset(seed=0); print(env.step(0)[1] >= 0)"], empty, env)
    assert asked.returncode == 0, asked.stderr
    where, shipped, step = asked.stdout.splitlines()
    assert where.count(str(site)) == 2, where  # the installed copy, not this checkout
    assert int(shipped) > 100_000  # the network, from the wheel
    assert step == "True"  # an environment steps

    listed = _run([venv / "bin" / "arcade", "agents"], empty, env)
    assert listed.returncode == 0 and "expectimax" in listed.stdout, listed.stderr
    window = _run([venv / "bin" / "arcade"], empty, env)
    assert window.returncode == 2 and "no display" in window.stderr and len(window.stderr.splitlines()) == 1
    # its messages name the commands an installed user has, not a checkout's main.py or .venv
    assert window.stderr.startswith("arcade: error:") and "arcade bench GAME" in window.stderr, window.stderr
    assert "main.py" not in window.stderr
    played = _run([venv / "bin" / "arcade", "bench", "2048", "--agent", "greedy", "--games", "1", "--jobs", "1"],
                  empty, env)
    assert played.returncode == 0 and "2048: greedy, 1 games" in played.stdout, played.stderr

    screens = _run([python, "-c", SCREENS_AND_RENDERS], empty, env)
    assert screens.returncode == 0 and screens.stdout.split() == ["screens", "renders"], screens.stderr

    assert not list(empty.iterdir())  # nothing written where it ran
    assert list((home / "share" / "agents-arcade" / "data" / "runs").glob("*.jsonl"))  # the user's data folder
    assert not (site / "data").exists()


def test_an_editable_install_runs_this_checkout(tmp_path):
    """`pip install -e .` (a developer's install): the command runs the checkout's own modules."""
    source, python, _ = _copy_and_venv(tmp_path, link_assets=True)
    venv = python.parent.parent
    installed = _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-build-isolation",
                      "-q", "-e", source], tmp_path, None)
    assert installed.returncode == 0, installed.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path / "home")}
    where = _run([python, "-c", "import arcade; print(arcade.__file__)"], empty, env)
    assert where.stdout.strip() == str(source / "arcade" / "__init__.py")
    listed = _run([venv / "bin" / "arcade", "agents"], empty, env)
    assert listed.returncode == 0 and "ntuple" in listed.stdout, listed.stderr


def test_the_wheel_lists_every_package_of_the_tree():
    """pyproject names its packages one by one (the shipped assets/ folder is mapped into arcade.assets, which a
    package search cannot add): every folder of arcade/ and agents/ with an __init__.py must be named there,
    or the installed arcade misses it (a game's view did: no game opened from the wheel)."""
    import tomllib

    tool = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    tree = {str(p.parent.relative_to(ROOT)).replace("/", ".") for top in ("arcade", "agents")
            for p in (ROOT / top).rglob("__init__.py") if "__pycache__" not in p.parts}
    assert set(tool["packages"]) - {"arcade.assets"} == tree
    assert tool["package-dir"]["arcade.assets"] == "assets" and list((ROOT / "assets").glob("*.npz"))
    assert not (ROOT / "arcade" / "assets").exists()  # one home for the shipped files
