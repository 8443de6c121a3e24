"""A stopped training resumes (issue 73 item 17): the blackjack learner and the dots network kept a
checkpoint, but the same command then played all N games again on top of it while the stop's line said "the
same command resumes". A checkpoint now holds its run's size and the games done; a run of as many games goes
on from there and plays only the rest."""
import threading

import numpy as np
import pytest

from agents import find
from arcade.games import make_rules


@pytest.mark.parametrize("game, agent, episodes", [("blackjack", "q-learning", 3000), ("dots", "ntuple", 3000)])
def test_a_stopped_run_saved_resumes_and_plays_only_the_rest(settings, game, agent, episodes):
    rules = make_rules(game, settings)
    first = find(game, agent).create(rules, settings)
    stop, seen = threading.Event(), []

    def progress(done):
        seen.append(done)
        if done >= episodes // 3:
            stop.set()

    first.train(episodes, np.random.default_rng(1), progress=progress, stop=stop)
    stopped_at = seen[-1]
    assert 0 < stopped_at < episodes and first.save()
    again = find(game, agent).create(rules, settings)  # (a new process: it reads the checkpoint)
    assert again.resumed_at(episodes) == stopped_at and not again.resumed_at(episodes + 1)
    more: list[int] = []
    again.train(episodes, np.random.default_rng(2), progress=more.append)
    assert more[0] == stopped_at and more[-1] == episodes  # it went on from where it stopped, to the end
    assert again.save()
    done = find(game, agent).create(rules, settings)
    assert not done.resumed_at(episodes)  # a finished run starts afresh next time (on what it learnt)
