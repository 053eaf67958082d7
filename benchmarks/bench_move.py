"""CPU of a move's path through the services, in process (benchmarks/move_cpu.py), on PostgreSQL.

Runs move_cpu three times in fresh processes (2,000 draws each over 40 four-player tables) and
reports each run and the median CPU and wall milliseconds per move. Compare runs by these
figures, not across machines: docs/design.md, "The move path". Without PostgreSQL the result is
``{"skipped": reason}``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
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
    runs = []
    for _ in range(RUNS):
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.move_cpu"],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": DATABASE_URL},
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return {
        "runs": runs,
        "cpu_ms_per_move_median": statistics.median(r["cpu_ms_per_move"] for r in runs),
        "wall_ms_per_move_median": statistics.median(r["wall_ms_per_move"] for r in runs),
    }
