"""Your account: the display name (unique), the data you can take away, and deleting the
account (its games stay, shown as "deleted player"; its avatar files go)."""

from __future__ import annotations

import base64
from typing import Any

from allauth.account.models import EmailAddress
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction

from games import services as game_services
from games.errors import Conflict
from games.identity import Identity
from games.models import Game, Notice, NoticeSettings, Seat
from games.names import check_name
from matchmaking.models import Seek
from puzzles.models import Attempt, PlayerRating, Puzzle
from ratings.models import Rating, RatingChange
from tournaments import services as tournaments
from tournaments.models import Action, Entry, Tournament

from . import cosmetics
from .avatars import remove_files
from .models import PlayerProfile, TrophyAward

DELETED = "deleted player"


def rename(profile: PlayerProfile, name: str, bio: str) -> None:
    """Set the display name and bio. A display name follows the name rules and may not look
    like another account's username or display name (docs/fair-play.md "Names"); it may be the
    account's own username. The account's seats, results and tournament entries are renamed
    with it (an empty display name gives them the username back)."""
    if name:
        check_name(name, exclude_user_id=profile.user_id)
    key = name.casefold() or None
    taken = PlayerProfile.objects.filter(display_name_key=key).exclude(pk=profile.pk)
    if key and taken.exists():
        raise Conflict("name_taken", "That display name is taken.")
    renamed = name != profile.display_name
    profile.display_name, profile.display_name_key, profile.bio = name, key, bio
    shown = name or profile.user.get_username()
    try:
        with transaction.atomic():
            profile.save(update_fields=["display_name", "display_name_key", "bio"])
            if renamed:
                # Shown the same way everywhere: the account's seats, results and tournament
                # entries, past ones too, take the new name (as deletion gives them its name).
                game_services.rename_player(profile.user_id, shown)
                tournaments.rename_user(profile.user_id, shown)
    except IntegrityError:
        raise Conflict("name_taken", "That display name is taken.") from None


# Every model holding rows of a user (a ForeignKey or a OneToOneField to the user model) and
# the part of the export that carries them. tests/players/test_it_exports_all_of_a_players_data.py
# fails when a model linked to the user is neither here nor on its list of models left out.
EXPORTED = {
    "account.EmailAddress": "emails",
    "players.PlayerProfile": "profile",
    "ratings.Rating": "ratings",
    "ratings.RatingChange": "rating_changes",
    "players.TrophyAward": "trophies",
    "games.Game": "games_created",
    "games.Seat": "seats",
    "games.GameResult": "games",
    "games.Notice": "turn_notices",
    "games.NoticeSettings": "notice_settings",
    "puzzles.Puzzle": "puzzles_created",
    "puzzles.Attempt": "puzzles",
    "puzzles.PlayerRating": "puzzle_rating",
    "matchmaking.Seek": "seeks",
    "tournaments.Tournament": "tournaments_created",
    "tournaments.Entry": "tournament_entries",
    "tournaments.Action": "tournament_actions",
}


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _rows(model: Any, user: Any, link: str, read: Any, order: str = "pk") -> list[Any]:
    """``read`` of each row of ``model`` (an app below this one, rummi_site/layers.py) whose
    ``link`` is ``user``."""
    return [read(row) for row in model.objects.filter(**{link: user}).order_by(order)]


def _data_url(name: str) -> str | None:
    """A stored avatar file as a ``data:`` URL, so the download carries the image itself."""
    if not name or not default_storage.exists(name):
        return None
    with default_storage.open(name, "rb") as file:
        return "data:image/png;base64," + base64.b64encode(file.read()).decode("ascii")


def _profile(user: Any) -> dict[str, Any]:
    profile = PlayerProfile.of(user)
    return {
        "display_name": profile.display_name,
        "bio": profile.bio,
        "avatar": {"256": _data_url(profile.avatar_256), "64": _data_url(profile.avatar_64)},
        "board": cosmetics.settings_of(profile),
        "unlocks": {
            kind: [item["key"] for item in items if not item["locked"]]
            for kind, items in cosmetics.catalogue(user.pk).items()
        },
    }


