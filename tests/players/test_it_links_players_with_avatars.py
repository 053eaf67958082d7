"""Player names link to their profiles with their avatars (issue 19): the home page's game
list, the game's seats as the board reads them, the end of game's scorecard and the replay; a
guest's, a bot's and a deleted player's name has neither."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from games import services
from games.identity import Identity
from games.models import Status
from players import account

from .conftest import make_users, viewer

pytestmark = pytest.mark.django_db


def test_the_home_page_and_the_seats_link_accounts_to_their_profiles(
    django_user_model: Any,
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = services.create_game(viewer(ann), {"players": 3})
    services.join_game(viewer(ben), game.seats.get(index=1).invite_token)
    services.join_game(Identity(guest_key="g-9", name="Gus"), game.seats.get(index=2).invite_token)

    client = Client()
    client.force_login(ann)
    page = client.get("/").content.decode()
    assert (
        '<a class="player-link" href="/@/ben/"><img class="avatar tiny" src="/@/ben/avatar.svg"'
        in page
    )
    assert 'href="/@/Gus/"' not in page and "Gus" in page

    seats = client.get(f"/api/games/{game.public_id}/").json()["seats"]
    assert [s["username"] for s in seats] == ["ann", "ben", None]
    drawn = client.get("/@/ben/avatar.svg")
    assert drawn.status_code == 200 and drawn["Content-Type"] == "image/svg+xml"


@pytest.fixture
def table_of_four(django_user_model: Any, django_capture_on_commit_callbacks: Any) -> Any:
    """A finished game of an account (ann), one deleted since (ben), a guest (Gus) and a bot:
    the three people resign in turn and the bot wins."""
    ann, ben = make_users(django_user_model, "ann", "ben")
    gus = Identity(guest_key="g-9", name="Gus")
    with django_capture_on_commit_callbacks(execute=True):
        opts = {"players": 4, "seats": ["human", "human", "bot:beginner"]}
        game = services.create_game(viewer(ann), opts)
        services.join_game(viewer(ben), game.seats.get(index=1).invite_token)
        services.join_game(gus, game.seats.get(index=2).invite_token)
        for who in (viewer(ben), gus, viewer(ann)):
            game.refresh_from_db()
            body = {"expected_seq": game.seq, "key": uuid.uuid4().hex}
            services.act(game.public_id, who, "resign", body)
    account.delete_account(ben)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    return game


def _linked(page: str, username: str) -> bool:
    return f'href="/@/{username}/"' in page


def test_the_scorecard_names_each_account_for_its_profile_link(table_of_four: Any) -> None:
    game = table_of_four
    lines = Client().get(f"/api/games/{game.public_id}/end").json()["scorecard"]

    by_seat = sorted(lines, key=lambda line: line["seat"])  # the card itself is by place
    assert [(line["name"], line["username"]) for line in by_seat] == [
        ("ann", "ann"),
        ("deleted player", None),
        ("Gus", None),
        ("Beginner bot", None),
    ]


def test_the_replay_links_the_accounts_and_names_the_rest(table_of_four: Any) -> None:
    page = Client().get(f"/g/{table_of_four.public_id}/replay/").content.decode()

    players = page.split('class="replay-players"')[1].split("</p>")[0]
    assert (
        '<a class="player-link" href="/@/ann/"><img class="avatar tiny" src="/@/ann/avatar.svg"'
        in players
    )
    # Each comma right after its name (the includes end without a newline).
    assert players.endswith("ann</a>, deleted player, Gus, Beginner bot")
    assert players.count("<a ") == 1 and not _linked(page, "ben")
    # The racks' names, drawn by the page's script, link from the same seats.
    assert '<script id="replay-usernames" type="application/json">["ann", null, null, null]' in page


def test_the_profiles_games_lists_link_the_accounts_and_name_the_rest(table_of_four: Any) -> None:
    for url in ("/@/ann/", "/@/ann/games/"):
        page = Client().get(url).content.decode()
        table = page.split('class="players-games"')[1].split("</table>")[0]
        assert '<a class="player-link" href="/@/ann/"><img class="avatar tiny"' in table
        for shown in ("deleted player", "Gus", "Beginner bot"):
            assert shown in table
        assert table.count('class="player-link"') == 1, url


def test_the_waiting_page_links_the_seated_accounts(django_user_model: Any) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = services.create_game(viewer(ann), {"players": 4})
    services.join_game(viewer(ben), game.seats.get(index=1).invite_token)
    services.join_game(Identity(guest_key="g-9", name="Gus"), game.seats.get(index=2).invite_token)

    page = Client().get(f"/g/{game.public_id}/").content.decode()
    seats = page.split('class="seat-list"')[1].split("</ul>")[0]

    for name in ("ann", "ben"):
        assert f'<strong><a class="player-link" href="/@/{name}/">' in seats
    assert "<strong>Gus" in seats and seats.count('class="player-link"') == 2
