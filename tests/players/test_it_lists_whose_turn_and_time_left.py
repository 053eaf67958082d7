"""Correspondence in the lists (games/templatetags/game_lists.py): the home page's "My games"
and the owner's profile say whose turn it is and how long the mover has left, to the player
who waits as well as to the mover."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.engine.state import state_from_record
from games.models import Game

from .conftest import make_users, viewer

pytestmark = pytest.mark.django_db


def correspondence(ann: Any, ben: Any) -> Game:
    game = services.create_game(viewer(ann), {"mode": "parlor", "players": 2, "days": 3})
    services.join_game(viewer(ben), game.seats.get(index=1).invite_token)
    game.refresh_from_db()
    return game


def status_of(html: str) -> str:
    found = re.search(r"<span class=\"turn-status[^\"]*\" data-turn-status>(.*?)</span>", html)
    assert found, "no turn status in the list"
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_both_sides_see_the_mover_and_the_time_left(django_user_model: Any) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = correspondence(ann, ben)
    Game.objects.filter(pk=game.pk).update(
        deadline=timezone.now() + timedelta(days=2, hours=23, minutes=30)
    )
    mover, waiter = (ann, ben) if state_from_record(game.state).turn == 0 else (ben, ann)

    seen = {}
    for user in (mover, waiter):
        client = Client()
        client.force_login(user)
        seen[user.username] = {
            url: status_of(client.get(url).content.decode())
            for url in ("/", f"/@/{user.username}/")
        }

    for url, text in seen[mover.username].items():
        assert text == "Your turn · 2d 23h left", url
    for url, text in seen[waiter.username].items():
        assert text == f"{mover.username} to move · 2d 23h left", url


def test_a_profile_shows_games_in_play_only_to_its_owner(django_user_model: Any) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = correspondence(ann, ben)

    assert game.public_id not in Client().get("/@/ann/").content.decode()
    client = Client()
    client.force_login(ben)
    assert game.public_id not in client.get("/@/ann/").content.decode()
