"""A Rummy 45 game is made from the new-game options like any other mode, its seats taken by
invite links, and dealt (the seed committed, then the deal) once every seat is taken."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.errors import Invalid
from games.models import Game, Status

from ..conftest import client_for, post, viewer

pytestmark = pytest.mark.django_db


def test_it_waits_for_the_invited_player_then_deals(alice: Any, bob: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "r45", "players": 2, "days": 3})
    assert game.status == Status.WAITING and game.seq == 0
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game.refresh_from_db()
    assert game.status == Status.PLAYING and game.correspondence_days == 3
    assert list(game.events.values_list("kind", flat=True)) == ["R45Started", "Dealt"]
    assert game.state is not None and game.state["phase"] == "setup"
    assert game.commitment == game.state["commitment"] and game.deadline is not None


def test_it_makes_a_game_from_the_json_api_with_its_summary(alice: Any) -> None:
    client = client_for(alice)
    made = post(client, "/api/games/", {"mode": "r45", "players": 4, "clock": 30})
    assert made.status_code == 201, made.json()
    assert len(made.json()["invites"]) == 3
    summary = client.get(f"/api/games/{made.json()['gid']}/").json()
    assert summary["mode"] == "r45" and summary["status"] == "waiting"


@pytest.mark.parametrize(
    "options, message",
    [
        ({"mode": "r45", "players": 5}, "2-4 players"),
        ({"mode": "r45", "players": 2, "clock": 45}, "clock"),
        ({"mode": "r45", "players": 2, "seats": ["bot:genius"]}, "bot"),
    ],
)
def test_it_refuses_options_a_rummy45_game_cannot_have(
    alice: Any, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(Invalid) as refused:
        services.create_game(viewer(alice), options)
    assert message in refused.value.body["message"]
    assert not Game.objects.exists()


def test_the_new_game_form_and_how_to_play_offer_it(client: Any) -> None:
    home = client.get("/").content.decode()
    assert 'value="r45"' in home and "Rummy 45" in home
    rules = client.get("/how-to-play/").content.decode()
    assert 'id="mode-r45"' in rules and 'id="rummy45"' in rules
    assert "45 points" in rules


def test_the_home_pages_form_starts_a_game_against_a_bot(client: Any) -> None:
    form = {
        "name": "Dora",
        "mode": "r45",
        "players": "2",
        **{f"seat{i}": "human" for i in range(1, 6)},
        "seat1": "bot:strong",
        "clock": "60",
        "days": "",
        "target": "200",
        "listed": "on",
    }
    answer = client.post("/games/new", form)
    assert answer.status_code == 302, answer.content
    game = Game.objects.get()
    assert game.mode == "r45" and game.status == Status.PLAYING
    page = client.get(answer["Location"])
    assert page.status_code == 200 and b"games/r45.js" in page.content
    assert page.templates[0].name == "games/r45.html"
