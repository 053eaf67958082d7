"""Tournament fixtures: tasks run in this process when drained (``make_tournament``, which
makes tournaments of bots, is the whole suite's: tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.management.commands.simulatetournament import drain, tasks_in_process


@pytest.fixture(autouse=True)
def _quick_bots(settings: Any) -> None:
    settings.RUMMI_BOT_PAUSE = 0


@pytest.fixture
def queue() -> Iterator[Any]:
    """Celery tasks queued by the code under test wait here until ``play(queue)``."""
    with tasks_in_process() as queued:
        yield queued


def play(queued: Any) -> int:
    """Run every queued task, and what they queue, to the end (bots play their games)."""
    return drain(queued)


@pytest.fixture
def organiser(django_user_model: Any) -> Client:
    """A client signed in as a superuser: the organiser at the console."""
    boss = django_user_model.objects.create_superuser("organiser", "o@example.com", "pw-12345678")
    client = Client()
    client.force_login(boss)
    return client


def add_tournament(organiser: Client, **fields: Any) -> Any:
    """POST the console's add form: a Swiss of LAN rules for 2 a table, starting tomorrow,
    with ``fields`` over those."""
    form = {
        "name": "Spring cup",
        "format": "swiss",
        "mode": "lan",
        "table_size": 2,
        "rounds": 3,
        "clock_seconds": 60,
        "starts_at_0": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d"),
        "starts_at_1": "18:00:00",
        "min_games": 0,
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "actions-TOTAL_FORMS": 0,
        "actions-INITIAL_FORMS": 0,
    }
    form.update(fields)
    return organiser.post(reverse("admin:tournaments_tournament_add"), form)
