"""Compile the solver package (games/engine/solver/) with mypyc, in place, and stamp its sources.

Usage: python tools/build_native.py [--strict] [--force]

Does nothing when the stamp (games/engine/solver.native) already matches the engine sources.
The build runs on a snapshot of games/engine in a temporary directory, so an edit made while it
compiles cannot be stamped as built. All the package's modules are compiled in one mypyc group,
so calls between them are native calls: one shared library, games/engine/solver__mypyc*.so,
and an extension module beside each source, games/engine/solver/*.so. If the build fails (no C
compiler, say), the old build and stamp are removed, one line says so, and the exit status is
0: the solver then runs as pure Python, only slower. With --strict a failed build exits 1. See
games/engine/native.py.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import native  # noqa: E402  (needs the project root on sys.path)

LOG = ROOT / "var" / "log" / "native-build.log"
# What the mypyc command line would run for the package, but with the group named after it,
# so that the shared library lands beside the package (games/engine/solver__mypyc*.so) and
# not as a top-level module named by a hash at the build's root.
SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="rummi-solver",
    ext_modules=mypycify(
        ["games/engine/solver"],
        opt_level={opt_level!r},
        debug_level={debug_level!r},
        group_name="games.engine.solver",
    ),
)
"""


def _remove_build(engine: Path) -> None:
    for path in native.built_files(engine):
        path.unlink()
    (engine / native.STAMP.name).unlink(missing_ok=True)


def build(engine: Path = native.ENGINE) -> None:
    """Compile a snapshot of ``engine`` and install its extension modules; raises on failure."""
    with tempfile.TemporaryDirectory(prefix="rummi-native-") as tmp:
        work = Path(tmp)
        snapshot = work / "games" / "engine"
        snapshot.mkdir(parents=True)
        (work / "games" / "__init__.py").write_text("")
        for path in engine.rglob("*.py"):
            target = snapshot / path.relative_to(engine)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
        digest = native.sources_digest(snapshot)
        (work / "setup.py").write_text(
            SETUP.format(
                opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
                debug_level=os.environ.get("MYPYC_DEBUG_LEVEL", "1"),
            )
        )
        LOG.parent.mkdir(parents=True, exist_ok=True)
        with LOG.open("w") as log:
            subprocess.run(
                [sys.executable, "setup.py", "build_ext", "--inplace"],
                cwd=work,
                stdout=log,
                stderr=subprocess.STDOUT,
                check=True,
            )
        (snapshot / native.STAMP.name).write_text(digest + "\n")
        if native.build_state(snapshot) != "current":
            raise RuntimeError("mypyc reported success but left no complete build")
        built = native.built_files(snapshot)
        _remove_build(engine)
        for path in built:
            shutil.copy2(path, engine / path.relative_to(snapshot))
        (engine / native.STAMP.name).write_text(digest + "\n")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="exit 1 if the build fails")
    parser.add_argument("--force", action="store_true", help="rebuild even if current")
    args = parser.parse_args(argv)
    if not args.force and native.build_state() == "current":
        print("native solver: up to date")
        return 0
    started = time.monotonic()
    try:
        build()
    except (OSError, RuntimeError, subprocess.CalledProcessError) as error:
        _remove_build(native.ENGINE)
        where = LOG.relative_to(ROOT)
        print(f"native solver: build failed ({error}; see {where}); the solver runs as pure Python")
        return 1 if args.strict else 0
    print(f"native solver: built with mypyc in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
