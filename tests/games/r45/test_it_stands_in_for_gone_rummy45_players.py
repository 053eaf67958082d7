"""A live Rummy 45 tournament table: a person gone for more than a minute has their turns of
play (not the setup, which the clock settles) played by a casual bot, a whole turn at a time,
each such turn kept for the record, until they come back."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Seat, StandIn

from ..conftest import key, viewer

pytestmark = pytest.mark.django_db


def table(alice: Any, bob: Any, stand_in: bool = True) -> Game:
    seats = [{"user_id": alice.pk, "name": "alice"}, {"user_id": bob.pk, "name": "bob"}]
    return services.create_seated_game({"mode": "r45", "clock": 60}, seats, stand_in=stand_in)


def ready(game: Game, *users: Any) -> Game:
    for user in users:
        game.refresh_from_db()
        body = {"move": {"action": "Ready"}, "key": key(), "expected_seq": game.seq}
        services.act(game.public_id, viewer(user), "r45", body)
    game.refresh_from_db()
    return game


def test_a_gone_players_turn_of_play_is_played_by_a_bot_once(alice: Any, bob: Any) -> None:
    game = table(alice, bob)
    assert game.stand_in and game.status == "playing"
    later = timezone.now() + timedelta(seconds=61)
    assert services.due_stand_ins(later) == [], "the setup is the clock's to settle"

    game = ready(game, alice, bob)
    state = services.load_state(game)
    assert state is not None and state.phase == "play"
    turn, number = state.turn, game.turn_number
    now = timezone.now()
    Seat.objects.filter(game=game).update(last_seen=now - timedelta(seconds=30))
    assert services.due_stand_ins(now) == [], "half a minute away is not gone"
    later = now + timedelta(seconds=61)
    assert services.due_stand_ins(later) == [(game.public_id, number)]

    assert services.play_stand_in_turn(game.public_id, number, later)
    assert not services.play_stand_in_turn(game.public_id, number, later)

    (row,) = StandIn.objects.filter(game=game)
    assert (row.seat, row.turn_number) == (turn, number)
    game.refresh_from_db()
    after = services.load_state(game)
    assert after is not None and after.turn_number == number + 1, "the whole turn was played"
    last = game.events.order_by("-seq").first()
    assert last is not None and last.kind == "Discarded" and last.payload["seat"] == turn
    # The other player is back (their socket pinged): nobody plays for them.
    services.seen(game.pk, after.turn, later)
    assert services.due_stand_ins(later) == []
    # What the record shows once the game is over (games/views.py).
    assert list(game.stand_ins.values("seat", "turn_number")) == [
        {"seat": turn, "turn_number": number}
    ]


def test_a_rummy45_game_without_stand_ins_is_never_played_for_anyone(alice: Any, bob: Any) -> None:
    game = ready(table(alice, bob, stand_in=False), alice, bob)
    later = timezone.now() + timedelta(minutes=5)
    assert services.due_stand_ins(later) == []
    assert not services.play_stand_in_turn(game.public_id, game.turn_number, later)
