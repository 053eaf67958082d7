"""Resigning a Rummy 45 game (docs/rules-45.md "Resigning"): at 2 players the other wins at once;
at 3 or 4 the resigned seat is skipped and the others play on. After every event each of the 106
tiles is in exactly one zone, replaying the log gives the state, and no view shows another's
board."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.errors import IllegalMove
from games.engine.r45.bots import choose_action
from games.engine.r45.events import Event, GameEnded, PlayerResigned, event_from_dict
from games.engine.r45.family import R45
from games.engine.r45.state import (
    Discard,
    Draw,
    OfferExchange,
    R45State,
    Ready,
    Resign,
    apply,
    new_game,
    replay,
    state_from_record,
    state_to_record,
    to_act,
)
from games.engine.r45.views import event_for, view_for

from .positions import conserved

SEED = b"rummy 45 resign tests, 32 bytes."


class Table:
    """A game and its whole log, each action checked for conservation as it lands."""

    def __init__(self, players: int) -> None:
        self.state, self.log = new_game(players, SEED)
        self.rng = random.Random(4)

    def act(self, action: object) -> list[Event]:
        state, events = apply(self.state, action, SEED)  # type: ignore[arg-type]
        conserved(self.state, events, state)
        self.state, self.log = state, self.log + events
        return events

    def bot_until(self, done: object) -> None:
        """Bots play every seat due until ``done(state)``."""
        for _ in range(500):
            if done(self.state):  # type: ignore[operator]
                return
            seat = to_act(self.state)[0]
            self.act(choose_action(view_for(self.state, seat), self.rng, "easy"))
        raise AssertionError("the game never got there")

    def replays(self) -> bool:
        dicts = json.loads(json.dumps([e.to_dict() for e in self.log]))
        record = json.loads(json.dumps(state_to_record(self.state)))
        return replay(dicts) == self.state == state_from_record(record)


def in_play_after_first_round(state: R45State) -> bool:
    return state.phase == "play" and not state.first_round and not state.taken


def test_at_two_players_a_resignation_ends_the_game_and_the_other_wins() -> None:
    table = Table(2)
    table.bot_until(in_play_after_first_round)
    resigning = table.state.turn
    other = 1 - resigning
    table.act(Draw(resigning))

    events = table.act(Resign(resigning))

    assert [e.kind for e in events] == ["PlayerResigned", "GameEnded"]
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert (ended.reason, ended.winner) == ("resigned", other)
    assert table.state.finished and table.replays()
    rows = R45.results([e.to_dict() for e in table.log], None, table.state)
    assert [(r["place"], r["resigned"], r["went_out"]) for r in rows if r["seat"] == other] == [
        (1, False, False)
    ]
    assert [(r["place"], r["resigned"]) for r in rows if r["seat"] == resigning] == [(2, True)]


def test_a_resignation_before_play_ends_a_two_player_game_too() -> None:
    table = Table(2)

    table.act(Resign(0))

    assert table.state.finished and table.state.winner == 1 and table.replays()


def test_at_three_players_the_resigned_seat_is_skipped_and_the_others_play_on() -> None:
    table = Table(3)
    table.bot_until(in_play_after_first_round)
    resigning = table.state.turn
    table.act(Draw(resigning))  # a tile taken on the turn stays on the resigned board
    number = table.state.turn_number

    events = table.act(Resign(resigning))

    assert [e.kind for e in events] == ["PlayerResigned"]
    after = table.state
    assert not after.finished and after.out(resigning)
    assert after.turn == (resigning + 1) % 3 and after.turn_number == number + 1
    assert not after.taken
    with pytest.raises(IllegalMove) as refused:
        apply(after, Discard(resigning, after.racks[resigning][0]), SEED)
    assert refused.value.code == "resigned"
    # A whole round on, the resigned seat's turn never comes.
    turns = set()
    for _ in range(6):
        turns.add(table.state.turn)
        seat = table.state.turn
        table.bot_until(lambda s, seat=seat: s.finished or s.turn != seat)
        if table.state.finished:
            break
    assert resigning not in turns
    assert table.replays()


def test_when_all_but_one_resign_the_last_one_wins() -> None:
    table = Table(3)
    table.bot_until(in_play_after_first_round)

    table.act(Resign(0))
    events = table.act(Resign(2))

    assert isinstance(events[-1], GameEnded) and events[-1].winner == 1
    rows = R45.results([e.to_dict() for e in table.log], None, table.state)
    places = {r["seat"]: (r["place"], r["resigned"]) for r in rows}
    assert places[1] == (1, False)
    assert places[0][0] > 1 and places[2][0] > 1 and places[0][1] and places[2][1]
    assert table.replays()


def test_before_play_a_resigned_seat_no_longer_holds_up_the_start() -> None:
    table = Table(3)
    dealer = table.state.dealer
    first = (dealer + 1) % 3
    for seat in range(3):
        if seat != first:
            table.act(Ready(seat))

    events = table.act(Resign(first))

    assert [e.kind for e in events] == ["PlayerResigned", "PlayStarted"]
    assert table.state.phase == "play" and table.state.turn == (first + 1) % 3
    assert first not in to_act(table.state)
    assert table.replays()


def test_an_exchange_cannot_be_offered_to_a_resigned_seat() -> None:
    table = Table(3)
    table.act(Resign(2))
    rack = table.state.racks[0]

    with pytest.raises(IllegalMove) as refused:
        apply(table.state, OfferExchange(0, 2, rack[0]), SEED)

    assert refused.value.code in ("resigned_seat", "no_doubles")


def test_a_resigned_seat_still_sees_only_its_own_board() -> None:
    table = Table(3)
    table.bot_until(in_play_after_first_round)
    table.act(Resign(1))

    for seat in (0, 1, 2, None):
        view = view_for(table.state, seat)
        assert view["resigned"] == [False, True, False]
        assert view["racks"] is None
        assert view["rack"] == (list(table.state.racks[seat]) if seat is not None else [])
    resigned = next(e for e in table.log if isinstance(e, PlayerResigned))
    assert event_for(resigned, 0) == {"seat": 1, "kind": "PlayerResigned", "v": 3}


def test_a_resignation_is_written_and_read_back_the_same() -> None:
    event = PlayerResigned(2)

    assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event
    assert R45.activity(event.to_dict()) == (2, "resigned")
    assert R45.own_moves([event.to_dict()]) == [None]
    assert R45.describe(event.to_dict(), ["a", "b", "Cleo"]) == "Cleo resigned"


def test_the_family_takes_resign_as_its_own_action() -> None:
    assert "resign" in R45.action_fields
    assert R45.parse_action("resign", {}, 1) == Resign(1)
    assert R45.resign(1) == Resign(1)
    assert R45.parse_action("r45", {"move": {"action": "Resign"}}, 0) == Resign(0)
