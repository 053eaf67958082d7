"""How long the name rules take to compare a new name with every account's username and display
name (games/names.py ``check_name``, docs/fair-play.md "Names"): 10,000 accounts, half with a
display name, on a fresh SQLite database of their own (benchmarks/names_driver.py). Target: a
warm check (skeletons cached in the process) under 100 ms; the cold one computes them all."""

from __future__ import annotations

from typing import Any

from .bench_players import run_driver


def main() -> dict[str, Any]:
    return run_driver("benchmarks.names_driver")
