"""Every catalogue entry names modules that exist and have what the arcade asks of them: a misspelt path
fails here, loudly, instead of on a player's screen."""
import importlib

import pytest

from arcade.games import GAMES, GameType, add_game, make_rules, remove_game
from arcade.settings import Settings


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
def test_each_entry_names_a_rules_module_and_a_view_with_a_screen_a_painter_and_a_sketch(info):
    rules = importlib.import_module(info.rules)
    view = {part: importlib.import_module(f"{info.view}.{part}") for part in ("screen", "painter", "sketch")}
    assert callable(rules.make_rules) and hasattr(view["screen"], "SCREEN")
    assert callable(view["painter"].paint) and callable(view["sketch"].sketch)
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


def test_no_shared_module_names_a_game():
    """A game is a plugin: outside its rules module, its view folder, its environments and the agents made
    for it, no module compares or quotes a game's id (the catalogue lists the games' modules, by module)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    shared = [*root.glob("arcade/*.py"), *root.glob("arcade/ui/*.py"), *root.glob("arcade/screens/*.py"),
              *(root / "arcade/games" / f for f in ("__init__.py", "base.py", "declare.py")),
              *(root / "agents" / f for f in ("__init__.py", "base.py", "mcts.py", "game_search.py",
                                             "expectiminimax.py", "baselines.py", "compiled.py", "tabular_q.py"))]
    quoted = re.compile(r"""["'](%s)["']""" % "|".join(re.escape(g.id) for g in GAMES))
    named = {str(p.relative_to(root)): quoted.findall(p.read_text()) for p in shared}
    assert len(named) > 25 and not {p: ids for p, ids in named.items() if ids}
