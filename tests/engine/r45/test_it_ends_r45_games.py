"""Winning, playing on the board, running out and end scoring (docs/rules-45.md "Winning",
"Playing on the board", "End scoring", "Later turns")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.r45.events import GameEnded, StockRenewed, TileDrawn, WentOutOnBoard
from games.engine.r45.scoring import seat_score
from games.engine.r45.state import Discard, Draw, GoOut, TakeDiscard, TakeTrump, apply
from games.engine.tiles import parse_tiles

from .positions import SEED, play, position, tile_ids

DOUBLES = "R1 R1 K2 K2 B5 B5 Y9 Y9 R13 R13 K7 K7 B11 B11"


def test_the_last_discard_wins_worth_50_and_a_joker_doubles_it() -> None:
    melds = [(0, "R10 R11 R12"), (1, "K2 K3 K4"), (0, "Y5 Y6 Y7")]
    state = position(["B4", "B1 B2 R5 J"], melds=melds)
    after, events = play(state, Discard(0, state.racks[0][0]))
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "went_out" and end.winner == 0
    # Seat 0: 30 + 15 displayed + 50 for the winning tile; seat 1: 15 - (25 + 5 + 5 + 50).
    assert end.scores == (95, -70) and after.finished and after.seed == SEED.hex()
    joker = position(["J", "B1 B2 R5 B4"], melds=melds)
    _, events = play(joker, Discard(0, joker.racks[0][0]))
    assert events[-1].scores == (190, 15 - 40)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("trump", "shown", "scores"),
    [
        ("Y13", -1, (95, -100)),
        ("Y13", 1, (95, -50)),  # the trump shown: +50, win or lose
        ("Y1", 1, (190, -100)),  # a trump of 1 doubles everyone, minus points too
    ],
)
def test_the_trump_adds_50_and_a_trump_of_1_doubles(
    trump: str, shown: int, scores: tuple[int, int]
) -> None:
    melds = [(0, "R10 R11 R12"), (0, "Y5 Y6 Y7")]
    state = position(["B4", DOUBLES], melds=melds, trump=trump, trump_shown=shown)
    _, events = play(state, Discard(0, state.racks[0][0]))
    assert events[-1].scores == scores  # type: ignore[attr-defined]


def test_going_out_on_the_board_scores_the_combination_and_no_50() -> None:
    state = position([DOUBLES + " K8", "B1 B2 R5"], on_board=[True, False])
    after, events = play(state, GoOut(0, tile_ids(state, 0, "K8")[0]))
    assert isinstance(events[0], WentOutOnBoard) and events[0].combination == "doubles"
    assert events[-1] == GameEnded("on_board", 0, (800, -100), after.racks, SEED.hex())


@pytest.mark.parametrize(
    ("hand", "discard", "changes", "code"),
    [
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 K5 K8 Y9", "Y9", {}, "no_combination"),
        (DOUBLES + " K8", "K8", {"opened": (0, -1)}, "displayed"),
        (DOUBLES + " K8", "K8", {"taken": False}, "take_first"),
    ],
)
def test_going_out_on_the_board_is_refused(
    hand: str, discard: str, changes: dict[str, object], code: str
) -> None:
    state = replace(position([hand, "B1 B2 R5"]), **changes)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove) as caught:
        apply(state, GoOut(0, tile_ids(state, 0, discard)[0]), SEED)
    assert caught.value.code == code


def test_a_perfect_hand_may_go_out_in_the_first_round() -> None:
    state = position([DOUBLES + " K8", "B1 B2 R5"], turn_number=0)
    _, events = play(state, GoOut(0, tile_ids(state, 0, "K8")[0]))
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "on_board"


def test_the_trump_may_be_the_last_tile_of_a_game_on_the_board() -> None:
    hand = DOUBLES.replace("B11 B11", "B11 K8")
    state = position([hand, "B1 B2 R5"], trump="B11", taken=False)
    after, events = play(state, TakeTrump(0, tile_ids(state, 0, "K8")[0]))
    assert not after.trump_up and events[-1].winner == 0  # type: ignore[attr-defined]
    assert isinstance(events[1], WentOutOnBoard) and events[1].points == 800
    for changes, code in [
        ({"opened": (0, -1)}, "displayed"),
        ({"trump_up": False}, "no_trump"),
        ({"turn_number": 1}, "first_round"),
        ({"taken": True}, "taken"),
    ]:
        with pytest.raises(IllegalMove) as caught:
            apply(replace(state, **changes), TakeTrump(0, state.racks[0][0]), SEED)  # type: ignore[arg-type]
        assert caught.value.code == code


def test_an_announced_game_on_the_board_that_does_not_win_scores_minus_200() -> None:
    state = position(["B4", DOUBLES], melds=[(0, "R10 R11 R12")], on_board=[False, True])
    _, events = play(state, Discard(0, state.racks[0][0]))
    assert events[-1].scores == (30 + 50, -200)  # type: ignore[attr-defined]


def test_stitched_tiles_and_taken_back_ones_count_for_the_stitcher() -> None:
    state = position(
        ["B4", "B1 B2 B3"], melds=[(1, "K10 K11 K12"), (0, "R5 R6 R7")], takebacks=["Y1", ""]
    )
    state = replace(state, melds=(replace(state.melds[0], credits=(1, 1, 0)),) + state.melds[1:])
    _, events = play(state, Discard(0, state.racks[0][0]))
    # Seat 0: K12 (10) + R5 R6 R7 (15) + the taken-back Y1 (25) + 50; seat 1: 20 - 35.
    assert events[-1].scores == (100, -15)  # type: ignore[attr-defined]


def test_the_train_but_the_locomotive_renews_the_stock() -> None:
    state = position(["B4 K4", "B1 B2 B3"], train="K9 Y2 R8 B6", stock="", taken=False)
    after, events = play(state, Draw(0))
    assert isinstance(events[0], StockRenewed) and isinstance(events[1], TileDrawn)
    assert sorted(events[0].stock) == sorted(state.train[1:])
    assert after.train == state.train[:1] and after.renewals == 1 and len(after.stock) == 2
    with pytest.raises(InvalidInput):
        apply(state, Draw(0))  # a renewal needs the seed


def test_when_nothing_is_left_the_game_ends_without_winner_or_50s() -> None:
    state = position(
        ["B4 K4", "B1 B2 B3"],
        train="K9",
        stock="",
        taken=False,
        melds=[(0, "R10 R11 R12")],
        trump_shown=0,
    )
    after, events = play(state, Draw(0))
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "exhausted" and end.winner == -1
    assert end.scores == (30 - 10, -100) and after.finished
    with pytest.raises(IllegalMove):
        apply(after, Draw(1), SEED)


def test_the_left_discard_cannot_be_taken_once_the_train_is_renewed() -> None:
    state = position(["R9 R10 R11 R12 K1", "B1 B2 B3"], train="R13", taken=False)
    with pytest.raises(IllegalMove) as caught:
        apply(state, TakeDiscard(0, ((1, 2, 3),)), SEED)
    assert caught.value.code == "no_discard"


@pytest.mark.parametrize(
    ("kwargs", "points"),
    [
        ({"credited": "R10 R11 R12", "left": "K5", "displayed": True}, 25),
        ({"credited": "", "left": "K5 K6", "displayed": False}, -100),
        ({"credited": "", "left": "", "displayed": False, "announced_board": True}, -200),
        ({"credited": "R1 R2 R3", "left": "", "displayed": True, "winner": True}, 85),
        (
            {
                "credited": "J R2 R3",
                "left": "",
                "displayed": True,
                "winner": True,
                "winning_joker": True,
            },
            220,
        ),
        (
            {
                "credited": "",
                "left": "",
                "displayed": False,
                "winner": True,
                "board_points": 75,
                "winning_joker": True,
                "trump_shown": True,
                "trump_one": True,
            },
            400,
        ),
        (
            {
                "credited": "R10",
                "left": "K1",
                "displayed": True,
                "trump_shown": True,
                "exhausted": True,
            },
            -15,
        ),
        ({"credited": "R10", "left": "K1", "displayed": True, "trump_one": True}, -30),
    ],
)
def test_end_scoring(kwargs: dict[str, object], points: int) -> None:
    credited = parse_tiles(str(kwargs.pop("credited")).split())
    left = parse_tiles(str(kwargs.pop("left")).split())
    displayed = bool(kwargs.pop("displayed"))
    assert seat_score(credited, left, displayed, **kwargs) == points  # type: ignore[arg-type]
