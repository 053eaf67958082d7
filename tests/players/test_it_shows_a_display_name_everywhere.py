"""A display name is shown the same way on the board, the scorecard, the lists and the profile
(docs/fair-play.md "Names"): an account sits down under it, and renaming renames its seats,
results and tournament entries, past ones too."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def names_everywhere(viewer: Client, gid: str, t: Any) -> dict[str, Any]:
    seats = viewer.get(f"/api/games/{gid}/").json()["seats"]
    scorecard = viewer.get(f"/api/games/{gid}/end").json()["scorecard"]
    standings = Client().get(reverse("tournament_standings_json", args=[t.pk])).json()
    return {
        "board": {s["name"] for s in seats},
        "scorecard": {s["name"] for s in scorecard},
        "standings": {r["player"] for r in standings["standings"]},
        "board page": Client().get(f"/g/{gid}/").content.decode(),
        "profile": Client().get("/@/alice/").content.decode(),
        "games list": Client().get("/@/alice/games/").content.decode(),
    }


def test_a_display_name_is_the_name_on_every_page(alice: Any, bob: Any) -> None:
    ann, ben = signed_in(alice), signed_in(bob)
    assert ann.post("/account/profile", {"display_name": "Tile Queen"}).status_code == 302
    made = ann.post("/api/games/", {"mode": "parlor", "players": 2}, "application/json").json()
    token = made["invites"][0]["url"].rstrip("/").rsplit("/", 1)[-1]
    assert ben.post(f"/api/join/{token}", {}, "application/json").status_code == 200
    seq = ben.get(f"/api/games/{made['gid']}/").json()["seq"]
    resign = {"expected_seq": seq, "key": uuid.uuid4().hex}
    assert (
        ben.post(f"/api/games/{made['gid']}/resign", resign, "application/json").status_code == 200
    )
    t = Tournament.objects.create(
        name="Cup", mode="lan", table_size=2, rounds=1, starts_at=timezone.now() + timedelta(1)
    )
    tournaments.join(alice, t.pk)

    shown = names_everywhere(ben, made["gid"], t)
    for where in ("board", "scorecard", "standings"):
        assert "Tile Queen" in shown[where] and "alice" not in shown[where], where
    for where in ("board page", "profile", "games list"):
        assert "Tile Queen" in shown[where], where
    # The list's own title too (until 2026-12-08 it said "Games of alice").
    assert "<title>Games of Tile Queen" in shown["games list"]
    assert ">Tile Queen</a></h1>" in shown["games list"]

    assert ann.post("/account/profile", {"display_name": "Queen B"}).status_code == 302
    renamed = names_everywhere(ben, made["gid"], t)
    for where in ("board", "scorecard", "standings"):
        assert "Queen B" in renamed[where] and "Tile Queen" not in renamed[where], where
    for where in ("board page", "profile", "games list"):
        assert "Queen B" in renamed[where] and "Tile Queen" not in renamed[where], where
