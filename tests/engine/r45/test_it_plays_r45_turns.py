"""Rummy 45 turns, rule by rule (docs/rules-45.md): each case a position, an action, an outcome."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.r45.events import (
    DiscardTaken,
    Displayed,
)
from games.engine.r45.state import (
    TILES,
    BreakTrain,
    Discard,
    Display,
    Stitch,
    TakeDiscard,
    apply,
)
from games.engine.tiles import Tile

from .positions import SEED, codes_of, play, position, tile_ids


def refused(state, action, code: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as caught:
        apply(state, action, SEED)
    assert caught.value.code == code, caught.value.message


# Displays ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rack", "melds", "outcome"),
    [
        ("R9 R10 R11 R12 R13 K5", ["R9 R10 R11 R12 R13"], "ok"),  # one run of 45
        ("R12 R13 R1 K1 K2 K3 Y5", ["R12 R13 R1", "K1 K2 K3"], "ok"),  # 30 + 15
        ("R5 K5 B5 R6 K6 B6 R7 K7 B7 Y9", ["R5 K5 B5", "R6 K6 B6", "R7 K7 B7"], "ok"),  # 3 sets, 45
        (
            "R10 K10 B10 R11 K11 B11 Y9",
            ["R10 K10 B10", "R11 K11 B11"],
            "display_sets",
        ),  # 60, 2 sets
        ("R2 R3 R4 R5 R6 R7 R8 K1", ["R2 R3 R4 R5 R6 R7 R8"], "display_short"),  # 35
        ("R13 R1 R2 K5", ["R13 R1 R2"], "meld_invalid"),
        ("R9 R10 R11 R12 R13", ["R9 R10 R11 R12 R13"], "keep_one"),
        ("R9 R10 R11 R12 J K4", ["R9 R10 R11 R12 J"], "ok"),  # the joker is R13: 10
        ("J R10 R11 R12 R13 K4", ["J R10 R11 R12 R13"], "ok"),  # the joker is R9: 5
    ],
)
def test_a_first_display_needs_45_points_and_three_sets_of_sets(
    rack: str, melds: list[str], outcome: str
) -> None:
    state = position([rack, "B1 B2 B3"])
    action = Display(0, tuple(tile_ids(state, 0, m) for m in melds))
    if outcome != "ok":
        refused(state, action, outcome)
        return
    after, events = play(state, action)
    assert isinstance(events[0], Displayed) and events[0].first
    assert after.opened[0] == state.turn_number and len(after.melds) == len(melds)


def test_after_a_first_display_the_player_only_discards_until_the_next_turn() -> None:
    state = position(["R9 R10 R11 R12 R13 K5 K6 K7 B5 Y5", "B1 B2 B3 R4"], melds=[(1, "Y8 Y9 Y10")])
    after, _ = play(state, Display(0, (tile_ids(state, 0, "R9 R10 R11 R12 R13"),)))
    refused(after, Display(0, (tile_ids(after, 0, "K5 K6 K7"),)), "wait_a_round")
    refused(after, Stitch(0, tile_ids(after, 0, "K7")[0], 0), "wait_a_round")
    after, _ = play(after, Discard(0, tile_ids(after, 0, "B5")[0]))
    assert after.turn == 1 and not after.taken


def test_later_displays_need_only_valid_melds() -> None:
    state = position(["R2 R3 R4 K8", "B1 B2 B3"], opened=[0, -1])
    after, events = play(state, Display(0, (tile_ids(state, 0, "R2 R3 R4"),)))
    assert isinstance(events[0], Displayed) and not events[0].first and after.opened[0] == 0


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"taken": False}, "take_first"),
        ({"turn_number": 1}, "first_round"),
        ({"on_board": (True, False)}, "on_board"),
    ],
)
def test_a_display_waits_for_its_moment(changes: dict[str, object], code: str) -> None:
    state = replace(position(["R9 R10 R11 R12 R13 K5", "B1 B2 B3"]), **changes)  # type: ignore[arg-type]
    refused(state, Display(0, (tile_ids(state, 0, "R9 R10 R11 R12 R13"),)), code)


# Taking the left player's discard ----------------------------------------------------------


def test_the_left_discard_must_be_used_in_the_display_at_once() -> None:
    state = position(["R9 R10 R11 R12 K1 K5", "B1 B2 B3"], train="K9 Y2 R13", taken=False)
    discard = state.train[-1]
    run = tile_ids(state, 0, "R9 R10 R11 R12") + (discard,)
    after, events = play(state, TakeDiscard(0, (run,)))
    assert isinstance(events[0], DiscardTaken) and isinstance(events[1], Displayed)
    assert after.train == state.train[:-1] and after.opened[0] == state.turn_number
    refused(state, TakeDiscard(0, (tile_ids(state, 0, "R9 R10 R11 R12"),)), "use_discard")


@pytest.mark.parametrize(
    ("changes", "train", "code"),
    [
        ({}, "K9 Y2 R8", "display_short"),  # R8-R12 is 40
        ({"turn_number": 1}, "K9 Y2 R13", "first_round"),
        ({}, "R13", "no_discard"),  # the locomotive stays
        ({"taken": True}, "K9 Y2 R13", "taken"),
        ({"few": (True, False)}, "K9 Y2 R13", "few_tiles"),
    ],
)
def test_taking_the_left_discard_is_refused(
    changes: dict[str, object], train: str, code: str
) -> None:
    state = replace(
        position(["R9 R10 R11 R12 K1 K5", "B1 B2 B3"], train=train, taken=False),
        **changes,  # type: ignore[arg-type]
    )
    run = sorted(
        tile_ids(state, 0, "R9 R10 R11 R12") + state.train[-1:], key=lambda t: TILES[t].number
    )
    refused(state, TakeDiscard(0, (tuple(run),)), code)


def test_taking_the_discard_to_play_on_the_board_announces_it() -> None:
    state = position(["R9 R10 R11 R12 K1 K5", "B1 B2 B3"], train="K9 Y2 R13", taken=False)
    after, events = play(state, TakeDiscard(0, on_board=True))
    assert events == [DiscardTaken(0, state.train[-1], True)] and after.on_board[0]
    refused(after, Display(0, (tile_ids(after, 0, "R9 R10 R11 R12 R13"),)), "on_board")
    displayed = replace(state, opened=(0, -1))
    refused(displayed, TakeDiscard(0, on_board=True), "displayed")
    with pytest.raises(InvalidInput):
        apply(state, TakeDiscard(0, ((1, 2, 3),), on_board=True), SEED)


# Stitching ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "tile", "end", "outcome", "after"),
    [
        ("R7 K7 B7", "Y7", "", "ok", "R7 K7 B7 Y7"),
        ("R7 K7 J", "B7", "", "ok", "R7 K7 J B7"),
        ("R7 K7 B7 Y7", "Y7", "", "set_closed", ""),
        ("R7 K7 B7", "R7", "", "no_fit", ""),
        ("R4 R5 R6", "R3", "", "ok", "R3 R4 R5 R6"),
        ("R4 R5 R6", "R7", "", "ok", "R4 R5 R6 R7"),
        ("R4 R5 R6", "R8", "", "no_fit", ""),
        ("R4 R5 R6", "K7", "", "no_fit", ""),
        ("R4 R5 R6", "J", "", "which_end", ""),
        ("R4 R5 R6", "J", "low", "ok", "J R4 R5 R6"),
        ("R4 R5 R6", "R7", "low", "no_fit", ""),
        ("R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", "R1", "", "which_end", ""),
        (
            "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12",
            "R13",
            "",
            "ok",
            "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13",
        ),
    ],
)
def test_stitching_fits_sets_to_four_and_runs_at_either_end(
    meld: str, tile: str, end: str, outcome: str, after: str
) -> None:
    state = position([f"{tile} K2", "B1 B2 B3"], melds=[(1, meld), (0, "Y11 Y12 Y13")])
    action = Stitch(0, tile_ids(state, 0, tile)[0], 0, end)
    if outcome != "ok":
        refused(state, action, outcome)
        return
    stitched, _ = play(state, action)
    assert codes_of(stitched.melds[0].tiles) == after
    placed = stitched.melds[0].tiles.index(action.tile)
    assert stitched.melds[0].credits[placed] == 0  # the stitch counts for the stitcher
    assert stitched.melds[0].owner == 1


@pytest.mark.parametrize(("meld", "end"), [("R11 R12 R13", "high"), ("R2 R3 R4", "low")])
def test_a_stitched_1_is_taken_back_and_closes_its_end(meld: str, end: str) -> None:
    state = position(["R1 K2", "B1 B2 B3"], melds=[(1, meld), (0, "Y11 Y12 Y13")])
    one = tile_ids(state, 0, "R1")[0]
    after, _ = play(state, Stitch(0, one, 0))
    assert after.takebacks[0] == (one,) and after.melds[0].tiles == state.melds[0].tiles
    assert after.melds[0].closed == ((True, False) if end == "low" else (False, True))
    joker = position(["J K2", "B1 B2 B3"], melds=[(1, meld), (0, "Y11 Y12 Y13")])
    joker = replace(joker, melds=after.melds)
    refused(joker, Stitch(0, tile_ids(joker, 0, "J")[0], 0, end), "no_fit")


@pytest.mark.parametrize(
    ("changes", "code"),
    [({"opened": (-1, 0)}, "not_displayed"), ({"taken": False}, "take_first")],
)
def test_stitching_needs_an_earlier_display(changes: dict[str, object], code: str) -> None:
    state = position(["Y7 K2", "B1 B2 B3"], melds=[(1, "R7 K7 B7"), (0, "Y11 Y12 Y13")])
    refused(replace(state, **changes), Stitch(0, tile_ids(state, 0, "Y7")[0], 0), code)  # type: ignore[arg-type]


def test_stitching_keeps_a_tile_to_discard() -> None:
    state = position(["Y7", "B1 B2 B3"], melds=[(1, "R7 K7 B7"), (0, "Y11 Y12 Y13")])
    refused(state, Stitch(0, tile_ids(state, 0, "Y7")[0], 0), "keep_one")
    state = position(["Y7 K2", "B1 B2 B3"], melds=[(1, "R7 K7 B7"), (0, "Y11 Y12 Y13")])
    with pytest.raises(InvalidInput):
        apply(state, Stitch(0, tile_ids(state, 0, "Y7")[0], 7), SEED)


# Breaking the train ------------------------------------------------------------------------


def test_breaking_the_train_takes_every_discard_after_the_first_one_used() -> None:
    state = position(
        ["R9 R10 K3 K5", "B1 B2 B3"], train="K9 Y2 R8 B4 K13", melds=[(0, "Y11 Y12 Y13")]
    )
    r8 = state.train[2]
    after, events = play(state, BreakTrain(0, 2, ((r8,) + tile_ids(state, 0, "R9 R10"),)))
    assert after.train == state.train[:2]
    assert codes_of(after.racks[0]) == "K3 K5 K13 B4"
    assert isinstance(events[1], Displayed) and codes_of(events[1].melds[0]) == "R8 R9 R10"


@pytest.mark.parametrize(
    ("rack", "train", "start", "meld", "few", "outcome"),
    [
        ("R9 K3 K5 B2", "K9 Y2 R7 R8", 2, "R7 R8 R9", False, "train_use"),  # one own tile
        ("R9 R10 K3 K5", "K9 Y2 R8", 0, "K9 Y2 R8", False, "no_train"),  # the locomotive
        ("R9 R10 K3", "K9 Y2 R8", 2, "R8 R9 R10", True, "few_tiles"),  # all of it, when few
        ("R9 K3", "K9 R7 R8 Y2", 1, "R7 R8 R9", True, "ok"),  # all of it, one own tile
    ],
)
def test_breaking_the_train_needs_two_own_tiles_or_all_of_it(
    rack: str, train: str, start: int, meld: str, few: bool, outcome: str
) -> None:
    state = position([rack, "B1 B2 B3"], train=train, melds=[(0, "Y11 Y12 Y13")], few=[few, False])
    pool = {TILES[t]: t for t in state.train} | {TILES[t]: t for t in state.racks[0]}
    ids = tuple(pool[Tile.parse(code)] for code in meld.split())
    action = BreakTrain(0, start, (ids,))
    if outcome != "ok":
        refused(state, action, outcome)
        return
    after, _ = play(state, action)
    assert after.train == state.train[:1] and codes_of(after.racks[0]) == "K3 Y2"
