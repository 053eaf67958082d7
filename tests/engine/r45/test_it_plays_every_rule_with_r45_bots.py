"""Every Rummy 45 rule in the bots' hands (docs/rules-45.md "Bots"): every strength but the
easiest breaks the train, borrows jokers (into a first display too), stitches a 1 that is taken
back, takes the whole train with 3 tiles or fewer, goes out on the board with the left discard
or the trump, announces doubles and exchanges one, never a 1."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engine.r45.bots import choose_action
from games.engine.r45.state import (
    TILES,
    AnnounceDoubles,
    AnswerExchange,
    Borrow,
    BreakTrain,
    GoOut,
    OfferExchange,
    R45State,
    Ready,
    Stitch,
    TakeDiscard,
    TakeTrump,
    apply,
)
from games.engine.r45.views import view_for

from .positions import SEED, codes_of, play, position, tile_ids

STRONG = ["hard", "expert"]
DOUBLES_BUT_ONE = "R1 R1 K2 K2 B5 B5 Y9 Y9 R13 R13 K7 K7 B11 Y3"


def act(state: R45State, strength: str, seat: int = 0):  # type: ignore[no-untyped-def]
    return choose_action(view_for(state, seat), random.Random(3), strength)


@pytest.mark.parametrize("strength", STRONG)
def test_it_borrows_a_joker_into_a_new_display(strength: str) -> None:
    state = position(["R5 K9 B9 Y3 Y7", "B1 B2 B3"], melds=[(0, "Y11 Y12 Y13"), (1, "R4 J R6")])

    action = act(state, strength)

    assert isinstance(action, Borrow) and action.give == tile_ids(state, 0, "R5")
    after, _ = play(state, action)
    assert codes_of(after.melds[1].tiles) == "R4 R5 R6"
    assert any(TILES[t].is_joker for t in after.melds[-1].tiles) and after.melds[-1].owner == 0


@pytest.mark.parametrize("strength", STRONG)
def test_it_borrows_a_joker_into_its_first_display(strength: str) -> None:
    state = position(["R5 K9 K10 K11 K12 Y3 B7", "B1 B2 B3"], melds=[(1, "R4 J R6")])
    assert state.opened[0] == -1

    action = act(state, strength)

    assert isinstance(action, Borrow)
    after, events = play(state, action)
    assert after.opened[0] >= 0 and events[-1].first  # type: ignore[attr-defined]


@pytest.mark.parametrize("strength", STRONG)
def test_it_breaks_the_train_when_that_leaves_fewer_tiles(strength: str) -> None:
    state = position(["R5 R6 B2 K9", "B1 B2 B3"], melds=[(0, "Y11 Y12 Y13")], train="K1 R7 Y9 B9")

    action = act(state, strength)

    assert isinstance(action, BreakTrain) and action.start == 1
    after, _ = play(state, action)
    assert codes_of(after.racks[0]) == "B2" and codes_of(after.train) == "K1"


@pytest.mark.parametrize("strength", STRONG)
def test_with_three_tiles_or_fewer_it_takes_the_whole_train(strength: str) -> None:
    state = position(
        ["R5 R6 B2 K11", "B1 B2 B3"],
        melds=[(0, "Y11 Y12 Y13")],
        train="K1 R7 B13",
        few=[True, False],
    )

    action = act(state, strength)

    assert isinstance(action, BreakTrain) and action.start == 1
    after, _ = play(state, action)
    assert len(after.train) == 1


@pytest.mark.parametrize("strength", STRONG)
def test_it_stitches_a_1_first_and_takes_it_back(strength: str) -> None:
    state = position(
        ["K5 R1 B9", "B1 B2 B3"], melds=[(0, "K2 K3 K4"), (1, "R11 R12 R13")], trump="Y12"
    )

    action = act(state, strength)

    assert isinstance(action, Stitch) and action.tile == tile_ids(state, 0, "R1")[0]
    after, events = play(state, action)
    assert events[0].taken_back and codes_of(after.takebacks[0]) == "R1"  # type: ignore[attr-defined]
    assert after.melds[1].closed == (False, True)


@pytest.mark.parametrize("strength", STRONG)
def test_it_goes_out_on_the_board_with_the_left_discard(strength: str) -> None:
    state = position([DOUBLES_BUT_ONE, "B1 B2 B3"], train="K4 B11", taken=False)

    take = act(state, strength)

    assert take == TakeDiscard(0, (), on_board=True)
    taken, _ = play(state, take)
    out = act(taken, strength)
    assert isinstance(out, GoOut) and TILES[out.tile] == TILES[tile_ids(taken, 0, "Y3")[0]]
    over, _ = play(taken, out)
    assert over.reason == "on_board" and over.winner == 0 and over.scores[0] == 800


@pytest.mark.parametrize("strength", STRONG)
def test_it_takes_the_trump_as_its_last_tile(strength: str) -> None:
    state = position([DOUBLES_BUT_ONE, "B1 B2 B3"], train="K4 Y8", taken=False, trump="B11")

    action = act(state, strength)

    assert isinstance(action, TakeTrump) and action.discard == tile_ids(state, 0, "Y3")[0]
    over, _ = play(state, action)
    assert over.reason == "on_board" and over.winner == 0


def test_the_easy_bot_does_none_of_it() -> None:
    state = position([DOUBLES_BUT_ONE, "B1 B2 B3"], train="K4 B11", taken=False)
    assert act(state, "easy").__class__.__name__ == "Draw"


def setup(racks: list[str], doubles: tuple[tuple[str, ...], ...] = ((), ())) -> R45State:
    state = position(racks, trump="K13")
    return replace(state, phase="setup", ready=(False,) * len(racks), doubles=doubles, taken=False)


@pytest.mark.parametrize("strength", STRONG)
def test_it_announces_its_doubles(strength: str) -> None:
    state = setup(["R1 R1 K5 K5 B10 B10 Y3", "B1 B2 B3"])

    assert act(state, strength) == AnnounceDoubles(0, ("small", "big"))


@pytest.mark.parametrize("strength", STRONG)
def test_it_offers_one_exchange_never_a_1(strength: str) -> None:
    state = setup(["R1 R1 K5 K5 B10 Y3", "B1 B2 B3 B3"], doubles=(("small",), ("small",)))

    offer = act(state, strength)

    assert isinstance(offer, OfferExchange) and offer.to == 1
    assert TILES[offer.give] == TILES[tile_ids(state, 0, "K5")[0]]
    offered, _ = play(state, offer)
    declined, _ = play(offered, AnswerExchange(1, None))
    assert act(declined, strength) == Ready(0)  # one offer, not one for ever


@pytest.mark.parametrize("strength", STRONG)
def test_it_answers_an_exchange_keeping_its_1s(strength: str) -> None:
    state = setup(["R1 R1 K5 K5 B10 Y3", "B1 B2 B3 B3"], doubles=(("small",), ("small",)))
    offered, _ = play(state, OfferExchange(1, 0, tile_ids(state, 1, "B3")[0]))

    answer = act(offered, strength)

    assert isinstance(answer, AnswerExchange) and answer.give is not None
    assert TILES[answer.give].number == 5
    only_ones = setup(["R1 R1 K5 B10 Y3", "B1 B2 B3 B3"], doubles=(("small",), ("small",)))
    offered, _ = play(only_ones, OfferExchange(1, 0, tile_ids(only_ones, 1, "B3")[0]))
    assert act(offered, strength) == AnswerExchange(0, None)


def test_setup_positions_are_legal() -> None:
    state = setup(["R1 R1 K5 K5 B10 Y3", "B1 B2 B3 B3"])
    apply(state, AnnounceDoubles(0, ("small",)), SEED)
