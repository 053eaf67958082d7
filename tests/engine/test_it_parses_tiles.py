from __future__ import annotations

from collections import Counter

import pytest

from games.engine.errors import InvalidInput
from games.engine.tiles import CLASSIC, JOKER, LARGE, RUSH, TILE_SETS, Tile


@pytest.mark.parametrize(
    ("code", "colour", "number"),
    [("R7", "R", 7), ("K13", "K", 13), ("b1", "B", 1), ("Y10", "Y", 10), ("J", None, 0)],
)
def test_it_parses_codes(code: str, colour: str | None, number: int) -> None:
    tile = Tile.parse(code)
    assert (tile.colour, tile.number) == (colour, number)
    assert str(tile) == code.upper()


@pytest.mark.parametrize("code", ["", "R", "R0", "R14", "G5", "R07", "JJ", "7R", "R-1", "K1.5"])
def test_it_rejects_unknown_codes(code: str) -> None:
    with pytest.raises(InvalidInput):
        Tile.parse(code)


def test_it_rejects_non_strings() -> None:
    with pytest.raises(InvalidInput):
        Tile.parse(7)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("tile_set", "size", "copies", "jokers", "top"),
    [(CLASSIC, 106, 2, 2, 13), (LARGE, 160, 3, 4, 13), (RUSH, 73, 2, 1, 9)],
)
def test_it_builds_the_three_sets(tile_set, size, copies, jokers, top) -> None:  # type: ignore[no-untyped-def]
    assert tile_set.size == size == len(tile_set.tiles)
    counts = Counter(tile_set.tiles)
    assert counts[JOKER] == jokers
    assert counts[Tile("R", top)] == copies
    assert Tile("R", top + 1) not in counts
    assert all(counts[Tile(c, n)] == copies for c in "KBRY" for n in range(1, top + 1))
    assert TILE_SETS[tile_set.name] is tile_set


def test_ids_map_to_kinds_and_reject_strangers() -> None:
    assert CLASSIC.tile(105) == JOKER
    assert CLASSIC.kinds([0, 1, 2]) == [Tile("K", 1), Tile("K", 1), Tile("K", 2)]
    for bad in (-1, 106, True, "3"):
        with pytest.raises(InvalidInput):
            CLASSIC.tile(bad)  # type: ignore[arg-type]


def test_tiles_have_accessible_names_and_rack_values() -> None:
    assert Tile.parse("R7").name == "red 7"
    assert JOKER.name == "joker"
    assert Tile.parse("K13").rack_value == 13
    assert JOKER.rack_value == 30
    assert RUSH.contains(Tile("B", 9)) and not RUSH.contains(Tile("B", 10))
