"""Turn rules of docs/rules.md (rules 3-5) and seed 000's manipulation table, table-driven."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.rules import RULES
from games.engine.tiles import CLASSIC
from games.engine.turn import check_turn, check_turn_codes

from .helpers import codes, melds

CLASSIC_RULES = RULES["classic"]

# (table before, rack, table after, tiles played)
LEGAL_AFTER_OPENING = [
    # seed 000, 2.5: board manipulation examples
    (["B5 B6 B7"], "B8", ["B5 B6 B7 B8"], "B8"),
    (["R10 Y10 K10"], "B10", ["R10 Y10 K10 B10"], "B10"),
    (["K4 K5 K6"], "K3 K7", ["K3 K4 K5 K6 K7"], "K3 K7"),
    (["Y6 Y7 Y8"], "Y5 R8 B8", ["Y5 Y6 Y7", "Y8 R8 B8"], "Y5 R8 B8"),
    # seed 000, 2.3: splitting a long run by adding a tile
    (["R3 R4 R5 R6 R7 R8"], "R6", ["R3 R4 R5 R6", "R6 R7 R8"], "R6"),
    # taking a tile from a four-group into a new run
    (["K9 B9 R9 Y9"], "Y10 Y11", ["K9 B9 R9", "Y9 Y10 Y11"], "Y10 Y11"),
    # docs/rules.md joker examples
    (["R4 R5 R6 J"], "K9 Y9 R7", ["R4 R5 R6 R7", "J K9 Y9"], "R7 K9 Y9"),
    (["R9 R10 R11 J"], "K12 Y12", ["R9 R10 R11", "J K12 Y12"], "K12 Y12"),
    (["R7 K7 Y7 B7", "R5 R6 J"], "K1 K2", ["K7 Y7 B7", "R5 R6 R7", "K1 K2 J"], "K1 K2"),
    # a group joker keeps standing for a missing colour in a run of that tile
    (["K5 Y5 B5 J"], "R3 R4", ["K5 Y5 B5", "R3 R4 J"], "R3 R4"),
    # ... or moves to another group lacking one of the colours it stood for
    (["K5 Y5 J", "R6 R7 R8"], "B5", ["K5 Y5 B5 J", "R6 R7 R8"], None),
    # a joker played from the rack stands for anything
    (["R1 R2 R3"], "J K13 K12", ["R1 R2 R3", "J K12 K13"], None),
    # moving a joker along its own run keeps its tile
    (["R5 R6 J"], "R4", ["R4 R5 R6 J"], "R4"),
    # a joker replaced by a real tile from the rack is free
    (["B3 J B5"], "B4 R9 K9", ["B3 B4 B5", "R9 K9 J"], "B4 R9 K9"),
    # two jokers in one group may trade places
    (["K5 J J"], "B5", ["J K5 B5 J"], "B5"),
]

ILLEGAL_AFTER_OPENING = [
    (["R4 R5 R6 J"], "K9 Y9", ["R4 R5 R6", "J K9 Y9"], "joker_not_replaced"),
    # seed 000's split (3,4,5) + (5,6,7) needs a second K5 nobody has
    (["K4 K5 K6"], "K3 K7", ["K3 K4 K5", "K5 K6 K7"], "tile_not_in_rack"),
    (["B5 B6 B7"], "B8", ["B5 B6 B8"], "table_tile_taken"),
    (["B5 B6 B7"], "B8", ["B5 B6 B7"], "no_tile_played"),
    (["B5 B6 B7"], "B8 R1", ["B5 B6 B7 B8", "R1"], "meld_invalid"),
    (["B5 B6 B7"], "B9", ["B5 B6 B7 B9"], "meld_invalid"),
    (["B3 B4 B5"], "B6", ["B3 B4", "B5 B6"], "meld_invalid"),
    # a group joker whose colours are all present in its new group
    (["K5 Y5 B5 J"], "R9 B9", ["K5 Y5 B5", "R9 B9 J"], "joker_not_replaced"),
    # a group joker keeps its number: a red 5 cannot become a red 6
    (["K5 Y5 B5 J"], "K6 Y6 B6", ["K5 Y5 B5", "K6 Y6 B6 J"], "joker_not_replaced"),
    # the real tile must land beside one of the joker's old meld-mates
    (["R5 R6 J", "R8 R9 R10"], "R7 K1 K2", ["R5 R6", "R7 R8 R9 R10", "K1 K2 J"], "meld_invalid"),
    (
        ["R5 R6 J", "K7 Y7 B7"],
        "R7 K1 K2",
        ["K7 Y7 B7 R7", "R5 R6 J", "K1 K2 K3"],
        "tile_not_in_rack",
    ),
    (
        ["R5 R6 J", "K7 Y7 B7", "B8 B9 B10"],
        "R7 K1 K2",
        ["K7 Y7 B7 R7", "B8 B9 B10", "R5 R6", "K1 K2 J"],
        "meld_invalid",
    ),
    (["R5 R6 J"], "R4 B1 B2", ["R4 R5 R6", "B1 B2 J"], "joker_not_replaced"),
]


@pytest.mark.parametrize(("before", "rack", "after", "played"), LEGAL_AFTER_OPENING)
def test_it_accepts_legal_turns(
    before: list[str], rack: str, after: list[str], played: str | None
) -> None:
    result = check_turn_codes(CLASSIC_RULES, melds(*before), rack.split(), melds(*after), True)
    if played is not None:
        assert sorted(codes(result)) == sorted(played.split())


@pytest.mark.parametrize(("before", "rack", "after", "code"), ILLEGAL_AFTER_OPENING)
def test_it_rejects_illegal_turns_with_a_code(
    before: list[str], rack: str, after: list[str], code: str
) -> None:
    with pytest.raises(IllegalMove) as raised:
        check_turn_codes(CLASSIC_RULES, melds(*before), rack.split(), melds(*after), True)
    assert raised.value.code == code
    assert raised.value.message.endswith(".")


def test_a_joker_freed_by_a_real_tile_not_beside_its_old_mates_stays_bound() -> None:
    # R7 ends in a meld with none of the joker's mates (R5, R6): the joker is still a red 7.
    before = melds("R5 R6 J", "K7 Y7 B7")
    after = melds("K7 Y7 B7 R7", "R4 R5 R6", "K1 K2 J")
    with pytest.raises(IllegalMove) as raised:
        check_turn_codes(CLASSIC_RULES, before, "R7 R4 K1 K2".split(), after, True)
    assert raised.value.code == "joker_not_replaced"
    after = melds("K7 Y7 B7", "R4 R5 R6 R7", "K1 K2 J")
    played = check_turn_codes(CLASSIC_RULES, before, "R7 R4 K1 K2".split(), after, True)
    assert sorted(codes(played)) == ["K1", "K2", "R4", "R7"]


OPENINGS = [
    # (rack, new melds, legal?, code)
    ("R10 R11 R12 K1", ["R10 R11 R12"], True, None),  # 33
    ("R10 R11 J", ["R10 R11 J"], True, None),  # the joker counts as R12: 33
    ("K10 B10 R10", ["K10 B10 R10"], True, None),  # 30 exactly
    ("K9 B9 R9", ["K9 B9 R9"], False, "initial_meld_too_low"),  # 27
    ("R1 R2 R3 K8 B8 Y8", ["R1 R2 R3", "K8 B8 Y8"], True, None),  # 6 + 24
    ("R1 R2 R3 K7 B7 Y7", ["R1 R2 R3", "K7 B7 Y7"], False, "initial_meld_too_low"),  # 27
    ("J J R5 K1", ["J J R5"], False, "initial_meld_too_low"),  # 15 at best
    ("R13 J J", ["R13 J J"], True, None),  # a group of 13s: 39
]


@pytest.mark.parametrize(("rack", "new", "legal", "code"), OPENINGS)
def test_the_initial_meld_needs_the_threshold_from_the_rack(
    rack: str, new: list[str], legal: bool, code: str | None
) -> None:
    before = melds("B5 B6 B7")
    after = [*before, *melds(*new)]
    if legal:
        check_turn_codes(CLASSIC_RULES, before, rack.split(), after, False)
    else:
        with pytest.raises(IllegalMove) as raised:
            check_turn_codes(CLASSIC_RULES, before, rack.split(), after, False)
        assert raised.value.code == code


def test_the_initial_meld_touches_no_table_meld() -> None:
    before = melds("B5 B6 B7")
    rack = "B3 B4 R10 R11 R12".split()
    check_turn_codes(CLASSIC_RULES, before, rack, melds("B5 B6 B7", "R10 R11 R12"), False)
    with pytest.raises(IllegalMove) as raised:
        check_turn_codes(CLASSIC_RULES, before, rack, melds("B3 B4 B5 B6 B7", "R10 R11 R12"), False)
    assert raised.value.code == "initial_meld_touches_table"
    with pytest.raises(IllegalMove) as raised:
        check_turn_codes(
            CLASSIC_RULES,
            before,
            "B8 R10 R11 R12".split(),
            melds("B5 B6 B7 B8", "R10 R11 R12"),
            False,
        )
    assert raised.value.code == "initial_meld_touches_table"


def test_rush_opens_at_21() -> None:
    rush = RULES["rush"]
    check_turn_codes(rush, [], "R6 R7 R8".split(), melds("R6 R7 R8"), False)  # 21
    with pytest.raises(IllegalMove):
        check_turn_codes(rush, [], "R5 R6 R7".split(), melds("R5 R6 R7"), False)  # 18
    with pytest.raises(InvalidInput):
        check_turn_codes(rush, [], "R9 R10 R11".split(), melds("R9 R10 R11"), False)


def test_codes_beyond_the_set_are_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        check_turn_codes(CLASSIC_RULES, melds("R7 K7 Y7"), "R7 R7".split(), melds("R7 K7 Y7"), True)
    with pytest.raises(InvalidInput):
        check_turn_codes(CLASSIC_RULES, [["R7", 3]], [], [], True)  # type: ignore[list-item]


def test_ids_must_be_known_and_unique() -> None:
    kinds = CLASSIC.tiles
    with pytest.raises(InvalidInput):
        check_turn(CLASSIC_RULES, kinds, [[0, 2, 4]], [6], [[0, 2, 4, 6, 6]], True)
    with pytest.raises(InvalidInput):
        check_turn(CLASSIC_RULES, kinds, [[0, 2, 4]], [6], [[0, 2, 4, 999]], True)
    with pytest.raises(InvalidInput):
        check_turn(CLASSIC_RULES, kinds, [[0, 2, 4]], [4], [[0, 2, 4]], True)


def test_physical_copies_are_told_apart() -> None:
    # ids 12 and 13 are both K7; the one from the table must stay, the rack's may move.
    kinds = CLASSIC.tiles
    assert str(kinds[12]) == str(kinds[13]) == "K7"
    red7, yellow7 = 64, 90
    assert (str(kinds[red7]), str(kinds[yellow7])) == ("R7", "Y7")
    before = [[12, red7, yellow7]]
    with pytest.raises(IllegalMove) as raised:
        check_turn(CLASSIC_RULES, kinds, before, [13], [[13, red7, yellow7]], True)
    assert raised.value.code == "table_tile_taken"


def test_codes_count_a_twin_of_a_jokers_mate_as_its_mate() -> None:
    # In codes the two R6 cannot be told apart: the R7 lands beside an R6, so the joker is free.
    before = melds("R5 R6 J", "R6 K6 B6")
    after = melds("R5 R6", "R6 R7 R8", "K6 B6 Y6", "K1 K2 J")
    with pytest.raises(IllegalMove) as raised:  # R5 R6 alone is no meld
        check_turn_codes(CLASSIC_RULES, before, "R7 R8 Y6 K1 K2".split(), after, True)
    assert raised.value.code == "meld_invalid"
    after = melds("R4 R5 R6", "R6 R7 R8", "K6 B6 Y6", "K1 K2 J")
    played = check_turn_codes(CLASSIC_RULES, before, "R4 R7 R8 Y6 K1 K2".split(), after, True)
    assert len(played) == 6
