"""Every catalogue entry names modules that exist and have what the arcade asks of them: a misspelt path
fails here, loudly, instead of on a player's screen."""
import importlib

import pytest

from arcade.games import GAMES, GameType, add_game, make_rules, remove_game
from arcade.settings import Settings


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
def test_each_entry_names_a_rules_module_and_a_screen_module(info):
    rules = importlib.import_module(info.rules)
    screen = importlib.import_module(info.view)
    assert callable(rules.make_rules) and hasattr(screen, "SCREEN")
    built = make_rules(info.id, Settings())
    assert built.game_id == info.id and built.players == info.players


def test_a_misspelt_module_path_is_an_error_not_a_quiet_placeholder(settings):
    add_game(GameType("typo", "Typo", "a misspelt entry", 1, rules="arcade.games.no_such_rules",
                      view="arcade.screens.no_such_screen"))
    try:
        with pytest.raises(ModuleNotFoundError, match="no_such_rules"):
            make_rules("typo", settings)
        from arcade.screens import open_game

        with pytest.raises(ModuleNotFoundError, match="no_such_screen"):
            open_game(None, "typo")
    finally:
        remove_game("typo")
