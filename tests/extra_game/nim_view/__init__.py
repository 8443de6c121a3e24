"""Nim's view: its screen and its board painter (no launcher sketch: the card shows its letter)."""
