"""Run every benchmarks/bench_*.py that has a main() and write its results under var/bench/.

Usage: python -m benchmarks [name ...]   (names without the bench_ prefix; default: all)
"""

from __future__ import annotations

import importlib
import json
import platform
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT_DIR = HERE.parent / "var" / "bench"


def discover(names: list[str]) -> dict[str, Callable[[], Any]]:
    """Benchmark name -> its main(), for every bench_*.py module (or just the named ones)."""
    found: dict[str, Callable[[], Any]] = {}
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if names and name not in names:
            continue
        module = importlib.import_module(f"benchmarks.{path.stem}")
        main = getattr(module, "main", None)
        if callable(main):
            found[name] = main
    return found


def run(name: str, main: Callable[[], Any]) -> Path:
    started = time.perf_counter()
    results = main()
    record = {
        "benchmark": name,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started, 3),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "results": results,
    }
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    path = OUT_DIR / f"{name}.json"
    path.write_text(json.dumps(record, indent=2, default=str) + "\n")
    return path


def main(argv: list[str]) -> int:
    benchmarks = discover(argv)
    missing = sorted(set(argv) - set(benchmarks))
    if missing or not benchmarks:
        wanted = ", ".join(missing) if missing else "bench_*.py with a main()"
        print(f"no benchmark found: {wanted}", file=sys.stderr)
        return 1
    for name, bench_main in benchmarks.items():
        print(f"bench {name} ...", flush=True)
        path = run(name, bench_main)
        print(f"bench {name}: {path.relative_to(HERE.parent)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
