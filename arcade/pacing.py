"""Frame pacing: wait for the next frame's deadline precisely, sleeping for all but a short margin.

A plain sleep wakes late when the machine is slow to reschedule (on a virtual
machine a 16 ms sleep can wake 5-20 ms late), which is what made frames miss
60 fps while the frame's own work took 2-5 ms. So the pacer sleeps until a
margin before the deadline and spins the rest. The margin follows how late
the recent sleeps woke (their 99th percentile, at most 12 ms), so on a machine
that wakes on time the spin is a fraction of a millisecond, and on one that
does not (this project's 2-core VM: 1% of sleeps wake 10 ms late) the pacer
pays CPU to keep frames on time. Deadlines advance by one period
from the previous deadline, not from "now", so one late frame does not shift
every later one; after a long stall the pacer restarts from now instead of
rushing frames to catch up.
"""
from __future__ import annotations

import time
from collections import deque

MIN_MARGIN_S = 0.0005
MAX_MARGIN_S = 0.012


class FramePacer:
    def __init__(self, fps: int, clock=time.perf_counter, sleep=time.sleep, history: int = 240):
        self.period = 1.0 / fps
        self._clock = clock
        self._sleep = sleep
        self._oversleep: deque[float] = deque(maxlen=history)
        self.margin = 0.002
        self._last = clock()
        self._deadline = self._last + self.period

    def skip(self) -> float:
        """No waiting (the app slept until an input instead): the next deadline counts from now;
        returns the milliseconds since the previous frame."""
        now = self._clock()
        self._deadline = now + self.period
        dt_ms = (now - self._last) * 1000
        self._last = now
        return dt_ms

    def wait(self) -> float:
        """Block until the next frame is due; returns the milliseconds since the previous frame."""
        now = self._clock()
        target = self._deadline - self.margin
        if target > now:
            self._sleep(target - now)
            woke = self._clock()
            self._oversleep.append(max(0.0, woke - target))
            if len(self._oversleep) >= 10:
                late = sorted(self._oversleep)[int(0.99 * (len(self._oversleep) - 1))]
                self.margin = min(MAX_MARGIN_S, max(MIN_MARGIN_S, late + 0.0003))
        while self._clock() < self._deadline:
            pass  # the last stretch: spinning is the only wait that ends on time
        now = self._clock()
        self._deadline += self.period
        if now - self._deadline > self.period:  # a long stall: start afresh rather than rush
            self._deadline = now + self.period
        dt_ms = (now - self._last) * 1000
        self._last = now
        return dt_ms
