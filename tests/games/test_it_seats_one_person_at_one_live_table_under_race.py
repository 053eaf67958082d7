"""One live table a person, when their requests arrive at once
(docs/fair-play.md "One live game at a time"): found on 2026-12-07, four creates sent
together all passed the check, which read the person's seats before any of them had
committed, and four joins of one guest to four tables seated them at all four. Each request
now waits for the person's others (a lock held in the transaction that seats them:
services.hold_the_person)."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.errors import Conflict
from games.identity import Identity
from games.models import Game, Seat, Status
from tests.matchmaking.test_it_matches_once_under_race import race

pytestmark = pytest.mark.django_db(transaction=True)
LIVE = {"mode": "parlor", "players": 2, "listed": False}
TRIALS = 3


def attempt(job: Any) -> str:
    try:
        job()
    except Conflict as error:
        return error.code
    return "seated"


def test_creates_sent_together_make_one_live_table() -> None:
    for trial in range(TRIALS):
        dan = Identity(guest_key=f"dan-{trial}", name="Dan")
        outcomes = race(4, lambda _, dan=dan: attempt(lambda: services.create_game(dan, LIVE)))
        assert sorted(outcomes) == ["live_game_running"] * 3 + ["seated"]
        assert Seat.objects.filter(guest_key=f"dan-{trial}").count() == 1


def test_joins_sent_together_seat_a_guest_at_one_live_table() -> None:
    hosts = [Identity(guest_key=f"host-{n}", name=f"Host {n}") for n in range(4)]
    tokens = [services.create_game(h, LIVE).seats.get(index=1).invite_token for h in hosts]
    eve = Identity(guest_key="eve", name="Eve")

    outcomes = race(4, lambda n: attempt(lambda: services.join_game(eve, tokens[n])))

    assert sorted(outcomes) == ["live_game_running"] * 3 + ["seated"]
    assert Game.objects.filter(status=Status.PLAYING).count() == 1
    assert Seat.objects.filter(guest_key="eve").count() == 1
