"""Which solver runs: the compiled one (mypyc) when its build is current, else solver.py itself.

`make native` (part of `make run`, `make test` and `make bench`) compiles solver.py with mypyc
into games/engine/solver*.so and writes solver.native, the SHA-256 of the engine sources it was
built from. The compiled module is about a quarter faster and gives the same answers; the source
stays the truth. A build is used only while its recorded digest matches the engine sources on
disk, so an edited solver.py can never be shadowed by a stale build: Python itself would load a
solver*.so before solver.py, so `install()` puts a finder first on `sys.meta_path` that hands
out solver.py whenever the build is missing, stale, or `RUMMI_PURE_PYTHON` is set (the coverage
run sets it: coverage cannot trace compiled code).

This module is imported by games/engine/__init__.py and must stay cheap and free of non-standard
imports; the build itself is tools/build_native.py.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ENGINE = Path(__file__).resolve().parent
MODULE = "games.engine.solver"
SOURCE = ENGINE / "solver.py"
STAMP = ENGINE / "solver.native"
PURE_ENV = "RUMMI_PURE_PYTHON"


def sources_digest(engine: Path = ENGINE) -> str:
    """SHA-256 over the engine's Python sources (names and bytes), which a build depends on."""
    digest = hashlib.sha256()
    for path in sorted(engine.glob("*.py")):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def built_files(engine: Path = ENGINE) -> list[Path]:
    """The compiled solver's extension modules beside solver.py, for this Python."""
    found: set[Path] = set()  # "solver*.so" also matches "solver*.cpython-311-....so"
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        found.update(engine.glob(f"solver*{suffix}"))
    return sorted(found)


def pure_wanted() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def build_state(engine: Path = ENGINE) -> str:
    """The build's state: "current", "stale" (sources changed since) or "missing"."""
    stamp = engine / STAMP.name
    if not built_files(engine) or not stamp.is_file():
        return "missing"
    return "current" if stamp.read_text().strip() == sources_digest(engine) else "stale"


def kind(module: ModuleType | None = None) -> str:
    """Which solver is loaded: "native" (compiled) or "pure" (solver.py)."""
    solver = module if module is not None else sys.modules.get(MODULE)
    if solver is None:
        import games.engine.solver as solver
    origin = getattr(solver, "__file__", "") or ""
    return "pure" if origin.endswith(".py") else "native"


class _SolverFinder(importlib.abc.MetaPathFinder):
    """Hands out solver.py unless the compiled build is current and wanted."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != MODULE:
            return None
        if not pure_wanted():
            state = build_state()
            if state == "current":
                return None  # the normal path finder picks the extension module
            if state == "stale":
                warnings.warn(
                    "games/engine changed since its native build; the solver runs as pure "
                    "Python (make native rebuilds it)",
                    RuntimeWarning,
                    stacklevel=2,
                )
        return importlib.util.spec_from_file_location(fullname, SOURCE)


def install() -> None:
    if not any(isinstance(finder, _SolverFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SolverFinder())
