"""A guest who signs up or signs in keeps their puzzle attempts, rating and streak."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from puzzles.models import Attempt, PlayerRating, Puzzle

from ..conftest import PASSWORD
from .conftest import api, post

pytestmark = pytest.mark.django_db


def play_as_guest(client: Client, shipped: list[Puzzle]) -> str:
    puzzle = next(p for p in shipped if p.level == 1)
    post(client, api(puzzle.slug, "attempt"), {})
    assert post(client, api(puzzle.slug, "submit"), {"table": puzzle.solution}).json()["solved"]
    return str(client.session["guest_key"])


def test_signing_in_brings_the_guests_progress_along(alice: Any, shipped: list[Puzzle]) -> None:
    client = Client()
    key = play_as_guest(client, shipped)
    guest_rating = PlayerRating.objects.get(guest_key=key).rating
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert Attempt.objects.get().user == alice
    assert not Attempt.objects.filter(guest_key=key).exists()
    assert PlayerRating.objects.get(user=alice).rating == guest_rating
    state = client.get("/puzzles/api/trainer").json()
    assert state["ramp"]["levels"][0]["solved"] == 1 and state["rating"]["games"] == 1


def test_signing_up_brings_it_along_too(shipped: list[Puzzle], django_user_model: Any) -> None:
    client = Client()
    play_as_guest(client, shipped)
    client.post(
        reverse("account_signup"),
        {
            "email": "dora@example.com",
            "username": "dora",
            "password1": "a-long-rack-of-tiles",
            "password2": "a-long-rack-of-tiles",
        },
    )
    dora = django_user_model.objects.get(username="dora")
    assert Attempt.objects.get().user == dora
    assert PlayerRating.objects.get(user=dora).games == 1


def test_an_account_with_a_rating_keeps_it(alice: Any, shipped: list[Puzzle]) -> None:
    PlayerRating.objects.create(user=alice, rating=1800.0, games=20, streak_best=2)
    client = Client()
    key = play_as_guest(client, shipped)
    PlayerRating.objects.filter(guest_key=key).update(streak_best=5)
    client.login(username="alice", password=PASSWORD)
    mine = PlayerRating.objects.get(user=alice)
    assert (mine.rating, mine.games, mine.streak_best) == (1800.0, 20, 5)
    assert PlayerRating.objects.count() == 1
    assert Attempt.objects.get().user == alice
