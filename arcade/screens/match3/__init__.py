"""The match-3 view: its screen (`screen.SCREEN`), its board painter (`painter.paint`, which the
environments and the training view draw with) and its launcher sketch (`sketch.sketch`). Only pygame and
the shared widgets of arcade/ui are imported here; the arcade finds the view by the game's declaration."""
