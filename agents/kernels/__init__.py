"""Compiled inner loops (numba) of the agents, one module a game. Not agents themselves: agents.base.discover
does not import this package, so the arcade starts without importing numba; agents/compiled.py loads a
kernels module when an agent that uses it is made."""
