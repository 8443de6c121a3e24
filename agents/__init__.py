"""Pluggable agents. Any module in this package that calls `register` appears in the UI and CLI."""
from agents.base import AgentSpec, UnknownAgent, agents_for, create, discover, find, register

__all__ = ["AgentSpec", "UnknownAgent", "agents_for", "create", "discover", "find", "register"]
