"""Celery tasks of matchmaking: beat's match, which also seats seekers whose windows have
widened or whose bot wait has passed since they sought."""

from __future__ import annotations

import logging

from celery import shared_task

from . import services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True, soft_time_limit=20, time_limit=30)
def match() -> int:
    """Seat the open seeks that can be seated now (beat, every 3 s)."""
    made = services.match()
    for game in made:
        log.info("matchmaking: seated game %s", game.public_id)
    return len(made)
