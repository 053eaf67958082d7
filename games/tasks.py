"""Celery tasks for games: turn clocks and bot turns, each idempotent on the turn number."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings

from games.engine.state import GameState


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


def after_change(gid: str, seq: int, state: GameState) -> None:
    """Queue what the new turn needs: a bot's move, the live clock's timeout, or a notice."""
    from .models import Game, SeatKind
    from .services import TIMEOUT_GRACE

    if state.finished:
        return
    game = Game.objects.filter(public_id=gid).first()
    if game is None or game.seq != seq:
        return  # a later change has queued its own work
    seat = game.seats.get(index=state.turn)
    if seat.kind == SeatKind.BOT:
        bot_turn.apply_async((gid, state.turn_number), countdown=settings.RUMMI_BOT_PAUSE)
    elif game.clock_seconds and game.deadline is not None:
        # Live clocks only: correspondence deadlines are days away and left to the sweeper.
        eta = game.deadline + TIMEOUT_GRACE
        turn_timeout.apply_async((gid, state.turn_number), eta=eta)
    elif game.is_correspondence:
        from .notices import queue_turn_notice

        queue_turn_notice(game, state.turn)


@shared_task(ignore_result=True)
def send_digests() -> int:
    from .notices import send_digests as send

    return send()


@shared_task(ignore_result=True)
def warn_clocks() -> int:
    from .notices import warn_clocks as warn

    return warn()
