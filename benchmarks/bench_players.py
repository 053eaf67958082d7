"""Profile and leaderboard render times (players/views.py): a profile with 1,000 games (target
under 150 ms, a bounded number of queries) and a leaderboard of 10,000 rated players (target
under 100 ms), on a fresh SQLite database of their own (benchmarks/players_driver.py)."""

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
    return run_driver("benchmarks.players_driver")


def run_driver(module: str, *args: str) -> dict[str, Any]:
    """Run a benchmark's driver ``module`` (with ``args``) in a process of its own on a fresh
    SQLite database (production settings, DEBUG off) and return the JSON object it prints."""
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ)
        env["RUMMI_SQLITE_PATH"] = str(Path(folder) / "bench.sqlite3")
        env["RUMMI_LOG_DIR"] = folder
        # The pages name the hashed static files: the driver collects them here first.
        env["RUMMI_STATIC_ROOT"] = str(Path(folder) / "static")
        env["RUMMI_DEBUG"] = "0"
        env["RUMMI_ALLOWED_HOSTS"] = "testserver"
        env.setdefault("SECRET_KEY", "bench-only-" + "x" * 40)
        env.pop("DATABASE_URL", None)
        done = subprocess.run(
            [sys.executable, "-m", module, *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    results: dict[str, Any] = json.loads(done.stdout)
    return results
