"""After a solve or a give-up, submitting, asking a hint or giving up says the attempt is over
(409 ``already_finished``, puzzles/api.py), not "Start the puzzle first." nor a give-up that
answers ``"solved": false`` for a puzzle just solved; starting it again plays it once more."""

from __future__ import annotations

from typing import Any

import pytest

from puzzles.models import Attempt, Puzzle

from .conftest import api, post, user_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def puzzle(shipped: list[Puzzle]) -> Puzzle:
    return next(p for p in shipped if p.level == 2)


@pytest.mark.parametrize("action", ["submit", "give-up", "hint"])
def test_after_a_solve_each_action_says_the_attempt_is_over(
    alice: Any, puzzle: Puzzle, action: str
) -> None:
    client = user_client(alice)
    post(client, api(puzzle.slug, "attempt"), {})
    assert post(client, api(puzzle.slug, "submit"), {"table": puzzle.solution}).json()["solved"]

    body = {"table": puzzle.solution} if action == "submit" else None
    answer = post(client, api(puzzle.slug, action), body)

    assert answer.status_code == 409
    assert answer.json() == {
        "error": "already_finished",
        "message": "Your attempt at this puzzle is already over (solved): start it again to "
        "play it once more.",
    }
    attempt = Attempt.objects.get(user=alice)
    assert attempt.solved and not attempt.gave_up


def test_after_a_give_up_a_second_give_up_says_it_is_over(alice: Any, puzzle: Puzzle) -> None:
    client = user_client(alice)
    post(client, api(puzzle.slug, "attempt"), {})
    post(client, api(puzzle.slug, "give-up"))

    answer = post(client, api(puzzle.slug, "give-up"))

    assert answer.status_code == 409 and answer.json()["error"] == "already_finished"
    assert "(given up)" in answer.json()["message"]


def test_starting_again_after_a_solve_plays_it_once_more(alice: Any, puzzle: Puzzle) -> None:
    client = user_client(alice)
    post(client, api(puzzle.slug, "attempt"), {})
    post(client, api(puzzle.slug, "submit"), {"table": puzzle.solution})

    assert post(client, api(puzzle.slug, "attempt"), {}).status_code == 201
    again = post(client, api(puzzle.slug, "give-up"))
    assert again.status_code == 200 and again.json()["rating"] is None
    assert again.json()["solution"] == puzzle.solution


def test_a_mode_that_is_not_text_is_refused(alice: Any, puzzle: Puzzle) -> None:
    """The QA defect: ``{"mode": 5}`` started a trainer attempt."""
    for mode in (5, ["daily"], True, {"a": 1}):
        answer = post(user_client(alice), api(puzzle.slug, "attempt"), {"mode": mode})

        assert answer.status_code == 400
        assert answer.json() == {
            "error": "bad_mode",
            "message": 'mode must be one of "trainer", "streak", "daily", "shared" (as text), '
            "or left out.",
        }
    assert not Attempt.objects.exists()
