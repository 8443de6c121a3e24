"""The blackjack view: its screen (`screen.SCREEN`), its board painter (`painter.paint`, which the
environments and the training view draw with) and its launcher sketch (`sketch.sketch`). Only pygame and
the shared widgets of arcade/ui are imported here; the view declares itself for its game here."""
from arcade.games.blackjack import GAME
from arcade.screens import declare_view

declare_view(GAME.id, __name__)
