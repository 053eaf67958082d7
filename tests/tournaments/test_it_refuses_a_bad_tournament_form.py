"""The organiser's form refuses what cannot be run, with a sentence and never a 500
(docs/tournaments.md "Points"), and beat's tick goes on past a tournament that fails."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tournaments import services
from tournaments.models import Round, Tournament

from .conftest import add_tournament

pytestmark = pytest.mark.django_db


def add(organiser: Client, **fields: Any) -> Any:
    return add_tournament(organiser, **fields)


@pytest.mark.parametrize(
    "scheme", ["[Infinity, 0]", "[1e308, 0]", "[1.5, 0]", "[-1, 0]", "[1001, 0]", "[true, 0]"]
)
def test_points_per_place_are_whole_numbers_within_reason(organiser: Client, scheme: str) -> None:
    answer = add(organiser, points_scheme=scheme)
    assert answer.status_code == 200, "the form again, with the sentence"
    assert "Points per place are 2 whole numbers from 0 to 1000" in answer.content.decode()
    assert not Tournament.objects.exists()


def test_whole_points_per_place_are_kept(organiser: Client) -> None:
    assert add(organiser, points_scheme="[1000, 0]").status_code == 302
    assert Tournament.objects.get().points_scheme == [1000, 0]


def test_a_tournament_that_fails_to_advance_does_not_stop_the_next(
    make_tournament: Any, monkeypatch: Any
) -> None:
    soon = timezone.now() - timedelta(minutes=1)
    broken = make_tournament(name="Broken", bots=2, starts_at=soon + timedelta(seconds=30))
    fine = make_tournament(name="Fine", bots=2, starts_at=soon)
    Tournament.objects.update(state="running", started=soon)
    original = services.advance

    def advance(pk: int) -> Any:
        if pk == broken.pk:
            raise OverflowError("int too large to convert to float")
        return original(pk)

    monkeypatch.setattr(services, "advance", advance)
    done = services.tick()
    assert f"failed {broken.pk}" in done
    assert Round.objects.filter(tournament=fine, number=1).exists(), "the next one was paired"


@pytest.mark.parametrize(
    ("fields", "sentence"),
    [
        ({"rounds": 99999999999}, "A tournament plays 1 to 100 rounds."),
        ({"rounds": 101}, "A tournament plays 1 to 100 rounds."),
        (
            {"format": "arena", "rounds": "", "duration_minutes": 99999999999},
            "An arena lasts 1 to 1440 minutes",
        ),
        (
            {
                "registration_opens_0": "2030-01-02",
                "registration_opens_1": "10:00:00",
                "registration_closes_0": "2030-01-01",
                "registration_closes_1": "10:00:00",
            },
            "Registration closes before it opens",
        ),
        (
            {"starts_at_0": "2020-01-01", "starts_at_1": "10:00:00"},
            "The start is in the past",
        ),
    ],
)
def test_a_setting_out_of_bounds_is_refused_with_a_sentence(
    organiser: Client, fields: dict[str, Any], sentence: str
) -> None:
    answer = add(organiser, **fields)
    assert answer.status_code == 200, "the form again, with the sentence"
    assert sentence in answer.content.decode()
    assert not Tournament.objects.exists()


def test_a_due_tournament_saved_before_a_rule_is_cancelled_saying_why(
    make_tournament: Any,
) -> None:
    t = make_tournament(bots=2, rounds=500, starts_at=timezone.now() - timedelta(seconds=5))
    after = make_tournament(name="After", bots=2, starts_at=timezone.now() - timedelta(seconds=9))
    done = services.tick()
    assert f"cancelled {t.pk}" in done and f"started {after.pk}" in done
    t.refresh_from_db()
    assert t.state == "cancelled"
    assert t.actions.filter(verb="not started", detail__contains="1 to 100 rounds").exists()
