"""POST/GET/DELETE /api/seek: guests are refused with 403 and a sentence, a bad mode, player
count, bot wait or strength with 400 and a sentence, and nothing is written for either."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from matchmaking.models import Seek

pytestmark = pytest.mark.django_db


def send(client: Client, method: str, body: Any = None) -> Any:
    if method == "get":
        return client.get("/api/seek")
    data = body if isinstance(body, str) else json.dumps(body or {})
    return getattr(client, method)("/api/seek", data=data, content_type="application/json")


@pytest.fixture
def signed_in(alice: Any) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_a_guest_is_refused(method: str) -> None:
    response = send(Client(), method, {"mode": "parlor", "players": 2})

    assert response.status_code == 403
    assert response.json() == {
        "error": "sign_in_to_seek",
        "message": "Sign in to seek a rated game.",
    }
    assert not Seek.objects.exists()


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"mode": "sandbox", "players": 2}, "mode must be one of parlor, blitz, rush, lan, r45"),
        ({"mode": "chess", "players": 2}, "mode must be one of"),
        ({"players": 2}, "mode must be one of"),
        ({"mode": "parlor", "players": 7}, "Parlor League is played by 2, 3, 4, 5, 6 players."),
        (
            {"mode": "parlor", "players": "2"},
            'players takes a whole number (2, 3, 4, 5, 6); it came as text ("2").',
        ),
        (
            {"mode": "parlor", "players": True},
            "players takes a whole number (2, 3, 4, 5, 6); it came as true.",
        ),
        (
            {"mode": "r45", "players": 2.0},
            "players takes a whole number (2, 3, 4); it came as a number with a decimal point "
            "(2.0).",
        ),
        ({"mode": "rush", "players": 3}, "Rummy Rush is played by 2 players."),
        ({"mode": "blitz", "players": 5}, "Blitz is played by 2, 3, 4 players."),
        ({"mode": "r45", "players": 5}, "Rummy 45 is played by 2, 3, 4 players."),
        ({"mode": "parlor", "players": 2, "bots_after": 45}, "bots_after is null (never) or"),
        ({"mode": "parlor", "players": 2, "bots_after": "30"}, "bots_after is null"),
        ({"mode": "parlor", "players": 2, "bots_after": -30}, "bots_after is null"),
        ({"mode": "parlor", "players": 2, "bot_strength": "god"}, "bot_strength is one of"),
        (
            {"mode": "parlor", "players": 2, "bot_strenght": "master"},
            "bot_strenght is not a field of a seek; they are mode, players, bots_after, "
            "bot_strength.",
        ),
    ],
)
def test_a_bad_seek_is_refused(signed_in: Client, body: dict[str, Any], says: str) -> None:
    response = send(signed_in, "post", body)

    assert response.status_code == 400
    assert response.json()["error"] == "bad_seek"
    assert response.json()["message"].startswith(says)
    assert not Seek.objects.exists()


@pytest.mark.parametrize(
    ("raw", "code"), [("[1, 2]", "bad_json"), ("{", "bad_json"), ('{"a": NaN}', "bad_number")]
)
def test_a_body_that_is_not_a_json_object_is_refused(
    signed_in: Client, raw: str, code: str
) -> None:
    response = send(signed_in, "post", raw)

    assert response.status_code == 400 and response.json()["error"] == code
    assert not Seek.objects.exists()


def test_a_good_seek_is_answered_with_its_state(signed_in: Client, bob: Any) -> None:
    body = {"mode": "blitz", "players": 2, "bots_after": None, "bot_strength": "master"}
    opened = send(signed_in, "post", body).json()
    other = Client()
    other.force_login(bob)
    matched = send(other, "post", {"mode": "blitz", "players": 2}).json()
    polled = send(signed_in, "get").json()

    assert opened["status"] == "open" and opened["waiting"] == 1 and opened["window"] == 100
    assert opened["seeking"] == [{"mode": "blitz", "players": 2, "count": 1, "label": "Blitz"}]
    assert matched["status"] == "matched"
    assert polled["status"] == "matched" and polled["game"] == matched["game"]
    assert polled["game"] == Game.objects.get().get_absolute_url()


def test_delete_stops_seeking(signed_in: Client) -> None:
    send(signed_in, "post", {"mode": "lan", "players": 4, "bots_after": 300})
    answer = send(signed_in, "delete")

    assert answer.status_code == 200 and answer.json()["status"] == "none"
    assert Seek.objects.get().status == "cancelled"
    assert send(signed_in, "delete").json()["status"] == "none"


def test_other_methods_answer_json_405(signed_in: Client) -> None:
    response = send(signed_in, "put")

    assert response.status_code == 405 and response.json()["error"] == "http_405"


def test_the_lobby_shows_the_panel_and_the_counts(signed_in: Client, bob: Any) -> None:
    send(signed_in, "post", {"mode": "rush", "players": 2})
    guest_page = Client().get("/").content.decode()
    other = Client()
    other.force_login(bob)
    page = other.get("/").content.decode()

    assert "Find a rated game" in guest_page and "to seek a rated game" in guest_page
    assert "<label>Fill with bots after" in page
    assert "<strong>1</strong> player seeking Rummy Rush, 2 players" in page
