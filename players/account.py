"""Your account: the display name (unique), the data you can take away, and deleting the
account (its games stay, shown as "deleted player"; its avatar files go)."""

from __future__ import annotations

from typing import Any

from django.apps import apps as registry
from django.db import IntegrityError, transaction

from games.errors import Conflict
from games.models import GameResult, Seat

from .avatars import remove_files
from .models import PlayerProfile, RatingChange, TrophyAward

DELETED = "deleted player"


def rename(profile: PlayerProfile, name: str, bio: str) -> None:
    key = name.casefold() or None
    taken = PlayerProfile.objects.filter(display_name_key=key).exclude(pk=profile.pk)
    if key and taken.exists():
        raise Conflict("name_taken", "That display name is taken.")
    profile.display_name, profile.display_name_key, profile.bio = name, key, bio
    try:
        with transaction.atomic():
            profile.save(update_fields=["display_name", "display_name_key", "bio"])
    except IntegrityError:
        raise Conflict("name_taken", "That display name is taken.") from None


def export(user: Any) -> dict[str, Any]:
    """Everything the site keeps of a player's play, as JSON."""
    games = [
        {
            "game": r.game.public_id,
            "mode": r.game.mode,
            "rated": r.game.rated,
            "finished": r.finished.isoformat(),
            "seat": r.seat,
            "place": r.place,
            "total": r.total,
        }
        for r in GameResult.objects.filter(user=user).select_related("game").order_by("finished")
    ]
    puzzles: list[dict[str, Any]] = []
    if registry.is_installed("puzzles"):
        attempts = registry.get_model("puzzles", "Attempt").objects.filter(user=user)
        for a in attempts.select_related("puzzle").order_by("started"):
            puzzles.append(
                {
                    "puzzle": a.puzzle.slug,
                    "mode": a.mode,
                    "started": a.started.isoformat(),
                    "solved": a.solved,
                    "hints": a.hints,
                    "seconds": a.seconds,
                }
            )
    return {
        "username": user.get_username(),
        "joined": user.date_joined.isoformat(),
        "games": games,
        "ratings": [
            {
                "game": c.game.public_id,
                "pool": c.pool,
                "before": c.shown_before,
                "after": c.shown_after,
            }
            for c in RatingChange.objects.filter(user=user).select_related("game")
        ],
        "trophies": [
            {"key": t.key, "earned": t.earned.isoformat(), "where": t.link or None}
            for t in TrophyAward.objects.filter(user=user)
        ],
        "puzzles": puzzles,
    }


def delete_account(user: Any) -> None:
    """Delete the account; its seats, results and tournament entries stay under the name
    "deleted player", linked to no profile, and its entries in tournaments not over are
    withdrawn."""
    profile = PlayerProfile.objects.filter(user=user).first()
    files = [profile.avatar_256, profile.avatar_64] if profile else []
    with transaction.atomic():
        Seat.objects.filter(user=user).update(name=DELETED, user=None)
        GameResult.objects.filter(user=user).update(name=DELETED, user=None)
        if registry.is_installed("tournaments"):
            # Read through the registry, as the export reads puzzles (apps import no other app).
            entries = registry.get_model("tournaments", "Entry").objects.filter(user=user)
            # Nobody is behind the entry any more: it is paired no more in a tournament still
            # to come or running (its finished tables and points stay).
            entries.exclude(tournament__state__in=("finished", "cancelled")).update(withdrawn=True)
            entries.update(name=DELETED, user=None)
        user.delete()
    remove_files(files)
