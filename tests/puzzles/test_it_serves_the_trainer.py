"""Which puzzle comes next: the ramp in order, then puzzles near the player's rating that they
have not seen (the band widening when nothing fits), and streaks of rising difficulty."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.identity import Identity
from puzzles.models import Attempt, PlayerRating, Puzzle
from puzzles.services import RAMP_PER_LEVEL, next_puzzle

from .conftest import api, post, user_client

pytestmark = pytest.mark.django_db


def solve(client: Client, puzzle: Puzzle, mode: str = "trainer") -> Any:
    assert post(client, api(puzzle.slug, "attempt"), {"mode": mode}).status_code in (200, 201)
    return post(client, api(puzzle.slug, "submit"), {"table": puzzle.solution}).json()


def trainer(client: Client, mode: str = "trainer") -> Any:
    return client.get(f"/puzzles/api/trainer?mode={mode}").json()


def test_the_ramp_goes_level_by_level_in_order(alice: Any, shipped: list[Puzzle]) -> None:
    client = user_client(alice)
    seen = []
    for _ in range(4 * RAMP_PER_LEVEL):
        state = trainer(client)
        assert not state["ramp"]["done"]
        puzzle = Puzzle.objects.get(slug=state["next"]["slug"])
        seen.append(puzzle)
        assert solve(client, puzzle)["solved"]
    levels = [p.level for p in seen]
    assert levels == sorted(levels) == [lvl for lvl in (1, 2, 3, 4) for _ in range(RAMP_PER_LEVEL)]
    first = [p.slug for p in seen[:RAMP_PER_LEVEL]]
    assert first == sorted(p.slug for p in shipped if p.level == 1)[:RAMP_PER_LEVEL]
    state = trainer(client)
    assert state["ramp"]["done"]
    assert all(row["solved"] == RAMP_PER_LEVEL for row in state["ramp"]["levels"])
    assert state["next"]["level"] >= 5


def test_a_missed_ramp_puzzle_does_not_count(alice: Any, shipped: list[Puzzle]) -> None:
    client = user_client(alice)
    first = trainer(client)["next"]["slug"]
    post(client, api(first, "attempt"), {})
    post(client, api(first, "give-up"))
    state = trainer(client)
    assert state["ramp"]["levels"][0]["solved"] == 0
    assert state["next"]["slug"] != first and state["next"]["level"] == 1


def finish_ramp(user: Any, shipped: list[Puzzle]) -> None:
    for level in (1, 2, 3, 4):
        for puzzle in [p for p in shipped if p.level == level][:RAMP_PER_LEVEL]:
            Attempt.objects.create(
                user=user,
                puzzle=puzzle,
                started=puzzle.created,
                finished=puzzle.created,
                solved=True,
            )


def test_after_the_ramp_it_serves_unseen_puzzles_nearest_the_rating(
    alice: Any, shipped: list[Puzzle]
) -> None:
    finish_ramp(alice, shipped)
    player = Identity(user_id=alice.pk)
    PlayerRating.objects.create(user=alice, rating=1700.0)
    first = next_puzzle(player)
    assert first is not None
    seen = set(Attempt.objects.values_list("puzzle_id", flat=True))
    closest = min(abs(p.rating - 1700.0) for p in shipped if p.pk not in seen)
    assert abs(first.rating - 1700.0) == pytest.approx(closest)
    Attempt.objects.create(user=alice, puzzle=first, started=first.created)
    second = next_puzzle(player)
    assert second is not None and second != first


def test_the_band_widens_when_nothing_is_near(alice: Any, shipped: list[Puzzle]) -> None:
    finish_ramp(alice, shipped)
    PlayerRating.objects.create(user=alice, rating=3500.0)
    found = next_puzzle(Identity(user_id=alice.pk))
    assert found is not None
    assert found.rating == max(p.rating for p in shipped)


def test_when_everything_is_seen_there_is_no_next(alice: Any, shipped: list[Puzzle]) -> None:
    for puzzle in shipped:
        Attempt.objects.create(user=alice, puzzle=puzzle, started=puzzle.created, solved=True)
    assert next_puzzle(Identity(user_id=alice.pk)) is None
    assert trainer(user_client(alice))["next"] is None


def test_a_streak_rises_in_difficulty_until_the_first_miss(
    alice: Any, shipped: list[Puzzle]
) -> None:
    client = user_client(alice)
    ratings = []
    for _ in range(4):
        slug = trainer(client, "streak")["next"]["slug"]
        puzzle = Puzzle.objects.get(slug=slug)
        ratings.append(puzzle.rating)
        assert solve(client, puzzle, "streak")["solved"]
    assert ratings == sorted(ratings) and ratings[-1] > ratings[0]
    record = PlayerRating.objects.get(user=alice)
    assert (record.streak_current, record.streak_best) == (4, 4)
    slug = trainer(client, "streak")["next"]["slug"]
    post(client, api(slug, "attempt"), {"mode": "streak"})
    post(client, api(slug, "give-up"))
    record.refresh_from_db()
    assert (record.streak_current, record.streak_best) == (0, 4)
    assert record.streak_started is None


def test_a_hint_in_a_streak_is_a_miss(alice: Any, shipped: list[Puzzle]) -> None:
    client = user_client(alice)
    first = trainer(client, "streak")["next"]["slug"]
    solve(client, Puzzle.objects.get(slug=first), "streak")
    slug = trainer(client, "streak")["next"]["slug"]
    post(client, api(slug, "attempt"), {"mode": "streak"})
    post(client, api(slug, "hint"))
    assert PlayerRating.objects.get(user=alice).streak_current == 0


def test_a_streak_attempt_must_be_at_the_streaks_puzzle(alice: Any, shipped: list[Puzzle]) -> None:
    client = user_client(alice)
    expected = trainer(client, "streak")["next"]["slug"]
    other = next(p for p in shipped if p.slug != expected and p.level == 10)
    answer = post(client, api(other.slug, "attempt"), {"mode": "streak"})
    assert answer.status_code == 400 and answer.json()["error"] == "not_the_streak_puzzle"


def test_guests_play_the_trainer_too(shipped: list[Puzzle]) -> None:
    client = Client()
    state = trainer(client)
    assert state["rating"]["games"] == 0 and state["next"]["level"] == 1
    puzzle = Puzzle.objects.get(slug=state["next"]["slug"])
    answer = solve(client, puzzle)
    assert answer["solved"] and answer["rating"]["after"] > 1500
    assert trainer(client)["ramp"]["levels"][0]["solved"] == 1
    key = client.session["guest_key"]
    assert Attempt.objects.get(guest_key=key).solved
