"""The command blocks of the README and of its pages in docs/, run as a reader would (so they cannot drift
from the command line again):
every `python ...` line of a fenced `sh` block (and every `$ python ...` line of a transcript) that runs
without a display, in a scratch folder, with a scratch data folder and small counts and budgets, on one core
(a run's games in this process: the pools of processes are tested in test_runner.py and test_arena.py, and
starting them for two games cost this suite ~4 s of CPU). A block's lines run in order (a training's file is
the next line's input). What is left out, and why: the window
(`python main.py`, `play`), lines with placeholders (GAME, my.toml, ...), Ray clusters."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from arcade import runner
from arcade.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SMALL = {"--games": "2", "--episodes": "2", "--trials": "200"}  # counts made small
# small budgets, and a small n-tuple network (the shipped one takes seconds to copy, save and fit)
QUICK = {"agents": {"time_budget_ms": 20, "mcts": {"simulations": 30}},
         "match3": {"monte-carlo": {"time_budget_ms": 10}},
         "2048": {"expectimax": {"time_budget_ms": 5}, "expectimax-ntuple": {"time_budget_ms": 5},
                  "ntuple": {"tuples": "3x4"}},
         "tictactoe": {"alphazero": {"rating_games": 2}}, "dots": {"alphazero": {"rating_games": 2, "hidden": 8}}}
PLACEHOLDERS = ("GAME", "my.toml", "...", "HEAD_IP", "PROGRAM")


def command_blocks(text: str) -> list[list[str]]:
    """The README's runnable command lines, block by block (continuations joined, comments and optional
    `[...]` parts dropped)."""
    blocks, current, fence = [], None, None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("```"):
            if current is None:
                fence, current = line[3:].strip(), []
            else:
                blocks.append(current)
                current = None
            continue
        if current is None:
            continue
        if fence != "sh":
            if not line.startswith("$ "):
                continue
            line = line[2:]
        if current and current[-1].endswith("\\"):
            current[-1] = current[-1][:-1] + " " + line
        else:
            current.append(line)
    commands = []
    for block in blocks:
        lines = [re.sub(r"\s+#.*$", "", line).strip() for line in block]
        lines = [re.sub(r"\s*\[[^\]]*\]", "", line) for line in lines if not line.startswith("#")]
        commands.append([line for line in lines if runnable(line)])
    return [c for c in commands if c]


def runnable(line: str) -> bool:
    words = line.split()
    if not words or words[0] not in ("python", ".venv/bin/python"):
        return False
    if any(p in line for p in PLACEHOLDERS) or "--ray" in words:
        return False
    if words[1:] == ["main.py"] or (len(words) > 2 and words[1] == "main.py" and "play" in words[2:4]):
        return False  # the window
    return True


def _as_run_here(words: list[str], scratch: Path, settings: Path) -> list[str]:
    """A command line's words, to run in `scratch`: the checkout's files by their full path (a settings file
    copied with the scratch data folder), counts made small, the scratch settings for the CLI."""
    out = []
    for i, word in enumerate(words):
        if i and words[i - 1] in SMALL:
            out.append(SMALL[words[i - 1]])
            continue
        if (ROOT / word).is_file() and i > 0 and not word.endswith(".npz"):
            if word.endswith(".toml"):
                copy = scratch / Path(word).name
                copy.write_text(scratch_settings(tomllib.loads((ROOT / word).read_text()), scratch))
                word = str(copy)
            else:
                word = str(ROOT / word)
        out.append(word)
    if out[1].endswith("main.py") and "--settings" not in out:
        out[2:2] = ["--settings", str(settings)]
    elif out[1].endswith("train_blackjack_q.py") or out[1].endswith("blackjack_report.py"):
        out += ["--settings", str(settings)]
    if out[1].endswith("blackjack_report.py"):
        out += ["--trials", SMALL["--trials"]]
    if out[1].endswith("train_blackjack_q.py"):
        out += ["--eval-rounds", SMALL["--trials"]]  # (20,000 rounds by default: 4 s of the suite)
    return out


def scratch_settings(tables: dict, scratch: Path) -> str:
    """TOML of `tables` with the scratch data folder and QUICK's values over them."""
    def merge(into: dict, over: dict) -> dict:
        for k, v in over.items():
            into[k] = merge(dict(into.get(k, {})), v) if isinstance(v, dict) else v
        return into

    def toml(name: str, values: dict) -> str:  # a table, then its sub-tables ([2048.ntuple])
        keys = "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items() if not isinstance(v, dict))
        return f"[{name}]\n{keys}" + "".join(toml(f'{name}."{k}"', v) for k, v in values.items() if isinstance(v, dict))

    merged = merge(merge({}, tables), {**QUICK, "data": {"folder": str(scratch / "data")}})
    return "".join(toml(f'"{name}"', values) for name, values in merged.items())


BLOCKS = [block for page in PAGES for block in command_blocks(page.read_text(encoding="utf-8"))]


def test_the_readme_has_command_blocks_to_run():
    lines = [line for block in BLOCKS for line in block]
    assert len(lines) >= 20
    assert any("decide match3" in line for line in lines) and any(line.startswith("python main.py train") and "2048" in line for line in lines)


@pytest.mark.parametrize("block", BLOCKS, ids=[b[0][:60] for b in BLOCKS])
def test_a_readme_command_block_runs_as_written(block, tmp_path, monkeypatch, capsys):
    settings = tmp_path / "settings.toml"
    settings.write_text(scratch_settings({}, tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(runner, "default_jobs", lambda: 1)
    for line in block:
        words = _as_run_here(shlex.split(line), tmp_path, settings)
        if words[1].endswith("main.py"):
            code = main(words[2:])
            err = capsys.readouterr().err
        else:
            done = subprocess.run([sys.executable, *words[1:]], cwd=tmp_path, capture_output=True, text=True,
                                  timeout=300)
            code, err = done.returncode, done.stderr
        assert code == 0, f"{line}\n-> {' '.join(words)}\n{err[-2000:]}"
    assert not [p for p in ROOT.glob("*.npz")]  # nothing written into the checkout


def test_the_readme_is_a_guide_and_every_page_and_picture_it_names_is_there():
    """At most 350 lines (the figures and the depth are in docs/, linked from it), and no dead link."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 350
    targets = re.findall(r"\]\(([^)#\s]+)\)", text)
    assert {"docs/agents.md", "docs/command_line.md", "docs/environments.md", "docs/architecture.md"} <= set(targets)
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#\s]+)\)", page.read_text(encoding="utf-8")):
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.name} links {target}, which is not there"
