"""Player names link to their profiles with their avatars (issue 19): the home page's game
list, and the game's seats as the board reads them; a guest's seat has neither."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from games.identity import Identity

from .conftest import make_users, viewer

pytestmark = pytest.mark.django_db


def test_the_home_page_and_the_seats_link_accounts_to_their_profiles(
    django_user_model: Any,
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = services.create_game(viewer(ann), {"players": 3})
    services.join_game(viewer(ben), game.seats.get(index=1).invite_token)
    services.join_game(Identity(guest_key="g-9", name="Gus"), game.seats.get(index=2).invite_token)

    client = Client()
    client.force_login(ann)
    page = client.get("/").content.decode()
    assert (
        '<a class="player-link" href="/@/ben/"><img class="avatar tiny" src="/@/ben/avatar.svg"'
        in page
    )
    assert 'href="/@/Gus/"' not in page and "Gus" in page

    seats = client.get(f"/api/games/{game.public_id}/").json()["seats"]
    assert [s["username"] for s in seats] == ["ann", "ben", None]
    drawn = client.get("/@/ben/avatar.svg")
    assert drawn.status_code == 200 and drawn["Content-Type"] == "image/svg+xml"
