"""Matchmaking fixtures: the cast as identities, ratings set by hand, and a clock to wait on."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.identity import Identity
from ratings.models import Rating


@pytest.fixture(autouse=True)
def _eager_tasks(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.RUMMI_BOT_PAUSE = 0


def viewer(user: Any) -> Identity:
    return Identity(user_id=user.pk, name=user.username)


def later(start: datetime, seconds: float) -> datetime:
    return start + timedelta(seconds=seconds)


@pytest.fixture
def rated(db: Any) -> Callable[[Any, str, int], Rating]:
    """Give a player a shown rating in a pool (mu and sigma are not read by matchmaking)."""

    def rate(user: Any, pool: str, shown: int) -> Rating:
        return Rating.objects.create(
            user=user, pool=pool, mu=25.0, sigma=3.0, shown=shown, games=20, updated=timezone.now()
        )

    return rate
