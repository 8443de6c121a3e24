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
