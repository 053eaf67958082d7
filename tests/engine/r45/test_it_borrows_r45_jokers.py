"""Borrowing jokers and the three-tiles announcement (docs/rules-45.md "Borrowing jokers")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.r45.events import FewTilesAnnounced, JokerBorrowed
from games.engine.r45.state import TILES, Borrow, Discard, Stitch, TakeDiscard, apply

from .positions import SEED, codes_of, play, position, tile_ids


def joker_of(state, meld: int) -> int:  # type: ignore[no-untyped-def]
    return next(t for t in state.melds[meld].tiles if TILES[t].is_joker)


@pytest.mark.parametrize(
    ("meld", "give", "after", "outcome"),
    [
        ("R4 J R6", "R5", "R4 R5 R6", "ok"),  # the holder of the tile the joker stands for
        ("R4 J R6", "K5", "", "no_joker"),
        ("R11 R12 J", "R13", "R11 R12 R13", "ok"),
        ("R12 R13 J", "R1", "R12 R13 R1", "ok"),  # the joker was the 1 after 13
        ("R7 K7 B7 J", "Y7", "R7 K7 B7 Y7", "ok"),  # one tile completes the set
        ("R7 K7 J", "B7 Y7", "R7 K7 B7 Y7", "ok"),  # two tiles missing: both given
        ("R7 K7 J", "B7", "", "no_joker"),  # one of two: a stitch, not a borrow
        ("R7 K7 B7", "Y7", "", "no_joker"),  # no joker there
    ],
)
def test_a_joker_is_borrowed_by_who_puts_in_its_tile(
    meld: str, give: str, after: str, outcome: str
) -> None:
    state = position([f"{give} K9 B9 Y3", "B1 B2 B3"], melds=[(1, meld), (0, "Y11 Y12 Y13")])
    jokers = [t for t in state.melds[0].tiles if TILES[t].is_joker]
    new = (jokers[0] if jokers else 105,) + tile_ids(state, 0, "K9 B9")
    action = Borrow(0, 0, tile_ids(state, 0, give), (new,))
    if outcome != "ok":
        with pytest.raises(IllegalMove) as caught:
            apply(state, action, SEED)
        assert caught.value.code == outcome
        return
    borrowed, events = play(state, action)
    assert isinstance(events[0], JokerBorrowed)
    assert codes_of(borrowed.melds[0].tiles) == after
    assert borrowed.melds[-1].tiles == new and borrowed.melds[-1].owner == 0
    assert borrowed.melds[0].credits == (1,) * len(borrowed.melds[0].tiles)
    assert codes_of(borrowed.racks[0]) == "Y3"


def test_with_two_tiles_missing_the_second_tile_takes_the_joker() -> None:
    state = position(
        ["B7 K2", "Y7 R1 R2 K5", "B1 B2 B3"],
        melds=[(2, "R7 K7 J"), (0, "Y11 Y12 Y13"), (1, "K10 K11 K12")],
    )
    stitched, _ = play(state, Stitch(0, tile_ids(state, 0, "B7")[0], 0))
    assert codes_of(stitched.melds[0].tiles) == "R7 K7 J B7"
    stitched = replace(stitched, turn=1, taken=True)
    joker = joker_of(stitched, 0)
    new = tile_ids(stitched, 1, "R1 R2") + (joker,)
    after, _ = play(stitched, Borrow(1, 0, tile_ids(stitched, 1, "Y7"), (new,)))
    assert codes_of(after.melds[0].tiles) == "R7 K7 B7 Y7" and after.melds[-1].tiles == new
    assert after.melds[0].credits == (2, 2, 0, 2)  # Y7 counts for whoever the joker did


def test_a_borrowed_joker_goes_straight_into_a_new_display() -> None:
    state = position(["R5 K9 B9 Y3", "B1 B2 B3"], melds=[(1, "R4 J R6"), (0, "Y11 Y12 Y13")])
    give = tile_ids(state, 0, "R5")
    with pytest.raises(IllegalMove) as caught:
        apply(state, Borrow(0, 0, give, (tile_ids(state, 0, "K9 B9 Y3"),)), SEED)
    assert caught.value.code in {"use_joker", "meld_invalid"}
    with pytest.raises(IllegalMove) as caught:
        apply(state, Borrow(0, 0, give, ()), SEED)
    assert caught.value.code == "use_joker"
    with pytest.raises(InvalidInput):
        apply(state, Borrow(0, 0, (), ()), SEED)


def test_a_joker_face_down_at_a_closed_end_stays() -> None:
    state = position(["R13 K9 B9 Y3", "B1 B2 B3"], melds=[(1, "R11 R12 J"), (0, "Y11 Y12 Y13")])
    state = replace(state, melds=(replace(state.melds[0], closed=(False, True)),) + state.melds[1:])
    new = (joker_of(state, 0),) + tile_ids(state, 0, "K9 B9")
    with pytest.raises(IllegalMove) as caught:
        apply(state, Borrow(0, 0, tile_ids(state, 0, "R13"), (new,)), SEED)
    assert caught.value.code == "no_joker"


def test_three_tiles_or_fewer_are_announced_and_limit_the_train() -> None:
    state = position(["R5 K9 B9 Y3", "B1 B2 B3 K1 K2"], melds=[(0, "Y11 Y12 Y13")])
    after, events = play(state, Discard(0, tile_ids(state, 0, "R5")[0]))
    assert events[-1] == FewTilesAnnounced(0, 3) and after.few[0]
    after = replace(after, turn=0, taken=False)
    with pytest.raises(IllegalMove) as caught:
        apply(after, TakeDiscard(0, ((1, 2, 3),)), SEED)
    assert caught.value.code == "few_tiles"
    # When the train but the locomotive is one tile, taking it is taking all of it.
    whole = position(["R9 R10 K3", "B1 B2 B3"], train="K9 R8", few=[True, False], taken=False)
    whole = replace(whole, melds=after.melds, opened=(0, -1))
    run = whole.train[-1:] + tile_ids(whole, 0, "R9 R10")
    taken, _ = play(whole, TakeDiscard(0, (run,)))
    assert taken.train == whole.train[:1] and codes_of(taken.racks[0]) == "K3"


def test_a_board_back_above_three_tiles_is_no_longer_short() -> None:
    state = position(
        ["R5 K9 B9 Y3 Y4 Y8", "B1 B2 B3"], melds=[(0, "Y11 Y12 Y13")], few=[True, False]
    )
    after, events = play(state, Discard(0, tile_ids(state, 0, "R5")[0]))
    assert not after.few[0] and not any(isinstance(e, FewTilesAnnounced) for e in events)


def test_before_a_first_display_a_borrow_goes_into_a_first_display_of_45() -> None:
    state = position(
        ["R5 K9 K10 K11 K12 Y3", "B1 B2 B3"],
        melds=[(1, "R4 J R6"), (1, "K2 K3 K4")],
    )
    assert state.opened[0] == -1
    joker = joker_of(state, 0)
    sets = tile_ids(state, 0, "K9 K10 K11 K12") + (joker,)  # 35, and the joker's K13: 45

    after, events = play(state, Borrow(0, 0, tile_ids(state, 0, "R5"), (sets,)))

    assert isinstance(events[0], JokerBorrowed)
    assert events[1].first and after.opened[0] == state.turn_number  # type: ignore[attr-defined]
    assert codes_of(after.melds[0].tiles) == "R4 R5 R6"
    assert after.melds[-1].tiles == sets and after.melds[-1].owner == 0


@pytest.mark.parametrize(
    ("rack", "display", "code"),
    [
        # 15 points with the joker: short of 45.
        ("R5 K9 B9 Y3 Y4", "K9 B9", "display_short"),
        # Two sets only, though worth 80: a first display of sets needs 3 sets.
        ("R5 K12 B12 Y12 K13 B13 Y13 R13 Y3", "K12 B12 Y12 | K13 B13 Y13 R13", "display_sets"),
    ],
)
def test_before_a_first_display_a_borrow_short_of_its_rules_is_refused(
    rack: str, display: str, code: str
) -> None:
    state = position([rack, "B1 B2 B3"], melds=[(1, "R4 J R6"), (1, "K2 K3 K4")])
    joker = joker_of(state, 0)
    parts = display.split(" | ")
    melds = (tile_ids(state, 0, parts[0]) + (joker,),) + tuple(
        tile_ids(state, 0, p) for p in parts[1:]
    )

    with pytest.raises(IllegalMove) as caught:
        apply(state, Borrow(0, 0, tile_ids(state, 0, "R5"), melds), SEED)

    assert caught.value.code == code


def test_before_a_first_display_a_borrow_still_waits_for_the_first_round_and_a_take() -> None:
    state = position(["R5 K12 B12 Y12 R12 Y3", "B1 B2 B3"], melds=[(1, "R4 J R6")], turn_number=1)
    joker = joker_of(state, 0)
    action = Borrow(0, 0, tile_ids(state, 0, "R5"), (tile_ids(state, 0, "K12 B12 Y12") + (joker,),))
    with pytest.raises(IllegalMove) as caught:
        apply(state, action, SEED)
    assert caught.value.code == "first_round"
    with pytest.raises(IllegalMove) as caught:
        apply(replace(state, turn_number=10, taken=False), action, SEED)
    assert caught.value.code == "take_first"
