"""A guest's name over 24 characters is refused by the JSON API as the page's forms refuse it
(400 ``bad_name`` with a sentence), never cut to 24 characters in silence (docs/fair-play.md
"Names"); a name of exactly 24 characters is taken whole."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from games.identity import NAME_MAX
from games.models import Game, Seat

from .conftest import post, viewer

pytestmark = pytest.mark.django_db

NEW_GAME = {"mode": "parlor", "players": 2, "seats": ["bot:casual"], "clock": 120}


@pytest.mark.parametrize("length", [NAME_MAX + 1, 300, 500])
def test_a_long_name_at_create_is_a_400_that_says_so(length: int) -> None:
    answer = post(Client(), "/api/games/", {**NEW_GAME, "name": "n" * length})

    assert answer.status_code == 400
    assert answer.json() == {
        "error": "bad_name",
        "message": f"A name has at most 24 characters (this one has {length}).",
    }
    assert not Game.objects.exists()


def test_a_long_name_at_join_is_a_400_and_the_seat_stays_open(alice: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    token = game.seats.get(index=1).invite_token

    answer = post(Client(), f"/api/join/{token}", {"name": "x" * 300})

    assert answer.status_code == 400 and answer.json()["error"] == "bad_name"
    assert answer.json()["message"] == "A name has at most 24 characters (this one has 300)."
    assert game.seats.get(index=1).joined is None


def test_a_name_of_exactly_the_limit_is_kept_whole(alice: Any) -> None:
    name = "Abcdefghij Klmnopqrst Uv"
    assert len(name) == NAME_MAX
    made = post(Client(), "/api/games/", {**NEW_GAME, "name": name})
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    joined = post(Client(), f"/api/join/{game.seats.get(index=1).invite_token}", {"name": name})

    assert made.status_code == 201 and joined.status_code == 200
    assert Seat.objects.filter(name=name).count() == 2


def test_a_join_with_a_field_other_than_name_is_refused_and_the_seat_stays_open(
    alice: Any,
) -> None:
    """A misspelt field is not passed over in silence: the guest would sit down under their
    session's name (or none) without knowing why."""
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    token = game.seats.get(index=1).invite_token

    answer = post(Client(), f"/api/join/{token}", {"nmae": "Dora"})

    assert answer.status_code == 400
    assert answer.json() == {
        "error": "bad_options",
        "message": "nmae is not a field of joining; the only one is name.",
    }
    assert game.seats.get(index=1).joined is None
    assert post(Client(), f"/api/join/{token}", {"name": "Dora"}).status_code == 200
