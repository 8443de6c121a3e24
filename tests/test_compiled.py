"""Where the compiled kernels are kept, and that agents have them ready before their first decision."""
import itertools
from pathlib import Path

import numpy as np

from agents.engines import compiled


def test_the_cache_stays_beside_the_source_where_the_package_folder_can_be_written(monkeypatch):
    monkeypatch.setattr(compiled.os, "access", lambda path, mode: True)
    assert compiled.cache_folder() is None


def test_a_read_only_package_keeps_its_cache_in_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setattr(compiled.os, "access", lambda path, mode: False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert compiled.cache_folder() == tmp_path / "cache" / "arcade" / "numba"


def test_every_kernel_module_imports_the_cache_place_before_numba_reads_it_and_keeps_its_cache_fresh():
    """numba reads its cache folder as a kernel is decorated: every module under agents/engines that compiles
    imports agents.engines.compiled (which fixes the folder) and ends with keep_cache_fresh(__name__)."""
    root = Path(compiled.__file__).resolve().parent
    kernel_files = [p for p in root.glob("**/*.py") if "@njit" in p.read_text()]
    assert len(kernel_files) >= 10
    for path in kernel_files:
        text = path.read_text()
        assert "from agents.engines.compiled import keep_cache_fresh" in text, path
        assert text.rstrip().splitlines()[-1].startswith("keep_cache_fresh(__name__)"), path


def test_warming_reports_its_progress_to_the_host(monkeypatch):
    from agents.engines import progress

    seen = []
    monkeypatch.setattr(progress, "_progress_sink", lambda task, done, total, detail: seen.append((task, done, total)))
    ran = []
    compiled.warm([lambda: ran.append(1), lambda: ran.append(2)])
    assert ran == [1, 2]
    assert [s[1:] for s in seen] == [(0, 2), (1, 2), (2, 2)] and {s[0] for s in seen} == {compiled.TASK}


def test_steps_warmed_in_parts_report_where_they_are_in_the_whole(monkeypatch):
    from agents.engines import progress

    seen = []
    monkeypatch.setattr(progress, "_progress_sink", lambda task, done, total, detail: seen.append((done, total)))
    compiled.warm([lambda: None], 3, 5)
    assert seen == [(3, 5), (4, 5)]


def test_the_first_moves_kernels_load_a_part_a_call_the_2048_search_first(monkeypatch):
    from agents import warm_kernels
    from agents.expectimax_strong import Search

    searched = []
    real = Search.root

    def root(self, *args):
        searched.append(self.weights is None)
        return real(self, *args)

    monkeypatch.setattr(Search, "root", root)
    more = [warm_kernels.prepare_part(0)]
    assert searched == [True]  # (the heuristic search: the strongest agent's, which Enter hands the game)
    n = len(warm_kernels._steps(True))
    more += [warm_kernels.prepare_part(part) for part in range(1, n)]
    assert more == [True] * (n - 1) + [False]


def test_the_agent_process_asks_for_the_next_part_only_when_one_is_done(monkeypatch):
    """So a decision asked for while the kernels load waits for the part loading, not for every part; and
    a process shut down or replaced meanwhile is asked for nothing more."""
    from concurrent.futures import Future

    from arcade import agent_process

    class Part(Future):
        """A part that finishes when it is waited for."""

        def __init__(self, more):
            super().__init__()
            self.more = more

        def result(self, timeout=None):
            if not self.done():
                self.set_result(self.more)
            return super().result(timeout)

    class Pool:
        def __init__(self, parts):
            self.parts, self.asked, self.last = parts, [], None

        def submit(self, fn, part):
            assert fn is agent_process._prepare and (self.last is None or self.last.done())
            self.asked.append(part)
            self.last = Part(part + 1 < self.parts)
            return self.last

    first = Future()
    first.set_result(True)
    pool = Pool(4)
    monkeypatch.setattr(agent_process, "_pool", pool)
    agent_process._prepare_the_rest(pool, first)
    assert pool.asked == [1, 2, 3]
    replaced = Pool(4)
    monkeypatch.setattr(agent_process, "_pool", None)
    agent_process._prepare_the_rest(replaced, first)
    assert replaced.asked == []
    broken = Future()
    broken.set_exception(RuntimeError("the process died"))
    agent_process._prepare_the_rest(pool, broken)  # (returns: the decision's own call reports it)


def test_the_move_tables_are_the_board64_tables_read_only():
    from agents.engines.twenty48 import board64

    moves, gains = board64.move_tables()
    assert moves.dtype == np.uint16 and (moves[0] == board64.row_tables().left).all()
    assert (gains[1] == board64.gain_tables()[3]).all()
    assert not moves.flags.writeable and not gains.flags.writeable


def test_agents_compile_when_they_are_made_not_in_their_first_decision(settings, monkeypatch):
    """An agent's first decision runs no warm-up: what compiling or loading there is happened when it was made."""
    from agents.expectimax_strong import StrongExpectimax
    from agents.ntuple import NTupleAgent
    from arcade.games.twenty48 import Rules2048

    warmed = []
    real = compiled.warm
    monkeypatch.setattr(compiled, "warm", lambda steps: (warmed.append(1), real(steps)))
    rules = Rules2048(spawn_four_probability=0.1)
    state = rules.new_state(np.random.default_rng(0))
    for cls in (StrongExpectimax, NTupleAgent):
        agent = cls(rules, settings)
        made = len(warmed)
        assert made >= 1
        agent.act(state)
        assert len(warmed) == made


def test_a_long_step_keeps_reporting_so_the_bar_stays_and_moves(monkeypatch):
    """A step that compiles is one long call: a beat a second says how long it has run, and the bar creeps
    through the step (never past 90% of it) so a first start's bar is never still."""
    import time

    from agents.engines import progress

    seen = []
    monkeypatch.setattr(progress, "_progress_sink", lambda task, done, total, detail: seen.append((done, detail)))
    compiled.warm([lambda: time.sleep(2.5)])
    beats = [(done, d) for done, d in seen if 0 < done < 1 and d.split(" ")[0].isdigit()]
    assert len(beats) >= 2 and beats[-1][1].startswith(("2 s", "3 s"))
    assert all(a[0] < b[0] <= 0.9 for a, b in zip(beats, beats[1:], strict=False))
    assert seen[-1][0] == 1


def test_a_kernel_modules_imports_are_found_from_its_globals_through_one_another():
    """What keep_cache_fresh compares a module's cache with: the kernel modules it imports, directly or
    through another, found from what it imported (not from its text); modules without kernels are not."""
    from agents.engines import bits, tree_kernels
    from agents.engines.dots import kernels, search_kernels, tree_positions

    assert set(compiled.kernel_imports(tree_positions)) == {bits, kernels, search_kernels}
    assert set(compiled.kernel_imports(search_kernels)) == {kernels, bits}
    assert compiled.kernel_imports(tree_kernels) == [bits]  # (the engines' positions come through positions())
    assert compiled.kernel_imports(bits) == []


def test_compiling_kernels_says_so_in_the_terminal_at_least_every_ten_seconds_and_a_warm_run_says_nothing():
    import io

    from agents.warm_kernels import StepLines

    now = [0.0]
    out = io.StringIO()
    lines = StepLines("2048", out, clock=lambda: now[0])
    for step in range(3):  # a warm cache: every step in milliseconds
        now[0] += 0.01
        lines("compiling", step, 3)
    assert out.getvalue() == ""
    said = []
    for t in range(1, 61):  # cold: step 0 compiles for 40 s (one call a second), then 20 steps of 1 s each
        now[0] += 1.0
        before = out.getvalue().count("\n")
        lines("compiling", 0 if t <= 40 else 1 + (t - 41), 22)
        if out.getvalue().count("\n") > before:
            said.append(t)
    lines("compiling", 22, 22)
    gaps = [b - a for a, b in itertools.pairwise([0, *said])]
    assert said[0] <= 3 and max(gaps) <= 10, said
    text = out.getvalue().splitlines()
    assert "kernel 1 of 22" in text[0] and text[-1].endswith("s") and "done" in text[-1]
