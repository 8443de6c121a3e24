"""The agent controller: worker thread, generation counter, delay, errors."""
import time

import pytest

from agents.base import AgentSpec
from arcade.agent_process import TaskProgress
from arcade.control import AgentController


class FakeRules:
    game_id = "2048"
    players = 1

    def legal_actions(self, state):
        return [0, 1, 2]


class SlowAgent:
    name = "slow"

    def __init__(self, seconds=0.05, fail=False):
        self.seconds, self.fail = seconds, fail

    def act(self, state, rng):
        time.sleep(self.seconds)
        if self.fail:
            raise RuntimeError("boom")
        return state + 1


def controller(settings, **agent_kwargs):
    c = AgentController("2048", FakeRules(), settings)
    c.specs = [AgentSpec("slow", ("2048",), "test", lambda r, s: SlowAgent(**agent_kwargs)),
               AgentSpec("other", ("2048",), "test", lambda r, s: SlowAgent(0.0))]
    return c


def wait_action(c, state, timeout=2.0):
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        a = c.poll(state)
        if a is not None:
            return a
        time.sleep(0.002)
    return None


def test_poll_never_blocks_and_returns_the_decision(settings):
    c = controller(settings, seconds=0.2)
    c.set_enabled(True)
    t0 = time.perf_counter()
    assert c.poll(10) is None
    assert c.poll(10) is None
    assert time.perf_counter() - t0 < 0.05
    assert c.status().startswith("thinking")
    loading = TaskProgress("loading the n-tuple network", 1, 2, "decoding", 0.0, 0.0)
    c.progress = lambda: loading  # long work reported while the move is asked: a load, not thought
    assert c.status().startswith("getting ready (")
    del c.progress
    assert wait_action(c, 10) == 11
    assert c.status().startswith("waiting")
    c.close()


def test_result_after_toggle_is_dropped(settings):
    c = controller(settings, seconds=0.05)
    c.set_enabled(True)
    c.poll(1)
    c.toggle()
    c.toggle()  # back on, but a new generation
    time.sleep(0.1)
    assert c.poll(1) is None  # the old decision is dropped, a new one is started
    assert wait_action(c, 1) == 2
    c.close()


def test_result_after_switch_or_restart_is_dropped(settings):
    for change in (lambda c: c.cycle(), lambda c: c.invalidate()):
        c = controller(settings, seconds=0.05)
        c.set_enabled(True)
        c.poll(1)
        gen = c.generation
        change(c)
        assert c.generation > gen
        time.sleep(0.1)
        assert c.poll(1) is None
        c.close()


def test_agent_exception_turns_agent_off_and_is_reported(settings):
    c = controller(settings, seconds=0.0, fail=True)
    c.set_enabled(True)
    assert wait_action(c, 1, timeout=0.3) is None
    assert not c.enabled
    assert "boom" in c.status() and c.status().startswith("error")
    c.set_enabled(True)
    assert c.error is None
    c.close()


def test_delay_steps_and_wait(settings):
    c = controller(settings, seconds=0.0)
    c.delay_ms = 0
    c.change_delay(+1)
    assert c.delay_ms == 25
    c.change_delay(-1)
    c.change_delay(-1)
    assert c.delay_ms == 0
    c.delay_ms = 60_000
    c.set_enabled(True)
    assert wait_action(c, 1) == 2
    # within the delay the next decision is worked out (its move comes as the delay ends) but not played
    deadline = time.monotonic() + 30
    while c.decision_for(2) is None and time.monotonic() < deadline:
        assert c.poll(2) is None
        time.sleep(0.005)
    assert c.decision_for(2) is not None and c.poll(2) is None and not c.thinking
    assert c.status().startswith("waiting")
    c.close()


def test_cycle_wraps_and_select_unknown(settings):
    c = controller(settings)
    c.cycle()
    assert c.name == "other"
    c.cycle()
    assert c.name == "slow"
    with pytest.raises(ValueError, match="unknown agent"):
        c.select("nobody")
    c.close()


# --- the agent process ---------------------------------------------------------------------------

def test_process_agent_decides_as_it_would_in_this_process(settings):
    import numpy as np

    from arcade.games import make_rules

    rules = make_rules("2048", settings)
    c = AgentController("2048", rules, settings, agent="expectimax-3")
    assert c.spec.process
    c.set_enabled(True)
    rng = np.random.default_rng(5)
    state = rules.new_state(rng)
    for _ in range(3):
        action = wait_action(c, state, timeout=60)  # the first call starts the process
        assert action == c.spec.create(rules, settings).act(state, None)  # expectimax-3 is deterministic
        state = rules.step(state, action, rng)
    c.close()


