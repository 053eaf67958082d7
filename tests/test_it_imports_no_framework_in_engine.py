"""The rules engine is a library: it must import no web framework, task queue or site code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = ROOT / "games" / "engine"
FORBIDDEN = {"django", "celery", "channels", "channels_redis", "daphne", "redis", "allauth"}
# The rest of the site is Django code: reaching it from the engine is the same leak.
SITE_PACKAGES = {"rummi_site", "accounts", "puzzles"}


def package_of(path: Path) -> list[str]:
    """The dotted package a source file belongs to, as parts: games/engine/x.py -> games.engine."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1]


def imported_modules(source: str, package: list[str]) -> list[str]:
    """Absolute names of everything the source imports, relative imports resolved."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - (node.level - 1)]
            names.append(".".join([*base, node.module] if node.module else base))
    return names


def is_forbidden(module: str) -> bool:
    top = module.split(".")[0]
    if top in FORBIDDEN or top in SITE_PACKAGES:
        return True
    return top == "games" and not (module == "games.engine" or module.startswith("games.engine."))


def test_it_imports_no_framework_in_engine() -> None:
    sources = sorted(ENGINE_DIR.rglob("*.py"))
    assert sources, f"no engine sources found under {ENGINE_DIR}"

    leaks = [
        f"{path.relative_to(ENGINE_DIR)} imports {module}"
        for path in sources
        for module in imported_modules(path.read_text(), package_of(path))
        if is_forbidden(module)
    ]

    assert leaks == []


@pytest.mark.parametrize(
    "source",
    [
        "import django.db",
        "from celery import shared_task",
        "from channels.layers import get_channel_layer",
        "from games import models",
        "from .. import models",
        "from ..services import play_turn",
    ],
)
def test_it_spots_a_leak(source: str) -> None:
    modules = imported_modules(source, ["games", "engine"])

    assert any(is_forbidden(module) for module in modules)


@pytest.mark.parametrize(
    "source",
    [
        "import json",
        "from dataclasses import dataclass",
        "from .tiles import Tile",
        "from . import melds",
        "from games.engine.rules import Rules",
    ],
)
def test_it_allows_the_standard_library_and_the_engine_itself(source: str) -> None:
    modules = imported_modules(source, ["games", "engine"])

    assert not any(is_forbidden(module) for module in modules)
