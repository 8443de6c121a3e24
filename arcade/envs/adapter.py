"""The way back: a policy trained with the arcade's environments becomes an arcade agent.

`TabularQ` (agents/tabular_q.py, re-exported here) is a table Q[observation][action]
as tabular Q-learning fills it; `TabularQ.greedy` is a ready policy.
An agent module wraps it in an `@register`ed class that sees the game through the
environment's own encoding (`env.observation_of`, `env.action_of`), as
agents/gym_blackjack_q.py does, and the agent appears in Tab and in `bench`.
"""
from __future__ import annotations

from agents.tabular_q import TabularQ, observation_key  # noqa: F401  (the table, where policies are kept)