def test_process_agent_error_is_reported_and_the_process_keeps_working(settings):
    from arcade.games import make_rules

    rules = make_rules("2048", settings)
    c = AgentController("2048", rules, settings, agent="expectimax-3")
    c.set_enabled(True)
    end = time.perf_counter() + 60
    while c.error is None and time.perf_counter() < end:
        assert c.poll("not a board") is None
        time.sleep(0.005)
    assert not c.enabled and c.status().startswith("error: expectimax-3 failed")
    c.set_enabled(True)
    assert wait_action(c, rules.new_state(__import__("numpy").random.default_rng(0)), timeout=60) in (0, 1, 2, 3)
    c.close()


def test_agent_process_comes_back_after_it_dies(settings):
    from arcade import agent_process
    from arcade.games import make_rules

    rules = make_rules("2048", settings)
    state = rules.new_state(__import__("numpy").random.default_rng(0))
    c = AgentController("2048", rules, settings, agent="expectimax-3")
    c.set_enabled(True)
    assert wait_action(c, state, timeout=60) is not None
    for proc in list(agent_process._pool._processes.values()):
        proc.kill()
    time.sleep(0.3)
    c.set_enabled(False)
    c.set_enabled(True)
    # the first decision may fail with the dead process; the next one runs in a new process
    action = wait_action(c, state, timeout=60)
    if action is None:
        assert "failed" in c.status()
        c.set_enabled(True)
        action = wait_action(c, state, timeout=60)
    assert action in (0, 1, 2, 3)
    c.close()


def test_the_agent_process_says_whether_anything_asked_of_it_is_unfinished(settings):
    from arcade import agent_process
    from arcade.games import make_rules

    rules = make_rules("2048", settings)
    state = rules.new_state(__import__("numpy").random.default_rng(0))
    future = agent_process.submit(("idle-test",), "2048", "expectimax-3", rules, settings, "act", state, 1)
    assert not agent_process.idle() or future.done()
    assert future.result(timeout=120).value in (0, 1, 2, 3)
    end = time.perf_counter() + 120  # the kernels' parts still loading after it count as unfinished too
    while not agent_process.idle() and time.perf_counter() < end:
        time.sleep(0.05)
    assert agent_process.idle()


def test_training_job_reports_progress_stops_early_and_saves(settings):
    from agents import find
    from arcade.games import make_rules
    from arcade.training import TrainingJob

    job = TrainingJob(find("tictactoe", "td-value"), make_rules("tictactoe", settings), settings, 10_000_000, seed=1)
    end = time.perf_counter() + 60
    while job.done == 0 and time.perf_counter() < end:
        job.poll()
        time.sleep(0.01)
    assert job.done > 0 and not job.poll()
    job.stop()
    while not job.poll() and time.perf_counter() < end:
        time.sleep(0.01)
    saved, message = job.result
    assert saved and "saved" in message and job.done < job.total  # it says what was saved, not where
    assert (settings.data_dir / "tictactoe_td.npz").exists()


def test_a_training_stopped_before_its_first_game_saves_nothing_and_says_so(settings):
    """Issue 73 item 9: match-3's `t` stopped after 0 games said "what it learnt is saved and plays now" and
    wrote a file for nothing learnt (`i` then read "trained 6,000 games" from it)."""
    from agents import find
    from arcade.games import make_rules
    from arcade.training import TrainingJob

    job = TrainingJob(find("match3", "td-value"), make_rules("match3", settings), settings, 10_000_000, seed=1)
    job.stop()  # (at once: before the first batch of games ends)
    end = time.perf_counter() + 120
    while not job.poll() and time.perf_counter() < end:
        time.sleep(0.01)
    saved, message = job.result
    assert saved is None and "nothing saved" in message and job.done == 0
    assert not list(settings.data_dir.glob("*match3*"))


def test_training_job_that_dies_is_reported(settings):
    from agents import find
    from arcade.games import make_rules
    from arcade.training import TrainingJob

    job = TrainingJob(find("tictactoe", "td-value"), make_rules("tictactoe", settings), settings, 10_000_000, seed=1)
    job.kill()
    end = time.perf_counter() + 30
    while not job.poll() and time.perf_counter() < end:
        time.sleep(0.01)
    assert job.result[0] is False and "ended unexpectedly" in job.result[1]


def test_the_delay_keys_reach_the_largest_delay_the_settings_allow(settings):
    """+ steps up to [agents] delay_ms's upper bound (5 s), - back to 0; a delay set in the file between two
    steps moves to the neighbouring step."""
    import dataclasses

    from arcade.control import DELAY_STEPS_MS
    from arcade.games import make_rules
    from arcade.settings import AgentSettings

    top = dataclasses.fields(AgentSettings)[0].metadata["max"]
    assert DELAY_STEPS_MS[-1] == top == 5000
    c = AgentController("2048", make_rules("2048", settings), settings)
    for _ in range(len(DELAY_STEPS_MS) + 2):
        c.change_delay(+1)
    assert c.delay_ms == 5000
    c.delay_ms = 1000
    c.change_delay(+1)
    assert c.delay_ms == 1500
    for _ in range(len(DELAY_STEPS_MS) + 2):
        c.change_delay(-1)
    assert c.delay_ms == 0
    c.close()


