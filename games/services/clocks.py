"""Turn clocks, for every family: a turn past its deadline is timed out by its family's clock
rule, once (keyed on the turn number); the sweeps find what is due in a fixed number of
queries; a restart gives live turns a grace."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine.errors import IllegalMove

from ..models import Game, Status
from .record import commit, family_of, load_state

# A timeout fires this long after the deadline, so a move sent at the last moment, still
# waiting for the game's lock, lands instead of being timed out.
TIMEOUT_GRACE = timedelta(milliseconds=250)


def timeout(gid: str, turn_number: int, now: datetime | None = None) -> bool:
    """Time out turn ``turn_number`` if it is still running and its clock has run out.

    Idempotent, keyed on the turn number: a stale, early or repeated call changes nothing and
    returns False. A game another worker is handling right now is skipped (``skip_locked``):
    that worker times it out, or the next sweep does.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(public_id=gid, status=Status.PLAYING, turn_number=turn_number)
            .first()
        )
        if game is None or game.deadline is None or game.deadline + TIMEOUT_GRACE > now:
            return False
        family = family_of(game)
        before = load_state(game)
        if before is None:
            return False
        try:
            state, events = family.time_out(before, bytes.fromhex(game.seed))
        except IllegalMove:
            return False
        commit(game, family, before, state, events, by_bot=True)
    return True


def due_timeouts(now: datetime | None = None) -> list[tuple[str, int]]:
    """Running turns whose clock (plus the grace) has run out: ``(gid, turn_number)``."""
    limit = (now or timezone.now()) - TIMEOUT_GRACE
    due = Game.objects.filter(status=Status.PLAYING, deadline__lte=limit)
    return list(due.values_list("public_id", "turn_number"))


def upcoming_timeouts(
    within: timedelta, now: datetime | None = None
) -> list[tuple[str, int, datetime]]:
    """Live turns whose clock runs out within ``within`` and is not yet due (the due ones
    are :func:`due_timeouts`): ``(gid, turn_number, deadline)``."""
    now = now or timezone.now()
    soon = live_clocks().filter(deadline__gt=now - TIMEOUT_GRACE, deadline__lte=now + within)
    return list(soon.values_list("public_id", "turn_number", "deadline"))


def live_clocks() -> Any:
    """Games being played on a live clock (seconds a move, not correspondence days)."""
    return Game.objects.filter(
        status=Status.PLAYING, clock_seconds__isnull=False, correspondence_days__isnull=True
    )


def moved_deadline(
    gid: str, turn_number: int, queued_for: datetime | None, now: datetime | None = None
) -> datetime | None:
    """The live turn's deadline if it is still ahead and later than ``queued_for``, else None.

    A timeout task queued for ``queued_for`` uses this to follow a deadline that moved (a
    restart's grace) rather than leave the turn to the sweeper.
    """
    now = now or timezone.now()
    game = live_clocks().filter(public_id=gid, turn_number=turn_number).only("deadline").first()
    if game is None or game.deadline is None or game.deadline + TIMEOUT_GRACE <= now:
        return None
    if queued_for is not None and game.deadline <= queued_for:
        return None
    return game.deadline


def grant_restart_grace(now: datetime | None = None) -> list[tuple[str, int, datetime]]:
    """After a restart, give live turns that ran out (or nearly) while nothing ran a grace.

    Correspondence clocks (days) are left alone. Returns the turns that got the grace as
    ``(gid, turn_number, new deadline)``, for the caller to queue their timeouts.
    """
    now = now or timezone.now()
    until = now + timedelta(seconds=settings.RUMMI_RESTART_GRACE)
    with transaction.atomic():
        running = live_clocks().select_for_update(skip_locked=True).filter(deadline__lt=until)
        moved = list(running.values_list("pk", "public_id", "turn_number"))
        Game.objects.filter(pk__in=[pk for pk, _, _ in moved]).update(deadline=until)
    return [(gid, turn, until) for _, gid, turn in moved]
