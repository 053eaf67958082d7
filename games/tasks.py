"""Celery tasks for games: turn clocks and bot turns, each idempotent on the turn number."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import timezone

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
    """Time out every running turn past its deadline that the fast path missed."""
    from .models import Game, Status
    from .services import timeout

    due = Game.objects.filter(status=Status.PLAYING, deadline__lte=timezone.now())
    return sum(timeout(gid, turn) for gid, turn in due.values_list("public_id", "turn_number"))


def after_change(gid: str, seq: int, state: GameState) -> None:
    """Queue what the new turn needs: a bot's move, or the live clock's timeout."""
    from .models import Game, SeatKind

    if state.finished:
        return
    game = Game.objects.filter(public_id=gid).first()
    if game is None or game.seq != seq:
        return  # a later change has queued its own work
    seat = game.seats.get(index=state.turn)
    if seat.kind == SeatKind.BOT:
        bot_turn.apply_async((gid, state.turn_number), countdown=settings.RUMMI_BOT_PAUSE)
    elif game.clock_seconds and game.deadline is not None:
        turn_timeout.apply_async((gid, state.turn_number), eta=game.deadline)
