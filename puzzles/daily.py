"""The daily puzzle: one a UTC day, the same for everyone, picked by beat at 00:00 UTC
(puzzles/tasks.py), never a puzzle that was a daily within the last year."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone

from games.errors import Unavailable
from games.identity import Identity

from .models import Attempt, DailyPuzzle, Puzzle
from .services import puzzle_summary, trainer_puzzles

DAILY_MIN_LEVEL = 3
DAILY_GAP = dt.timedelta(days=365)
LEADERBOARD_SIZE = 50


def pick_daily(date: dt.date) -> DailyPuzzle:
    """The daily puzzle of ``date``: idempotent, and the same on every server.

    Among trainer puzzles of level ``DAILY_MIN_LEVEL`` and up that were nobody's daily within
    a year of ``date``, ordered by slug, the one a hash of the date points at. When every such
    puzzle was used within the year, the one used longest ago (slug order on ties).
    """
    existing = DailyPuzzle.objects.filter(date=date).select_related("puzzle").first()
    if existing is not None:
        return existing
    puzzle = _daily_choice(date)
    if puzzle is None:
        raise Unavailable("no_puzzles", "There are no puzzles to pick from yet.")
    try:
        with transaction.atomic():
            return DailyPuzzle.objects.create(date=date, puzzle=puzzle)
    except IntegrityError:
        return DailyPuzzle.objects.select_related("puzzle").get(date=date)


def _daily_choice(date: dt.date) -> Puzzle | None:
    pool = trainer_puzzles().filter(level__gte=DAILY_MIN_LEVEL)
    recent = DailyPuzzle.objects.filter(date__gt=date - DAILY_GAP, date__lt=date + DAILY_GAP)
    fresh = list(pool.exclude(pk__in=recent.values("puzzle_id")).order_by("slug"))
    if fresh:
        digest = hashlib.sha256(f"rummi-daily-{date.isoformat()}".encode()).hexdigest()
        return fresh[int(digest, 16) % len(fresh)]
    return (
        pool.annotate(last=Max("dailies__date"))
        .order_by(F("last").asc(nulls_first=True), "slug")
        .first()
    )


def today() -> dt.date:
    return timezone.now().astimezone(dt.UTC).date()


def daily_leaderboard(daily: DailyPuzzle) -> list[dict[str, Any]]:
    """That day's ranked solves of the daily, fastest first (fewer hints first).

    Ranked are accounts that existed before the day began, each on its first attempt of the
    day (a later one is practice; giving up is that attempt, failed). A guest's solve counts
    for their streak but is not ranked, and neither is an account made that day: a solution
    revealed to one session, typed in by a fresh guest or a fresh account, earns no rank.
    """
    day_start = dt.datetime.combine(daily.date, dt.time.min, tzinfo=dt.UTC)
    solves = (
        Attempt.objects.filter(
            puzzle=daily.puzzle,
            mode=Attempt.Mode.DAILY,
            solved=True,
            started__date=daily.date,
            user__isnull=False,
            user__date_joined__lt=day_start,
        )
        .select_related("user")
        .order_by("hints", "seconds", "finished")[:LEADERBOARD_SIZE]
    )
    return [
        {
            "rank": rank,
            "name": attempt.user.get_username(),
            # Ranked solves are accounts': each name links to its profile (/@/<username>/).
            "username": attempt.user.get_username(),
            "seconds": round(attempt.seconds or 0.0, 1),
            "hints": attempt.hints,
        }
        for rank, attempt in enumerate(solves, start=1)
    ]


def daily_streak(player: Identity, on: dt.date) -> int:
    """Days in a row, up to ``on`` (or the day before, if ``on``'s is not solved yet), on
    which the player solved the daily."""
    if player.anonymous:
        return 0
    since = on - dt.timedelta(days=400)
    dailies = dict(
        DailyPuzzle.objects.filter(date__gte=since, date__lte=on).values_list("date", "puzzle_id")
    )
    solved = {
        (attempt.started.date(), attempt.puzzle_id)
        for attempt in Attempt.objects.filter(
            player.owns(), mode=Attempt.Mode.DAILY, solved=True, started__date__gte=since
        )
    }
    day = on if (on, dailies.get(on)) in solved else on - dt.timedelta(days=1)
    streak = 0
    while (day, dailies.get(day)) in solved:
        streak += 1
        day -= dt.timedelta(days=1)
    return streak


def daily_state(player: Identity, on: dt.date) -> dict[str, Any]:
    daily = pick_daily(on)
    mine = (
        Attempt.objects.filter(
            player.owns(), puzzle=daily.puzzle, mode=Attempt.Mode.DAILY, started__date=on
        ).first()
        if not player.anonymous
        else None
    )
    return {
        "date": on.isoformat(),
        "puzzle": puzzle_summary(daily.puzzle, "daily"),
        "leaderboard": daily_leaderboard(daily),
        "streak": daily_streak(player, on),
        "solved": bool(mine and mine.solved),
    }


def daily_archive(before: dt.date) -> list[dict[str, Any]]:
    """Past dailies, newest first, with how many solved each on its day."""
    rows = []
    for daily in DailyPuzzle.objects.filter(date__lt=before).select_related("puzzle")[:366]:
        solvers = Attempt.objects.filter(
            puzzle=daily.puzzle, mode=Attempt.Mode.DAILY, solved=True, started__date=daily.date
        ).count()
        rows.append(
            {"date": daily.date.isoformat(), **puzzle_summary(daily.puzzle), "solvers": solvers}
        )
    return rows
