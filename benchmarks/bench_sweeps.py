"""Beat's sweeps at 500 and 5,000 running games (benchmarks/sweeps_driver.py): each sweep's
median time and its number of queries, which must not grow with the games. Target: every sweep
under 50 ms at 5,000 running games. Runs on SQLite and, when reachable, on PostgreSQL (a bench
database of its own, ``rummi_bench_sweeps``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SIZES = os.environ.get("RUMMI_BENCH_SWEEPS_SIZES", "500,5000").split(",")
TARGET_MS = 50.0
PG_URL = os.environ.get(
    "RUMMI_BENCH_SWEEPS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/rummi_bench_sweeps"
)


def run(env_extra: dict[str, str]) -> dict[str, Any]:
    env = dict(os.environ, **env_extra)
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.sweeps_driver", *SIZES],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def postgres() -> str | None:
    ready = subprocess.run(["pg_isready", "-h", "127.0.0.1"], capture_output=True, check=False)
    if ready.returncode != 0:
        return None
    name = PG_URL.rsplit("/", 1)[1]
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-c", f"CREATE DATABASE {name}"],
        capture_output=True, check=False,
    )  # fmt: skip
    return PG_URL


def verdict(result: dict[str, Any]) -> dict[str, Any]:
    """Whether every sweep met the target at the largest size, and kept its query count."""
    sizes = [k for k in result if k.isdigit()]
    if not sizes:
        return {}
    top = result[max(sizes, key=int)]
    small = result[min(sizes, key=int)]
    sweeps = [k for k in top if isinstance(top[k], dict)]
    return {
        "slowest_ms": max(top[s]["median_ms"] for s in sweeps),
        "under_target": all(top[s]["median_ms"] < TARGET_MS for s in sweeps),
        "fixed_queries": all(top[s]["queries"] == small[s]["queries"] for s in sweeps),
    }


def main() -> dict[str, Any]:
    results: dict[str, Any] = {"target_ms": TARGET_MS}
    with tempfile.TemporaryDirectory() as folder:
        sqlite = run({"DATABASE_URL": "", "RUMMI_SQLITE_PATH": str(Path(folder) / "sweeps.db")})
    results["sqlite"] = {**sqlite, "verdict": verdict(sqlite)}
    url = postgres()
    if url:
        pg = run({"DATABASE_URL": url})
        results["postgresql"] = {**pg, "verdict": verdict(pg)}
    else:
        results["postgresql"] = {"skipped": "PostgreSQL is not reachable"}
    for name in ("sqlite", "postgresql"):
        print(f"sweeps {name}: {json.dumps(results[name].get('verdict'))}", file=sys.stderr)
    return results
