"""Rummy 45 melds, display values and on-board combinations, table-driven (docs/rules-45.md
"Melds and values", "Displays", "Playing on the board")."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove
from games.engine.r45.hands import best_combination, combinations_of, is_doubles, is_mozaic
from games.engine.r45.melds import check_display, check_meld, end_value, meld_error, readings
from games.engine.tiles import parse_tiles


def tiles(text: str) -> list:  # type: ignore[type-arg]
    return parse_tiles(text.split())


@pytest.mark.parametrize(
    ("meld", "kind", "points"),
    [
        ("R1 R2 R3", "run", 15),  # a 1 before 2 is 5
        ("R12 R13 R1", "run", 30),  # a 1 after 13 is 10
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "run", 95),
        ("K1 R1 B1", "set", 30),  # a 1 in a set is 10
        ("K9 R9 B9 Y9", "set", 20),
        ("K10 R10 B10", "set", 30),
        ("R8 R9 R10", "run", 20),
        ("J R2 R3", "run", 15),  # the joker is the 1 before 2
        ("R12 R13 J", "run", 30),  # the joker is the 1 after 13
        ("R9 J J", "run", 25),  # read as R9 R10 R11, more than the set of 9s
        ("J K11 R11", "set", 30),
    ],
)
def test_melds_and_their_display_values(meld: str, kind: str, points: int) -> None:
    reading = check_meld(tiles(meld))
    assert (reading.kind, reading.points) == (kind, points)


@pytest.mark.parametrize(
    ("meld", "reason"),
    [
        ("R13 R1 R2", "never between them"),
        ("R3 R2 R1", "written in order"),
        ("R1 R2", "at least 3 tiles"),
        ("J J", "at least 3 tiles"),
        ("J J J", "only jokers"),
        ("R7 R7 K7", "repeats a colour"),
        ("R7 K7 B7 Y7 J", "at most 4"),
        ("R7 K8 B9", "neither a set"),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 J", "at most 14"),
    ],
)
def test_what_is_no_meld_says_why(meld: str, reason: str) -> None:
    assert readings(tiles(meld)) == []
    assert reason in (meld_error(tiles(meld)) or "")
    with pytest.raises(IllegalMove):
        check_meld(tiles(meld))


@pytest.mark.parametrize(
    ("melds", "first", "points", "code"),
    [
        (["R9 R10 R11 R12 R13"], True, 45, None),
        (["R2 R3 R4 R5 R6 R7 R8 R9"], True, 0, "display_short"),
        (["R2 R3 R4"], False, 15, None),
        (["K10 R10 B10", "K11 R11 B11"], True, 0, "display_sets"),
        (["K10 R10 B10", "K11 R11 B11"], False, 60, None),
        (["K2 R2 B2", "K3 R3 B3", "K4 R4 B4"], True, 45, None),
        (["K10 R10 B10", "K11 R11 B11", "R5 J J"], True, 75, None),  # R5 J J counts as a set
        (["K10 R10 B10", "Y5 J J"], True, 45, None),  # ... here as the run Y5-Y7: not 2 sets
        ([], False, 0, "display_empty"),
        (["R1 R2"], False, 0, "meld_invalid"),
    ],
)
def test_displays_and_the_first_display_rules(
    melds: list[str], first: bool, points: int, code: str | None
) -> None:
    if code is not None:
        with pytest.raises(IllegalMove) as caught:
            check_display([tiles(m) for m in melds], first)
        assert caught.value.code == code
        return
    assert sum(r.points for r in check_display([tiles(m) for m in melds], first)) == points


@pytest.mark.parametrize(
    ("tile", "value"), [("R1", 25), ("R5", 5), ("R9", 5), ("R10", 10), ("K13", 10), ("J", 50)]
)
def test_end_values(tile: str, value: int) -> None:
    assert end_value(tiles(tile)[0]) == value


HANDS = [
    ("R1 R1 K2 K2 B5 B5 Y9 Y9 R13 R13 K7 K7 B11 B11", "doubles", 800),
    ("R1 R1 K2 K2 B5 B5 Y9 Y9 R13 R13 K7 K7 B11 J", "doubles", 800),  # a joker pairs
    ("R1 R1 K2 K2 B5 B5 Y9 Y9 R13 R13 K7 K7 J J", "doubles", 800),  # two jokers pair
    ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "monocolor", 650),
    ("R1 R2 R3 R4 R5 R6 R7 R7 R8 R9 R10 R11 R12 R13", "monocolor", 650),
    ("R1 R2 R3 R4 R5 R6 R7 K8 K9 K10 K11 K12 K13 K1", "bicolor", 400),
    ("R10 K10 B10 R11 R12 R13 R1 Y11 Y12 Y13 K11 K12 K13 J", "majors", 500),
    ("K1 R1 B1 Y10 Y11 Y12 Y13 R10 R11 R12 R13 K10 K11 K12", "majors", 500),  # 1s in a set
    ("R1 R2 R3 K4 K5 K6 B7 B8 B9 Y2 Y3 Y4 Y5 J", "minors", 200),  # a 1 before 2 is minor
    ("R1 K2 B3 Y4 R5 K6 B7 Y8 B9 K10 R11 Y12 B13 K1", "mozaic", 300),
    ("R1 K2 B3 Y4 R5 J B7 J B9 K10 R11 Y12 B13 K1", "mozaic", 300),  # jokers in the middle
    ("R5 R6 R7 K5 K6 K7 B8 B9 B10 Y1 Y2 Y3 Y11 Y12", None, 0),
    ("R4 R5 R6 R7 K5 K6 K7 B8 B9 B10 B11 Y13 K13 R13", "normal", 100),
    ("J R5 R6 R7 K5 K6 K7 B8 B9 B10 B11 Y13 K13 R13", "normal", 75),
    ("R1 R5 R9 K2 K6 K10 B3 B7 B11 Y4 Y8 Y12 J J", None, 0),
]


@pytest.mark.parametrize(("hand", "name", "points"), HANDS)
def test_the_best_combination_of_a_hand(hand: str, name: str | None, points: int) -> None:
    assert best_combination(tiles(hand)) == (name, points)


@pytest.mark.parametrize(
    ("hand", "why"),
    [
        ("R1 K2 B3 Y4 R5 K6 B7 Y8 B9 K10 R11 Y12 B13 R1", "the two 1s share a colour"),
        ("J K2 B3 Y4 R5 K6 B7 Y8 B9 K10 R11 Y12 B13 K1", "a joker among the first four"),
        ("R1 K2 B3 Y4 R5 K6 B7 Y8 B9 K10 R11 Y12 J K1", "a joker among the last four"),
        ("R1 K2 B3 Y4 R5 R6 B7 Y8 B9 K10 R11 Y12 B13 K1", "two neighbours share a colour"),
        ("R1 K2 K3 Y4 B5 K6 B7 Y8 B9 K10 R11 Y12 B13 K1", "the first four lack a colour"),
        ("R1 K2 B3 Y4 R5 K6 B7 Y8 B9 K10 R11 Y12 B12 K1", "a number twice"),
    ],
)
def test_what_is_no_mozaic(hand: str, why: str) -> None:
    assert not is_mozaic(tiles(hand)), why


def test_a_hand_is_14_tiles() -> None:
    assert combinations_of(tiles("R1 R2 R3")) == {} and not is_doubles(tiles("R1 R1"))
    assert not is_mozaic(tiles("R1 K2 B3"))
