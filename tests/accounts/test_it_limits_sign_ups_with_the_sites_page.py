"""Too many sign-ups from one address are answered as the site's other limits are
(rummi_site/limits.py): the site's page saying how long to wait, and ``Retry-After``."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ADDRESS = "203.0.113.9"


@pytest.fixture(autouse=True)
def _counts_of_its_own(settings: Any) -> None:
    """allauth counts in the default cache, shared by parallel workers on Redis: this test
    counts in a memory cache of its own."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"sign-ups-{uuid.uuid4().hex}",
        },
    }


def test_the_twenty_first_sign_up_in_a_minute_says_how_long_to_wait() -> None:
    client = Client()
    form = {"username": "", "password1": "x", "password2": "y"}
    answers = [client.post("/accounts/signup/", form, REMOTE_ADDR=ADDRESS) for _ in range(21)]

    assert [a.status_code for a in answers[:20]] == [200] * 20  # the form, with its errors
    limited = answers[20]
    assert limited.status_code == 429
    wait = int(limited["Retry-After"])
    assert 1 <= wait <= 60
    page = limited.content.decode()
    assert "Too many sign-ups" in page and f"try again in {wait} s" in page
    assert "· Rummi</title>" in page and 'href="/"' in page
    other = Client().post("/accounts/signup/", form, REMOTE_ADDR="198.51.100.3")
    assert other.status_code == 200, "another address signs up"
