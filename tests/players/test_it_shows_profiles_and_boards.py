"""Profiles and leaderboards (docs/design.md "Players"): a known history shown exactly, no
unfinished game's racks, bounded queries, and boards of non-provisional active players."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.engine.state import state_from_record
from games.models import Game, GameResult, Status
from players.models import TrophyAward
from ratings import services as ratings
from ratings.models import Pool, Rating, RatingChange

from .conftest import make_users, play_out, viewer

pytestmark = pytest.mark.django_db


def test_a_profile_shows_exactly_its_history(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    capture = django_capture_on_commit_callbacks
    won = play_out(capture, [ann, ben], [1])
    lost = play_out(capture, [ann, ben], [0])
    blitz = play_out(capture, [ben, ann], [0], rated=False, options={"mode": "blitz"})

    page = Client().get("/@/ann/")

    assert page.status_code == 200
    html = page.content.decode()
    rows = re.findall(r"<tr><td>([^<]+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td></tr>", html)
    assert sorted(rows) == [("Blitz", "1", "1", "0"), ("Parlor League", "2", "1", "1")]
    for game in (won, lost, blitz):
        assert f"/g/{game.public_id}/replay/" in html
    rating = Rating.objects.get(user=ann, pool=Pool.LIVE_DUEL)
    assert f'<span class="rating">{rating.shown}</span>' in html and "provisional" in html
    assert html.count("data-rating-chart=") == 1 and 'id="points-live2"' in html
    assert "Win streak: 1 now, 1 best." in html
    mine = GameResult.objects.filter(user=ann)
    melds = sum(r.details["melds_laid"] for r in mine)
    assert f"<dt>Melds laid</dt><dd>{melds}</dd>" in html
    assert "First win" in html and TrophyAward.objects.filter(user=ann, key="first_win").exists()
    assert Client().get("/@/nobody/").status_code == 404


def test_a_profile_shows_no_unfinished_games_racks(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    running = services.create_game(viewer(ann), {"players": 2})
    services.join_game(viewer(ben), running.seats.get(index=1).invite_token)
    running.refresh_from_db()
    state = state_from_record(running.state)
    codes = [state.kinds[t] for t in state.racks[0]]

    for url in ("/@/ann/", "/@/ann/games/", "/@/ben/"):
        html = Client().get(url).content.decode()
        assert running.public_id not in html
        # The rack's tiles, as the board writes them, appear nowhere as a rack.
        assert " ".join(str(c) for c in codes) not in html


def test_the_games_list_pages(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    for _ in range(3):
        play_out(django_capture_on_commit_callbacks, [ann, ben], [1], rated=False)

    html = Client().get("/@/ann/games/").content.decode()

    assert html.count("/replay/") == 3 and "page 1 of 1" in html
    assert Client().get("/@/ann/games/?page=2").status_code == 404
    for bad in ("abc", "-1", "1.5", "9" * 40):  # not a page number: says so
        page = Client().get("/@/ann/games/", {"page": bad})
        assert page.status_code == 400, bad
        assert "The page number must be a whole number" in page.content.decode(), bad


def test_a_profile_takes_a_bounded_number_of_queries(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    with CaptureQueriesContext(connection) as few:
        Client().get("/@/ann/")
    for n in range(4):
        play_out(django_capture_on_commit_callbacks, [ann, ben], [n % 2])
    with CaptureQueriesContext(connection) as more:
        Client().get("/@/ann/")

    assert len(more) == len(few) <= 25


def met(user: Any, opponents: list[Any], pool: str) -> None:
    """A rated game of ``user`` with each of ``opponents``, as rate_game records it."""
    now = timezone.now()
    for other in opponents:
        game = Game.objects.create(players=2, seed="00", rated=True, status=Status.FINISHED)
        for seat, who in enumerate((user, other)):
            RatingChange.objects.create(
                game=game,
                user=who,
                pool=pool,
                seat=seat,
                place=seat + 1,
                mu_before=25,
                sigma_before=8,
                mu_after=25,
                sigma_after=8,
                shown_before=1000,
                shown_after=1000,
                finished=now,
            )


def test_the_leaderboard_lists_established_active_players(django_user_model: Any) -> None:
    users = make_users(django_user_model, "old", "new", "gone")
    # Each has met five different opponents (docs/fair-play.md "The leaderboard").
    opponents = make_users(django_user_model, *(f"foe{n}" for n in range(5)))
    for user in users:
        met(user, opponents, Pool.LIVE_DUEL)
    now = timezone.now()
    games = ratings.BOARD_GAMES
    Rating.objects.create(
        user=users[0], pool=Pool.LIVE_DUEL, mu=30, sigma=2, shown=1960, games=games, updated=now
    )
    Rating.objects.create(
        user=users[1], pool=Pool.LIVE_DUEL, mu=30, sigma=6, shown=1480, games=games - 1, updated=now
    )
    Rating.objects.create(
        user=users[2],
        pool=Pool.LIVE_DUEL,
        mu=30,
        sigma=2,
        shown=1990,
        games=games,
        updated=now - timedelta(days=31),
    )

    html = Client().get("/leaderboard/").content.decode()

    assert '<a href="/@/old/">' in html
    assert "/@/new/" not in html and "/@/gone/" not in html
    assert "1960" in html and "Puzzle rating" in html


def test_signed_in_as_links_to_the_profile(django_user_model: Any) -> None:
    (ann,) = make_users(django_user_model, "ann")
    client = Client()
    client.force_login(ann)

    html = client.get("/").content.decode()

    assert 'Signed in as <a href="/@/ann/">ann</a>' in html


def test_a_trophy_earned_is_toasted_once(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    client = Client()
    client.force_login(ann)

    first = client.get("/", HTTP_ACCEPT="text/html").content.decode()
    second = client.get("/", HTTP_ACCEPT="text/html").content.decode()

    assert "Trophy earned: 🏆 First win" in first
    assert "Trophy earned" not in second
