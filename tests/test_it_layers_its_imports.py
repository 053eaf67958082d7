"""docs/design.md "Layers and the import rule", checked over every source file of the site.

engine ← game services ← adapters (views, api, consumers, tasks, receivers, live, admin);
``accounts``, ``puzzles`` and any app to come depend on the games services and signals,
never the reverse; no project module is imported inside a function body to dodge a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = "rummi_site"
# The games modules other apps may use: its services, signals, identity, errors and models.
GAMES_CORE = {
    "games.errors",
    "games.identity",
    "games.models",
    "games.modes",
    "games.notices",
    "games.r45_services",
    "games.replay",
    "games.review",
    "games.rows",
    "games.services",
    "games.signals",
}
# What a core module may import of the project: only the engine and other core modules.
FRAMEWORK_ADAPTERS = {"channels", "celery", "daphne", "channels_redis", "allauth"}
# Imports in a function body that are not about cycles, each with its reason.
ALLOWED_IN_FUNCTIONS = {
    ("games/apps.py", "ready"): "Django connects receivers in AppConfig.ready",
    ("puzzles/apps.py", "ready"): "Django connects receivers in AppConfig.ready",
    ("players/apps.py", "ready"): "Django connects receivers in AppConfig.ready",
    ("tournaments/apps.py", "ready"): "Django connects receivers in AppConfig.ready",
    ("games/engine/native.py", "kind"): "the solver finder must be installed before the solver",
}


def apps() -> set[str]:
    """The site's own apps: top-level packages with an apps.py (games, accounts, ...)."""
    return {p.parent.name for p in ROOT.glob("*/apps.py")}


def sources() -> list[Path]:
    tops = apps() | {PROJECT}
    return sorted(
        p for top in tops for p in (ROOT / top).rglob("*.py") if "migrations" not in p.parts
    )


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports(path: Path, module: str | None = None) -> list[tuple[str, int, str | None]]:
    """(absolute module, line, enclosing function or None) for every import in the file;
    ``from games import services`` counts as importing ``games.services``."""
    package = (module or module_of(path)).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    tree = ast.parse(path.read_text())
    found: list[tuple[str, int, str | None]] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = function
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = function or child.name
            if isinstance(child, ast.Import):
                found.extend((alias.name, child.lineno, inner) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[: len(package) - (child.level - 1)]
                    target = ".".join([*base, child.module] if child.module else base)
                else:
                    target = child.module or ""
                for alias in child.names:
                    name = f"{target}.{alias.name}"
                    found.append((name if is_module(name) else target, child.lineno, inner))
            visit(child, inner)

    visit(tree, None)
    return found


def layer(module: str) -> str:
    top = module.split(".")[0]
    if module == "games.engine" or module.startswith("games.engine."):
        return "engine"
    if top == "games":
        core = module in GAMES_CORE or any(module.startswith(c + ".") for c in GAMES_CORE)
        return "core" if core else "adapter"
    if top == PROJECT:
        return "project"
    if top in apps():
        return "app"
    return "outside"


def breaks_the_rule(importer: str, imported: str) -> str | None:
    """Why ``importer`` may not import ``imported``, or None when it may."""
    source, target = layer(importer), layer(imported)
    top = imported.split(".")[0]
    if source == "engine":
        return None  # tests/test_it_imports_no_framework_in_engine.py has the engine's rule
    if source == "core":
        if target in ("adapter", "project", "app"):
            return f"the games services may not import {target} {imported}"
        if top in FRAMEWORK_ADAPTERS:
            return f"the games services may not import {top}"
    if source == "adapter" and target == "app":
        return f"games may not import another app ({imported})"
    if source == "app":
        if target == "adapter":
            return f"an app depends on the games services and signals, not {imported}"
        if target == "app" and top != importer.split(".")[0]:
            return f"apps do not import each other ({imported})"
    edge = source == "project" and importer.startswith(f"{PROJECT}.jsonapi")
    if edge and target != "outside" and imported != "games.errors":
        return "the JSON edge knows only the domain errors"
    return None


def test_the_apps_are_found() -> None:
    assert {"games", "accounts", "puzzles", "players"} <= apps()
    assert len(sources()) > 30


def test_every_import_follows_the_layers() -> None:
    broken = [
        f"{path.relative_to(ROOT)}:{line} imports {name}: {why}"
        for path in sources()
        for name, line, _ in imports(path)
        if (why := breaks_the_rule(module_of(path), name))
    ]

    assert broken == []


def test_no_project_module_is_imported_inside_a_function() -> None:
    local = apps() | {PROJECT}
    hidden = [
        f"{path.relative_to(ROOT)}:{line} imports {name} inside {function}()"
        for path in sources()
        for name, line, function in imports(path)
        if function is not None
        and name.split(".")[0] in local
        and (str(path.relative_to(ROOT)), function) not in ALLOWED_IN_FUNCTIONS
    ]

    assert hidden == []


def test_services_import_no_task_module_and_no_other_app() -> None:
    names = {name for name, _, _ in imports(ROOT / "games" / "services.py")}

    assert not any(n.split(".")[0] in apps() - {"games"} for n in names)
    assert not any(layer(n) == "adapter" for n in names), names
    assert "games.tasks" not in names and not any(n.startswith("celery") for n in names)


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("games.services", "games.tasks"),
        ("games.services", "games.live"),
        ("games.services", "rummi_site.jsonapi"),
        ("games.services", "puzzles.services"),
        ("games.models", "accounts.models"),
        ("games.notices", "accounts.models"),
        ("games.views", "puzzles.editor"),
        ("games.receivers", "accounts.models"),
        ("accounts.views", "games.tasks"),
        ("puzzles.views", "games.views"),
        ("puzzles.services", "accounts.models"),
        ("players.trophies", "puzzles.models"),
        ("games.services", "players.ratings"),
        ("games.receivers", "players.receivers"),
        ("players.views", "games.views"),
        ("games.identity", "channels.db"),
        ("rummi_site.jsonapi", "games.services"),
    ],
)
def test_it_spots_a_layer_broken(importer: str, imported: str) -> None:
    assert breaks_the_rule(importer, imported)


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("games.services", "games.engine.state"),
        ("games.services", "games.signals"),
        ("games.tasks", "games.services"),
        ("games.receivers", "games.tasks"),
        ("games.views", "rummi_site.jsonapi"),
        ("puzzles.services", "games.identity"),
        ("puzzles.signals", "games.signals"),
        ("accounts.views", "games.notices"),
        ("players.receivers", "games.signals"),
        ("players.ratings", "games.models"),
        ("players.moments", "games.engine.state"),
        ("rummi_site.jsonapi", "games.errors"),
    ],
)
def test_it_allows_what_the_layers_allow(importer: str, imported: str) -> None:
    assert breaks_the_rule(importer, imported) is None


def test_it_sees_an_import_hidden_in_a_function(tmp_path: Path) -> None:
    path = tmp_path / "probe.py"
    path.write_text(
        "import json\n\ndef f():\n    from games import services\n    from . import live\n"
    )

    found = [(name, function) for name, _, function in imports(path, "games.probe")]

    assert found == [("json", None), ("games.services", "f"), ("games.live", "f")]
