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


def test_the_rules_import_no_agent_screen_or_app_module():
    allowed = ("arcade.games", "arcade.setting_fields")
    bad = {m: {t for t in ts if not t.startswith(allowed)} for m, ts in imports().items()
           if m.startswith("arcade.games")}
    assert not {m: ts for m, ts in bad.items() if ts}


def test_agents_reach_no_screen_widget_or_app_module():
    upward = ("arcade.screens", "arcade.ui", "arcade.app", "arcade.control", "arcade.agent_process",
              "arcade.training", "arcade.cli", "arcade.deciders")
    assert not _importers_of(upward, "agents")


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
