"""docs/design.md "Layers and the import rule", checked over every source file of the site.

Inside games: engine ← game services ← adapters (views, api, consumers, tasks, receivers,
live, admin). Between apps: the declared order of rummi_site/layers.py, lowest first; an app
imports its own modules and the apps of lower layers (never another app's adapters), never a
sibling of its layer nor a higher one. No app code looks a model up by name in the app registry
(``apps.get_model``): that would dodge the order. The signals that cross apps live in
games/signals.py. No project module is imported inside a function body to dodge a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rummi_site.layers import LAYERS, layer_of

ROOT = Path(__file__).resolve().parent.parent
PROJECT = "rummi_site"
# What an app may not import of another app: its adapters (pages, sockets, tasks, receivers).
ADAPTERS = {"views", "api", "consumers", "routing", "urls", "admin", "tasks", "receivers", "live"}
# The one module whose signals other apps send and connect to.
SIGNALS = "games.signals"
# The games modules other apps may use: its services, signals, identity, errors and models.
GAMES_CORE = {
    "games.errors",
    "games.identity",
    "games.models",
    "games.modes",
    "games.names",
    "games.notices",
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
    ("ratings/apps.py", "ready"): "Django connects receivers in AppConfig.ready",
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
    top, own = imported.split(".")[0], importer.split(".")[0]
    if source == "engine":
        return None  # tests/test_it_imports_no_framework_in_engine.py has the engine's rule
    if source == "core":
        if target in ("adapter", "project", "app"):
            return f"the games services may not import {target} {imported}"
        if top in FRAMEWORK_ADAPTERS:
            return f"the games services may not import {top}"
    in_apps = source in ("core", "adapter", "app") and target in ("core", "adapter", "app")
    if in_apps and top != own:
        if layer_of(top) == layer_of(own):
            return f"{own} and {top} share a layer: neither imports the other"
        if layer_of(top) > layer_of(own):
            return f"{own} is below {top} (rummi_site/layers.py): it may not import it"
        if target == "adapter":
            return f"an app depends on the games services and signals, not {imported}"
        if imported.split(".")[1:2] and imported.split(".")[1] in ADAPTERS:
            return f"an app uses another app's services and models, not {imported}"
    edge = source == "project" and importer.startswith(f"{PROJECT}.jsonapi")
    if edge and target != "outside" and imported != "games.errors":
        return "the JSON edge knows only the domain errors"
    return None


def registry_lookups(path: Path) -> list[tuple[int, str]]:
    """(line, what) for each use of Django's app registry to reach a model by name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr in ("get_model", "get_models"):
            found.append((node.lineno, f".{node.attr}"))
        if isinstance(node, ast.ImportFrom) and node.module == "django.apps":
            found += [(node.lineno, "django.apps.apps") for a in node.names if a.name == "apps"]
    return found


def signals_defined(path: Path) -> list[str]:
    """The names a module binds to a ``Signal()`` at its top level."""
    names = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = node.value.func
            if getattr(call, "id", getattr(call, "attr", None)) == "Signal":
                names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return names


def test_the_apps_are_found() -> None:
    assert {"games", "accounts", "puzzles", "players", "ratings", "tournaments"} <= apps()
    assert len(sources()) > 30


def test_every_app_has_one_place_in_the_declared_order() -> None:
    declared = [app for apps_of_layer in LAYERS for app in apps_of_layer]

    assert sorted(declared) == sorted(apps()), "rummi_site/layers.py lists every app once"
    assert LAYERS[0] == ("games",), "games is the lowest layer: every app may use its services"


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


def test_no_app_reaches_a_model_through_the_app_registry() -> None:
    """Migrations (excluded from the sources) get their models from the registry they are
    given; app code imports what its layer allows instead."""
    found = [
        f"{path.relative_to(ROOT)}:{line} uses {what}"
        for path in sources()
        for line, what in registry_lookups(path)
    ]

    assert found == []


def test_it_spots_a_model_looked_up_by_name(tmp_path: Path) -> None:
    path = tmp_path / "probe.py"
    path.write_text(
        "from django.apps import apps as registry\n\n"
        "def f():\n    return registry.get_model('players', 'Rating')\n"
    )

    assert [line for line, _ in registry_lookups(path)] == [1, 4]


def test_the_signals_that_cross_apps_live_in_games_signals() -> None:
    """A signal declared anywhere else is sent and heard inside its own app only."""
    declared = {module_of(p): signals_defined(p) for p in sources() if signals_defined(p)}
    crossing = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sources()
        for name, line, _ in imports(path)
        if name in declared
        and name != SIGNALS
        and name.split(".")[0] != module_of(path).split(".")[0]
    ]

    assert SIGNALS in declared
    assert crossing == []


def test_services_import_no_task_module_and_no_other_app() -> None:
    names = {
        name
        for path in sorted((ROOT / "games" / "services").glob("*.py"))
        for name, _, _ in imports(path)
    }

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
        ("tournaments.services", "players.models"),
        ("games.services", "ratings.services"),
        ("games.receivers", "players.receivers"),
        ("players.views", "games.views"),
        ("games.models", "ratings.models"),
        ("ratings.services", "tournaments.services"),
        ("ratings.services", "players.models"),
        ("ratings.services", "puzzles.services"),
        ("tournaments.services", "matchmaking.services"),
        ("matchmaking.services", "tournaments.models"),
        ("tournaments.services", "players.models"),
        ("players.views", "accounts.views"),
        ("players.trophies", "tournaments.views"),
        ("players.account", "puzzles.tasks"),
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
        ("ratings.services", "games.models"),
        ("players.moments", "games.engine.state"),
        ("tournaments.services", "ratings.services"),
        ("matchmaking.services", "ratings.services"),
        ("players.trophies", "puzzles.services"),
        ("players.trophies", "tournaments.services"),
        ("players.views", "ratings.models"),
        ("accounts.views", "players.models"),
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
