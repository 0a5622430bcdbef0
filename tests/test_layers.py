"""The package's layers import one way only (docs/architecture.md "Layers"): core < db <
operations < web < server < the package root, whose ``create_app`` nothing imports.
Inside ``web/`` the shell (the modules beside the feature packages) imports no feature,
and the features import each other one way: evenings < club < tournaments < installation.

The AST is read, so an import inside a function counts as much as one at the top. Such a
function-local import of the package's own modules can hide a circle: the app factory's
are the only ones, named below with their reason, and a new one fails this test.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
LAYERS = ("core", "db", "operations", "web", "server")
#: The feature packages of ``web/``, each importing only those before it.
FEATURES = ("evenings", "club", "tournaments", "installation")
#: The only function-local imports of our own modules, by importing module and what it
#: imports: the package root's ``create_app`` imports the layers it assembles when called,
#: since importing ``scorekeeper.core`` runs the root's module, which must not load the app.
LOCAL = {
    ("scorekeeper", "scorekeeper.server"),
    ("scorekeeper", "scorekeeper.db.models"),
    ("scorekeeper", "scorekeeper.db.tournament_models"),
    ("scorekeeper", "scorekeeper.db"),
    ("scorekeeper", "scorekeeper.web.evenings"),
    ("scorekeeper", "scorekeeper.web.installation"),
    ("scorekeeper", "scorekeeper.web.tournament_tables"),
    ("scorekeeper", "scorekeeper.web"),
    ("scorekeeper", "scorekeeper.web.tournaments"),
    ("scorekeeper", "scorekeeper.web.club"),
}


def module_name(path: Path) -> str:
    """``scorekeeper.web.pdf`` for ``scorekeeper/web/pdf.py``; a package by its folder."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> int:
    """The module's layer, lowest first; the package root above them all."""
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else len(LAYERS)


def own_imports(tree: ast.Module) -> list[tuple[str, ast.stmt, bool]]:
    """Every import of our own modules: what it names, the statement, and whether it sits
    inside a function (an import behind ``TYPE_CHECKING`` only serves the type checker)."""
    found: list[tuple[str, ast.stmt, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom) and child.module:
                names = [child.module]
                if child.module == "scorekeeper":
                    names = [f"scorekeeper.{alias.name}" for alias in child.names]
                found.extend((n, child, in_function) for n in names)
            elif isinstance(child, ast.Import):
                found.extend((a.name, child, in_function) for a in child.names)
            visit(child, inside)

    visit(tree, False)
    return [f for f in found if f[0].startswith("scorekeeper")]


def imports() -> list[tuple[str, str, bool, int]]:
    """(importer, imported, inside a function, line) for the whole package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = module_name(path)
        for imported, node, local in own_imports(ast.parse(path.read_text(encoding="utf-8"))):
            found.append((importer, imported, local, node.lineno))
    return found


def test_no_import_runs_back_up_the_layers() -> None:
    back = [
        f"{importer}:{line} imports {imported}"
        for importer, imported, _, line in imports()
        if layer(imported) > layer(importer)
    ]
    assert back == []


def test_no_new_import_hides_in_a_function() -> None:
    local = {(importer, imported) for importer, imported, inside, _ in imports() if inside}
    assert local - LOCAL == set()
    assert LOCAL - local == set(), "an import named here is gone: take it off the list"


def top_level_graph() -> dict[str, set[str]]:
    """Which of our modules each module imports when it is loaded (its top level; an
    import only the type checker reads left out), by module."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}

    def known(name: str) -> str:
        while name not in modules:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scorekeeper"):
                module = node.module or ""
                found |= {known(f"{module}.{a.name}") for a in node.names}
            elif isinstance(node, ast.Import):
                found |= {known(a.name) for a in node.names if a.name.startswith("scorekeeper")}
        graph[name] = found - {name}
    return graph


def test_no_module_imports_itself_round_a_circle() -> None:
    graph = top_level_graph()
    circles = []
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            module = todo.pop()
            if module == start:
                circles.append(start)
                break
            if module not in seen:
                seen.add(module)
                todo.extend(graph.get(module, ()))
    assert circles == []


def feature(module: str) -> int | None:
    """The feature of a ``web`` module, by its place in ``FEATURES``; None for the shell
    (and for modules outside ``web``)."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "web" and parts[2] in FEATURES:
        return FEATURES.index(parts[2])
    return None


def web_imports() -> list[tuple[str, str, int]]:
    """(importer, imported, line) for every import in ``web`` of a ``web`` module, at any
    depth; ``from scorekeeper.web import pdf`` counts as importing ``scorekeeper.web.pdf``."""
    found = []
    for path in sorted((PACKAGE / "web").rglob("*.py")):
        importer = module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "scorekeeper.web"
            ):
                found.extend((importer, f"{node.module}.{a.name}", node.lineno) for a in node.names)
            elif isinstance(node, ast.Import):
                found.extend(
                    (importer, a.name, node.lineno)
                    for a in node.names
                    if a.name.startswith("scorekeeper.web")
                )
    return found


def runs_wrong(importer: str, imported: str) -> bool:
    """Whether an import in ``web`` runs the wrong way: the shell naming a feature, or a
    feature a later one."""
    other = feature(imported)
    if other is None:
        return False
    own = feature(importer)
    return own is None or other > own


def test_the_web_shell_imports_no_feature_and_features_import_one_way() -> None:
    wrong = [
        f"{importer}:{line} imports {imported}"
        for importer, imported, line in web_imports()
        if runs_wrong(importer, imported)
    ]
    assert wrong == []


def test_an_import_running_the_wrong_way_is_seen() -> None:
    assert runs_wrong("scorekeeper.web.writing", "scorekeeper.web.evenings.hands.keep")
    assert runs_wrong("scorekeeper.web.evenings.api", "scorekeeper.web.tournaments.api.body")
    assert not runs_wrong("scorekeeper.web.tournaments.api", "scorekeeper.web.evenings.api.x")
    assert not runs_wrong("scorekeeper.web.evenings.api", "scorekeeper.web.bodies.body")
