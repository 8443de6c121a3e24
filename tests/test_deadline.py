"""The one deadline of every timed agent (agents/base.py): what is left, what was spent, and OutOfTime."""
import math

import pytest

from agents.base import Deadline, OutOfTime, budget_clock
from arcade.settings import Settings


def test_a_deadline_counts_on_its_clock_and_raises_out_of_time_past_it():
    now = [10.0]
    deadline = Deadline(lambda: now[0], 0.5)
    now[0] = 10.2
    assert deadline.elapsed() == pytest.approx(0.2) and deadline.left() == pytest.approx(0.3)
    assert not deadline.passed()
    deadline.check()
    now[0] = 10.6
    assert deadline.passed() and deadline.left() == pytest.approx(-0.1)
    with pytest.raises(OutOfTime):
        deadline.check()
    never = Deadline(lambda: now[0], math.inf)
    now[0] = 1e12
    assert not never.passed()


def test_the_budget_clock_is_the_searching_threads_cpu_time_or_the_wall():
    import time

    assert budget_clock(Settings().with_table("agents", budget_clock="cpu")) is time.thread_time
    assert budget_clock(Settings().with_table("agents", budget_clock="wall")) is time.perf_counter


def test_with_no_clock_a_deadline_never_passes():
    from agents.base import no_clock

    clock = budget_clock(Settings().with_table("agents", budget_clock="none"))
    assert clock is no_clock
    deadline = Deadline(clock, 0.001)
    assert not deadline.passed() and deadline.left() == 0.001 and deadline.elapsed() == 0.0
    deadline.check()  # does not raise


def _timed_agents():
    """(game, agent) for every agent with a time budget, on a board small enough for a quick decision."""
    from agents import agents_for
    from arcade.games import GAMES

    return [(g.id, s.name) for g in GAMES for s in agents_for(g.id)
            if s.params is not None and "time_budget_ms" in s.params.__dataclass_fields__]


@pytest.mark.parametrize("game, agent", _timed_agents())
def test_with_no_clock_every_timed_agent_decides_by_counted_work_alone(game, agent, monkeypatch):
    """budget_clock "none" (the environments' opponents, the tests that compare two decisions): the decision
    ends on the agent's counted work, and the same seed gives the same move with every clock racing 1000x."""
    import time

    import numpy as np

    from agents import find
    from arcade.games import make_rules

    settings = Settings().with_table("agents", budget_clock="none").with_agent(
        "mcts", simulations=200, compiled_simulations=2000).with_agent("expectiminimax", max_depth=1, chance_samples=2)
    rules = make_rules(game, settings)
    state = rules.new_state(np.random.default_rng(4))

    def decide():
        return find(game, agent).create(rules, settings).act(state, np.random.default_rng(7))

    calm = decide()
    for name in ("perf_counter", "process_time", "monotonic", "thread_time"):
        real = getattr(time, name)
        start = real()
        monkeypatch.setattr(time, name, lambda real=real, start=start: start + (real() - start) * 1000)
    assert decide() == calm and calm in rules.legal_actions(state)
