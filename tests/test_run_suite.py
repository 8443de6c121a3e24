"""tools/run_suite.py, what `make test` runs: a failing test's whole output read back from the kept report, and
the busy processes of a loaded run stopped by PID whatever happens."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import run_suite  # noqa: E402


def test_a_failing_tests_output_is_read_back_whole_from_the_report(tmp_path):
    report = tmp_path / "junit.xml"
    report.write_text(
        '<testsuites><testsuite name="pytest">'
        '<testcase classname="tests.test_a" name="test_ok"/>'
        '<testcase classname="tests.test_a" name="test_bad"><failure message="assert 1 == 2">line 1\nline 2'
        '</failure><system-err>arcade: a line it printed</system-err></testcase>'
        '<testcase classname="tests.test_b" name="test_erred"><error message="fixture">boom</error></testcase>'
        '</testsuite></testsuites>', encoding="utf-8")
    found = run_suite.failures(report)
    assert [name for name, _ in found] == ["tests.test_a::test_bad", "tests.test_b::test_erred"]
    assert "assert 1 == 2" in found[0][1] and "line 2" in found[0][1] and "a line it printed" in found[0][1]
    assert run_suite.failures(tmp_path / "missing.xml") == []


def test_the_busy_processes_run_until_stopped_by_pid():
    load = run_suite.busy_processes(2)
    try:
        assert len({p.pid for p in load}) == 2 and all(p.poll() is None for p in load)
    finally:
        run_suite.stop(load)
    assert all(p.returncode is not None for p in load)


def test_the_tests_temporary_folders_go_to_memory_only_where_it_has_room(tmp_path, monkeypatch):
    monkeypatch.setattr(run_suite, "MEMORY_FS", tmp_path)
    monkeypatch.setattr(run_suite, "ROOM_NEEDED", 0)
    where = run_suite.memory_basetemp()
    assert where.parent == tmp_path and where.name.startswith("arcade-suite-")
    assert run_suite.memory_basetemp() == where  # one folder a checkout, emptied by pytest at each run
    monkeypatch.setattr(run_suite, "ROOM_NEEDED", 1 << 60)  # a small /dev/shm (a container's): pytest's own
    assert run_suite.memory_basetemp() is None
    monkeypatch.setattr(run_suite, "MEMORY_FS", tmp_path / "absent")
    monkeypatch.setattr(run_suite, "ROOM_NEEDED", 0)
    assert run_suite.memory_basetemp() is None
