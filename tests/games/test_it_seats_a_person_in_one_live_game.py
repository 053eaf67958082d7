"""One live game at a time (docs/fair-play.md "One live game at a time"): creating, joining or
seeking a live clocked game while seated in one being played is refused with a sentence;
correspondence games are not limited, and a tournament's pairing never is."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.models import Game, Status

from .conftest import client_for, post, viewer

pytestmark = pytest.mark.django_db


def _playing_live(user: Any) -> Game:
    game = services.create_game(viewer(user), {"mode": "blitz", "seats": ["bot:beginner"]})
    assert game.status == Status.PLAYING and game.clock_seconds == 30
    return game


def test_a_second_live_game_is_refused_over_http_with_a_sentence(alice: Any) -> None:
    first = _playing_live(alice)
    client = client_for(alice)
    answer = post(client, reverse("api_create"), {"mode": "parlor", "seats": ["bot:casual"]})
    assert answer.status_code == 409
    body = answer.json()
    assert body["error"] == "live_game_running" and "live game already" in body["message"]
    assert body["url"] == first.get_absolute_url()
    assert Game.objects.count() == 1


def test_joining_a_live_game_while_playing_one_is_refused(alice: Any, bob: Any) -> None:
    _playing_live(alice)
    open_game = services.create_game(viewer(bob), {"mode": "parlor", "players": 2})
    token = open_game.seats.get(index=1).invite_token
    answer = post(client_for(alice), reverse("api_join", args=[token]), {})
    assert answer.status_code == 409 and answer.json()["error"] == "live_game_running"
    assert open_game.seats.get(index=1).joined is None


def test_correspondence_games_are_not_limited(alice: Any, bob: Any) -> None:
    _playing_live(alice)
    days = post(
        client_for(alice), reverse("api_create"), {"mode": "parlor", "days": 3, "players": 2}
    )
    assert days.status_code == 201, days.content
    # And a correspondence game does not count as the live one.
    services.create_game(viewer(bob), {"mode": "parlor", "days": 3, "seats": ["bot:casual"]})
    assert _playing_live(bob).status == Status.PLAYING


def test_a_finished_live_game_frees_the_player(alice: Any) -> None:
    first = _playing_live(alice)
    services.act(
        first.public_id, viewer(alice), "resign", {"key": "k" * 12, "expected_seq": first.seq}
    )
    assert _playing_live(alice).status == Status.PLAYING


def test_a_seek_while_playing_a_live_game_is_refused(alice: Any) -> None:
    _playing_live(alice)
    answer = post(client_for(alice), reverse("api_seek"), {"mode": "parlor", "players": 2})
    assert answer.status_code == 409 and answer.json()["error"] == "live_game_running"


def test_the_lobby_form_refusal_links_to_the_game_being_played(alice: Any) -> None:
    """The page the lobby's form answers with says why and leads to the live game."""
    first = _playing_live(alice)
    form = {"mode": "parlor", "players": "2", "seat1": "bot:casual", "clock": "60"}
    page = client_for(alice).post(reverse("new_game"), form)
    assert page.status_code == 409
    html = page.content.decode()
    assert "live game already" in html
    assert f'href="{first.get_absolute_url()}"' in html and "Go to your game" in html


def test_the_invite_page_refusal_links_to_the_game_being_played(alice: Any, bob: Any) -> None:
    """Taking a seat by an invite link while playing a live game leads to that game."""
    first = _playing_live(alice)
    open_game = services.create_game(viewer(bob), {"mode": "parlor", "players": 2})
    token = open_game.seats.get(index=1).invite_token
    page = client_for(alice).post(reverse("join", args=[token]), {"name": ""})
    assert page.status_code == 409
    html = page.content.decode()
    assert f'href="{first.get_absolute_url()}"' in html and "Go to your game" in html
