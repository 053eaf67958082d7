"""Failed sign-ins are limited per address, and per address and login together, never per
login alone (docs/fair-play.md "Signing in"): a stranger's guesses lock the stranger out, not
the owner on their own device."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from ..conftest import PASSWORD

pytestmark = pytest.mark.django_db

STRANGER, OWNER = "203.0.113.7", "198.51.100.20"
TOO_MANY = "Too many failed login attempts"


@pytest.fixture(autouse=True)
def _counts_of_its_own(settings: Any) -> None:
    """allauth counts failed sign-ins in the default cache. On the PostgreSQL leg that is the
    Redis every parallel worker shares (and whose clear() empties it for all of them): this
    file's two tests, run at once on two workers, share STRANGER's address bucket, and one's
    clear() wiped the other's counts. Each test counts in a memory cache of its own."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"sign-ins-{uuid.uuid4().hex}",
        },
    }


def sign_in(address: str, login: str, password: str) -> Any:
    return Client().post(
        "/accounts/login/", {"login": login, "password": password}, REMOTE_ADDR=address
    )


def test_a_strangers_failures_do_not_lock_the_owner_out(alice: Any) -> None:
    answers = [sign_in(STRANGER, "alice", f"guess-{n}") for n in range(8)]

    assert all(a.status_code == 200 for a in answers)
    assert TOO_MANY not in answers[4].content.decode()
    assert TOO_MANY in answers[5].content.decode(), "five failures for one login from one address"
    owner = sign_in(OWNER, "alice", PASSWORD)
    assert owner.status_code == 302, "the owner signs in from their own address"
    again = sign_in(STRANGER, "alice", PASSWORD)
    assert again.status_code == 200 and TOO_MANY in again.content.decode(), "A is still limited"


def test_one_address_trying_many_logins_is_limited(alice: Any) -> None:
    answers = [sign_in(STRANGER, f"user{n}", "wrong-password") for n in range(21)]

    assert TOO_MANY not in answers[19].content.decode()
    assert TOO_MANY in answers[20].content.decode(), "twenty failures from one address"
    assert sign_in(STRANGER, "alice", PASSWORD).status_code == 200
    assert sign_in(OWNER, "alice", PASSWORD).status_code == 302
