"""A guest who signs in to an account brings their seats along (docs/design.md "Identity"); but a
person waits at one live table at a time (docs/fair-play.md "One live game at a time"). Before
2026-12-07 a guest waiting at a live table who signed in to an account seated at another ended up
at both, and both could fill and start. Now the live tables waiting beyond one are left, as the
waiting page's button leaves them, and the sign-in says so; a game being played is never left."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.identity import GUEST_KEY, Identity
from games.models import Game, GoneTable, Seat, Status

from ..conftest import PASSWORD
from .conftest import viewer

pytestmark = pytest.mark.django_db
LIVE = {"mode": "parlor", "players": 2, "listed": False}


def guest_table(client: Client, **options: Any) -> Game:
    """A live table made by a guest (Gus) in ``client``'s session."""
    body = {**LIVE, "name": "Gus", **options}
    answer = client.post("/api/games/", body, content_type="application/json")
    assert answer.status_code in (200, 201), answer.content
    return Game.objects.get(public_id=answer.json()["gid"])


def sign_in(client: Client) -> str:
    """Sign in as alice; the page she lands on, with its messages."""
    page = client.post(
        reverse("account_login"), {"login": "alice", "password": PASSWORD}, follow=True
    )
    assert page.status_code == 200
    return str(page.content.decode())


def live_seats(user: Any) -> list[int]:
    return sorted(services.live_tables_of(user.pk))


def test_the_guests_waiting_table_is_closed_beside_the_accounts(alice: Any) -> None:
    mine = services.create_game(viewer(alice), LIVE)
    client = Client()
    theirs = guest_table(client)

    page = sign_in(client)

    assert live_seats(alice) == [mine.pk]
    assert not Game.objects.filter(pk=theirs.pk).exists()
    assert GoneTable.objects.get(public_id=theirs.public_id).reason == "cancelled"
    said = "As a guest you were waiting at a live table (Parlor League, 60 s a turn), and alice"
    assert f"{said} is at another live table already: you left the guest&#x27;s." in page
    assert GUEST_KEY not in client.session


def test_a_seat_the_guest_took_at_someone_elses_table_opens_again(alice: Any, bob: Any) -> None:
    mine = services.create_game(viewer(alice), LIVE)
    bobs = services.create_game(viewer(bob), {**LIVE, "players": 3})  # still waits
    client = Client()
    token = Seat.objects.get(game=bobs, index=1).invite_token
    answer = client.post(
        reverse("api_join", args=[token]), {"name": "Gus"}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content

    sign_in(client)

    assert live_seats(alice) == [mine.pk]
    seat = Seat.objects.get(game=bobs, index=1)
    assert seat.joined is None and seat.user is None and Game.objects.filter(pk=bobs.pk).exists()


def test_a_game_being_played_is_kept_and_the_accounts_waiting_table_left(alice: Any) -> None:
    mine = services.create_game(viewer(alice), LIVE)
    client = Client()
    playing = guest_table(client, seats=["bot:casual"])
    assert playing.status == Status.PLAYING

    sign_in(client)

    assert live_seats(alice) == [playing.pk]
    assert Seat.objects.get(game=playing, index=0).user == alice
    assert not Game.objects.filter(pk=mine.pk).exists()
    assert services.live_game_of(viewer(alice)) == playing


def test_two_games_being_played_are_both_kept(alice: Any) -> None:
    """Neither can be left (a game in play is resigned, not left), so both stay the
    account's; it is refused a third until it has one."""
    mine = services.create_game(viewer(alice), {**LIVE, "seats": ["bot:casual"]})
    client = Client()
    playing = guest_table(client, seats=["bot:casual"])

    sign_in(client)

    assert live_seats(alice) == sorted([mine.pk, playing.pk])
    assert services.keep_one_live_table(alice.pk, "alice", set()) == []


def test_correspondence_tables_are_not_limited(alice: Any) -> None:
    mine = services.create_game(viewer(alice), LIVE)
    client = Client()
    by_post = guest_table(client, days=3)

    sign_in(client)

    assert Seat.objects.get(game=by_post, index=0).user == alice
    assert live_seats(alice) == [mine.pk]


def test_an_account_without_a_live_table_keeps_the_guests(alice: Any) -> None:
    client = Client()
    theirs = guest_table(client)
    sign_in(client)
    assert live_seats(alice) == [theirs.pk]
    assert services.live_game_of(Identity(user_id=alice.pk, name="alice")) == theirs
