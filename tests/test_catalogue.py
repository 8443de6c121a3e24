"""Every catalogue entry names modules that exist and have what the arcade asks of them: a misspelt path
fails here, loudly, instead of on a player's screen."""
import importlib

import pytest

from arcade.games import GAMES, GameType, add_game, make_rules, remove_game
from arcade.settings import Settings


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
def test_each_entry_names_a_rules_module_and_a_view_with_a_screen_a_painter_and_a_sketch(info):
    rules = importlib.import_module(info.rules)
    from arcade.screens import view_package

    view = {part: importlib.import_module(f"{view_package(info.id)}.{part}") for part in ("screen", "painter", "sketch")}
    assert callable(rules.make_rules) and hasattr(view["screen"], "SCREEN")
    assert callable(view["painter"].paint) and callable(view["sketch"].sketch)
    built = make_rules(info.id, Settings())
    assert built.game_id == info.id and built.players == info.players


def test_a_misspelt_module_path_is_an_error_not_a_quiet_placeholder(settings):
    add_game(GameType("typo", "Typo", "a misspelt entry", 1, rules="arcade.games.no_such_rules"))
    try:
        with pytest.raises(ModuleNotFoundError, match="no_such_rules"):
            make_rules("typo", settings)
        from arcade.screens import open_game

        with pytest.raises(ModuleNotFoundError, match="no view is declared for the game 'typo'"):
            open_game(None, "typo")  # (its view never declared itself)
    finally:
        remove_game("typo")


def _code_words(path, words) -> list[tuple[int, str]]:
    """Where one of `words` is written in the code of a module (names and strings, not its comments nor its
    docstrings: prose may give examples)."""
    import io
    import re
    import tokenize

    found = re.compile(r"(?<![\w.])(%s)(?!\w)" % "|".join(re.escape(w) for w in words))
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text()).readline))
    hits, before = [], tokenize.NEWLINE
    for k, t in enumerate(tokens):
        after = tokens[k + 1].type if k + 1 < len(tokens) else tokenize.ENDMARKER
        docstring = t.type == tokenize.STRING and before in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT) \
            and after == tokenize.NEWLINE
        if t.type in (tokenize.NAME, tokenize.STRING, tokenize.NUMBER) and not docstring:
            hits += [(t.start[0], m.group(1)) for m in found.finditer(t.string)]
        if t.type not in (tokenize.NL, tokenize.COMMENT):
            before = t.type
    return hits


def test_no_shared_module_names_a_game():
    """A game is a plugin: outside its rules module, its view folder, its engine, its environments and the
    agents made for it, no module's code names a game (its id, quoted or as a name; its rules, view or engine
    module): the catalogue, the views, the engines and the agents are found by what declares itself."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    shared = [*root.glob("arcade/*.py"), *root.glob("arcade/ui/*.py"), *root.glob("arcade/screens/*.py"),
              *(root / "arcade/games" / f for f in ("__init__.py", "base.py", "declare.py", "mdp.py")),
              *(root / "arcade/envs" / f for f in ("base.py", "aec.py", "render.py")), *root.glob("agents/engines/*.py"),
              *(root / "agents" / f for f in ("__init__.py", "base.py", "mcts.py", "game_search.py", "expectiminimax.py",
                                             "baselines.py", "compiled.py", "tabular_q.py", "qlearning.py",
                                             "warm_kernels.py", "uct_tree.py", "search_tree.py"))]
    words = [g.id for g in GAMES] + ["twenty48", "game2048"]
    named = {str(p.relative_to(root)): _code_words(p, words) for p in shared}
    assert len(named) > 40 and not {p: hits for p, hits in named.items() if hits}
    assert _code_words(root / "arcade/games/twenty48.py", words)  # (the check finds what is there)


def test_every_agent_has_a_title_a_newcomer_reads_and_the_command_line_lists_it_beside_its_id(capsys):
    """Issue 74 item 3: names a newcomer cannot read ("alpha-beta-ntuple", "mcts-ntuple", "greedy-cascade"). The
    window names an agent by its title; the command line keeps the id and lists both."""
    from agents import agents_for
    from arcade.cli import main
    from arcade.games import game_ids

    specs = [s for g in game_ids() for s in agents_for(g)]
    assert all(s.title and s.title != s.name and s.shown == s.title for s in specs)
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert all(f"{s.name:<18} {s.title}: " in out for s in specs)
