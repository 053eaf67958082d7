"""Preferences: a form of one checkbox, kept by games.notices."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.forms import PreferencesForm
from games.models import NoticeSettings
from games.notices import set_turn_emails, turn_emails_on

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_shows_the_checkbox_as_saved(alice: Any) -> None:
    html = _client(alice).get(reverse("preferences")).content.decode()

    assert 'type="checkbox" name="email_turn_notices"' in html and "checked" in html
    set_turn_emails(alice.pk, False)
    html = _client(alice).get(reverse("preferences")).content.decode()
    assert "checked" not in html


def test_it_saves_only_the_preference(alice: Any) -> None:
    sent = timezone.now()
    NoticeSettings.objects.create(user=alice, last_digest=sent)
    client = _client(alice)

    answer = client.post(reverse("preferences"), {})
    assert answer.status_code == 302 and answer["Location"] == reverse("preferences")
    assert turn_emails_on(alice.pk) is False
    assert NoticeSettings.objects.get(user=alice).last_digest == sent  # kept

    client.post(reverse("preferences"), {"email_turn_notices": "on"})
    assert turn_emails_on(alice.pk) is True


@pytest.mark.parametrize(
    ("value", "expected"),
    [("on", True), ("true", True), ("false", False), ("x" * 10_000, True)],
)
def test_a_checkbox_reads_any_value_as_on_or_off(value: str, expected: bool) -> None:
    form = PreferencesForm({"email_turn_notices": value})

    assert form.is_valid()
    assert form.cleaned_data["email_turn_notices"] is expected


def test_the_page_needs_a_sign_in() -> None:
    answer = Client().post(reverse("preferences"), {"email_turn_notices": "on"})

    assert answer.status_code == 302 and reverse("account_login") in answer["Location"]
    assert not NoticeSettings.objects.exists()
