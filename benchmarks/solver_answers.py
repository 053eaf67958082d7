"""Every answer of the solver on the bench positions, as canonical JSON, to diff byte for byte.

Usage: python -m benchmarks.solver_answers OUT.json   (RUMMI_PURE_PYTHON=1: pure Python)

A change to the solver that should not change what it answers (a refactor, a speed-up keeping
the same states in the same order) dumps the answers before and after and compares the files
with ``cmp``. The positions are bench_solver's: its 1,000 seeded positions after the initial
meld, tiles first and points first, and its 400 opening positions, drawn the same way for the
classic set (exactly the bench's) and again for the large set; then the captured slow positions
of tests/engine/slow_positions.json. One line per answer: set, mode, index and the table after
the play in tile ids (``null`` when nothing is playable). Which solver ran (compiled or pure)
is printed, not written: the compiled and the pure solver's files must be identical too.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from benchmarks.bench_solver import OPENING_POSITIONS, POSITIONS, Position, random_position
from games.engine import native
from games.engine.rules import RULES, rules_named
from games.engine.solver import solve_ids

SLOW = Path(__file__).resolve().parent.parent / "tests" / "engine" / "slow_positions.json"


def answers() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def record(tiles: str, mode: str, index: int, p: Position, opened: bool, prefer: str) -> None:
        after = solve_ids(p.rules, p.kinds, p.table, p.rack, opened, prefer=prefer)
        found.append({"set": tiles, "mode": mode, "index": index, "answer": after})

    for tiles in ("classic", "large"):
        rules = RULES[tiles]
        rng = random.Random(20240601)  # bench_solver's seed and order of draws
        positions = [
            random_position(rng, rng.randint(0, 80), rng.randint(1, 20), rules)
            for _ in range(POSITIONS)
        ]
        opening = [
            random_position(rng, rng.randint(0, 80), rng.randint(1, 20), rules)
            for _ in range(OPENING_POSITIONS)
        ]
        for index, position in enumerate(positions):
            record(tiles, "tiles", index, position, True, "tiles")
        for index, position in enumerate(opening):
            record(tiles, "opening", index, position, False, "tiles")
        for index, position in enumerate(positions):
            record(tiles, "points", index, position, True, "points")
    for index, captured in enumerate(json.loads(SLOW.read_text())):
        rules = rules_named(captured["tiles"])
        table = tuple(tuple(meld) for meld in captured["table"])
        position = Position(rules, rules.tile_set.tiles, table, tuple(captured["rack"]))
        opened = captured["initial_meld_done"]
        record(captured["tiles"], "captured", index, position, opened, captured["prefer"])
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    lines = [json.dumps(answer, sort_keys=True, separators=(",", ":")) for answer in answers()]
    Path(argv[0]).write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} answers ({native.kind()} solver) -> {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
