"""CPU of a move's path through the services, in process (benchmarks/move_cpu.py), on PostgreSQL.

Runs move_cpu three times in fresh processes (2,000 draws each over 40 four-player tables) and
reports each run and the median CPU and wall milliseconds per move; each time also with the
pool's connection check off (``unchecked``), and what the check costs a move
(``health_check_cpu_ms``, ``health_check_wall_ms``; rummi_site/postgresql/base.py). Compare
runs by these figures, not across machines: docs/design.md, "The move path". Without
PostgreSQL the result is ``{"skipped": reason}``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .bench_live import DATABASE_URL, ensure_database, unreachable

ROOT = Path(__file__).resolve().parent.parent
RUNS = 3


def main() -> dict[str, Any]:
    reason = unreachable()
    if reason:
        return {"skipped": reason}
    ensure_database()
    runs: dict[str, list[dict[str, Any]]] = {"checked": [], "unchecked": []}
    for _ in range(RUNS):
        # Interleaved, so both variants share the machine's load.
        for variant, checks in (("unchecked", "0"), ("checked", "1")):
            env = {**os.environ, "DATABASE_URL": DATABASE_URL}
            env["RUMMI_BENCH_MOVE_HEALTH_CHECKS"] = checks
            done = subprocess.run(
                [sys.executable, "-m", "benchmarks.move_cpu"],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
                check=True,
            )
            runs[variant].append(json.loads(done.stdout.strip().splitlines()[-1]))
    medians = {
        variant: {
            "cpu_ms_per_move_median": statistics.median(r["cpu_ms_per_move"] for r in done),
            "wall_ms_per_move_median": statistics.median(r["wall_ms_per_move"] for r in done),
        }
        for variant, done in runs.items()
    }
    checked, unchecked = medians["checked"], medians["unchecked"]
    return {
        "runs": runs,
        **checked,
        "unchecked": unchecked,
        "check_alone": check_alone(),
        "health_check_cpu_ms": round(
            checked["cpu_ms_per_move_median"] - unchecked["cpu_ms_per_move_median"], 3
        ),
        "health_check_wall_ms": round(
            checked["wall_ms_per_move_median"] - unchecked["wall_ms_per_move_median"], 3
        ),
    }


def check_alone(times: int = 2000) -> dict[str, float]:
    """The pool's check by itself, on one live connection: what a move pays for it when the
    runs above differ by less than their noise (one check each time a connection leaves the
    pool: once per request or socket move)."""
    import psycopg
    from psycopg_pool import ConnectionPool

    from rummi_site.postgresql.base import ping

    out: dict[str, float] = {"checks": times}
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        # The site's check (libpq's empty query), and psycopg_pool's (a cursor's) beside it.
        for name, check in (("", ping), ("psycopg_pool_", ConnectionPool.check_connection)):
            check(conn)
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(times):
                check(conn)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            out[f"{name}cpu_ms_per_check"] = round(1000 * cpu / times, 4)
            out[f"{name}wall_ms_per_check"] = round(1000 * wall / times, 4)
    return out
