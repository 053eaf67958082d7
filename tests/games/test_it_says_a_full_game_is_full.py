"""An invite link of a game with no seat left to take says the game is full, offers to watch it
and the way back, and shows no form to fill in for nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Status

from .conftest import viewer

pytestmark = pytest.mark.django_db


def _says_full(html: str, game: Game) -> None:
    assert "This game is full" in html
    assert "Take my seat" not in html and 'name="name"' not in html
    assert f'href="{game.get_absolute_url()}"' in html and "Watch the game" in html
    assert f'href="{reverse("home")}"' in html


def test_a_full_games_invite_page_offers_to_watch_instead_of_a_seat(duel: Game) -> None:
    assert duel.status == Status.PLAYING
    page = Client().get(reverse("join", args=[duel.seats.get(index=1).invite_token]))
    assert page.status_code == 200
    _says_full(page.content.decode(), duel)


def test_taking_a_seat_in_a_full_game_says_it_is_full(duel: Game) -> None:
    token = duel.seats.get(index=1).invite_token
    page = Client().post(reverse("join", args=[token]), {"name": "Dora"})
    assert page.status_code == 409
    _says_full(page.content.decode(), duel)
    assert not duel.seats.filter(name="Dora").exists()


def test_a_seat_taken_meanwhile_says_the_game_is_full(alice: Any, bob: Any) -> None:
    """The form was shown with a seat open; another took it before this one was sent."""
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    token = game.seats.get(index=1).invite_token
    guest = Client()
    assert b"Take my seat" in guest.get(reverse("join", args=[token])).content
    services.join_game(viewer(bob), token)
    page = guest.post(reverse("join", args=[token]), {"name": "Dora"})
    assert page.status_code == 409
    _says_full(page.content.decode(), game)
