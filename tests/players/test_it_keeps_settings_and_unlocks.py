"""Settings that follow the account, and cosmetics unlocked by trophies (docs/design.md
"Players"): the server refuses a locked choice and says how to earn it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from players.cosmetics import BACKS, FELTS
from players.models import PlayerProfile

from .conftest import make_users, play_out

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, body: dict[str, Any]) -> Any:
    return client.post("/api/me/settings", body, content_type="application/json")


def test_four_new_felts_and_backs_each_unlocked_by_a_trophy() -> None:
    assert sum(1 for f in FELTS.values() if f.trophy) >= 4
    assert sum(1 for b in BACKS.values() if b.trophy) >= 4
    assert len(FELTS) >= 7 and len(BACKS) >= 6


def test_a_locked_felt_is_refused_until_its_trophy_is_earned(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    client = signed_in(ann)

    refused = post(client, {"settings": {"felt": "slate"}})
    assert refused.status_code == 403 and refused.json()["error"] == "locked"
    assert "First win" in refused.json()["message"]
    listed = {f["key"]: f for f in client.get("/api/me/settings").json()["felts"]}
    assert listed["slate"]["locked"] and not listed["green"]["locked"]

    play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    saved = post(client, {"settings": {"felt": "slate", "cb": True, "sort": "number"}})

    assert saved.status_code == 200
    assert saved.json()["settings"]["felt"] == "slate"
    assert not {f["key"]: f for f in saved.json()["felts"]}["slate"]["locked"]


def test_settings_follow_the_account_to_another_browser(django_user_model: Any) -> None:
    (ann,) = make_users(django_user_model, "ann")
    post(signed_in(ann), {"settings": {"felt": "blue", "mute": True, "outline": False}})

    elsewhere = signed_in(ann).get("/api/me/settings").json()["settings"]

    assert elsewhere["felt"] == "blue" and elsewhere["mute"] is True
    assert elsewhere["outline"] is False and elsewhere["back"] == "lattice"


def test_a_guests_browser_settings_are_adopted_once_without_locked_ones(
    django_user_model: Any,
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    guest_browser = {"felt": "royal", "back": "mahogany", "cb": True}

    adopted = post(signed_in(ann), {"settings": guest_browser, "adopt": True}).json()["settings"]
    post(signed_in(ben), {"settings": {"felt": "wine"}})
    kept = post(signed_in(ben), {"settings": guest_browser, "adopt": True}).json()["settings"]

    assert adopted["back"] == "mahogany" and adopted["cb"] is True and adopted["felt"] == "green"
    assert kept["felt"] == "wine" and kept["cb"] is False


@pytest.mark.parametrize(
    "given", [{"felt": "plaid"}, {"cb": "yes"}, {"sort": "random"}, {"volume": 3}, "x"]
)
def test_bad_settings_are_refused(django_user_model: Any, given: Any) -> None:
    (ann,) = make_users(django_user_model, "ann")

    answer = post(signed_in(ann), {"settings": given})

    assert answer.status_code == 400 and answer.json()["error"] == "bad_settings"
    assert PlayerProfile.of(ann).board == {}


def test_the_account_page_shows_locked_choices_and_saves_by_form(django_user_model: Any) -> None:
    (ann,) = make_users(django_user_model, "ann")
    client = signed_in(ann)

    page = client.get("/account/").content.decode()
    saved = client.post("/account/board", {"felt": "wine", "back": "lattice", "sort": "none"})
    locked = client.post("/account/board", {"felt": "royal"})

    assert "locked: Earn the trophy Beat the master bot" in page
    assert saved.status_code == 302 and PlayerProfile.of(ann).board["felt"] == "wine"
    assert locked.status_code == 403 and PlayerProfile.of(ann).board["felt"] == "wine"
    assert Client().get("/api/me/settings").status_code == 403


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"setings": {"felt": "blue"}}, "setings is not a field of the settings; they are"),
        ({"settings": {"felt": "blue"}, "adopt": "x"}, "adopt takes true or false; it came as"),
    ],
)
def test_a_misspelt_field_or_a_wrong_adopt_is_refused(
    django_user_model: Any, body: dict[str, Any], message: str
) -> None:
    """Not read as an empty change (a misspelt field) or as true (any text)."""
    (ann,) = make_users(django_user_model, "ann")

    answer = post(signed_in(ann), body)

    assert answer.status_code == 400 and answer.json()["error"] == "bad_settings"
    assert answer.json()["message"].startswith(message)
    assert not PlayerProfile.of(ann).board
