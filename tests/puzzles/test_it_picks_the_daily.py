"""The daily puzzle: the same for everyone, picked once a day at 00:00 UTC by beat, never a
puzzle that was a daily within the last year; its page has a leaderboard and streaks."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.test import Client
from django.utils import timezone

from games.identity import Identity
from puzzles import daily as dailies
from puzzles import services
from puzzles.daily import DAILY_MIN_LEVEL, pick_daily
from puzzles.models import Attempt, DailyPuzzle, Puzzle
from puzzles.tasks import pick_daily_puzzle

from .conftest import api, post, user_client

pytestmark = pytest.mark.django_db
DAY = dt.date(2027, 3, 14)


def test_the_pick_is_deterministic_from_the_date(shipped: list[Puzzle]) -> None:
    first = pick_daily(DAY).puzzle
    DailyPuzzle.objects.all().delete()
    assert pick_daily(DAY).puzzle == first
    assert first.level >= DAILY_MIN_LEVEL and first.source == "generated"
    others = {pick_daily(DAY + dt.timedelta(days=n)).puzzle.slug for n in range(1, 8)}
    assert len(others) == 7 and first.slug not in others


def test_the_pick_is_idempotent(shipped: list[Puzzle]) -> None:
    first = pick_daily(DAY)
    assert pick_daily(DAY) == first
    assert DailyPuzzle.objects.filter(date=DAY).count() == 1


def test_it_avoids_puzzles_that_were_dailies_within_a_year(shipped: list[Puzzle]) -> None:
    eligible = list(Puzzle.objects.filter(level__gte=DAILY_MIN_LEVEL, public=True).order_by("slug"))
    keep = eligible[-3:]
    for n, puzzle in enumerate(eligible[:-3], start=1):
        DailyPuzzle.objects.create(date=DAY - dt.timedelta(days=n % 365 + 1), puzzle=puzzle)
    assert pick_daily(DAY).puzzle in keep


def test_a_daily_older_than_a_year_may_come_back(shipped: list[Puzzle]) -> None:
    eligible = list(Puzzle.objects.filter(level__gte=DAILY_MIN_LEVEL).order_by("slug"))
    old = eligible[0]
    DailyPuzzle.objects.create(date=DAY - dt.timedelta(days=400), puzzle=old)
    for n, puzzle in enumerate(eligible[1:], start=1):
        DailyPuzzle.objects.create(date=DAY - dt.timedelta(days=n % 300 + 1), puzzle=puzzle)
    assert pick_daily(DAY).puzzle == old


def test_when_every_puzzle_was_used_the_oldest_comes_back(shipped: list[Puzzle]) -> None:
    eligible = list(Puzzle.objects.filter(level__gte=DAILY_MIN_LEVEL).order_by("slug"))
    for n, puzzle in enumerate(eligible):
        DailyPuzzle.objects.create(date=DAY - dt.timedelta(days=len(eligible) - n), puzzle=puzzle)
    assert pick_daily(DAY).puzzle == eligible[0]


def test_beat_runs_the_pick_at_midnight_utc(shipped: list[Puzzle]) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["daily-puzzle"]
    assert entry["task"] == "puzzles.tasks.pick_daily_puzzle"
    assert entry["schedule"] == crontab(minute=0, hour=0)
    assert settings.CELERY_TIMEZONE == "UTC"
    slug = pick_daily_puzzle.delay().get()
    assert pick_daily_puzzle.delay().get() == slug
    assert DailyPuzzle.objects.get(date=timezone.now().date()).puzzle.slug == slug


def play_daily(client: Client, puzzle: Puzzle, hints: int = 0) -> Any:
    post(client, api(puzzle.slug, "attempt"), {"mode": "daily"})
    for _ in range(hints):
        post(client, api(puzzle.slug, "hint"))
    return post(client, api(puzzle.slug, "submit"), {"table": puzzle.solution}).json()


def test_the_daily_page_has_a_leaderboard_and_a_streak(
    alice: Any, bob: Any, shipped: list[Puzzle]
) -> None:
    today = dailies.today()
    puzzle = pick_daily(today).puzzle
    joined_before(alice, bob)
    alice_client, bob_client = user_client(alice), user_client(bob)
    assert play_daily(bob_client, puzzle, hints=1)["solved"]
    assert play_daily(alice_client, puzzle)["solved"]
    state = alice_client.get("/puzzles/api/daily").json()
    assert state["puzzle"]["slug"] == puzzle.slug and state["solved"]
    assert [row["name"] for row in state["leaderboard"]] == ["alice", "bob"]
    assert state["leaderboard"][1]["hints"] == 1
    assert state["streak"] == 1
    page = alice_client.get("/puzzles/daily/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "alice" in html and "bob" in html and 'id="puzzle-bootstrap"' in html


def test_the_daily_leaderboard_links_each_name_to_its_profile(
    alice: Any, bob: Any, shipped: list[Puzzle]
) -> None:
    """Issue 19: a ranked name links to /@/<username>/ after its avatar, on the page and in the
    JSON the page redraws it from; a deleted account's solves leave the board with it."""
    puzzle = pick_daily(dailies.today()).puzzle
    joined_before(alice, bob)
    alice_client, bob_client = user_client(alice), user_client(bob)
    assert play_daily(alice_client, puzzle)["solved"] and play_daily(bob_client, puzzle)["solved"]

    rows = alice_client.get("/puzzles/api/daily").json()["leaderboard"]
    assert sorted((r["name"], r["username"]) for r in rows) == [("alice", "alice"), ("bob", "bob")]
    board = alice_client.get("/puzzles/daily/").content.decode().split('id="daily-leaderboard"')[1]
    for name in ("alice", "bob"):
        assert (
            f'<td><a class="player-link" href="/@/{name}/"><img class="avatar tiny" '
            f'src="/@/{name}/avatar.svg" alt="" width="20" height="20">{name}</a>'
        ) in board

    assert bob_client.post("/account/delete", {"confirm": "bob"}).status_code == 302
    board = Client().get("/puzzles/daily/").content.decode().split('id="daily-leaderboard"')[1]
    assert 'href="/@/alice/"' in board and "bob" not in board


