"""Resigning a Rummy 45 game through the site (docs/rules-45.md "Resigning"), as a Rummikub game
is: ``POST /api/games/<gid>/resign`` answers 200, the player's live game no longer blocks
another, the result rows say who resigned; and a Rummy 45 game says it has no hints."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, GameResult, Status

from ..conftest import client_for, key, post, viewer

pytestmark = pytest.mark.django_db


def _resign(client: Client, game: Game, action: str = "resign", **body: Any) -> Any:
    game.refresh_from_db()
    url = reverse("api_action", args=[game.public_id, action])
    return post(client, url, {"key": key(), "expected_seq": game.seq, **body})


def _against_bots(user: Any, players: int) -> Game:
    seats = ["bot:casual", "bot:beginner", "bot:strong"][: players - 1]
    game = services.create_game(viewer(user), {"mode": "r45", "players": players, "seats": seats})
    assert game.status == Status.PLAYING and game.clock_seconds
    return game


def test_resigning_a_two_player_game_ends_it_and_frees_the_player(alice: Any) -> None:
    game = _against_bots(alice, 2)
    client = client_for(alice)
    refused = post(client, reverse("api_create"), {"mode": "parlor", "seats": ["bot:casual"]})
    assert refused.status_code == 409 and "resign it" in refused.json()["message"]

    answer = _resign(client, game)

    assert answer.status_code == 200, answer.content
    assert answer.json()["view"]["resigned"] == [True, False]
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    rows = {r.seat: r for r in GameResult.objects.filter(game=game)}
    assert (rows[0].resigned, rows[0].place) == (True, 2)
    assert (rows[1].resigned, rows[1].place) == (False, 1)
    again = post(client, reverse("api_create"), {"mode": "parlor", "seats": ["bot:casual"]})
    assert again.status_code == 201, again.content
    end = client.get(reverse("api_end", args=[game.public_id])).json()
    assert [line["resigned"] for line in end["scorecard"] if line["seat"] == 0] == [True]


def test_at_three_players_the_bots_play_on_and_the_player_is_free(alice: Any) -> None:
    game = _against_bots(alice, 3)
    client = client_for(alice)

    answer = _resign(client, game)

    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert game.status == Status.PLAYING
    assert services.live_game_of(viewer(alice)) is None
    made = post(client, reverse("api_create"), {"mode": "r45", "seats": ["bot:casual"]})
    assert made.status_code == 201, made.content
    twice = _resign(client, game)
    assert twice.status_code == 422 and twice.json()["error"] == "resigned"


def test_the_r45_action_resigns_too(alice: Any) -> None:
    game = _against_bots(alice, 2)

    answer = _resign(client_for(alice), game, "r45", move={"action": "Resign"})

    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert game.status == Status.FINISHED


def test_a_rummy45_game_says_it_has_no_hints(alice: Any) -> None:
    game = _against_bots(alice, 2)

    answer = client_for(alice).get(reverse("api_hint", args=[game.public_id]))

    assert answer.status_code == 403
    body = answer.json()
    assert body["error"] == "no_hints"
    assert body["message"].startswith("Rummy 45 has no hints")
    assert "practice against bots" not in body["message"]
