"""Frame pacing against a fake clock: deadlines, the adaptive sleep margin, no catch-up bursts."""
from arcade.pacing import MAX_MARGIN_S, FramePacer


class FakeTime:
    """A clock whose sleeps wake `late` seconds after they should."""

    def __init__(self, late=0.0):
        self.t = 100.0
        self.late = late
        self.sleeps = []

    def clock(self):
        self.t += 1e-5  # every reading costs a little, so a spin ends
        return self.t

    def sleep(self, s):
        self.sleeps.append(s)
        self.t += s + self.late


def test_frames_come_one_period_apart():
    ft = FakeTime()
    pacer = FramePacer(60, clock=ft.clock, sleep=ft.sleep)
    dts = [pacer.wait() for _ in range(100)]
    assert all(abs(dt - 1000 / 60) < 0.05 for dt in dts[1:])


def test_margin_grows_with_late_wakeups_and_frames_stay_on_time():
    ft = FakeTime(late=0.004)
    pacer = FramePacer(60, clock=ft.clock, sleep=ft.sleep)
    dts = [pacer.wait() for _ in range(200)]
    assert 0.004 < pacer.margin <= MAX_MARGIN_S
    assert all(abs(dt - 1000 / 60) < 0.05 for dt in dts[50:])  # the spin absorbs the late wake-ups


def test_slow_frame_is_followed_by_a_short_one_and_a_stall_by_no_burst():
    ft = FakeTime()
    pacer = FramePacer(60, clock=ft.clock, sleep=ft.sleep)
    pacer.wait()
    ft.t += 0.010  # 10 ms of work: still inside the period
    assert abs(pacer.wait() - 1000 / 60) < 0.05
    ft.t += 0.025  # a frame that overran by 8 ms
    late = pacer.wait()
    assert late > 24
    assert pacer.wait() < 1000 / 60  # the next one catches up to the schedule
    ft.t += 1.0  # a one-second stall
    pacer.wait()
    after = [pacer.wait() for _ in range(5)]
    assert all(abs(dt - 1000 / 60) < 0.05 for dt in after)  # one period apart, no burst of instant frames
