"""A profile's figures, from the result rows (docs/design.md "Players"), in a bounded number
of queries whatever the number of games. Only finished games have result rows, so nothing
here can show a game still being played (nor its racks).

* tiles per turn: tiles laid over turns taken;
* joker efficiency: the share of the jokers that reached the player's rack (dealt, drawn or
  as a penalty) that they laid before the round ended (``jokers_played / jokers_held``);
* average turn time: each game's average, weighted by its turns;
* average opening value: the openings' points over the openings made;
* rounds won out against blocked: rounds the player won by laying the last tile, and by the
  lowest rack of a blocked round.

Melds, tiles, jokers, openings and rounds are a family's own counts, read from the rows'
``details`` (docs/design.md "Results"): a game whose family does not count one adds nothing to
it (Rummy 45 counts no rounds; a family may count none of them).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, Exists, F, FloatField, IntegerField, OuterRef, Q, Sum
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone

from games.models import GameResult, Mode

RECENT = 10


class _Count(KeyTransform):
    """A key of a JSON field. On SQLite its ``JSON_EXTRACT`` alone (the form Django gives
    MySQL): Django's own SQLite form also asks ``JSON_TYPE`` twice to tell a JSON null from a
    missing key, which a count never needs, and each call parses the row's JSON again (the
    profile's sums took twice as long; docs/design.md "Results")."""

    as_sqlite = KeyTransform.as_mysql


def detail(key: str) -> Cast:
    """A result row's own count ``key`` (in its ``details``) as an integer; NULL where its
    family does not count it, which sums skip."""
    return Cast(_Count(key, "details"), IntegerField())


def results_of(user_id: int) -> Any:
    return GameResult.objects.filter(user_id=user_id)


def contested() -> Exists:
    """Whether a result's game had anyone else at the table: a seat other than its own that
    was not absent (a person who came, or a bot)."""
    others = GameResult.objects.filter(game_id=OuterRef("game_id"), absent=False)
    return Exists(others.exclude(seat=OuterRef("seat")))


def counted(results: Any) -> Any:
    """Of ``results``, those that count in a player's figures and win counts: not aborted, not
    absent, not a game every other seat of was absent, won by forfeit, and not a game past the
    3 a day two of its accounts count together (docs/fair-play.md); the lists still show the
    others, marked."""
    return results.filter(contested(), aborted=False, absent=False, repeat_pair=False)


def counted_of(user_id: int) -> Any:
    """The games that count in the player's figures and win counts (``counted``)."""
    return counted(results_of(user_id))


def totals(user_id: int) -> dict[str, Any]:
    got = counted_of(user_id).aggregate(
        games=Count("pk"),
        melds=Coalesce(Sum(detail("melds_laid")), 0),
        tiles=Coalesce(Sum(detail("tiles_played")), 0),
        turn_count=Coalesce(Sum("turns"), 0),
        jokers=Coalesce(Sum(detail("jokers_played")), 0),
        held=Coalesce(Sum(detail("jokers_held")), 0),
        opening_count=Coalesce(Sum(detail("openings")), 0),
        opening_sum=Coalesce(Sum(detail("opening_points")), 0),
        won_out=Coalesce(Sum(detail("rounds_won_out")), 0),
        won_blocked=Coalesce(Sum(detail("rounds_won_blocked")), 0),
        timed_turns=Coalesce(Sum("turns", filter=Q(average_turn_seconds__isnull=False)), 0),
        turn_seconds=Coalesce(
            Sum(F("average_turn_seconds") * F("turns"), output_field=FloatField()), 0.0
        ),
    )
    got["tiles_per_turn"] = (
        round(got["tiles"] / got["turn_count"], 2) if got["turn_count"] else None
    )
    got["joker_efficiency"] = round(100 * got["jokers"] / got["held"]) if got["held"] else None
    got["average_turn"] = (
        round(got["turn_seconds"] / got["timed_turns"], 1) if got["timed_turns"] else None
    )
    got["average_opening"] = (
        round(got["opening_sum"] / got["opening_count"], 1) if got["opening_count"] else None
    )
    return got


def per_mode(user_id: int) -> list[dict[str, Any]]:
    rows = (
        counted_of(user_id)
        .values("game__mode")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(place=1)))
        .order_by("game__mode")
    )
    labels = dict(Mode.choices)
    return [
        {
            "mode": labels.get(r["game__mode"], r["game__mode"]),
            "played": r["played"],
            "won": r["won"],
            "lost": r["played"] - r["won"],
        }
        for r in rows
    ]


def streaks(user_id: int) -> dict[str, int]:
    """Win streaks: ``current`` (the latest games won in a row) and ``best``."""
    places = counted_of(user_id).order_by("finished", "game_id").values_list("place", flat=True)
    best = run = 0
    for place in places:
        run = run + 1 if place == 1 else 0
        best = max(best, run)
    return {"current": run, "best": best}


def last_seen(user: Any) -> Any:
    latest = results_of(user.pk).order_by("-finished").values_list("finished", flat=True).first()
    seen = [t for t in (user.last_login, latest) if t is not None]
    return max(seen) if seen else None


def recent(user_id: int, limit: int = RECENT, offset: int = 0) -> list[GameResult]:
    """The player's finished games, newest first, each with the table's results."""
    return list(
        results_of(user_id)
        .select_related("game")
        .prefetch_related("game__results__user")
        .order_by("-finished", "-game_id")[offset : offset + limit]
    )


def active_since(days: int = 30) -> Any:
    return timezone.now() - timedelta(days=days)
