"""A hint is the next meld of the solution that takes rack tiles, and costs rating; giving up
shows the solution and counts as a loss."""

from __future__ import annotations

from typing import Any

import pytest

from puzzles.models import Attempt, PlayerRating, Puzzle
from puzzles.services import hint_melds

from .conftest import api, post, user_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def hard(shipped: list[Puzzle]) -> Puzzle:
    """A puzzle whose solution has at least two melds with rack tiles."""
    return next(p for p in shipped if p.level >= 8 and len(hint_melds(p)) >= 2)


def test_hints_show_the_solutions_melds_with_rack_tiles_in_turn(alice: Any, hard: Puzzle) -> None:
    client = user_client(alice)
    post(client, api(hard.slug, "attempt"), {})
    melds = hint_melds(hard)
    for number, meld in enumerate(melds, start=1):
        answer = post(client, api(hard.slug, "hint")).json()
        assert answer["meld"] == meld and answer["hint"] == number
        assert answer["hints_left"] == len(melds) - number
        assert set(answer["meld"]) & set(hard.rack)
    extra = post(client, api(hard.slug, "hint"))
    assert extra.status_code == 409 and extra.json()["error"] == "no_more_hints"
    assert Attempt.objects.get(user=alice).hints == len(melds)


def test_a_solve_with_a_hint_earns_less_than_a_clean_one(
    alice: Any, bob: Any, hard: Puzzle
) -> None:
    changes = {}
    for user, hints in ((alice, 0), (bob, 1)):
        client = user_client(user)
        post(client, api(hard.slug, "attempt"), {})
        for _ in range(hints):
            post(client, api(hard.slug, "hint"))
        hard.refresh_from_db()
        Puzzle.objects.filter(pk=hard.pk).update(rating=1500.0, rd=200.0, vol=0.06)
        answer = post(client, api(hard.slug, "submit"), {"table": hard.solution}).json()
        changes[hints] = answer["rating"]["change"]
    assert changes[0] > changes[1] > -0.01
    assert changes[1] == pytest.approx(0, abs=1.0)  # one hint: scored as a draw


def test_giving_up_shows_the_solution_and_counts_as_a_loss(alice: Any, hard: Puzzle) -> None:
    client = user_client(alice)
    post(client, api(hard.slug, "attempt"), {})
    answer = post(client, api(hard.slug, "give-up"))
    assert answer.status_code == 200
    body = answer.json()
    assert body["solution"] == hard.solution and body["solved"] is False
    assert body["rating"]["change"] < 0
    attempt = Attempt.objects.get(user=alice)
    assert attempt.gave_up and not attempt.solved and attempt.rated
    assert PlayerRating.objects.get(user=alice).rating < 1500
    # Seeing it again is a new try, which costs nothing (only the first finished try is rated).
    assert post(client, api(hard.slug, "give-up")).json()["error"] == "already_finished"
    post(client, api(hard.slug, "attempt"), {})
    again = post(client, api(hard.slug, "give-up")).json()
    assert again["solution"] == hard.solution and again["rating"] is None


def test_hints_and_giving_up_need_an_attempt(alice: Any, hard: Puzzle) -> None:
    client = user_client(alice)
    for action in ("hint", "give-up"):
        answer = post(client, api(hard.slug, action))
        assert answer.status_code == 409 and answer.json()["error"] == "no_attempt"


def test_a_finished_attempt_takes_no_more_hints(alice: Any, hard: Puzzle) -> None:
    client = user_client(alice)
    post(client, api(hard.slug, "attempt"), {})
    post(client, api(hard.slug, "submit"), {"table": hard.solution})
    answer = post(client, api(hard.slug, "hint"))
    assert answer.status_code == 409


@pytest.mark.parametrize(
    ("action", "body", "says"),
    [
        ("attempt", {"mode": "trainer", "mdoe": "daily"}, "mdoe is not a field of an attempt; "),
        ("submit", {"tabel": []}, "tabel is not a field of a solution; the only one is table."),
        ("hint", {"meld": ["R1"]}, "meld is not a field of a hint; it takes none."),
        ("give-up", {"sure": True}, "sure is not a field of giving up; it takes none."),
    ],
)
def test_a_field_a_call_does_not_take_is_refused_and_changes_nothing(
    alice: Any, hard: Puzzle, action: str, body: dict[str, Any], says: str
) -> None:
    client = user_client(alice)
    assert post(client, api(hard.slug, "attempt"), {"mode": "trainer"}).status_code == 201
    before = list(Attempt.objects.values())
    answer = post(client, api(hard.slug, action), body)
    assert answer.status_code == 400 and answer.json()["error"] == "bad_field"
    assert answer.json()["message"].startswith(says)
    assert list(Attempt.objects.values()) == before
