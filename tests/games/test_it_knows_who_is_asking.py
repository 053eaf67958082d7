"""docs/design.md "Identity": one type, one reader for requests and sockets, one sign-in
receiver that adopts a guest's seats before anything else."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory
from django.urls import reverse

from games import services, signals
from games.identity import GUEST_KEY, GUEST_NAME, Identity, identity_of
from games.models import GameResult, Seat

from ..conftest import PASSWORD
from .conftest import key, viewer

pytestmark = pytest.mark.django_db


class Session(dict[str, Any]):
    pass


def request_as(user: Any, session: dict[str, Any]) -> Any:
    request = RequestFactory().get("/")
    request.user = user
    request.session = Session(session)
    return request


def test_a_request_and_a_socket_scope_read_the_same_identity(alice: Any) -> None:
    guest = {GUEST_KEY: "k" * 20, GUEST_NAME: "Gus"}
    cases = [
        (alice, {}, Identity(user_id=alice.pk, name="alice")),
        (alice, guest, Identity(user_id=alice.pk, name="alice")),
        (AnonymousUser(), guest, Identity(guest_key="k" * 20, name="Gus")),
        (AnonymousUser(), {}, Identity()),
    ]
    for user, session, expected in cases:
        assert identity_of(request_as(user, session)) == expected
        assert identity_of({"user": user, "session": Session(session)}) == expected
    assert identity_of({}) == Identity() and not Identity().known


def test_a_guest_who_signs_in_keeps_seats_then_results_in_that_order(alice: Any, bob: Any) -> None:
    client = Client()
    answer = client.post(
        "/api/games/",
        {"mode": "parlor", "players": 2, "name": "Gus"},
        content_type="application/json",
    )
    gid = answer.json()["gid"]
    guest = client.session[GUEST_KEY]
    token = Seat.objects.get(game__public_id=gid, index=1).invite_token
    services.join_game(viewer(bob), token)
    game = Seat.objects.get(game__public_id=gid, index=0).game
    services.act(gid, viewer(bob), "resign", {"expected_seq": game.seq, "key": key()})
    assert GameResult.objects.get(game=game, seat=0).user is None
    order: list[str] = []

    def after_seats(sender: Any, guest_key: str, user: Any, **kwargs: Any) -> None:
        seat = Seat.objects.get(game=game, index=0)
        order.append(f"seat owned by {seat.user} when apps hear of {guest_key == guest}")

    signals.guest_adopted.connect(after_seats, weak=False)
    try:
        response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    finally:
        signals.guest_adopted.disconnect(after_seats)

    assert response.status_code == 302
    assert order == ["seat owned by alice when apps hear of True"]
    assert Seat.objects.get(game=game, index=0).user == alice
    assert GameResult.objects.get(game=game, seat=0).user == alice
    assert GUEST_KEY not in client.session
