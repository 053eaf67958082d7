"""A player who resigned a live game the others play on (3 or more players) is no longer playing
it (docs/fair-play.md "One live game at a time"): they may start or seek another at once, their
lists say they resigned, and the game has no hints for them. The 409 says "resign it" only where
the game's family has a resignation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import families
from games.models import Game, Status

from .conftest import client_for, key, post, viewer
from .toy_family import TOY

pytestmark = pytest.mark.django_db


def _resign(client: Client, game: Game) -> Any:
    game.refresh_from_db()
    url = reverse("api_action", args=[game.public_id, "resign"])
    return post(client, url, {"key": key(), "expected_seq": game.seq})


def _table_of_three(user: Any, **options: Any) -> Game:
    """A live Parlor League game at 120 s a turn, the player and two bots (the issue's table)."""
    made = {"mode": "parlor", "players": 3, "clock": 120, "seats": ["bot:casual", "bot:beginner"]}
    game = services.create_game(viewer(user), {**made, **options})
    assert game.status == Status.PLAYING
    return game


def test_after_resigning_a_table_of_three_the_player_starts_another_live_game(
    alice: Any,
) -> None:
    first = _table_of_three(alice)
    client = client_for(alice)

    resigned = _resign(client, first)
    made = post(
        client,
        reverse("api_create"),
        {"mode": "r45", "players": 3, "seats": ["bot:casual", "bot:beginner"]},
    )

    assert resigned.status_code == 200, resigned.content
    first.refresh_from_db()
    assert first.status == Status.PLAYING  # the bots play on
    assert made.status_code == 201, made.content
    assert services.live_game_of(viewer(alice)) == Game.objects.get(public_id=made.json()["gid"])


def test_after_resigning_the_player_may_seek_a_rated_game(alice: Any) -> None:
    first = _table_of_three(alice)
    client = client_for(alice)
    _resign(client, first)

    sought = post(client, reverse("api_seek"), {"mode": "parlor", "players": 2})

    assert sought.status_code == 200, sought.content


def test_the_lists_say_the_player_resigned_a_game_still_played(alice: Any) -> None:
    first = _table_of_three(alice)
    client = client_for(alice)
    _resign(client, first)

    home = client.get(reverse("home")).content.decode()
    profile = client.get(reverse("player_profile", args=[alice.username])).content.decode()

    for page in (home, profile):
        assert "You resigned · the others play on" in page
        assert "Your turn" not in page


def test_a_player_who_resigned_gets_no_hint(alice: Any) -> None:
    first = _table_of_three(alice, mode="sandbox", clock=None)
    client = client_for(alice)
    assert client.get(reverse("api_hint", args=[first.public_id])).status_code == 200
    _resign(client, first)

    answer = client.get(reverse("api_hint", args=[first.public_id]))

    assert answer.status_code == 403
    assert answer.json()["error"] == "resigned"
    assert "resigned" in answer.json()["message"]


def test_the_refusal_says_resign_it_where_the_game_can_be_resigned(alice: Any) -> None:
    _table_of_three(alice)

    answer = post(client_for(alice), reverse("api_create"), {"mode": "parlor"})

    assert answer.status_code == 409
    assert "finish it (or resign it) first" in answer.json()["message"]


@pytest.fixture
def _toy() -> Iterator[None]:
    families.register(TOY)
    yield
    Game.objects.filter(family=TOY.name).delete()
    families.unregister(TOY.name)


@pytest.mark.usefixtures("_toy")
def test_the_refusal_does_not_say_resign_where_the_game_has_no_resignation(alice: Any) -> None:
    toy = services.create_game(
        viewer(alice), {"mode": "toy", "players": 2, "seats": ["bot:casual"]}
    )
    assert toy.status == Status.PLAYING and toy.clock_seconds

    answer = post(client_for(alice), reverse("api_create"), {"mode": "parlor"})

    assert answer.status_code == 409
    message = answer.json()["message"]
    assert "finish it first" in message and "resign" not in message
