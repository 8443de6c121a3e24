"""Arcade: five classic games with pluggable AI agents (rules in games/, screens in screens/)."""