def joined_before(*users: Any) -> None:
    """Accounts made before today began: the ones today's leaderboard ranks."""
    for user in users:
        user.date_joined = timezone.now() - dt.timedelta(days=2)
        user.save(update_fields=["date_joined"])


def test_a_revealed_solution_earns_no_rank_for_a_fresh_guest_or_account(
    alice: Any, carol: Any, shipped: list[Puzzle]
) -> None:
    """The exploit: give up in one guest session, submit the revealed solution from a fresh
    guest (0.0 s, rank 1). Now only accounts older than the day are ranked, each once."""
    puzzle = pick_daily(dailies.today()).puzzle
    quitter = Client()
    post(quitter, api(puzzle.slug, "attempt"), {"mode": "daily"})
    revealed = post(quitter, api(puzzle.slug, "give-up")).json()["solution"]
    fresh = Client()
    post(fresh, api(puzzle.slug, "attempt"), {"mode": "daily"})
    assert post(fresh, api(puzzle.slug, "submit"), {"table": revealed}).json()["solved"]
    carol_client = user_client(carol)  # an account made today
    assert play_daily(carol_client, puzzle)["solved"]
    assert fresh.get("/puzzles/api/daily").json()["leaderboard"] == []
    # The quitter's give-up was their daily attempt: a second try is practice, never ranked.
    joined_before(alice)
    alice_client = user_client(alice)
    post(alice_client, api(puzzle.slug, "attempt"), {"mode": "daily"})
    post(alice_client, api(puzzle.slug, "give-up"))
    again = post(alice_client, api(puzzle.slug, "attempt"), {"mode": "daily"}).json()
    assert again["mode"] == "trainer"
    assert post(alice_client, api(puzzle.slug, "submit"), {"table": revealed}).json()["solved"]
    board = alice_client.get("/puzzles/api/daily").json()["leaderboard"]
    assert board == []
    assert Attempt.objects.filter(user=alice, mode="daily", gave_up=True).count() == 1


def test_the_daily_streak_counts_days_in_a_row(alice: Any, shipped: list[Puzzle]) -> None:
    today = dailies.today()
    for back in (1, 2, 4):
        day = today - dt.timedelta(days=back)
        daily = pick_daily(day)
        moment = timezone.make_aware(dt.datetime.combine(day, dt.time(12)))
        Attempt.objects.create(
            user=alice,
            puzzle=daily.puzzle,
            mode="daily",
            started=moment,
            finished=moment,
            solved=True,
            seconds=30,
        )
    player = Identity(user_id=alice.pk)
    assert dailies.daily_streak(player, today) == 2  # yesterday and the day before
    assert play_daily(user_client(alice), pick_daily(today).puzzle)["solved"]
    assert dailies.daily_streak(player, today) == 3


def test_a_second_daily_attempt_is_practice(alice: Any, shipped: list[Puzzle]) -> None:
    client = user_client(alice)
    puzzle = pick_daily(dailies.today()).puzzle
    play_daily(client, puzzle)
    again = post(client, api(puzzle.slug, "attempt"), {"mode": "daily"}).json()
    assert again["mode"] == "trainer"


def test_only_todays_puzzle_is_played_as_the_daily(alice: Any, shipped: list[Puzzle]) -> None:
    pick_daily(dailies.today())
    other = Puzzle.objects.exclude(dailies__date=dailies.today()).first()
    answer = post(user_client(alice), api(other.slug, "attempt"), {"mode": "daily"})
    assert answer.status_code == 400 and answer.json()["error"] == "not_the_daily"


def test_the_archive_lists_past_dailies(alice: Any, shipped: list[Puzzle]) -> None:
    today = dailies.today()
    past = [pick_daily(today - dt.timedelta(days=n)) for n in (1, 2, 3)]
    pick_daily(today)
    page = Client().get("/puzzles/daily/archive/")
    assert page.status_code == 200
    html = page.content.decode()
    for daily in past:
        assert daily.date.isoformat() in html and daily.puzzle.slug in html
    assert html.index(past[0].date.isoformat()) < html.index(past[2].date.isoformat())
    assert today.isoformat() not in html


def test_the_trainer_keeps_todays_daily_for_the_daily(alice: Any, shipped: list[Puzzle]) -> None:
    daily = pick_daily(dailies.today()).puzzle
    Puzzle.objects.exclude(pk=daily.pk).update(public=False)
    assert services.next_puzzle(Identity(user_id=alice.pk)) is None
