"""Puzzle trophies are awarded as puzzles are solved (issue 19): the puzzles app sends
``puzzle_solved`` after the solve commits, players awards what the record now shows, once,
and the next page the player opens shows the toast."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.identity import Identity
from games.signals import puzzle_solved
from players.models import TrophyAward
from players.trophies import PUZZLES_PER_LEVEL
from puzzles import services
from puzzles.management.commands.loadpuzzles import load
from puzzles.models import Attempt, Puzzle

from ..puzzles.conftest import SHIPPED
from .conftest import make_users

pytestmark = pytest.mark.django_db


def load_level_one() -> list[Puzzle]:
    load([p for p in SHIPPED["puzzles"] if p["level"] == 1][: PUZZLES_PER_LEVEL + 1])
    return list(Puzzle.objects.filter(level=1).order_by("slug"))


def solve(puzzle: Puzzle, player: Identity, capture: Any) -> None:
    with capture(execute=True):
        services.start_attempt(puzzle, player, mode="shared")
        assert services.submit(puzzle, player, puzzle.solution)["solved"] is True


def level_one(user: Any) -> int:
    return TrophyAward.objects.filter(user=user, key="puzzle_level_1").count()


def test_finishing_a_level_awards_its_trophy_once_and_toasts_it(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    (ann,) = make_users(django_user_model, "ann")
    player = Identity(user_id=ann.pk, name="ann")
    puzzles = load_level_one()
    for puzzle in puzzles[: PUZZLES_PER_LEVEL - 1]:
        solve(puzzle, player, django_capture_on_commit_callbacks)
    assert level_one(ann) == 0, "one puzzle of the level is still to solve"

    solve(puzzles[PUZZLES_PER_LEVEL - 1], player, django_capture_on_commit_callbacks)
    assert level_one(ann) == 1
    award = TrophyAward.objects.get(user=ann, key="puzzle_level_1")
    last = Attempt.objects.filter(user=ann, solved=True).order_by("-finished").first()
    assert last is not None and award.earned == last.finished

    # A second delivery of the signal, and one more solve, award nothing more.
    puzzle_solved.send(Attempt, user_id=ann.pk, attempt_id=last.pk)
    solve(puzzles[PUZZLES_PER_LEVEL], player, django_capture_on_commit_callbacks)
    assert level_one(ann) == 1

    client = Client()
    client.force_login(ann)
    page = client.get("/puzzles/", HTTP_ACCEPT="text/html").content.decode()
    assert "Trophy earned:" in page and "Level 1 done" in page
    again = client.get("/puzzles/", HTTP_ACCEPT="text/html").content.decode()
    assert "Trophy earned:" not in again, "a trophy is announced once"


def test_a_guest_solving_earns_no_trophy(django_capture_on_commit_callbacks: Any) -> None:
    guest = Identity(guest_key="g-1", name="Guest")
    for puzzle in load_level_one()[:PUZZLES_PER_LEVEL]:
        solve(puzzle, guest, django_capture_on_commit_callbacks)
    assert not TrophyAward.objects.exists()
