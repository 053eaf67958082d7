"""Tournament fixtures: tasks run in this process when drained, tournaments of bots."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tournaments import services
from tournaments.management.commands.simulatetournament import drain, tasks_in_process
from tournaments.models import Tournament


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
def make_tournament(db: Any) -> Callable[..., Tournament]:
    def make(bots: int = 0, strength: str = "beginner", **fields: Any) -> Tournament:
        values: dict[str, Any] = {
            "name": "Winter cup",
            "format": "swiss",
            "mode": "lan",
            "table_size": 2,
            "rounds": 3,
            "starts_at": timezone.now() + timedelta(hours=1),
            "clock_seconds": 60,
        }
        values.update(fields)
        t = Tournament.objects.create(**values)
        for _ in range(bots):
            services.add_player(None, t, bot=strength)
        return t

    return make
