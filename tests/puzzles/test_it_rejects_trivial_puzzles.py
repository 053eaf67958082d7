"""Beyond the first level no puzzle is trivial: no rack tile simply joins a table meld, and
the rack cannot go down without moving a table tile."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.tiles import Tile, parse_tiles
from puzzles import generator
from puzzles.arrangements import extends_alone, placeable_without_rearranging
from puzzles.generator import is_trivial, parse_table

from .conftest import SHIPPED

BEYOND_FIRST = [p for p in SHIPPED["puzzles"] if p["level"] > 1]


def table(*melds: str) -> tuple[tuple[Tile, ...], ...]:
    return parse_table([meld.split() for meld in melds])


@pytest.mark.parametrize("puzzle", BEYOND_FIRST, ids=[p["slug"] for p in BEYOND_FIRST])
def test_no_shipped_puzzle_beyond_the_first_level_is_trivial(puzzle: dict[str, Any]) -> None:
    melds, rack = parse_table(puzzle["table"]), parse_tiles(puzzle["rack"])
    assert not any(extends_alone(melds, tile) for tile in rack if not tile.is_joker)
    assert not placeable_without_rearranging(melds, rack)
    assert puzzle["features"]["tiles_moved"] >= 1


@pytest.mark.parametrize(
    ("melds", "rack"),
    [
        (table("R4 R5 R6"), "R7"),  # a run end
        (table("R4 R5 R6"), "R3"),
        (table("K7 B7 Y7"), "R7"),  # a three-group
        (table("K7 B7 Y7", "B1 B2 B3"), "K11 K12 K13"),  # a meld of its own
        (table("R5 J R7"), "R8"),  # past a joker that stays put
    ],
)
def test_it_calls_simple_placements_trivial(melds: Any, rack: str) -> None:
    assert is_trivial(melds, parse_tiles(rack.split()))


@pytest.mark.parametrize(
    ("melds", "rack"),
    [
        (table("R3 R4 R5 R6 R7 R8"), "R6"),  # split a long run
        (table("K9 B9 R9 Y9"), "K7 K8"),  # take from a four-group
        (table("R5 R6 J", "K1 K2 K3"), "R7 B9 B11"),  # free a joker
        (table("R4 R5 R6 J"), "K9 Y9"),  # nothing can go down at all
    ],
)
def test_it_calls_rearrangements_not_trivial(melds: Any, rack: str) -> None:
    assert not is_trivial(melds, parse_tiles(rack.split()))


def test_the_generator_refuses_a_trivial_candidate_beyond_level_one() -> None:
    trivial = (list(table("R4 R5 R6", "K9 B9 Y9")), parse_tiles(["R7"]))
    assert generator._accept(2, *trivial) is None
    assert generator._accept(1, *trivial) is not None
    split = (list(table("R3 R4 R5 R6 R7 R8", "K9 B9 Y9")), parse_tiles(["R6"]))
    accepted = generator._accept(2, *split)
    assert accepted is not None and accepted.features.tiles_moved >= 1


def test_every_ramp_builder_makes_untrivial_puzzles() -> None:
    rng = random.Random(99)
    for level in (2, 3, 4):
        made = [generator._accept(level, *c) for c in _candidates(rng, level)]
        made = [p for p in made if p is not None]
        assert made, level
        assert all(not is_trivial(p.table, p.rack) for p in made)


def _candidates(rng: random.Random, level: int) -> list[Any]:
    found = [generator.RAMP_BUILDERS[level](rng) for _ in range(30)]
    return [c for c in found if c is not None]
