"""Where an agent decides: one small interface with a thread and a process implementation.

A decider builds the agents of one controller, keeps them (the one cache of
instances: an agent that learns or builds tables across turns keeps them), and
runs their methods off the frame loop, handing back a Future:

    run(spec, method, state, rng) -> Future   of an Answer; method: one of arcade.agent_call.METHODS
    instance(spec) -> agent or None            the built agent, if it lives in this process
    reset(rules)                               new rules: built agents are dropped
    close()

`ThreadDecider` runs in one worker thread of this process: cheap, and the screen
can read the instance (its description, its learning switch). `ProcessDecider`
runs in the shared agent process (`arcade.agent_process`), for agents that
compute in Python for long stretches and would hold the GIL the frames need;
their instances live there only. Which agent is selected, whether it is in
control and how stale answers are dropped is the controller's business
(`arcade.control`), not this module's.
"""
from __future__ import annotations

import threading
import uuid
from concurrent.futures import Future, ThreadPoolExecutor

from arcade import agent_process
from arcade.agent_call import call, decision_rng, decision_seed, draws

class ThreadDecider:
    """Agents built and run in one worker thread of this process."""

    def __init__(self, game_id: str, rules, settings):
        self.rules, self.settings = rules, settings
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"agent-{game_id}")
        self._instances: dict[str, object] = {}
        self._lock = threading.Lock()

    def agent(self, spec):
        """The built instance of `spec`, built now if it is not yet.

        Built outside the lock: new rules (`reset`, on the window's thread) must not wait for a build of the
        old ones; that build is then kept by nobody.
        """
        with self._lock:
            instances, rules = self._instances, self.rules
            agent = instances.get(spec.name)
        if agent is None:
            built = spec.create(rules, self.settings)
            with self._lock:
                agent = instances.setdefault(spec.name, built)
        return agent

    def run(self, spec, method: str, state, rng) -> Future:
        rng = decision_rng(rng) if draws(method) and rng is not None else rng  # (drawn here, on the asking thread)
        return self._executor.submit(lambda: call(self.agent(spec), method, state, rng, self.rules))

    def instance(self, spec):
        return self._instances.get(spec.name)

    def put(self, spec, agent) -> None:
        """Use `agent` as the built instance of `spec` (tests insert a broken agent this way)."""
        with self._lock:
            self._instances[spec.name] = agent

    def reset(self, rules) -> None:
        with self._lock:
            self.rules = rules
            self._instances = {}

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


class ProcessDecider:
    """Agents built and run in the shared agent process, keyed by this decider's token and rules version."""

    def __init__(self, game_id: str, rules, settings):
        self.game_id, self.rules, self.settings = game_id, rules, settings
        self._token = uuid.uuid4().hex
        self._version = 0

    def run(self, spec, method: str, state, rng) -> Future:
        # Only a decision draws from the Generator it is given (asking for an explanation draws nothing)
        seed = decision_seed(rng) if draws(method) else 0
        key = (self._token, spec.name, self._version)
        return agent_process.submit(key, self.game_id, spec.name, self.rules, self.settings, method, state, seed)

    def instance(self, spec):
        return None  # it lives in the agent process

    def reset(self, rules) -> None:
        self.rules = rules
        self._version += 1  # the process drops the old instances as new ones come (LRU)

    def close(self) -> None:
        pass  # the agent process is shared; it ends with the arcade
