"""Compile games/engine/solver.py with mypyc, beside it, and stamp the sources it was built from.

Usage: python tools/build_native.py [--strict] [--force]

Does nothing when the stamp (games/engine/solver.native) already matches the engine sources.
The build runs on a snapshot of games/engine in a temporary directory, so an edit made while it
compiles cannot be stamped as built. If the build fails (no C compiler, say), the old build and
stamp are removed, one line says so, and the exit status is 0: the solver then runs as pure
Python, only slower. With --strict a failed build exits 1. See games/engine/native.py.
"""

from __future__ import annotations

import argparse
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


def _remove_build(engine: Path) -> None:
    for path in native.built_files(engine):
        path.unlink()
    (engine / native.STAMP.name).unlink(missing_ok=True)


def build(engine: Path = native.ENGINE) -> None:
    """Compile a snapshot of ``engine`` and install its extension modules; raises on failure."""
    with tempfile.TemporaryDirectory(prefix="rummi-native-") as tmp:
        work = Path(tmp)
        (work / "games" / "engine").mkdir(parents=True)
        (work / "games" / "__init__.py").write_text("")
        for path in engine.glob("*.py"):
            shutil.copy2(path, work / "games" / "engine" / path.name)
        digest = native.sources_digest(work / "games" / "engine")
        LOG.parent.mkdir(parents=True, exist_ok=True)
        with LOG.open("w") as log:
            subprocess.run(
                [sys.executable, "-m", "mypyc", "games/engine/solver.py"],
                cwd=work,
                stdout=log,
                stderr=subprocess.STDOUT,
                check=True,
            )
        built = native.built_files(work / "games" / "engine")
        if not built:
            raise RuntimeError("mypyc reported success but left no extension module")
        _remove_build(engine)
        for path in built:
            shutil.copy2(path, engine / path.name)
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
