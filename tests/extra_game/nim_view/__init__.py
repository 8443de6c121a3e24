"""Nim's view: its screen and its board painter (no launcher sketch: the card shows its letter)."""
from arcade.screens import declare_view
from tests.extra_game.nim import GAME

declare_view(GAME.id, __name__)
