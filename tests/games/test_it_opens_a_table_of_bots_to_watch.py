"""A signed-in player opens a table of bots only, of a chosen strength, and watches it: every
seat a bot, nobody's seat the watcher's, dealt at once, unrated and unlisted; it plays to its
end like any table (docs/api.md, "Endpoints": `watch`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game, GameResult, SeatKind, Status

from .conftest import client_for, post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("mode", ["r45", "rush"])
def test_a_table_of_bots_plays_to_its_end_for_its_watcher(
    alice: Any, mode: str, django_capture_on_commit_callbacks: Any
) -> None:
    client = client_for(alice)
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(client, "/api/games/", {"mode": mode, "players": 2, "watch": "strong"})
    assert answer.status_code == 201, answer.content
    game = Game.objects.get(public_id=answer.json()["gid"])
    seats = list(game.seats.order_by("index"))
    assert [s.kind for s in seats] == [SeatKind.BOT, SeatKind.BOT]
    assert {s.bot_strength for s in seats} == {"strong"}
    assert all(s.user_id is None and not s.guest_key for s in seats)
    assert not game.rated and not game.listed and game.created_by == alice
    assert game.status == Status.FINISHED  # the bots played it out (tasks run eagerly here)
    assert GameResult.objects.filter(game=game).count() == 2
    # The watcher is a spectator: no seat, no rack.
    summary = client.get(f"/api/games/{game.public_id}/").json()
    assert summary["view"]["seat"] is None


def test_watching_does_not_count_as_a_live_game_of_ones_own(alice: Any, bob: Any) -> None:
    """The watcher plays no turn, so they may still sit down at a live game of their own."""
    client = client_for(alice)
    answer = post(client, "/api/games/", {"mode": "r45", "players": 4, "watch": "beginner"})
    assert answer.status_code == 201, answer.content
    mine = post(client, "/api/games/", {"mode": "parlor", "players": 2, "seats": ["bot:casual"]})
    assert mine.status_code == 201, mine.content


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"mode": "r45", "watch": "grandmaster"}, 400, "bot strength"),
        ({"mode": "r45", "watch": "strong", "rated": True}, 400, "never rated"),
        ({"mode": "parlor", "watch": "strong", "seats": ["human"]}, 400, "only bots"),
        ({"mode": "parlor", "watch": "strong", "days": 3}, 400, "plays live"),
    ],
)
def test_a_table_to_watch_refuses_what_it_cannot_be(
    alice: Any, body: dict[str, Any], status: int, words: str
) -> None:
    answer = post(client_for(alice), "/api/games/", body)
    assert answer.status_code == status and words in answer.json()["message"]
    assert not Game.objects.exists()


def test_a_guest_may_not_open_a_table_to_watch(db: Any) -> None:
    answer = post(Client(), "/api/games/", {"mode": "r45", "watch": "strong", "name": "Gina"})
    assert answer.status_code == 403 and answer.json()["error"] == "sign_in_to_watch"
    assert not Game.objects.exists()


def test_the_new_game_form_opens_a_table_to_watch(alice: Any) -> None:
    client = client_for(alice)
    home = client.get("/").content.decode()
    assert 'name="watch"' in home and "Only Master bots: I watch" in home
    form = {"mode": "parlor", "players": "3", "clock": "60", "watch": "casual", "seat1": "human"}
    answer = client.post("/games/new", form)
    assert answer.status_code == 302, answer.content.decode()[:500]
    game = Game.objects.get()
    assert answer["Location"] == game.get_absolute_url()
    assert [s.kind for s in game.seats.all()] == [SeatKind.BOT] * 3
    assert "Only Master bots" not in Client().get("/").content.decode()  # signed in only
