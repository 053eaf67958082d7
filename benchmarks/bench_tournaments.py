"""A 500-player arena re-seating a finished table through the services (target: within 1 s),
on a fresh SQLite database of its own (benchmarks/tournaments_driver.py). Pairing itself is
measured by bench_pairing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def main() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ)
        env["RUMMI_SQLITE_PATH"] = str(Path(folder) / "tournaments.sqlite3")
        env["RUMMI_LOG_DIR"] = folder
        env["RUMMI_DEBUG"] = "0"
        env.setdefault("SECRET_KEY", "bench-only-" + "x" * 40)
        env.pop("DATABASE_URL", None)
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.tournaments_driver"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    results: dict[str, Any] = json.loads(done.stdout)
    return results
