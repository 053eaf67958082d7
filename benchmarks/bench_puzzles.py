"""Puzzle generation and verification speed (see puzzles/generator.py).

Generation: ramp puzzles (levels 1-4) per second, and mixed puzzles (levels 5-10) per second
from the first mixed tables of a seed, one process. Verification: for shipped puzzles, the
time to prove one (solver, engine check of the stored solution, solution count), median and
worst, per level band.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from games.engine.rules import RULES
from games.engine.solver import solve
from games.engine.tiles import parse_tiles
from puzzles.arrangements import count_solutions, played_tiles
from puzzles.generator import parse_table, ramp_stream, table_puzzles

FIXTURE = Path(__file__).resolve().parents[1] / "puzzles" / "fixtures" / "puzzles.json"
SEED = 11
RAMP_PUZZLES = 40
MIXED_TABLES = 120


def bench_ramp() -> float:
    started = time.perf_counter()
    for level in (1, 2, 3, 4):
        stream = ramp_stream(SEED, level)
        for _ in range(RAMP_PUZZLES // 4):
            next(stream)
    return RAMP_PUZZLES / (time.perf_counter() - started)


def bench_mixed() -> dict[str, float]:
    started = time.perf_counter()
    made = sum(len(table_puzzles(SEED, index)) for index in range(MIXED_TABLES))
    seconds = time.perf_counter() - started
    return {
        "mixed_puzzles_per_s": round(made / seconds, 2),
        "mixed_tables_per_s": round(MIXED_TABLES / seconds, 1),
        "mixed_puzzles_per_table": round(made / MIXED_TABLES, 3),
    }


def verify_seconds(puzzle: dict[str, Any]) -> float:
    started = time.perf_counter()
    table, rack = parse_table(puzzle["table"]), parse_tiles(puzzle["rack"])
    best = solve(RULES["classic"], [list(m) for m in table], rack, True)
    assert best.tiles_played == len(rack)
    assert len(played_tiles(table, rack, parse_table(puzzle["solution"]))) == len(rack)
    count_solutions(table, rack)
    return time.perf_counter() - started


def bench_verify() -> dict[str, float]:
    puzzles = json.loads(FIXTURE.read_text())["puzzles"]
    results: dict[str, float] = {}
    for name, levels in (("ramp", range(1, 5)), ("mixed", range(5, 11))):
        times = [verify_seconds(p) for p in puzzles if p["level"] in levels]
        results[f"verify_{name}_median_ms"] = round(statistics.median(times) * 1000, 1)
        results[f"verify_{name}_max_ms"] = round(max(times) * 1000, 1)
    return results


def main() -> dict[str, Any]:
    results = {"ramp_puzzles_per_s": round(bench_ramp(), 1), **bench_mixed(), **bench_verify()}
    for key, value in results.items():
        print(f"{key:>26}: {value:,}")
    return results


if __name__ == "__main__":
    main()
