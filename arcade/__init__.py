"""Arcade: five classic games with pluggable AI agents (rules in games/, screens in screens/)."""
LAYER = "shell"  # screens, the app and the command line: every layer below (tests/test_layers.py)
