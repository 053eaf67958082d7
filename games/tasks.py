"""Celery tasks for games: turn clocks and bot turns, each idempotent on the turn number."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings


@shared_task(ignore_result=True)
def bot_turn(gid: str, turn_number: int) -> bool:
    from .services import play_bot_turn

    return play_bot_turn(gid, turn_number)


@shared_task(ignore_result=True)
def turn_timeout(gid: str, turn_number: int) -> bool:
    from .services import timeout

    return timeout(gid, turn_number)


@shared_task(ignore_result=True)
def sweep_timeouts() -> int:
    """Time out every running turn past its deadline that the fast path missed (celery beat)."""
    from .services import due_timeouts, timeout

    return sum(timeout(gid, turn) for gid, turn in due_timeouts())


@worker_ready.connect
def _grace_after_restart(**kwargs: object) -> None:
    from .services import grant_restart_grace

    grant_restart_grace()


def queue_turn_work(gid: str, seat: int, turn_number: int, work: tuple[str, Any]) -> None:
    """After a turn starts (and commits): queue its bot move, clock or notice."""
    from .services import TIMEOUT_GRACE

    kind, deadline = work
    if kind == "bot":
        bot_turn.apply_async((gid, turn_number), countdown=settings.RUMMI_BOT_PAUSE)
    elif kind == "clock":
        # Live clocks only: correspondence deadlines are days away and left to the sweeper.
        turn_timeout.apply_async((gid, turn_number), eta=deadline + TIMEOUT_GRACE)
    elif kind == "notice":
        from .models import Game
        from .notices import queue_turn_notice

        game = Game.objects.filter(public_id=gid, turn_number=turn_number).first()
        if game is not None:
            queue_turn_notice(game, seat)


@shared_task(ignore_result=True)
def send_digests() -> int:
    from .notices import send_digests as send

    return send()


@shared_task(ignore_result=True)
def warn_clocks() -> int:
    from .notices import warn_clocks as warn

    return warn()


@shared_task(ignore_result=True)
def review_game(gid: str) -> bool:
    """Compare every turn of a finished game with the solver's best play (can take a while)."""
    from .models import Game, Status
    from .review import review

    game = Game.objects.filter(public_id=gid, status=Status.FINISHED, review__isnull=True).first()
    if game is None:
        return False
    rows = review(game)
    Game.objects.filter(pk=game.pk, review__isnull=True).update(review=rows)
    return True
