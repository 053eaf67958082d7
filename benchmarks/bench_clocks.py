"""Timeout lateness: 200 live games on a real worker and beat, clocks shortened to 5 s.

Lateness is the time from a turn's deadline to its TurnTimedOut event; it includes the
deliberate 250 ms grace (games/services.py TIMEOUT_GRACE). Target: p99 under 1 s. Runs on the
embedded defaults (SQLite, filesystem broker) and, when reachable, on PostgreSQL and Redis.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES, CLOCK_S, RUN_S = 200, 5.0, 25.0
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"


def run(env_extra: dict[str, str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, RUMMI_CELERY_DIR=str(Path(folder) / "broker"), **env_extra)
        env.setdefault("RUMMI_SQLITE_PATH", str(Path(folder) / "clocks.sqlite3"))
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.clocks_driver", *map(str, (GAMES, CLOCK_S, RUN_S))],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def postgres_and_redis() -> dict[str, str] | None:
    """A fresh PostgreSQL database and Redis db 4, or None when either is not reachable."""
    ready = subprocess.run(["pg_isready", "-h", "127.0.0.1"], capture_output=True, check=False)
    pong = subprocess.run(
        ["redis-cli", "-h", "127.0.0.1", "-n", "4", "flushdb"], capture_output=True, check=False
    )
    if ready.returncode != 0 or pong.returncode != 0:
        return None
    for sql in ("DROP DATABASE IF EXISTS rummi_bench_clocks", "CREATE DATABASE rummi_bench_clocks"):
        subprocess.run(["psql", PG_ADMIN, "-qc", sql], capture_output=True, check=True)
    return {
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/rummi_bench_clocks",
        "REDIS_URL": "redis://127.0.0.1:6379/4",
    }


def main() -> dict[str, Any]:
    results = {"embedded (SQLite, filesystem broker)": run({})}
    services = postgres_and_redis()
    if services is not None:
        results["PostgreSQL + Redis"] = run(services)
    for name, figures in results.items():
        print(f"{name}: {figures}")
    return results
