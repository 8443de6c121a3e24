"""Pluggable agents. Any module in this package that calls `register` appears in the UI and CLI."""
LAYER = "agents"  # over the engines, the rules and the foundation (tests/test_layers.py)
from agents.base import (CAPABILITIES, Agent, AgentSpec, ChecksRules, Decides, Decision, Describes, Explains,
                         LearnsWhilePlaying, Reports, ShipsTable, ShowsTree, Trains, TrainsOnCluster, UnknownAgent, agents_for, decide, discover, find,
                         register, resumed_at)

__all__ = ["CAPABILITIES", "Agent", "AgentSpec", "ChecksRules", "Decides", "Decision", "Describes", "Explains", "LearnsWhilePlaying",
           "Reports", "ShipsTable", "ShowsTree", "Trains", "TrainsOnCluster",
           "UnknownAgent", "agents_for", "decide", "discover", "find", "register", "resumed_at"]
