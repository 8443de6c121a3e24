"""The arrows point one way: screens -> agents -> games. Read from the source (every import, at the top of a
module or inside a function), so a late import cannot hide an upward arrow or a circle."""
import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("arcade", "agents")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.lru_cache(maxsize=1)  # (read when a test asks, not as the suite collects: every worker collects)
def imports() -> dict[str, set[str]]:
    """module -> the project modules it imports (a from-import of a name that is a module counts as that)."""
    paths = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    modules = {_module_name(p) for p in paths}
    out = {}
    for path in paths:
        name, found = _module_name(path), set()
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + [base]).strip(".")
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            found.update(t for t in targets if t in modules and t != name)
        out[name] = found
    return out



def _importers_of(prefixes: tuple[str, ...], among: str) -> dict[str, set[str]]:
    return {m: {t for t in ts if t.startswith(prefixes)} for m, ts in imports().items()
            if m.startswith(among) and any(t.startswith(prefixes) for t in ts)}


LAYERS = ("foundation", "rules", "engines", "agents", "shell")  # lowest first: a module imports its own or lower


def _package_layer(package_dir: Path) -> str | None:
    """The LAYER a package's __init__.py declares, read from its text (None: it declares none)."""
    init = package_dir / "__init__.py"
    if not init.is_file():
        return None
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "LAYER" for t in node.targets):
            return ast.literal_eval(node.value)
    return None


def layer_of(module: str) -> str:
    """The layer of a module: the one its nearest package declaring one declares."""
    folder = ROOT.joinpath(*module.split("."))
    folder = folder if folder.is_dir() else folder.parent
    while folder != ROOT:
        found = _package_layer(folder)
        if found is not None:
            return found
        folder = folder.parent
    raise AssertionError(f"{module}: no package above it declares a LAYER")


def test_every_import_points_down_the_layers_its_folders_declare():
    """Every module's every import (read from the source) goes to its own layer or a lower one, by the layer
    its folder declares (LAYER in a package's __init__.py: foundation, rules, engines, agents, shell): no
    list of names, so a new module is checked as it is written."""
    declared = {layer_of(m) for m in imports()}
    assert declared == set(LAYERS), declared
    upward = {(m, t): (layer_of(m), layer_of(t)) for m, ts in imports().items() for t in ts
              if LAYERS.index(layer_of(t)) > LAYERS.index(layer_of(m))}
    assert not upward, upward


def test_pygame_is_imported_only_by_the_screens_the_widgets_the_sound_and_the_app():
    """The rules, engines, agents, environments, CLI and runners run without a display: pygame (imported at a
    module's top or inside a function) only in arcade/screens, arcade/ui, arcade/sound.py and arcade/app.py."""
    allowed = ("arcade.screens", "arcade.ui", "arcade.sound", "arcade.app")
    importers = set()
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                if any(n == "pygame" or n.startswith("pygame.") for n in names):
                    importers.add(_module_name(path))
    assert "arcade.app" in importers and not {m for m in importers if not m.startswith(allowed)}


def test_the_shared_widgets_reach_no_screen_or_app_module():
    assert not _importers_of(("arcade.screens", "arcade.training", "arcade.app", "arcade.control", "arcade.cli"),
                             "arcade.ui")


def test_no_circle_of_imports():
    def edges(m):
        return imports().get(m, set())

    circles, state = [], {}

    def visit(m, path):
        state[m] = "open"
        for t in sorted(edges(m)):
            if state.get(t) == "open":
                circles.append(path[path.index(t):] + [t] if t in path else [m, t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = "done"

    for m in sorted(imports()):
        if m not in state:
            visit(m, [m])
    assert len(imports()) > 100 and not circles, circles
