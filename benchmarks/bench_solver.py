"""Solver speed on seeded random positions (see games/engine/solver/).

Positions: a table of valid melds dealt from a shuffled set (0-80 tiles, jokers included), and a
rack of 1-20 tiles from what is left. Reports median / mean / p90 / p99 / max solve time (CPU time
of this process, so that other work on a shared machine does not inflate it) and how many
positions took over 100 ms and over 1 s, for all positions, per table-size bucket, per number of
jokers on the table (table jokers that may be freed are what makes the solver slow), after the
initial meld and before it, and for the same positions taking the most points first (what the
master bot asks when an opponent is close to going out). The target (issue #3): median under
3 ms, p99 under 100 ms, no position over 1 s.

It measures the solver the site runs: compiled with mypyc when `make native` could build it
(`make bench` does), which it reports first; RUMMI_PURE_PYTHON=1 measures its sources themselves.

The "captured" row is the slowest solver call found in real bot games (/work/slow-positions,
slow-large-3-master-s28-t67: a master bot's points-first solve, 27 CPU s when captured, 13.5 s
before the guessing beam widened, 3.5-4 s after, 2.4 s since states whose group tiles need too
many jokers are dropped early, 1.5 s compiled), kept here as ids so the bench needs nothing
outside the repository.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import native
from games.engine.rules import RULES, Rules
from games.engine.solver import Prefer, solve_ids
from games.engine.tiles import COLOURS, Tile

BUCKETS = ((0, 20), (21, 40), (41, 60), (61, 80))
POSITIONS = 1000
OPENING_POSITIONS = 400
# (rules, table, rack, prefer) of captured real-game calls, all after the initial meld.
CAPTURED: tuple[tuple[str, tuple[tuple[int, ...], ...], tuple[int, ...], Prefer], ...] = (
    (
        "large",
        (
            (10, 88, 127),
            (12, 51, 129),
            (45, 50, 53),
            (55, 93, 134),
            (19, 59, 136),
            (21, 62, 99),
            (63, 102, 141),
            (25, 29, 32),
            (90, 94, 156, 101, 104, 106, 108),
            (27, 31, 33),
            (138, 142, 157, 147, 152),
            (37, 76, 115),
            (60, 64, 68, 69, 72, 77),
            (148, 151, 155),
        ),
        (
            0,
            2,
            3,
            5,
            11,
            17,
            18,
            20,
            38,
            42,
            47,
            49,
            58,
            75,
            79,
            80,
            86,
            92,
            97,
            105,
            110,
            118,
            130,
            132,
            133,
            144,
            150,
            158,
            159,
        ),
        "points",
    ),
)


@dataclass(frozen=True)
class Position:
    """A table (melds of tile ids), a rack (tile ids), the kinds behind the ids."""

    rules: Rules
    kinds: tuple[Tile, ...]
    table: tuple[tuple[int, ...], ...]
    rack: tuple[int, ...]

    @property
    def table_size(self) -> int:
        return sum(len(meld) for meld in self.table)


def random_meld(rng: random.Random, numbers: int) -> list[Tile]:
    """A random run (3-5 long) or group (3-4 colours), without jokers."""
    if rng.random() < 0.5:
        length = rng.choice((3, 3, 3, 4, 4, 5))
        start = rng.randint(1, numbers - length + 1)
        colour = rng.choice(COLOURS)
        return [Tile(colour, n) for n in range(start, start + length)]
    number = rng.randint(1, numbers)
    colours = rng.sample(COLOURS, rng.choice((3, 3, 4)))
    return [Tile(colour, number) for colour in colours]


def random_position(
    rng: random.Random,
    table_size: int,
    rack_size: int,
    rules: Rules = RULES["classic"],
    joker_rate: float = 0.15,
) -> Position:
    """Deal melds from a shuffled set until the table holds about ``table_size`` tiles."""
    kinds = rules.tile_set.tiles
    ids = list(range(len(kinds)))
    rng.shuffle(ids)
    free: dict[Tile, list[int]] = {}
    for i in ids:
        free.setdefault(kinds[i], []).append(i)
    table: list[tuple[int, ...]] = []
    placed = 0
    jokers = free.get(Tile(None, 0), [])
    for _ in range(2000):
        if placed + 3 > table_size:
            break
        meld = random_meld(rng, rules.max_number)
        if placed + len(meld) > table_size + 2:
            continue
        need: dict[Tile, int] = {}
        for tile in meld:
            need[tile] = need.get(tile, 0) + 1
        if any(len(free.get(tile, [])) < count for tile, count in need.items()):
            continue
        chosen = [free[tile].pop() for tile in meld]
        if jokers and rng.random() < joker_rate:
            swap = rng.randrange(len(chosen))
            free[kinds[chosen[swap]]].append(chosen[swap])
            chosen[swap] = jokers.pop()
        table.append(tuple(chosen))
        placed += len(meld)
    left = [i for tiles in free.values() for i in tiles]
    rng.shuffle(left)
    return Position(rules, kinds, tuple(table), tuple(sorted(left[:rack_size])))


def timed(position: Position, opened: bool, prefer: Prefer = "tiles") -> float:
    """CPU seconds to solve (the machine may be shared; CPU time is what the solver costs)."""
    started = time.process_time()
    solve_ids(position.rules, position.kinds, position.table, position.rack, opened, prefer=prefer)
    return time.process_time() - started


def captured() -> list[float]:
    times = []
    for name, table, rack, prefer in CAPTURED:
        rules = RULES[name]
        times.append(timed(Position(rules, rules.tile_set.tiles, table, rack), True, prefer))
    return times


def summary(seconds: Sequence[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(0.90 * len(ordered)))]
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "positions": len(ordered),
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 3),
        "p90_ms": round(p90 * 1000, 3),
        "p99_ms": round(p99 * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
        "over_100ms": sum(1 for s in ordered if s > 0.1),
        "over_1s": sum(1 for s in ordered if s > 1.0),
    }


def table_jokers(position: Position) -> int:
    return sum(1 for meld in position.table for i in meld if position.kinds[i].is_joker)


def main() -> dict[str, Any]:
    rng = random.Random(20240601)
    by_bucket: dict[str, list[float]] = {f"{lo}-{hi}": [] for lo, hi in BUCKETS}
    by_jokers: dict[str, list[float]] = {"0": [], "1": [], "2+": []}
    every: list[float] = []
    positions: list[Position] = []
    for _ in range(POSITIONS):
        position = random_position(rng, rng.randint(0, 80), rng.randint(1, 20))
        positions.append(position)
        seconds = timed(position, True)
        every.append(seconds)
        for lo, hi in BUCKETS:
            if lo <= position.table_size <= hi:
                by_bucket[f"{lo}-{hi}"].append(seconds)
        jokers = table_jokers(position)
        by_jokers["2+" if jokers >= 2 else str(jokers)].append(seconds)
    opening = [
        timed(random_position(rng, rng.randint(0, 80), rng.randint(1, 20)), False)
        for _ in range(OPENING_POSITIONS)
    ]
    points_first = [timed(position, True, "points") for position in positions]
    results: dict[str, Any] = {
        "solver_build": native.kind(),
        "after_initial_meld": summary(every),
        "by_table_size": {name: summary(times) for name, times in by_bucket.items() if times},
        "by_table_jokers": {name: summary(times) for name, times in by_jokers.items() if times},
        "points_first": summary(points_first),
        "opening": summary(opening),
        "captured": summary(captured()),
    }
    columns = ("positions", "median_ms", "mean_ms", "p90_ms", "p99_ms", "max_ms", "over_100ms")
    build = "compiled with mypyc" if results["solver_build"] == "native" else "pure Python"
    print(f"solver: {build} ({native.build_state()} native build)")
    print(f"{'positions (CPU time)':<24}" + "".join(f"{c:>12}" for c in columns))
    rows = [("all (after opening)", results["after_initial_meld"])]
    rows += [(f"table {name} tiles", s) for name, s in results["by_table_size"].items()]
    rows += [(f"{name} table jokers", s) for name, s in results["by_table_jokers"].items()]
    rows.append(("points first (master)", results["points_first"]))
    rows.append(("opening mode", results["opening"]))
    rows.append(("captured (real games)", results["captured"]))
    for name, s in rows:
        print(f"{name:<24}" + "".join(f"{s[c]:>12}" for c in columns))
    return results


if __name__ == "__main__":
    main()
