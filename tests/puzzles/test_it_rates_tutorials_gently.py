"""Fair puzzle ratings (issue 18): a tutorial (ramp) puzzle moves a rating gently, giving up
says beforehand what it will cost, and the daily page shows a solved daily as solved."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.identity import Identity
from puzzles import daily as dailies
from puzzles import services
from puzzles.models import Puzzle

pytestmark = pytest.mark.django_db


@pytest.fixture
def shipped() -> None:
    call_command("loadpuzzles", verbosity=0)


def _me(user: Any) -> Identity:
    return Identity(user_id=user.pk, name=user.username)


def test_giving_up_a_tutorial_puzzle_costs_a_new_player_little(shipped: None, alice: Any) -> None:
    puzzle = Puzzle.objects.filter(level=1).order_by("slug").first()
    assert puzzle is not None
    me = _me(alice)
    cost = services.give_up_cost(puzzle, me)
    services.start_attempt(puzzle, me)

    answer = services.give_up(puzzle, me)

    change = answer["rating"]["change"]
    assert -services.TUTORIAL_CAP <= change < 0
    assert cost == pytest.approx(-change, abs=0.2)
    # A later try is unrated: giving it up is free, and says so.
    services.start_attempt(puzzle, me)
    assert services.give_up_cost(puzzle, me) is None


def test_a_puzzle_past_the_ramp_moves_the_rating_fully(shipped: None, alice: Any) -> None:
    puzzle = Puzzle.objects.exclude(level__in=services.RAMP_LEVELS).order_by("slug").first()
    if puzzle is None:
        pytest.skip("the fixture ships only ramp puzzles")
    me = _me(alice)
    services.start_attempt(puzzle, me)
    change = services.give_up(puzzle, me)["rating"]["change"]
    assert change < -services.TUTORIAL_CAP


def test_the_puzzle_page_says_what_giving_up_costs(shipped: None, alice: Any) -> None:
    puzzle = Puzzle.objects.filter(level=1).order_by("slug").first()
    client = Client()
    client.force_login(alice)
    page = client.get(puzzle.get_absolute_url()).content.decode()

    assert '"give_up_cost": ' in page
    assert services.give_up_cost(puzzle, _me(alice)) is not None


def test_a_solved_daily_shows_as_solved_after_a_reload(shipped: None, alice: Any) -> None:
    daily = dailies.pick_daily(dailies.today())
    puzzle, me = daily.puzzle, _me(alice)
    client = Client()
    client.force_login(alice)
    before = client.get(reverse("puzzles:daily")).context["bootstrap"]
    assert before["solved_table"] is None
    services.start_attempt(puzzle, me, "daily")
    assert services.submit(puzzle, me, puzzle.solution)["solved"]

    after = client.get(reverse("puzzles:daily"))

    assert after.context["bootstrap"]["solved_table"] == puzzle.solution
    assert "You solved today" in after.content.decode()
    board = client.get(reverse("puzzles:api_daily")).json()
    assert board["solved"] is True
