"""Meld rules of docs/rules.md, table-driven, with the seeds' examples."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove
from games.engine.melds import check_meld, meld_error, meld_value, readings

from .helpers import tiles

VALID = [
    # (meld, kind, value)
    ("R7 K7 Y7", "group", 21),
    ("R7 K7 Y7 B7", "group", 28),
    ("B4 B5 B6", "run", 15),
    ("Y8 Y9 Y10 Y11", "run", 38),
    ("R1 R2 R3", "run", 6),
    ("K11 K12 K13", "run", 36),
    ("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13", "run", 91),
    ("R5 R6 J", "run", 18),  # the joker is R7
    ("R10 R11 J", "run", 33),  # docs/rules.md's value example
    ("J R11 R12", "run", 33),
    ("R4 J R6", "run", 15),
    ("J B2 B3", "run", 6),  # joker as B1
    ("R11 J J", "run", 36),  # R11 R12 R13 beats a group of 11s (33)
    ("R2 J J", "run", 9),
    ("J J R5", "group", 15),  # run R3 R4 R5 is 12: the group reading is worth more
    ("R7 J Y7", "group", 21),
    ("R7 J Y7 J", "group", 28),
    ("J K9 Y9", "group", 27),
    ("R7 K7 J B7", "group", 28),  # a four-group holding a joker
    ("J B5 B6 B7 J", "run", 30),  # longer than three, joker at both ends
    ("J R5 R6 R7", "run", 22),
]

INVALID = [
    ("R7 R7 K7", "has red twice: a group needs every colour different"),
    ("R3 B4 R5", "neither a group"),
    ("R12 R13 R1", "goes round from 13 to 1: a run cannot wrap"),
    ("R5 R4 R3", "is out of order: a run is laid lowest first"),
    ("R7 K7", "at least 3"),
    ("", "at least 3"),
    ("J J J", "only jokers"),
    ("J R1 R2", "would go below 1"),
    ("R12 R13 J", "would go past 13: a run stops at 13"),
    ("R7 K7 Y7 B7 J", "at most 4"),
    ("R7 K7 Y7 B7 R7", "at most 4"),
    ("B4 B6 B7", "B4 B6 B7 has a gap: a run needs consecutive numbers"),
    ("R5 J R5", "has red twice"),
    ("R7 J K8", "neither a group"),
    ("B5 B5 B6", "has 5 twice: a run needs each number once"),
    ("B3 J J B5", "too many tiles between 3 and 5"),
]


@pytest.mark.parametrize(("text", "kind", "value"), VALID)
def test_it_accepts_valid_melds(text: str, kind: str, value: int) -> None:
    reading = check_meld(tiles(text))
    assert (reading.kind, reading.value) == (kind, value)
    assert meld_value(tiles(text)) == value
    assert meld_error(tiles(text)) is None


@pytest.mark.parametrize(("text", "reason"), INVALID)
def test_it_rejects_invalid_melds_with_a_reason(text: str, reason: str) -> None:
    assert reason in (meld_error(tiles(text)) or "")
    with pytest.raises(IllegalMove) as raised:
        check_meld(tiles(text))
    assert raised.value.code == "meld_invalid"


def test_rush_runs_stop_at_nine() -> None:
    assert meld_error(tiles("R7 R8 R9"), max_number=9) is None
    assert meld_error(tiles("R8 R9 J"), max_number=9) is not None
    assert meld_error(tiles("R8 R9 J")) is None


def test_a_joker_in_a_run_stands_for_its_place() -> None:
    (run,) = readings(tiles("R5 R6 J"))
    assert run.roles[2] == frozenset(tiles("R7"))


def test_a_joker_in_a_group_stands_for_every_missing_colour() -> None:
    (group,) = readings(tiles("R9 J K9"))
    assert group.roles[1] == frozenset(tiles("B9 Y9"))


def test_a_meld_with_one_real_tile_has_both_readings() -> None:
    found = readings(tiles("R5 J J"))
    assert [(r.kind, r.value) for r in found] == [("run", 18), ("group", 15)]