def export(user: Any) -> dict[str, Any]:
    """Everything the site keeps of a player, as JSON (their right of access): the account,
    the profile and its settings, their games, ratings, trophies, puzzles, seeks and
    tournaments. What a player may not see of a game still being played (the seed, the
    cached state with every rack) is not in it."""
    games = [
        {
            "game": r.game.public_id,
            "family": r.game.family,
            "mode": r.game.mode,
            "rated": r.game.rated,
            "finished": r.finished.isoformat(),
            "seat": r.seat,
            "place": r.place,
            "total": r.total,
            "went_out": r.went_out,
            "tiles_left": r.tiles_left,
            "resigned": r.resigned,
            "turns": r.turns,
            "average_turn_seconds": r.average_turn_seconds,
            "details": r.details,  # the family's own counts (docs/design.md "Results")
        }
        for r in game_services.results_of(user.pk)
    ]
    notice_settings = NoticeSettings.objects.filter(user=user).first()
    return {
        "username": user.get_username(),
        "joined": user.date_joined.isoformat(),
        "last_login": _when(user.last_login),
        "email": user.email,
        "emails": _rows(
            EmailAddress,
            user,
            "user",
            lambda e: {"email": e.email, "verified": e.verified, "primary": e.primary},
        ),
        "profile": _profile(user),
        "notice_settings": {
            "email_turn_notices": bool(notice_settings and notice_settings.email_turn_notices),
            "last_digest": _when(notice_settings.last_digest) if notice_settings else None,
        },
        "games": games,
        "seats": [
            {
                "game": s.game.public_id,
                "seat": s.index,
                "name": s.name,
                "status": s.game.status,
                "joined": _when(s.joined),
            }
            for s in Seat.objects.filter(user=user).select_related("game").order_by("pk")
        ],
        "games_created": [
            {"game": g.public_id, "mode": g.mode, "created": _when(g.created)}
            for g in Game.objects.filter(created_by=user).order_by("pk")
        ],
        "turn_notices": [
            {
                "game": n.game.public_id,
                "kind": n.kind,
                "turn": n.turn_number,
                "created": _when(n.created),
                "sent": _when(n.sent),
            }
            for n in Notice.objects.filter(user=user).select_related("game").order_by("pk")
        ],
        "ratings": [
            {"pool": r.pool, "rating": r.shown, "games": r.games, "updated": _when(r.updated)}
            for r in Rating.objects.filter(user=user).order_by("pool")
        ],
        "rating_changes": [
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
        "puzzles": _rows(
            Attempt,
            user,
            "user",
            lambda a: {
                "puzzle": a.puzzle.slug,
                "mode": a.mode,
                "started": a.started.isoformat(),
                "solved": a.solved,
                "hints": a.hints,
                "seconds": a.seconds,
            },
            order="started",
        ),
        "puzzles_created": _rows(
            Puzzle,
            user,
            "created_by",
            lambda p: {"puzzle": p.slug, "public": p.public, "created": _when(p.created)},
        ),
        "puzzle_rating": _rows(
            PlayerRating,
            user,
            "user",
            lambda r: {
                "rating": round(r.rating),
                "games": r.games,
                "streak_best": r.streak_best,
            },
        ),
        "seeks": _rows(
            Seek,
            user,
            "user",
            lambda k: {
                "name": k.name,
                "mode": k.mode,
                "players": k.players,
                "status": k.status,
                "created": _when(k.created),
                "game": k.game.public_id if k.game_id else None,
            },
        ),
        "tournament_entries": _rows(
            Entry,
            user,
            "user",
            lambda e: {
                "tournament": e.tournament_id,
                "name": e.name,
                "points": e.points,
                "rank": e.rank,
                "withdrawn": e.withdrawn,
                "joined": _when(e.joined),
            },
        ),
        "tournaments_created": _rows(
            Tournament,
            user,
            "created_by",
            lambda t: {"tournament": t.pk, "name": t.name, "created": _when(t.created)},
        ),
        "tournament_actions": _rows(
            Action,
            user,
            "actor",
            lambda a: {"tournament": a.tournament_id, "verb": a.verb, "at": _when(a.at)},
        ),
    }


def delete_account(user: Any) -> None:
    """Delete the account; its seats, results and tournament entries stay under the name
    "deleted player", linked to no profile, and its entries in tournaments not over are
    withdrawn. First it resigns the games it is playing and leaves the tables waiting for
    players (``leave_all_games``): nobody waits out a gone player's clock."""
    profile = PlayerProfile.objects.filter(user=user).first()
    files = [profile.avatar_256, profile.avatar_64] if profile else []
    with transaction.atomic():
        game_services.leave_all_games(Identity(user_id=user.pk, name=user.get_username()))
        game_services.forget_player(user.pk, DELETED)
        tournaments.forget_user(user, DELETED)
        user.delete()
    remove_files(files)
