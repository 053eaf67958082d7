"""A live tournament table: a person gone for more than a minute has their turns played by a
bot until they come back, each such turn kept and shown in the record."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine.state import state_from_record
from games.models import Game, Seat, StandIn

pytestmark = pytest.mark.django_db


def table(alice: Any, bob: Any, stand_in: bool = True) -> Game:
    seats = [{"user_id": alice.pk, "name": "alice"}, {"user_id": bob.pk, "name": "bob"}]
    return services.create_seated_game({"mode": "lan", "clock": 60}, seats, stand_in=stand_in)


def test_a_gone_players_turn_is_played_by_a_bot_once(alice: Any, bob: Any) -> None:
    game = table(alice, bob)
    assert game.status == "playing" and game.stand_in
    turn = state_from_record(game.state).turn
    now = timezone.now()
    Seat.objects.filter(game=game).update(last_seen=now - timedelta(seconds=30))
    assert services.due_stand_ins(now) == [], "half a minute away is not gone"

    later = now + timedelta(seconds=61)
    assert services.due_stand_ins(later) == [(game.public_id, game.turn_number)]
    assert services.play_stand_in_turn(game.public_id, game.turn_number, later)
    assert not services.play_stand_in_turn(game.public_id, game.turn_number, later)
    (row,) = StandIn.objects.filter(game=game)
    assert row.seat == turn
    game.refresh_from_db()
    assert game.seq > 2 and state_from_record(game.state).turn != turn

    # The other player is back (their socket pinged): nobody plays for them.
    services.seen(game.pk, state_from_record(game.state).turn, later)
    assert services.due_stand_ins(later) == []


def test_the_record_shows_the_stood_in_turns(alice: Any, bob: Any) -> None:
    game = table(alice, bob)
    later = timezone.now() + timedelta(minutes=2)
    services.play_stand_in_turn(game.public_id, game.turn_number, later)
    services.end_game(game.public_id, "test over")
    record = Client().get(reverse("record", args=[game.public_id])).json()
    row = StandIn.objects.get()
    assert record["stand_ins"] == [{"seat": row.seat, "turn_number": row.turn_number}]


def test_games_without_stand_ins_are_never_played_for_anyone(alice: Any, bob: Any) -> None:
    game = table(alice, bob, stand_in=False)
    later = timezone.now() + timedelta(minutes=5)
    assert services.due_stand_ins(later) == []
    assert not services.play_stand_in_turn(game.public_id, game.turn_number, later)
