from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from games.errors import Conflict, DomainError, Invalid
from games.identity import Identity
from games.models import Game, Status
from players.models import PlayerProfile
from rummi_site.jsonapi import status_of

from .conftest import client_for, post, viewer

pytestmark = pytest.mark.django_db


def test_a_game_starts_when_every_seat_is_taken(alice: Any, bob: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2, "clock": 30})
    assert game.status == Status.WAITING and game.seq == 0
    token = game.seats.get(index=1).invite_token
    assert len(token) >= 30
    services.join_game(viewer(bob), token)
    game.refresh_from_db()
    assert game.status == Status.PLAYING and game.seq == 2
    assert game.commitment and len(game.seed) == 64
    assert game.deadline is not None and game.clock_seconds == 30
    assert [e.kind for e in game.events.all()] == ["GameStarted", "RoundStarted"]


def test_joining_twice_keeps_one_seat(duel: Game, bob: Any) -> None:
    services.join_game(viewer(bob), duel.seats.get(index=1).invite_token)
    assert duel.seats.filter(user=bob).count() == 1


def test_a_full_game_refuses_a_third_player(duel: Game, carol: Any) -> None:
    with pytest.raises(Conflict) as raised:
        services.join_game(viewer(carol), duel.seats.get(index=1).invite_token)
    assert status_of(raised.value) == 409 and raised.value.code == "game_full"


def test_a_guest_joins_by_link_with_a_name_and_no_account(alice: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "blitz", "players": 2})
    guest = Client()
    answer = guest.get(f"/join/{game.seats.get(index=1).invite_token}/")
    assert answer.status_code == 200 and b"Your name" in answer.content
    answer = guest.post(f"/join/{game.seats.get(index=1).invite_token}/", {"name": "  Dora  "})
    assert answer.status_code == 302 and answer["Location"] == f"/g/{game.public_id}/"
    game.refresh_from_db()
    assert game.status == Status.PLAYING
    assert game.seats.get(index=1).name == "Dora"
    summary = guest.get(f"/api/games/{game.public_id}/").json()
    assert summary["me"] == 1 and len(summary["view"]["rack"]) == 14


def test_a_guest_without_a_name_gets_a_clear_error(alice: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    answer = Client().post(f"/join/{game.seats.get(index=1).invite_token}/", {"name": " "})
    assert answer.status_code == 400 and b"display name" in answer.content
    assert Client().get("/join/not-a-token/").status_code == 404


def test_a_guest_who_signs_up_keeps_their_games(alice: Any, django_user_model: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    guest = Client()
    guest.post(f"/join/{game.seats.get(index=1).invite_token}/", {"name": "Dora"})
    answer = guest.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": "tiles-and-racks-42",
            "password2": "tiles-and-racks-42",
        },
    )
    assert answer.status_code == 302
    dora = django_user_model.objects.get(username="dora")
    seat = game.seats.get(index=1)
    assert seat.user == dora and seat.name == "dora"
    assert guest.get(f"/api/games/{game.public_id}/").json()["me"] == 1


def test_bots_fill_their_seats_and_the_game_starts_at_once(alice: Any) -> None:
    game = services.create_game(
        viewer(alice), {"mode": "parlor", "players": 3, "seats": ["bot:casual", "bot:strong"]}
    )
    assert game.status == Status.PLAYING
    assert [s.name for s in game.seats.all()] == ["alice", "Casual bot", "Strong bot"]


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "chess"},
        {"mode": "parlor", "players": 7},
        {"mode": "parlor", "players": "two"},
        {"mode": "parlor", "clock": 45},
        {"mode": "parlor", "days": 2},
        {"mode": "rush", "players": 3},
        {"mode": "blitz", "players": 5},
        {"mode": "sandbox", "days": 3},
        {"mode": "parlor", "players": 2, "seats": ["bot:godlike"]},
        {"mode": "parlor", "players": 2, "seats": ["human", "human"]},
    ],
)
def test_bad_options_are_refused_with_a_message(alice: Any, options: dict[str, Any]) -> None:
    with pytest.raises(DomainError) as raised:
        services.create_game(viewer(alice), options)
    assert isinstance(raised.value, Invalid) and raised.value.body["message"]
    assert status_of(raised.value) == 400


