"""The way back: a policy trained with the arcade's environments becomes an arcade agent.

`PolicyAgent(env, policy)` plays in the arcade what `policy(observation, action_mask)
-> action index` chooses, seeing the game through the environment's own
observation encoding (`env.observation_of`) and action numbering (`env.action_of`).
`TabularQ` (agents/tabular_q.py, re-exported here) is a table Q[observation][action]
as tabular Q-learning fills it; `TabularQ.greedy` is a ready policy.
An agent module wraps either in an `@register`ed class, as
agents/gym_blackjack_q.py does, and the agent appears in Tab and in `bench`.
"""
from __future__ import annotations

from agents.tabular_q import TabularQ, observation_key  # noqa: F401  (the table, where policies are kept)


class PolicyAgent:
    """An arcade agent that plays `policy(observation, action_mask) -> index` through `env`'s encoding."""

    def __init__(self, env, policy, rules):
        self.env, self.policy, self.rules = env, policy, rules

    def act(self, state, rng):
        index = int(self.policy(self.env.observation_of(state), self.env.legal_mask(state)))
        action = self.env.action_of(index)
        if action not in self.rules.legal_actions(state):
            raise ValueError(f"the policy chose action {index} ({action}), which is not legal here")
        return action
