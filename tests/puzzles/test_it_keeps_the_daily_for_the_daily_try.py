"""Today's daily puzzle is played once as the daily: until a player has made their daily try,
any try at it, from any page or endpoint, is that try, and nothing about it (a hint, the
solution) is shown outside it (README "Puzzles").

The QA defect: a trainer attempt at the daily's slug, given up, showed the solution; a daily
attempt then solved it in 0.0 s, with a streak and a leaderboard place."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from puzzles import daily as dailies
from puzzles.daily import pick_daily
from puzzles.models import Attempt, Puzzle

from .conftest import api, post, user_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def daily(shipped: list[Puzzle]) -> Puzzle:
    return pick_daily(dailies.today()).puzzle


@pytest.fixture
def veteran(alice: Any) -> Client:
    """A player whose account is older than today: one the leaderboard would rank."""
    alice.date_joined = timezone.now() - dt.timedelta(days=2)
    alice.save(update_fields=["date_joined"])
    return user_client(alice)


@pytest.mark.parametrize("asked", ["trainer", "streak", "shared", None])
def test_a_first_try_at_todays_daily_by_any_mode_is_the_daily_try(
    veteran: Client, daily: Puzzle, asked: str | None
) -> None:
    body = {} if asked is None else {"mode": asked}
    started = post(veteran, api(daily.slug, "attempt"), body)

    assert started.status_code == 201 and started.json()["mode"] == "daily"


def test_giving_up_a_trainer_try_at_the_daily_is_the_daily_try_failed(
    alice: Any, veteran: Client, daily: Puzzle
) -> None:
    post(veteran, api(daily.slug, "attempt"), {"mode": "trainer"})
    revealed = post(veteran, api(daily.slug, "give-up")).json()["solution"]

    again = post(veteran, api(daily.slug, "attempt"), {"mode": "daily"})
    assert again.status_code == 201 and again.json()["mode"] == "trainer"  # practice now
    assert post(veteran, api(daily.slug, "submit"), {"table": revealed}).json()["solved"]
    state = veteran.get("/puzzles/api/daily").json()
    assert state["solved"] is False and state["streak"] == 0 and state["leaderboard"] == []
    assert Attempt.objects.get(user=alice, mode="daily").gave_up


def test_an_earlier_finish_shows_no_solution_before_the_daily_try(
    alice: Any, veteran: Client, daily: Puzzle
) -> None:
    """A give-up with no open attempt used to show the solution free to anyone who had once
    finished the puzzle; before today's daily try it says to start the daily."""
    last_week = timezone.now() - dt.timedelta(days=7)
    Attempt.objects.create(
        user=alice, puzzle=daily, mode="trainer", started=last_week, finished=last_week
    )

    answer = post(veteran, api(daily.slug, "give-up"))

    assert answer.status_code == 409 and "solution" not in answer.json()
    assert answer.json()["error"] == "no_attempt"
    assert answer.json()["message"].startswith("This is today's daily puzzle")


@pytest.mark.parametrize("action", ["give-up", "hint", "submit"])
def test_an_attempt_left_open_from_an_earlier_day_is_not_the_daily_try(
    alice: Any, veteran: Client, daily: Puzzle, action: str
) -> None:
    yesterday = timezone.now() - dt.timedelta(days=1)
    Attempt.objects.create(user=alice, puzzle=daily, mode="trainer", started=yesterday)

    body = {"table": daily.solution} if action == "submit" else None
    answer = post(veteran, api(daily.slug, action), body)

    assert answer.status_code == 409 and answer.json()["error"] == "no_attempt"
    assert "solution" not in answer.json() and "meld" not in answer.json()
    assert not Attempt.objects.filter(finished__isnull=False).exists()
    started = post(veteran, api(daily.slug, "attempt"), {"mode": "trainer"})
    assert started.status_code == 201 and started.json()["mode"] == "daily"


@pytest.mark.parametrize("query", ["", "?mode=trainer", "?mode=streak", "?mode=daily"])
def test_the_dailys_own_page_sends_a_player_to_the_daily_until_they_try_it(
    veteran: Client, daily: Puzzle, query: str
) -> None:
    page = veteran.get(f"/puzzles/{daily.slug}/{query}", follow=True)

    assert page.redirect_chain == [("/puzzles/daily/", 302)]
    assert "That is today's daily puzzle: your first try at it is your daily try" in (
        page.content.decode().replace("&#x27;", "'")
    )


def test_a_guest_is_sent_to_the_daily_too(daily: Puzzle) -> None:
    page = Client().get(f"/puzzles/{daily.slug}/")

    assert page.status_code == 302 and page["Location"] == "/puzzles/daily/"


def test_after_the_daily_try_the_puzzle_opens_as_practice(veteran: Client, daily: Puzzle) -> None:
    post(veteran, api(daily.slug, "attempt"), {"mode": "daily"})
    post(veteran, api(daily.slug, "give-up"))

    assert veteran.get(f"/puzzles/{daily.slug}/").status_code == 200
    practice = post(veteran, api(daily.slug, "attempt"), {"mode": "trainer"})
    assert practice.status_code == 201 and practice.json()["mode"] == "trainer"
    assert post(veteran, api(daily.slug, "give-up")).json()["rating"] is None


def test_other_puzzles_open_as_before(veteran: Client, daily: Puzzle) -> None:
    other = Puzzle.objects.exclude(pk=daily.pk).filter(public=True).first()
    assert other is not None

    assert veteran.get(f"/puzzles/{other.slug}/").status_code == 200
    started = post(veteran, api(other.slug, "attempt"), {"mode": "trainer"})
    assert started.status_code == 201 and started.json()["mode"] == "trainer"
