"""Every shipped puzzle is a real puzzle: a valid table, a solution the engine accepts that
puts down the whole rack, and the solver agrees that the whole rack can go down."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.engine.melds import meld_error
from games.engine.rules import RULES
from games.engine.solver import solve
from games.engine.tiles import parse_tiles
from puzzles.arrangements import played_tiles
from puzzles.generator import parse_table

from .conftest import SHIPPED

PUZZLES = SHIPPED["puzzles"]
RAMP = {1: "extend", 2: "split_run", 3: "take_from_group", 4: "free_joker"}


def test_it_ships_at_least_300_puzzles_over_ten_levels() -> None:
    levels = Counter(p["level"] for p in PUZZLES)
    assert len(PUZZLES) >= 300
    assert sorted(levels) == list(range(1, 11))
    assert min(levels.values()) >= 20
    assert len({p["slug"] for p in PUZZLES}) == len(PUZZLES)


def test_the_first_levels_teach_one_technique_each_in_one_line() -> None:
    for puzzle in PUZZLES:
        expected = RAMP.get(puzzle["level"], "mixed")
        assert puzzle["technique"] == expected, puzzle["slug"]
        assert puzzle["lesson"] and "\n" not in puzzle["lesson"] and len(puzzle["lesson"]) <= 200
    first = [p for p in PUZZLES if p["level"] == 1]
    assert all(len(p["rack"]) == 1 for p in first), "level 1 adds one tile to a run"


def test_harder_levels_disturb_more_of_the_table() -> None:
    def mean(level: int, name: str) -> float:
        found = [p["features"][name] for p in PUZZLES if p["level"] == level]
        return sum(found) / len(found)

    assert mean(1, "tiles_moved") == 0
    assert mean(10, "melds_disturbed") > mean(5, "melds_disturbed")
    assert mean(10, "chain_depth") > mean(5, "chain_depth")
    assert all(p["features"]["jokers"] for p in PUZZLES if p["level"] in (4, 9, 10))


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p["slug"] for p in PUZZLES])
def test_its_solution_is_legal_and_optimal(puzzle: dict[str, Any]) -> None:
    table = parse_table(puzzle["table"])
    rack = parse_tiles(puzzle["rack"])
    for meld in table:
        assert meld_error(list(meld)) is None
    played = played_tiles(table, rack, parse_table(puzzle["solution"]))
    assert sorted(map(str, played)) == sorted(puzzle["rack"])
    best = solve(RULES["classic"], [list(m) for m in table], rack, True)
    assert best.tiles_played == len(rack)
    assert 1 <= puzzle["features"]["solutions"] <= 10
