"""The compiled solver (make native) runs only while built from the sources on disk, and agrees.

The subprocess tests need a build (`make native`; `make test` makes one first) and are skipped
without one, which `make test` reports; the digest tests need none.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import native

ROOT = Path(__file__).resolve().parents[2]
needs_build = pytest.mark.skipif(
    native.build_state() != "current", reason="no current native build (make native)"
)

WHICH = "from games.engine import native; print(native.kind())"


def run_python(code: str, cwd: Path = ROOT, pure: bool = False) -> subprocess.CompletedProcess[str]:
    # Without pytest-cov's variables: a subprocess would measure the engine copies as the engine.
    dropped = (native.PURE_ENV, "COV_", "COVERAGE_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    env["PYTHONPATH"] = str(cwd)
    if pure:
        env[native.PURE_ENV] = "1"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )


def engine_copy(tmp_path: Path) -> Path:
    """games/engine with its build, alone in ``tmp_path`` (no Django beside it)."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "__init__.py").write_text("")
    shutil.copytree(
        native.ENGINE, tmp_path / "games" / "engine", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path / "games" / "engine"


def fake_build(engine: Path, modules: list[str]) -> None:
    """Empty files where a build of a solver package with these modules would put its own."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (engine / f"solver__mypyc{suffix}").write_bytes(b"")
    for name in modules:
        (engine / "solver" / f"{name}{suffix}").write_bytes(b"")


def test_the_digest_covers_every_engine_source(tmp_path: Path) -> None:
    engine = tmp_path / "engine"
    (engine / "solver").mkdir(parents=True)
    (engine / "solver" / "__init__.py").write_text("X = 1\n")
    (engine / "solver" / "cells.py").write_text("Z = 0\n")
    (engine / "tiles.py").write_text("Y = 2\n")
    assert native.build_state(engine) == "missing"
    fake_build(engine, ["__init__", "cells"])
    assert native.build_state(engine) == "missing"  # a build without its stamp is not used
    (engine / "solver.native").write_text(native.sources_digest(engine) + "\n")
    assert native.build_state(engine) == "current"
    (engine / "tiles.py").write_text("Y = 3\n")  # any engine module, not only the solver's
    assert native.build_state(engine) == "stale"
    (engine / "tiles.py").write_text("Y = 2\n")
    assert native.build_state(engine) == "current"
    (engine / "solver" / "cells.py").write_text("Z = 1\n")  # a module inside the package
    assert native.build_state(engine) == "stale"
    (engine / "solver" / "cells.py").write_text("Z = 0\n")
    assert native.build_state(engine) == "current"
    (engine / "extra.py").write_text("")
    assert native.build_state(engine) == "stale"
    (engine / "extra.py").unlink()
    assert native.build_state(engine) == "current"
    (engine / "solver" / "cells.py").rename(engine / "cells.py")  # the same file, elsewhere
    assert native.build_state(engine) == "stale"


def test_a_build_without_a_module_of_the_package_is_not_used(tmp_path: Path) -> None:
    engine = tmp_path / "engine"
    (engine / "solver").mkdir(parents=True)
    for name in ("__init__", "cells", "search"):
        (engine / "solver" / f"{name}.py").write_text("")
    fake_build(engine, ["__init__", "cells", "search"])
    (engine / "solver.native").write_text(native.sources_digest(engine) + "\n")
    assert native.build_state(engine) == "current"
    (engine / "solver" / "dominance.py").write_text("")  # a new module, not built
    (engine / "solver.native").write_text(native.sources_digest(engine) + "\n")
    assert native.build_state(engine) == "missing"


def test_a_build_is_listed_once_whatever_its_suffix(tmp_path: Path) -> None:
    (tmp_path / "solver").mkdir()
    names = [
        "solver.cpython-311-x86_64-linux-gnu.so",  # an older one-module build: removed too
        "solver/__init__.cpython-311-x86_64-linux-gnu.so",
        "solver/cells.cpython-311-x86_64-linux-gnu.so",
        "solver__mypyc.cpython-311-x86_64-linux-gnu.so",
    ]
    for name in [*names, "solver/cells.py", "tiles.cpython-311-x86_64-linux-gnu.so"]:
        (tmp_path / name).write_bytes(b"")
    built = [path.relative_to(tmp_path).as_posix() for path in native.built_files(tmp_path)]
    assert sorted(built) == sorted(names)  # each once


@needs_build
def test_a_current_build_is_the_solver_that_runs() -> None:
    assert run_python(WHICH).stdout.split() == ["native"]


@needs_build
def test_the_environment_can_ask_for_the_pure_python_solver() -> None:
    assert run_python(WHICH, pure=True).stdout.split() == ["pure"]


@needs_build
def test_an_edited_engine_never_runs_a_stale_build(tmp_path: Path) -> None:
    engine = engine_copy(tmp_path)
    assert run_python(WHICH, cwd=tmp_path).stdout.split() == ["native"]
    with (engine / "solver" / "cells.py").open("a") as source:
        source.write("\nEDITED = True\n")
    code = "; import games.engine.solver.cells as c, games.engine.solver.search as s"
    code += "; print(c.EDITED, s.__file__.endswith('.py'))"
    stale = run_python(WHICH + code, cwd=tmp_path)
    assert stale.stdout.split() == ["pure", "True", "True"]  # every module of it pure
    assert "changed since its native build" in stale.stderr


@needs_build
def test_the_compiled_solver_gives_the_pure_solvers_answers() -> None:
    code = """
import json, random
from benchmarks.bench_solver import random_position
from games.engine import native
from games.engine.rules import RULES
from games.engine.solver import solve_ids
rng = random.Random(4242)
answers = []
for n in range(120):
    rules = RULES["large"] if n % 4 == 0 else RULES["classic"]
    p = random_position(rng, rng.randint(0, 60), rng.randint(1, 14), rules)
    for opened, prefer in ((True, "tiles"), (True, "points"), (False, "tiles")):
        answers.append(solve_ids(p.rules, p.kinds, p.table, p.rack, opened, prefer=prefer))
print(json.dumps([native.kind(), answers]))
"""
    pure_kind, pure = json.loads(run_python(code, pure=True).stdout)
    native_kind, compiled = json.loads(run_python(code).stdout)
    assert (pure_kind, native_kind) == ("pure", "native")
    assert sum(answer is not None for answer in pure) > 150
    assert compiled == pure
