"""Tournament fixtures: tasks run in this process when drained (``make_tournament``, which
makes tournaments of bots, is the whole suite's: tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

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
