"""Celery tasks for games: turn clocks and bot turns, each idempotent on the turn number.

Every task is acknowledged late and handed back if its worker dies (settings), and has a soft
and a hard time limit here. What a dead worker may still lose (the embedded filesystem broker
cannot redeliver) the beat sweeps find again by turn number: timeouts, bot turns, reviews.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import task_postrun, task_prerun, worker_process_init, worker_ready
from django.db import close_old_connections

from . import notices, services
from .live import start_sender_loop
from .models import Game, Status
from .review import review

log = logging.getLogger(__name__)


@shared_task(ignore_result=True, soft_time_limit=20, time_limit=30)
def bot_turn(gid: str, turn_number: int) -> bool:
    """The bot's move for turn ``turn_number``; a bot out of time to think draws."""
    try:
        return services.play_bot_turn(gid, turn_number)
    except SoftTimeLimitExceeded:
        log.warning("bot of game %s turn %s ran out of time: it draws", gid, turn_number)
        return services.play_bot_turn(gid, turn_number, think=False)


@shared_task(ignore_result=True, soft_time_limit=5, time_limit=10)
def sweep_bot_turns() -> int:
    """Queue again every bot turn whose task was lost, and the turns of people gone from a
    stand-in game (beat, every 2 s)."""
    queued = 0
    for gid, turn in services.due_bot_turns():
        bot_turn.delay(gid, turn)
        queued += 1
    for gid, turn in services.due_stand_ins():
        stand_in_turn.delay(gid, turn)
        queued += 1
    if queued:
        log.info("sweep: queued %s lost bot turns again", queued)
    return queued


@shared_task(ignore_result=True, soft_time_limit=20, time_limit=30)
def stand_in_turn(gid: str, turn_number: int) -> bool:
    """A bot's move for a person gone from a live tournament table (services.STAND_IN_AFTER)."""
    return services.play_stand_in_turn(gid, turn_number)


@shared_task(ignore_result=True, soft_time_limit=10, time_limit=20)
def turn_timeout(gid: str, turn_number: int, deadline: str | None = None) -> bool:
    """The fast path: time the turn out at its deadline (queued for ``deadline``).

    If the turn still runs but its deadline has moved later since this task was queued (a
    restart's grace), the task queues itself again for the new deadline instead of leaving
    the turn to the sweeper.
    """
    if services.timeout(gid, turn_number):
        return True
    queued_for = datetime.fromisoformat(deadline) if deadline else None
    later = services.moved_deadline(gid, turn_number, queued_for)
    if later is not None:
        schedule_timeout(gid, turn_number, later)
    return False


def schedule_timeout(gid: str, turn_number: int, deadline: datetime) -> None:
    turn_timeout.apply_async(
        (gid, turn_number, deadline.isoformat()), eta=deadline + services.TIMEOUT_GRACE
    )


# How far ahead each sweep queues the timeouts to come: three sweeps (celery beat sends one a
# second), so a sweep that is late or dropped, or a slow broker, loses no turn to the slow path.
CLOCK_LOOKAHEAD = timedelta(seconds=3)


@shared_task(ignore_result=True, soft_time_limit=10, time_limit=20)
def sweep_timeouts() -> int:
    """Time out every running turn past its deadline (celery beat, every second), and queue the
    precise timeout of every live turn whose clock runs out before the next sweeps.

    A move does not queue its next turn's timeout itself: turns are far shorter than their
    clocks, so that was one broker message per move (the largest cost of a move, and a task
    the worker held until the deadline) for a timeout that almost never came. A turn may be
    queued by two sweeps; the timeout is keyed on the turn number, so it lands once.

    One game that fails (a database error, a bug) is logged and skipped: it must not stop the
    sweep from reaching the games after it.
    """
    applied = 0
    for gid, turn in services.due_timeouts():
        try:
            applied += services.timeout(gid, turn)
        except Exception:
            log.exception("sweep: timing out game %s turn %s failed", gid, turn)
    for gid, turn, deadline in services.upcoming_timeouts(within=CLOCK_LOOKAHEAD):
        schedule_timeout(gid, turn, deadline)
    return applied


@task_prerun.connect
@task_postrun.connect
def _release_connection(sender: Any = None, **kwargs: object) -> None:
    """As around a request: return the connection to the pool, or drop it if broken or old.

    Not for a task run eagerly (``apply()``): that runs inside its caller's transaction.
    """
    if not getattr(getattr(sender, "request", None), "is_eager", False):
        close_old_connections()


@worker_process_init.connect
def _keep_one_sender_loop(**kwargs: object) -> None:
    start_sender_loop()


@worker_ready.connect
def _grace_after_restart(**kwargs: object) -> None:
    for gid, turn, deadline in services.grant_restart_grace():
        schedule_timeout(gid, turn, deadline)


@shared_task(ignore_result=True, soft_time_limit=120, time_limit=150)
def send_digests() -> int:
    return notices.send_digests()


@shared_task(ignore_result=True, soft_time_limit=120, time_limit=150)
def warn_clocks() -> int:
    return notices.warn_clocks()


@shared_task(ignore_result=True, soft_time_limit=300, time_limit=330)
def review_game(gid: str) -> bool:
    """Compare every turn of a finished game with the solver's best play (can take a while)."""
    game = Game.objects.filter(public_id=gid, status=Status.FINISHED, review__isnull=True).first()
    if game is None:
        return False
    rows = review(game)
    Game.objects.filter(pk=game.pk, review__isnull=True).update(review=rows)
    return True


def queue_review(gid: str) -> bool:
    """Queue a finished game's review if this caller wins the compare-and-set."""
    if services.request_review(gid):
        review_game.delay(gid)
        return True
    return False


@shared_task(ignore_result=True, soft_time_limit=30, time_limit=60)
def sweep_reviews() -> int:
    """Queue again the reviews that were asked for long ago and never made (beat)."""
    return sum(queue_review(gid) for gid in services.lost_reviews())


@shared_task(ignore_result=True, soft_time_limit=30, time_limit=60)
def expire_rematches() -> int:
    """Delete the rematch offers not accepted in time, and any left from before offers lapsed
    (beat, every minute); the number deleted."""
    lapsed = services.expire_rematches()
    if lapsed:
        log.info("rematch offers lapsed: %s", ", ".join(lapsed))
    return len(lapsed)


@shared_task(ignore_result=True, soft_time_limit=30, time_limit=60)
def expire_waiting_tables() -> int:
    """Close the tables nobody filled in time (beat, every minute), and forget the tables gone
    over a week ago; the number closed."""
    closed = services.expire_waiting_tables()
    services.forget_gone_tables()
    if closed:
        log.info("waiting tables closed unfilled: %s", ", ".join(closed))
    return len(closed)
