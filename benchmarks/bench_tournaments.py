"""A 500-player arena re-seating a finished table through the services (target: within 1 s),
on a fresh SQLite database of its own (benchmarks/tournaments_driver.py). Pairing itself is
measured by bench_pairing."""

from __future__ import annotations

from typing import Any

from .bench_players import run_driver


def main() -> dict[str, Any]:
    return run_driver("benchmarks.tournaments_driver")
