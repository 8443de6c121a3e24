"""Every catalogue entry names modules that exist and have what the arcade asks of them: a misspelt path
fails here, loudly, instead of on a player's screen."""
import importlib
from pathlib import Path

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


def _owned_by_games() -> dict[str, set[str]]:
    """module -> the games it is part of, found by walking the packages: a game's rules module (and the modules
    beside it named after it, e.g. match3_batch), its view package and its engine package (as each declares
    itself), a module that imports one of those, and an agent module whose agents play that game only."""
    from agents import agents_for
    from agents.base import ANY_GAME, all_specs
    from agents.engines import engine_for
    from arcade.screens import view_package
    from test_layers import imports

    packages: dict[str, str] = {}  # module prefix -> its game
    for g in GAMES:
        rules = g.rules or g.rules_class.__module__
        packages[rules] = g.id
        packages[rules + "_"] = g.id  # (modules named after it beside it: match3_batch)
        packages[view_package(g.id)] = g.id
        engine = engine_for(g.id)
        if engine is not None:
            packages[engine.package] = g.id
    agents_for(GAMES[0].id)  # (every agent module imported: their registrations known)
    registered: dict[str, set[str]] = {}
    for spec in all_specs():
        module = getattr(spec.factory, "__module__", "")
        registered.setdefault(module, set()).update({"*"} if ANY_GAME in spec.games else set(spec.games))

    def by_path(module: str) -> set[str]:
        return {g for prefix, g in packages.items() if module == prefix or module.startswith(
            prefix if prefix.endswith("_") else prefix + ".")}

    owned = {}
    for module, targets in imports().items():
        games = by_path(module) | {g for t in targets for g in by_path(t)}
        games |= registered.get(module, set()) - {"*"} if "*" not in registered.get(module, set()) else set()
        owned[module] = games
    return owned


def test_no_module_names_a_game_it_is_not_part_of():
    """A game is a plugin: no module's code names a game (its id, quoted or as a name; its rules, view or
    engine module's name) unless it is part of that game (its rules, view, engine, a module using them, an
    agent of that game only), found by walking every module of arcade/ and agents/: the catalogue, the views,
    the engines and the agents are found by what declares itself."""
    owned = _owned_by_games()
    root = Path(__file__).resolve().parent.parent
    aliases = {g.id: {g.id, (g.rules or g.rules_class.__module__).rpartition(".")[2]} for g in GAMES}
    aliases["2048"] |= {"game2048"}  # (its settings table's attribute)
    wrong = {}
    for module, games in owned.items():
        path = root.joinpath(*module.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        others = [w for g, words in aliases.items() if g not in games for w in words]
        hits = _code_words(path, others)
        if hits:
            wrong[module] = hits
    shared = [m for m, games in owned.items() if not games]
    assert len(shared) > 70 and {"arcade.cli", "agents.mcts", "arcade.screens.tree_view", "agents.engines.tree_kernels",
                                  "arcade.games", "agents.warm_kernels"} <= set(shared)
    assert not wrong, wrong
    assert _code_words(root / "arcade/games/twenty48.py", aliases["2048"])  # (the check finds what is there)


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