def test_a_build_that_takes_a_while_is_shown_as_getting_ready(settings):
    """Issue 25 #6: while policy iteration solved (about 4 s) nothing said it was working."""
    import threading

    from agents.base import register, unregister
    from arcade.games import make_rules

    release = threading.Event()

    class SlowToBuild:
        def __init__(self, rules, settings):
            release.wait(30)

        def act(self, state, rng):
            return 0

    register("slow-to-build", ("2048",), "builds slowly", order=1)(SlowToBuild)
    clock = [0.0]
    try:
        c = AgentController("2048", make_rules("2048", settings), settings, clock=lambda: clock[0])
        assert c.name == "slow-to-build"
        c.warm_up()
        clock[0] = 2.4
        assert c.getting_ready == pytest.approx(2.4) and c.status() == "getting ready (2 s)"
        release.set()
        end = time.perf_counter() + 30
        while c.getting_ready is not None and time.perf_counter() < end:
            time.sleep(0.01)
        assert c.getting_ready is None and c.status() == "off"
        c.close()
    finally:
        release.set()
        unregister("slow-to-build", "2048")


def test_new_rules_do_not_wait_for_an_agent_still_building_for_the_old_ones(settings):
    """The window's thread changes the rules (another board size) while the worker builds an agent: the change
    is immediate, and the next decision is made by an agent built for the new rules."""
    import threading

    from arcade.deciders import ThreadDecider

    started, release = threading.Event(), threading.Event()
    built_for = []

    def create(rules, settings):
        built_for.append(rules)
        started.set()
        if len(built_for) == 1:
            release.wait(30)
        return SlowAgent(0.0)

    spec = AgentSpec("slow", ("2048",), "test", create)
    decider = ThreadDecider("2048", "old rules", settings)
    try:
        decider.run(spec, "act", 1, None)
        assert started.wait(30)
        t0 = time.perf_counter()
        decider.reset("new rules")
        assert time.perf_counter() - t0 < 1.0  # it used to wait for the build (a frame's stall per size change)
        release.set()
        assert decider.run(spec, "act", 1, None).result(30) is not None
        assert built_for == ["old rules", "new rules"]
        assert decider.instance(spec) is not None
    finally:
        release.set()
        decider.close()


def test_the_progress_shown_is_the_selected_agents_never_another_agents(monkeypatch):
    """Issue 73 item 10: Tab from expectimax to expectimax-3 showed "loading the n-tuple network" for an agent
    not selected. Each task the agent process reports names the agent whose call it is (None: the kernels
    every agent loads)."""
    import queue

    from arcade import agent_process

    channel = queue.Queue()
    monkeypatch.setattr(agent_process, "_progress_queue", channel)
    monkeypatch.setattr(agent_process, "_progress", None)
    channel.put(("progress", ("loading the n-tuple network", 1.0, 4.0, "", "expectimax")))
    assert agent_process.latest_progress("expectimax").task == "loading the n-tuple network"
    assert agent_process.latest_progress("expectimax-3") is None
    channel.put(("progress", ("compiling the search kernels", 1.0, 4.0, "", None)))
    assert agent_process.latest_progress("expectimax-3").task == "compiling the search kernels"


def test_with_values_on_a_decisions_values_show_before_its_move_even_with_no_delay(settings):
    """Issue 73 item 10: 2048's `v` with the agent at 0 ms delay showed only "..." on the arrows: each move was
    made the frame its decision arrived, so its values were replaced before they were drawn. With the value
    view on, the move waits VALUES_READ_S from the decision's arrival (on the controller's clock); off, none."""
    import numpy as np

    from arcade.control import VALUES_READ_S
    from arcade.games import make_rules

    clock = [100.0]
    c = AgentController("2048", make_rules("2048", settings), settings, clock=lambda: clock[0])
    c.select("greedy")
    assert c.delay_ms == 0
    state = c.rules.new_state(np.random.default_rng(1))
    for values_on in (True, False):
        c.wants_values = values_on
        c.invalidate()
        end, played = time.perf_counter() + 60, None
        while c.decision_for(state) is None and time.perf_counter() < end:
            played = c.poll(state, active=True)  # (off: the move is made the poll its decision arrives)
            time.sleep(0.01)
        assert c.decision_for(state) is not None
        if values_on:
            assert played is None  # the values are on the screen now...
            clock[0] += VALUES_READ_S
            played = c.poll(state, active=True)
        assert played in c.rules.legal_actions(state)  # ...and then the move is made
        clock[0] += 1.0
    c.close()
