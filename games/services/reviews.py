"""The post-game review's claim (compare-and-set) and the sweep for lost ones."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import Game, Status

# A review asked for this long ago and still not made was lost.
REVIEW_RETRY_AFTER = timedelta(minutes=10)


def request_review(gid: str, now: datetime | None = None) -> bool:
    """Claim the right to queue a finished game's review (compare-and-set): True for exactly
    one caller while no review exists and none was asked for within
    :data:`REVIEW_RETRY_AFTER`. A family without reviews stores an empty one at its end, so
    its games are never claimed.

    The claim locks the row and reads it rather than trusting an UPDATE's row count: a
    caller may run inside a psycopg pipeline (games/rows.py), where that count is
    not reported.
    """
    now = now or timezone.now()
    with transaction.atomic():
        claimable = (
            Game.objects.select_for_update()
            .filter(public_id=gid, status=Status.FINISHED, review__isnull=True)
            .filter(
                Q(review_requested__isnull=True) | Q(review_requested__lte=now - REVIEW_RETRY_AFTER)
            )
            .values_list("pk", flat=True)
            .first()
        )
        if claimable is None:
            return False
        Game.objects.filter(pk=claimable).update(review_requested=now)
    return True


def lost_reviews(now: datetime | None = None) -> list[str]:
    """Finished games whose review was asked for long ago and never made."""
    now = now or timezone.now()
    lost = Game.objects.filter(status=Status.FINISHED, review__isnull=True).filter(
        Q(review_requested__isnull=True) | Q(review_requested__lte=now - REVIEW_RETRY_AFTER)
    )
    return list(lost.values_list("public_id", flat=True)[:100])
