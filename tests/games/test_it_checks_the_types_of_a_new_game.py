"""``POST /api/games/`` checks each field's JSON type, and that the mode takes it, before making
anything: a wrong one is 400 ``bad_options`` (``bad_name`` for the name) with a sentence naming
the field and what it takes (docs/api.md), never a game made with the default instead or a seat
named ``['Gus']``."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import Game

from .conftest import client_for, post, viewer

pytestmark = pytest.mark.django_db

DUEL = {"mode": "parlor", "players": 2, "seats": ["bot:casual"]}


@pytest.mark.parametrize(
    ("change", "code", "message"),
    [
        (
            {"name": ["Gus"]},
            "bad_name",
            "name takes text: the name shown at the table; it came as a list.",
        ),
        (
            {"target": "200"},
            "bad_options",
            "target takes a whole number of points (50, 100, 150, 200, 300, 500); it came as "
            'text ("200").',
        ),
        (
            {"players": 2.0},
            "bad_options",
            "players takes a whole number (how many sit at the table); it came as a number "
            "with a decimal point (2.0).",
        ),
        (
            {"seats": "human"},
            "bad_options",
            'seats takes a list of the other seats, each "human" or "bot:<strength>"; it came '
            'as text ("human").',
        ),
        (
            {"seats": ["human", {"a": 1}]},
            "bad_options",
            'seats takes a list of the other seats, each "human" or "bot:<strength>"; its item 2 '
            "came as an object.",
        ),
        ({"clock": True}, "bad_options", "clock takes a whole number of seconds a turn"),
        ({"listed": "false"}, "bad_options", "listed takes true or false; it came as text"),
        ({"rated": 1}, "bad_options", "rated takes true or false; it came as the number 1."),
        ({"mode": 5}, "bad_options", "mode takes text, one of parlor, blitz, sandbox"),
        (
            {"tiles": "huge"},
            "bad_options",
            "Parlor League has no tiles option (its options: clock, days, target).",
        ),
        (
            {"mode": "blitz", "clock": 60},
            "bad_options",
            "Blitz has a 30-second clock: leave clock out.",
        ),
        ({"rounds": 1}, "bad_options", "rounds takes"),
        ({"mode": "blitz", "rounds": "two"}, "bad_options", 'rounds takes "one"'),
        ({"colour": "red"}, "bad_options", "colour is not a field of a new game; they are mode,"),
        (
            {"clock": 30, "days": 3},
            "bad_options",
            "A game has a clock (seconds a turn) or days a move, not both",
        ),
        ({"mode": "r45", "clock": 60, "days": 1}, "bad_options", "A game has a clock"),
    ],
)
def test_a_wrong_field_is_a_400_naming_it(change: dict[str, Any], code: str, message: str) -> None:
    answer = post(Client(), "/api/games/", {**DUEL, "name": "Gus", **change})

    assert answer.status_code == 400
    assert answer.json()["error"] == code
    assert answer.json()["message"].startswith(message)
    assert not Game.objects.exists()


def test_a_signed_in_creator_gets_the_same_answers(alice: Any) -> None:
    answer = post(client_for(alice), "/api/games/", {**DUEL, "target": "200"})

    assert answer.status_code == 400 and answer.json()["error"] == "bad_options"
    assert not Game.objects.exists()


def test_null_fields_and_the_modes_own_options_are_taken(alice: Any) -> None:
    sandbox = {"mode": "sandbox", "players": 2, "tiles": "large", "opening": 0, "clock": None}
    blitz = {"mode": "blitz", "players": 2, "rounds": "one", "days": 3, "listed": False}
    lan = {"mode": "lan", "players": 2, "clock": None, "seats": [], "name": None}
    for body in (sandbox, blitz, lan):
        answer = post(client_for(alice), "/api/games/", body)
        assert answer.status_code == 201, answer.json()
        Game.objects.all().delete()


def test_a_null_field_is_one_left_out(alice: Any) -> None:
    nulls = dict.fromkeys(("mode", "players", "clock", "target", "listed", "rated", "seats"))

    answer = post(client_for(alice), "/api/games/", nulls)

    assert answer.status_code == 201, answer.json()
    game = Game.objects.get()
    assert (game.mode, game.players, game.clock_seconds, game.listed, game.rated) == (
        "parlor",
        2,
        60,
        True,
        False,
    )
    assert game.config["match"]["target"] == 200


def test_a_join_with_a_name_that_is_not_text_is_a_400(alice: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    token = game.seats.get(index=1).invite_token

    answer = post(Client(), f"/api/join/{token}", {"name": {"first": "Gus"}})

    assert answer.status_code == 400 and answer.json()["error"] == "bad_name"
    assert answer.json()["message"] == (
        "name takes text: the name shown at the table; it came as an object."
    )
    assert game.seats.get(index=1).joined is None


@pytest.mark.parametrize(
    ("players", "seats", "message"),
    [
        (
            2,
            ["human", "human"],
            "seats lists the seats other than yours: 2 players means 1 other seat, and 2 came.",
        ),
        (
            3,
            ["human"] * 3,
            "seats lists the seats other than yours: 3 players means 2 other seats, and 3 came.",
        ),
    ],
)
def test_too_many_seats_says_how_many_in_good_grammar(
    players: int, seats: list[str], message: str
) -> None:
    answer = post(
        Client(),
        "/api/games/",
        {"mode": "parlor", "players": players, "seats": seats, "name": "Gus"},
    )

    assert answer.status_code == 400 and answer.json()["message"] == message


def test_a_bad_seat_or_a_number_out_of_range_is_refused_in_a_sentence_that_says_what_goes() -> None:
    seat = post(
        Client(),
        "/api/games/",
        {"mode": "parlor", "players": 2, "seats": ["bot:grandmaster"], "name": "Gus"},
    )
    assert seat.status_code == 400 and seat.json()["message"] == (
        'seats takes "human" or "bot:<strength>" for each seat, the strength beginner, casual,'
        " strong or master; 'bot:grandmaster' came."
    )
    opening = post(Client(), "/api/games/", {"mode": "sandbox", "opening": 99, "name": "Gus"})
    assert opening.status_code == 400
    assert opening.json()["message"] == "opening must be a whole number from 0 to 60"


def test_a_field_named_twice_is_a_400_and_no_game() -> None:
    """The last of two values is not taken in silence ({"players": 2, "players": 3})."""
    body = '{"mode": "parlor", "name": "Gus", "players": 2, "players": 3}'
    answer = Client().post("/api/games/", body, content_type="application/json")

    assert answer.status_code == 400
    assert answer.json() == {
        "error": "duplicate_field",
        "message": "players is named more than once; name each field once.",
    }
    assert not Game.objects.exists()
