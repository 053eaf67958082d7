"""The leaderboard's minimum (docs/fair-play.md "The leaderboard"): a pool's board lists a
player after 10 rated games there against 5 different opponents; the page says so, and the
player's profile says how far they are from it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from ratings import services as ratings
from ratings.models import Pool, Rating

from .conftest import make_users, play_out

pytestmark = pytest.mark.django_db


def progress(html: str) -> str:
    start = html.index('data-board-progress="live2"')
    return html[start : html.index("</p>", start)]


def test_ten_games_are_not_enough_without_five_different_opponents(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    star, *others = make_users(django_user_model, "star", "o1", "o2", "o3", "o4", "o5")
    capture = django_capture_on_commit_callbacks
    # Ten rated games against four people (three a day at most with each).
    for other, count in zip(others[:4], (3, 3, 2, 2), strict=True):
        for _ in range(count):
            assert play_out(capture, [star, other], [1]).rated
    rating = Rating.objects.get(user=star, pool=Pool.LIVE_DUEL)
    assert rating.games == ratings.BOARD_GAMES

    board = Client().get("/leaderboard/").content.decode()
    assert "/@/star/" not in board
    assert (
        "A player is listed on a board after 10 rated games against 5 different opponents" in board
    )
    said = progress(Client().get("/@/star/").content.decode())
    assert "Not on the" in said
    assert "10 rated games against 4 different opponents so far; 1 more opponent to go" in said

    # The fifth opponent: listed.
    play_out(capture, [star, others[4]], [1])

    board = Client().get("/leaderboard/").content.decode()
    assert '<a href="/@/star/">' in board
    assert all(f"/@/{o.username}/" not in board for o in others)  # a game or three each
    said = progress(Client().get("/@/star/").content.decode())
    assert "On the" in said and "11 rated games against 5 different opponents" in said
    listed = ratings.on_the_board(Pool.LIVE_DUEL, timezone.now() - timedelta(days=1))
    assert list(listed.values_list("user", flat=True)) == [star.pk]


def test_a_new_player_is_told_what_is_missing(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    play_out(django_capture_on_commit_callbacks, [ann, ben], [1])

    said = progress(Client().get("/@/ben/").content.decode())

    assert "1 rated game against 1 different opponent so far" in said
    assert "9 more games and 4 more opponents to go" in said