@pytest.mark.parametrize(
    ("options", "tiles", "opening", "penalty", "match"),
    [
        ({"mode": "parlor", "players": 4}, "classic", 30, 3, "target"),
        ({"mode": "parlor", "players": 6}, "large", 30, 3, "target"),
        ({"mode": "rush", "players": 2}, "rush", 21, 3, "rounds"),
        ({"mode": "lan", "players": 5}, "large", 30, 1, "single"),
        ({"mode": "blitz", "players": 2, "rounds": "one"}, "classic", 30, 3, "single"),
        ({"mode": "parlor", "players": 2, "days": 3}, "classic", 30, 3, "target"),
    ],
)
def test_modes_choose_their_rules(
    alice: Any, options: dict[str, Any], tiles: str, opening: int, penalty: int, match: str
) -> None:
    game = services.create_game(viewer(alice), options)
    rules, match_format = game.config["rules"], game.config["match"]
    assert game.family == "rummikub" and rules["name"] == tiles
    assert (rules["opening"], rules["penalty"], match_format["kind"]) == (
        opening,
        penalty,
        match,
    )
    if "days" in options:
        assert game.correspondence_days == 3 and game.clock_seconds is None


def test_the_api_creates_a_game_for_a_guest() -> None:
    guest = Client()
    answer = post(guest, "/api/games/", {"mode": "parlor", "players": 3, "name": "Eve"})
    assert answer.status_code == 201
    body = answer.json()
    assert len(body["invites"]) == 2
    assert Game.objects.get(public_id=body["gid"]).seats.get(index=0).name == "Eve"
    assert post(Client(), "/api/games/", {"mode": "parlor"}).status_code == 400


def test_the_lobby_lists_open_games_and_my_games(alice: Any, bob: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    page = client_for(bob).get("/").content.decode()
    assert f"/join/{game.seats.get(index=1).invite_token}/" in page
    mine = client_for(alice).get("/").content.decode()
    assert "My games" in mine and f"/g/{game.public_id}/" in mine
    assert Identity().known is False


def test_an_unlisted_games_invite_links_are_shown_to_its_creator_only(
    alice: Any, bob: Any, outsider: Any
) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 3, "listed": False})
    tokens = [s.invite_token for s in game.seats.filter(index__gt=0)]
    page = lambda client: client.get(f"/g/{game.public_id}/").content.decode()  # noqa: E731

    assert all(token in page(client_for(alice)) for token in tokens)
    services.join_game(viewer(bob), tokens[0])
    for stranger in (Client(), client_for(outsider), client_for(bob)):
        html = page(stranger)
        assert not any(token in html for token in tokens)
    assert "private" in page(Client())
    listed = services.create_game(viewer(outsider), {"mode": "parlor", "players": 2})
    token = listed.seats.get(index=1).invite_token
    assert token in Client().get(f"/g/{listed.public_id}/").content.decode()


def test_a_set_too_small_for_the_players_is_refused_when_the_game_is_made(alice: Any) -> None:
    """The rush set cannot deal six racks: refused at once, not when the last seat fills."""
    options = {"mode": "sandbox", "players": 6, "tiles": "rush", "seats": ["bot:casual"] * 5}
    with pytest.raises(Invalid, match="too small"):
        services.create_game(viewer(alice), options)
    assert not Game.objects.exists()


def test_a_guest_may_not_sit_down_under_a_name_already_at_the_table() -> None:
    """Two players called Host (or host, or a look-alike) could not be told apart on the board
    or the scorecard: the second is asked for another name, by the form and by the API."""
    host = Identity(guest_key="g-host", name="Host")
    game = services.create_game(host, {"mode": "parlor", "players": 3})
    token = game.seats.get(index=1).invite_token
    for name in ("Host", "host", "H\u043est"):  # the last with a Cyrillic о
        page = Client().post(f"/join/{token}/", {"name": name})
        assert page.status_code == 409, name
        assert "Someone at this table is already called Host" in page.content.decode(), name
    with pytest.raises(Conflict) as raised:
        services.join_game(Identity(guest_key="g-2", name=" HOST "), token)
    assert raised.value.code == "name_at_table"
    assert Client().post(f"/join/{token}/", {"name": "Hostess"}).status_code == 302
    assert [s.name for s in Game.objects.get(pk=game.pk).seats.order_by("index")][:2] == [
        "Host",
        "Hostess",
    ]


