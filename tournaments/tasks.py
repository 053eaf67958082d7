"""Celery tasks of tournaments: beat's tick, and going on after a table ends."""

from __future__ import annotations

import logging

from celery import shared_task

from . import services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True, soft_time_limit=50, time_limit=60)
def tick() -> int:
    """Start due tournaments, adjudicate late correspondence tables, keep rounds and arenas
    going (beat, every 5 s)."""
    done = services.tick()
    for line in done:
        log.info("tournaments: %s", line)
    return len(done)


@shared_task(ignore_result=True, soft_time_limit=50, time_limit=60)
def table_finished(gid: str) -> bool:
    """A tournament table's game ended: score it and pair or seat what comes next."""
    return services.table_finished(gid) is not None
