"""The account's data download holds everything the site keeps of a player (their right of
access, issue 30): the e-mail addresses, the profile (display name, bio, avatar, board settings
and unlocks), notice settings, games, ratings, trophies, puzzles, seeks and tournament entries.
A model that links rows to a user and is neither exported nor left out here, with a reason,
fails the first test."""

from __future__ import annotations

import base64
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.models import NoticeSettings
from matchmaking.models import Seek
from players import account
from players.models import PlayerProfile
from tournaments import services as tournaments
from tournaments.models import Tournament

from .conftest import make_users, play_out
from .test_it_takes_avatars_and_accounts import photo, upload

pytestmark = pytest.mark.django_db

# Models linked to the user that the download leaves out, and why.
LEFT_OUT = {
    "admin.LogEntry": "the staff's record of their edits in the admin: the site's audit trail "
    "of its own data, kept for the other staff, not data about the player",
    "accounts.Profile": "holds nothing but its link to the user",
}


def user_linked_models() -> set[str]:
    """Every installed model with a ForeignKey or a OneToOneField to the user model."""
    user = get_user_model()
    return {
        model._meta.label
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if getattr(field, "concrete", False)
        and field.is_relation
        and (field.many_to_one or field.one_to_one)
        and field.related_model is user
    }


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


def test_every_model_linked_to_a_user_is_exported_or_left_out_with_a_reason() -> None:
    linked = user_linked_models()

    assert linked - set(account.EXPORTED) - set(LEFT_OUT) == set()
    assert set(account.EXPORTED) | set(LEFT_OUT) <= linked  # no stale names
    assert not set(account.EXPORTED) & set(LEFT_OUT)
    assert {"account.EmailAddress", "matchmaking.Seek", "tournaments.Entry"} <= linked


def test_the_download_holds_the_account_profile_settings_seeks_and_entries(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    client = Client()
    client.force_login(ann)
    EmailAddress.objects.create(user=ann, email="ann@example.com", verified=True, primary=True)
    EmailAddress.objects.create(user=ann, email="ann@work.example", verified=False, primary=False)
    client.post("/account/profile", {"display_name": "Ann R", "bio": "Runs of four."})
    client.post("/account/board", {"felt": "green", "sort": "colour", "cb": "on"})
    upload(client, photo())
    NoticeSettings.objects.update_or_create(user=ann, defaults={"email_turn_notices": True})
    game = play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    Seek.objects.create(
        user=ann,
        name="Ann R",
        mode="parlor",
        players=2,
        clock_seconds=60,
        pool="parlor",
        rating=1500,
        created=timezone.now(),
    )
    cup = Tournament.objects.create(
        name="Winter cup",
        format="swiss",
        mode="lan",
        table_size=2,
        rounds=3,
        starts_at=timezone.now() + timedelta(hours=1),
        clock_seconds=60,
    )
    tournaments.join(ann, cup.pk)

    data = client.get("/account/data.json").json()

    assert data["email"] == "ann@example.com"
    assert {e["email"] for e in data["emails"]} == {"ann@example.com", "ann@work.example"}
    profile = data["profile"]
    assert (profile["display_name"], profile["bio"]) == ("Ann R", "Runs of four.")
    saved = PlayerProfile.of(ann).board
    assert saved and all(profile["board"][k] == v for k, v in saved.items())
    assert profile["board"]["cb"] is True and profile["unlocks"]["felts"]
    avatar = profile["avatar"]["256"]
    assert avatar.startswith("data:image/png;base64,")
    assert base64.b64decode(avatar.split(",", 1)[1]).startswith(b"\x89PNG")
    assert data["notice_settings"]["email_turn_notices"] is True
    assert data["games"][0]["game"] == game.public_id
    # Its result row whole: the common fields and the family's own counts.
    mine = game.results.get(user=ann)
    assert (data["games"][0]["family"], data["games"][0]["turns"]) == ("rummikub", mine.turns)
    assert data["games"][0]["details"] == mine.details and "melds_laid" in mine.details
    assert data["seats"][0]["game"] == game.public_id and data["games_created"]
    assert data["seeks"][0]["mode"] == "parlor"
    assert data["tournament_entries"] == [
        {
            "tournament": cup.pk,
            "name": data["tournament_entries"][0]["name"],
            "points": data["tournament_entries"][0]["points"],
            "rank": None,
            "withdrawn": False,
            "joined": data["tournament_entries"][0]["joined"],
        }
    ]
    # Every part the export names is in the download, and nothing of a game's secrets.
    assert set(account.EXPORTED.values()) <= set(data)
    text = str(data)
    assert game.seed not in text and "pool_order" not in text