def test_a_seated_guest_joining_again_under_another_name_keeps_their_name(alice: Any) -> None:
    """Joining a table twice changes nothing: by the API as by the join page, a guest already
    seated who sends another name keeps the name the table knows them by, in the session too."""
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 3})
    token = game.seats.get(index=1).invite_token
    guest = Client()
    assert post(guest, f"/api/join/{token}", {"name": "Dora"}).status_code == 200
    again = post(guest, f"/api/join/{token}", {"name": "Eve"})
    assert again.status_code == 200
    assert again.json() == {"gid": game.public_id, "url": f"/g/{game.public_id}/"}
    assert [s.name for s in Game.objects.get(pk=game.pk).seats.order_by("index")] == [
        "alice",
        "Dora",
        "",
    ]
    assert guest.session["guest_name"] == "Dora"
    # A body it would refuse from anyone is still refused.
    refused = post(guest, f"/api/join/{token}", {"nmae": "Eve"})
    assert refused.status_code == 400 and refused.json()["error"] == "bad_options"
    # The page does the same (it sends a seated player to the game before reading the form).
    page = guest.post(f"/join/{token}/", {"name": "Eve"})
    assert page.status_code == 302 and page["Location"] == f"/g/{game.public_id}/"
    assert guest.session["guest_name"] == "Dora"
    # Another table's link still takes the new name.
    other = services.create_game(viewer(alice), {"mode": "parlor", "players": 2, "days": 3})
    assert post(guest, f"/api/join/{other.seats.get(index=1).invite_token}", {"name": "Eve"}).json()
    assert guest.session["guest_name"] == "Eve"


def test_an_unlisted_tables_used_link_does_not_take_another_invitees_seat(alice: Any) -> None:
    """Each invite link is one person's: a link whose seat is taken does not seat its holder
    in the seat the next invitee's link holds. A listed table's seats are anyone's: there a
    taken link seats its holder in another open seat."""
    private = services.create_game(
        viewer(alice), {"mode": "parlor", "players": 3, "days": 3, "listed": False}
    )
    link = f"/api/join/{private.seats.get(index=1).invite_token}"
    assert post(Client(), link, {"name": "Ann"}).status_code == 200

    again = post(Client(), link, {"name": "Ben"})

    assert again.status_code == 409 and again.json()["error"] == "seat_taken"
    assert "ask the player who made the table for another link" in again.json()["message"]
    assert private.seats.get(index=2).joined is None
    listed = services.create_game(viewer(alice), {"mode": "parlor", "players": 3, "days": 3})
    link = f"/api/join/{listed.seats.get(index=1).invite_token}"
    assert post(Client(), link, {"name": "Ann"}).status_code == 200
    assert post(Client(), link, {"name": "Ben"}).status_code == 200
    assert listed.seats.get(index=2).name == "Ben"


def test_the_join_page_says_an_invites_seat_is_taken_and_names_the_display_name(
    alice: Any, bob: Any
) -> None:
    private = services.create_game(
        viewer(alice), {"mode": "parlor", "players": 3, "days": 3, "listed": False}
    )
    used, fresh = (f"/join/{private.seats.get(index=i).invite_token}/" for i in (1, 2))
    Client().post(used, {"name": "Ann"})

    page = Client().get(used).content.decode()
    sent = Client().post(used, {"name": "Ben"})

    assert "seat is taken</h1>" in page and "Take my seat" not in page
    assert sent.status_code == 409 and "ask the player who made the table" in sent.content.decode()
    profile = PlayerProfile.of(bob)
    profile.display_name = "Bobby Tables"
    profile.save()
    assert "You will join as <strong>Bobby Tables</strong>" in (
        client_for(bob).get(fresh).content.decode()
    )
