"""The name rules (docs/fair-play.md "Names") at every door a name comes in by: sign-up, the
account's display name, and a guest's name when creating or joining a game (HTML and JSON)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from games.identity import Identity
from players.models import PlayerProfile

from ..conftest import PASSWORD

pytestmark = pytest.mark.django_db

HIDDEN = {
    "an RTL override": "Ann\u202eenoJ",
    "an isolate": "Ann\u2067Jones",
    "a bell": "Ann\x07",
    "an escape": "Ann\x1b[31m",
    "zero-width spaces only": "\u200b\u200b",
    "a zero-width joiner inside": "An\u200dn",
    "the Hangul filler": "\u3164",
    "the blank Braille pattern": "\u2800\u2800",
    "a no-break space": "Ann\u00a0Jones",
}
RESERVED = ["Strong bot 1", "Master bot", "Casual bot", "deleted player", "Admin", "Moderator 2"]
LOOK_ALIKES = ["\u0430dmin", "\uff41\uff44\uff4d\uff49\uff4e"]  # Cyrillic а; fullwidth


def sign_up(client: Client, username: str) -> Any:
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{len(username)}-{ord(username[-1])}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("taken", ["zelda", "Zelda", "null"])
def test_sign_up_refuses_a_capital_i_standing_for_an_l(django_user_model: Any, taken: str) -> None:
    """Found on 2026-12-08: ``zeIda`` signed up beside ``Zelda`` (case was folded first, and the
    capital I became an i, not the l it looks like)."""
    django_user_model.objects.create_user(username=taken, password=PASSWORD)
    look_alike = taken.replace("l", "I")

    page = sign_up(Client(), look_alike)

    assert page.status_code == 200
    assert "taken: it looks like another player&#x27;s name" in page.content.decode()
    assert not django_user_model.objects.filter(username=look_alike).exists()


def test_sign_up_refuses_a_username_one_cyrillic_letter_from_another(
    django_user_model: Any,
) -> None:
    django_user_model.objects.create_user(username="victor", password=PASSWORD)

    page = sign_up(Client(), "v\u0456ctor")  # Cyrillic і

    assert page.status_code == 200
    assert "taken: it looks like another player&#x27;s name" in page.content.decode()
    assert not django_user_model.objects.filter(username="v\u0456ctor").exists()
    assert sign_up(Client(), "victoria").status_code == 302


@pytest.mark.parametrize("username", [*LOOK_ALIKES, "Strong_bot_1", "staff"])
def test_sign_up_refuses_reserved_names_and_their_look_alikes(
    django_user_model: Any, username: str
) -> None:
    page = sign_up(Client(), username)

    assert page.status_code == 200 and "is reserved for the site" in page.content.decode()
    assert not django_user_model.objects.filter(username=username).exists()


def test_sign_up_refuses_a_username_longer_than_any_name_at_a_table(
    django_user_model: Any,
) -> None:
    """A username is the name shown at tables until a display name replaces it: at most 24
    characters at sign-up too, refused with the sentence a guest's name gets, never cut."""
    page = sign_up(Client(), "L" * 150)

    assert page.status_code == 200
    assert "A name has at most 24 characters (this one has 150)." in page.content.decode()
    assert not django_user_model.objects.filter(username__startswith="LLL").exists()
    assert sign_up(Client(), "L" * 24).status_code == 302


def test_a_display_name_may_not_look_like_another_accounts_names(alice: Any, bob: Any) -> None:
    assert (
        signed_in(bob).post("/account/profile", {"display_name": "Tile Queen"}).status_code == 302
    )

    for name in [
        "B\u043eb",
        "bob",
        "T\u0456le Queen",
        "tile_queen",
        "\uff34ile Queen",
        "TiIe Queen",
    ]:
        page = signed_in(alice).post("/account/profile", {"display_name": name})
        assert page.status_code == 409, name
        assert "it looks like another player&#x27;s name" in page.content.decode(), name
    assert PlayerProfile.of(alice).display_name == ""


def test_a_display_name_may_be_the_accounts_own_username(alice: Any) -> None:
    assert signed_in(alice).post("/account/profile", {"display_name": "Alice"}).status_code == 302
    assert PlayerProfile.of(alice).display_name == "Alice"


@pytest.mark.parametrize("name", [*RESERVED, *LOOK_ALIKES, *HIDDEN.values()])
def test_a_display_name_refuses_reserved_and_hidden_names_with_a_sentence(
    alice: Any, name: str
) -> None:
    page = signed_in(alice).post("/account/profile", {"display_name": name})

    assert page.status_code == 400
    assert "A name may" in page.content.decode() or "is reserved" in page.content.decode()
    assert PlayerProfile.of(alice).display_name == ""


@pytest.mark.parametrize("what", list(HIDDEN))
def test_a_guest_name_with_hidden_characters_is_a_400_at_create_and_join(
    alice: Any, what: str
) -> None:
    name = HIDDEN[what]
    created = Client().post(
        "/api/games/", {"mode": "parlor", "players": 2, "name": name}, "application/json"
    )
    form = Client().post("/games/new", {"mode": "parlor", "players": "2", "name": name})
    game = services.create_game(Identity(user_id=alice.pk, name="alice"), {"players": 3})
    token = game.seats.get(index=1).invite_token
    joined = Client().post(f"/api/join/{token}", {"name": name}, "application/json")
    joined_by_form = Client().post(f"/join/{token}/", {"name": name})

    assert created.status_code == 400 and created.json()["message"].startswith("A name may")
    assert joined.status_code == 400 and joined.json()["message"].startswith("A name may")
    assert form.status_code == 400 and b"A name may" in form.content
    assert joined_by_form.status_code == 400 and b"A name may" in joined_by_form.content
    assert not game.seats.filter(index=1, joined__isnull=False).exists()


@pytest.mark.parametrize(
    ("name", "status", "error"),
    [
        ("Master bot", 400, "bad_name"),
        ("Strong bot 3", 400, "bad_name"),
        ("deleted player", 400, "bad_name"),
        ("\u0430lice", 409, "name_taken"),
        ("ALICE", 409, "name_taken"),
        # Found on 2026-12-08: a capital I for the l, and the board's own words for a seat.
        ("aIice", 409, "name_taken"),
        ("Open seat", 400, "bad_name"),
        ("open_seat 2", 400, "bad_name"),
        ("You", 400, "bad_name"),
        ("dave (you)", 400, "bad_name"),
    ],
)
def test_a_guest_may_not_take_a_bot_name_or_an_accounts_look_alike(
    alice: Any, name: str, status: int, error: str
) -> None:
    game = services.create_game(Identity(user_id=alice.pk, name="alice"), {"players": 2})
    token = game.seats.get(index=1).invite_token

    joined = Client().post(f"/api/join/{token}", {"name": name}, "application/json")

    assert joined.status_code == status and joined.json()["error"] == error
    ok = Client().post(f"/api/join/{token}", {"name": "Dora"}, "application/json")
    assert ok.status_code == 200
    assert game.seats.get(index=1).name == "Dora"
