"""The limit on display name changes (5 an hour, rummi_site/limits.py) counts only names
actually changed: bio edits with the name left as it is, and names refused (taken, 409, or
against the rules, 400), cost nothing; the sixth real change in the hour is 429."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from players.models import PlayerProfile
from rummi_site.limits import RATES

pytestmark = pytest.mark.django_db
LIMIT = int(RATES["rename"].split("/")[0])
SAVES = int(RATES["profile"].split("/")[0])


@pytest.fixture(autouse=True)
def _limits_on(limits_on: None) -> None:
    """Every test here counts against the limits (tests/conftest.py ``limits_on``)."""


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def save(client: Client, name: str, bio: str = "") -> Any:
    return client.post("/account/profile", {"display_name": name, "bio": bio})


def test_bio_edits_and_the_same_name_again_are_never_limited(alice: Any) -> None:
    client = signed_in(alice)
    assert save(client, "Tile Queen").status_code == 302

    answers = [save(client, "Tile Queen", f"bio {n}") for n in range(LIMIT * 2)]
    answers += [save(signed_in(alice), "", "")]  # back to no display name: a change
    answers += [save(client, "", f"plain bio {n}") for n in range(LIMIT * 2)]

    assert {a.status_code for a in answers} == {302}
    profile = PlayerProfile.of(alice)
    assert profile.display_name == "" and profile.bio == f"plain bio {LIMIT * 2 - 1}"


def test_refused_names_are_not_counted(alice: Any, bob: Any) -> None:
    assert save(signed_in(bob), "Tile Queen").status_code == 302
    client = signed_in(alice)

    taken = [save(client, "tile queen") for _ in range(LIMIT)]
    bad = [save(client, "Master bot") for _ in range(LIMIT)]

    assert {a.status_code for a in taken} == {409}
    assert {a.status_code for a in bad} == {400}
    assert save(client, "Ann Lee").status_code == 302
    assert PlayerProfile.of(alice).display_name == "Ann Lee"


def test_the_sixth_real_change_in_an_hour_is_refused(alice: Any) -> None:
    client = signed_in(alice)
    for n in range(LIMIT):
        assert save(client, f"Player {n}").status_code == 302

    refused = save(client, "One Too Many")

    assert refused.status_code == 429 and refused.has_header("Retry-After")
    assert "Too many name changes (at most 5 an hour)" in refused.content.decode()
    assert PlayerProfile.of(alice).display_name == f"Player {LIMIT - 1}"
    assert save(client, f"Player {LIMIT - 1}", "a bio still saves").status_code == 302


def test_every_save_counts_toward_the_looser_limit_on_profile_saves(alice: Any) -> None:
    """Refused names are checked against every account's names: not free without end."""
    client = signed_in(alice)
    answers = [save(client, "Master bot") for _ in range(SAVES)]

    refused = save(client, "", "one more bio")

    assert {a.status_code for a in answers} == {400}
    assert refused.status_code == 429
    assert "Too many profile saves (at most 60 an hour)" in refused.content.decode()
