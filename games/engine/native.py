"""Which solver runs: the compiled one (mypyc) when its build is current, else the sources.

`make native` (part of `make run`, `make test` and `make bench`) compiles the solver package
(games/engine/solver/) with mypyc, all its modules in one go: one shared library beside the
package, games/engine/solver__mypyc*.so, and a small extension module per source beside each
(games/engine/solver/*.so). It writes solver.native, the SHA-256 of the engine sources it was
built from (every .py under games/engine, the package's included). The compiled solver is
about a quarter faster and gives the same answers; the sources stay the truth. A build is used
only while its recorded digest matches the engine sources on disk, so an edited source can
never be shadowed by a stale build: Python itself would load an extension module before the
.py beside it, so `install()` puts a finder first on `sys.meta_path` that hands out the
package's sources whenever the build is missing, stale, or `RUMMI_PURE_PYTHON` is set (the
coverage run sets it: coverage cannot trace compiled code). The package's modules follow the
package: all compiled or all pure.

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
PACKAGE = "games.engine.solver"
SOURCE = ENGINE / "solver"  # the package's sources
STAMP = ENGINE / "solver.native"
PURE_ENV = "RUMMI_PURE_PYTHON"


def sources_digest(engine: Path = ENGINE) -> str:
    """SHA-256 over the engine's Python sources, subpackages too (paths and bytes)."""
    digest = hashlib.sha256()
    for name, path in sorted((p.relative_to(engine).as_posix(), p) for p in engine.rglob("*.py")):
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def _extensions(folder: Path, pattern: str) -> set[Path]:
    found: set[Path] = set()  # "*.so" also matches "*.cpython-311-....so"
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        found.update(folder.glob(f"{pattern}{suffix}"))
    return found


def built_files(engine: Path = ENGINE) -> list[Path]:
    """The compiled solver's files for this Python: the shared library beside the package
    (games/engine/solver__mypyc*.so, or an older one-module build's solver*.so) and the
    package's extension modules (games/engine/solver/*.so)."""
    return sorted(_extensions(engine, "solver*") | _extensions(engine / SOURCE.name, "*"))


def _complete(engine: Path) -> bool:
    """Whether the build has its shared library and an extension module for every source."""
    package = engine / SOURCE.name
    sources = sorted(package.glob("*.py"))
    return (
        bool(sources)
        and bool(_extensions(engine, "solver__mypyc"))
        and all(_extensions(package, source.stem) for source in sources)
    )


def pure_wanted() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def build_state(engine: Path = ENGINE) -> str:
    """The build's state: "current", "stale" (sources changed since) or "missing"."""
    stamp = engine / STAMP.name
    if not stamp.is_file() or not _complete(engine):
        return "missing"
    return "current" if stamp.read_text().strip() == sources_digest(engine) else "stale"


def kind(module: ModuleType | None = None) -> str:
    """Which solver is loaded: "native" (compiled) or "pure" (the package's sources)."""
    solver = module if module is not None else sys.modules.get(PACKAGE)
    if solver is None:
        import games.engine.solver as solver
    origin = getattr(solver, "__file__", "") or ""
    return "pure" if origin.endswith(".py") else "native"


class _SolverFinder(importlib.abc.MetaPathFinder):
    """Hands out the solver package's sources unless the compiled build is current and wanted;
    its modules come from wherever the package came from."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == PACKAGE:
            if not pure_wanted():
                state = build_state()
                if state == "current":
                    return None  # the normal path finder picks the extension modules
                if state == "stale":
                    warnings.warn(
                        "games/engine changed since its native build; the solver runs as pure "
                        "Python (make native rebuilds it)",
                        RuntimeWarning,
                        stacklevel=2,
                    )
            return importlib.util.spec_from_file_location(
                fullname, SOURCE / "__init__.py", submodule_search_locations=[str(SOURCE)]
            )
        parent, _, name = fullname.rpartition(".")
        if parent != PACKAGE:
            return None
        package = sys.modules.get(PACKAGE)
        if package is not None and kind(package) == "native":
            return None
        source = SOURCE / f"{name}.py"
        if not source.is_file():  # never a compiled module left over beside pure sources
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return importlib.util.spec_from_file_location(fullname, source)


def install() -> None:
    if not any(isinstance(finder, _SolverFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SolverFinder())
