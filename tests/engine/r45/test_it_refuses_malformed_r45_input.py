"""Malformed Rummy 45 input gets a clear error, and views hide what they must (docs/rules-45.md
"Secrecy"): events, records, actions and bot calls."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.r45.bots import choose_action
from games.engine.r45.events import (
    EVENT_VERSION,
    Discarded,
    DoublesExchanged,
    ExchangeOffered,
    R45Started,
    StockRenewed,
    event_from_dict,
    upgraded,
)
from games.engine.r45.state import (
    AnnounceDoubles,
    AnswerExchange,
    Borrow,
    Discard,
    Display,
    Draw,
    OfferExchange,
    Ready,
    Stitch,
    TakeDiscard,
    action_from_dict,
    apply,
    evolve,
    new_game,
    replay,
    state_from_record,
    state_to_record,
)
from games.engine.r45.views import event_for, view_for

from .positions import SEED, position, tile_ids


@pytest.mark.parametrize(
    "data",
    [
        "Discarded",
        {"kind": "Frobnicated"},
        {"kind": "Discarded", "seat": 1},
        {"kind": "Discarded", "seat": 1, "tile": 2, "v": EVENT_VERSION + 1},
        {"kind": "Discarded", "seat": 1, "tile": 2, "v": 0},
        {"kind": "Discarded", "seat": 1, "tile": 2, "v": True},
    ],
)
def test_a_malformed_event_is_refused(data: object) -> None:
    with pytest.raises(InvalidInput):
        event_from_dict(data)


def test_events_upgrade_and_records_start_with_the_game() -> None:
    assert upgraded({"kind": "Discarded", "seat": 0, "tile": 1})["v"] == EVENT_VERSION
    with pytest.raises(InvalidInput):
        replay([Discarded(0, 1)])
    with pytest.raises(InvalidInput):
        replay([])
    with pytest.raises(InvalidInput):
        evolve(replay([R45Started(2, "00")]), "not an event")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        state_from_record({"players": 2})
    state, _ = new_game(2, SEED)
    record = state_to_record(state)
    with pytest.raises(InvalidInput):
        state_from_record({**record, "colour": "red"})


@pytest.mark.parametrize(
    "melds",
    ["R1 R2 R3", [[1, 2, True]], [[1, 2, 2]], [(1, "2", 3)], ["abc"]],
)
def test_malformed_melds_are_refused(melds: object) -> None:
    state = position(["R9 R10 R11 R12 R13 K5", "B1 B2 B3"])
    with pytest.raises(InvalidInput):
        apply(state, Display(0, melds), SEED)  # type: ignore[arg-type]


def test_tiles_must_be_the_players_own() -> None:
    state = position(["R9 R10 R11 R12 R13 K5", "B1 B2 B3"])
    with pytest.raises(IllegalMove) as caught:
        apply(state, Display(0, (state.racks[1],)), SEED)
    assert caught.value.code == "not_your_tile"
    with pytest.raises(InvalidInput):
        apply(state, Discard(0, "R9"), SEED)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove):
        apply(state, Discard(0, state.racks[1][0]), SEED)


def test_offers_and_exchanges_show_their_tiles_only_to_the_two_players() -> None:
    state = position(["K2 K2 B5", "Y7 Y7 B1", "R4 K4 B4"], taken=False, turn_number=0)
    state = replace(state, phase="setup", ready=(False,) * 3, doubles=(("small",), ("medium",), ()))
    give = tile_ids(state, 0, "K2")[0]
    for to in (0, 7, "1"):
        with pytest.raises(InvalidInput):
            apply(state, OfferExchange(0, to, give), SEED)  # type: ignore[arg-type]
    offered, events = apply(state, OfferExchange(0, 1, give), SEED)
    assert event_for(events[0], 0)["give"] == give and event_for(events[0], 1)["give"] is None
    assert view_for(offered, 0)["offer"]["give"] == give
    assert view_for(offered, 1)["offer"] == {"seat": 0, "to": 1, "size": "small", "give": None}
    exchanged = DoublesExchanged(1, 0, 77, give)
    assert event_for(exchanged, 1)["given"] == 77 and event_for(exchanged, 0)["taken"] == give
    hidden = event_for(exchanged, 2)
    assert hidden["given"] is None and hidden["size_given"] == "big"
    assert isinstance(event_for(ExchangeOffered(0, 1, give, "small"), None)["size"], str)
    assert event_for(StockRenewed((1, 2, 3)), 0)["stock"] == 3


def test_bots_are_called_for_a_seat_that_acts() -> None:
    state, _ = new_game(2, SEED)
    rng = random.Random(1)
    with pytest.raises(InvalidInput):
        choose_action(view_for(state, 0), rng, "grandmaster")
    with pytest.raises(InvalidInput):
        choose_action(view_for(state, None), rng, "easy")
    ready, _ = apply(state, Ready(0), SEED)
    with pytest.raises(InvalidInput):
        choose_action(view_for(ready, 0), rng, "hard")
    assert choose_action(view_for(ready, 1), rng, "hard") == Ready(1)


@pytest.mark.parametrize(
    ("data", "action"),
    [
        ({"action": "Draw"}, Draw(1)),
        ({"action": "Discard", "tile": 4}, Discard(1, 4)),
        ({"action": "Stitch", "tile": 4, "meld": 0, "end": "low"}, Stitch(1, 4, 0, "low")),
        ({"action": "TakeDiscard", "on_board": True}, TakeDiscard(1, (), True)),
        (
            {"action": "Borrow", "meld": 2, "give": [4], "melds": [[1, 2, 3]]},
            Borrow(1, 2, (4,), ((1, 2, 3),)),
        ),
        ({"action": "AnnounceDoubles", "sizes": ["big"]}, AnnounceDoubles(1, ("big",))),
        ({"action": "AnswerExchange"}, AnswerExchange(1, None)),
    ],
)
def test_an_action_is_read_from_json_for_the_asking_seat(
    data: dict[str, object], action: object
) -> None:
    assert action_from_dict(data, seat=1) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"action": "Frobnicate"},
        {"action": "Discard"},
        {"action": "Draw", "tile": 3},
        {"action": "Draw", "seat": 0},
    ],
)
def test_a_malformed_action_is_refused(data: object) -> None:
    with pytest.raises(InvalidInput):
        action_from_dict(data, seat=1)
