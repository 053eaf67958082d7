"""A tournament's page says why it cannot be joined once, not twice ("The tournament is
cancelled. The tournament is cancelled."), and a finished arena says it ended, not "ends"."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("state", ["cancelled", "finished"])
def test_joining_an_ended_tournament_says_why_once(
    django_user_model: Any, make_tournament: Any, state: str
) -> None:
    t = make_tournament(state=state)
    client = Client()
    client.force_login(django_user_model.objects.create_user("ann", "a@example.com", "pw"))
    answer = client.post(reverse("tournament_join", args=[t.pk]))
    assert answer.status_code == 409
    assert answer.content.decode().count(f"The tournament is {state}.") == 1


def test_a_finished_arena_says_when_it_ended(make_tournament: Any) -> None:
    started = timezone.now() - timedelta(hours=2)
    t = make_tournament(
        format="arena",
        rounds=None,
        duration_minutes=30,
        state="finished",
        started=started,
        finished=started + timedelta(minutes=33),
    )
    page = Client().get(reverse("tournament", args=[t.pk])).content.decode()
    assert "ended <time" in page and "· ends" not in page
    assert f"{t.finished:%H:%M} UTC" in page
