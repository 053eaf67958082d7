"""An empty profile says so in a sentence, not with a bare table header (issue 28)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from .conftest import make_users

pytestmark = pytest.mark.django_db


def test_a_profile_without_games_shows_sentences_not_headers(django_user_model: Any) -> None:
    (newcomer,) = make_users(django_user_model, "newcomer")

    html = Client().get("/@/newcomer/").content.decode()
    own = Client()
    own.force_login(newcomer)
    mine = own.get("/@/newcomer/").content.decode()
    listed = Client().get("/@/newcomer/games/").content.decode()

    for page in (html, mine, listed):
        assert "<thead>" not in page and "<table" not in page
    assert "newcomer has not finished a game yet." in html
    assert "You have not finished a game yet" in mine and 'href="/"' in mine
    assert "No finished games yet." in listed and "No rated games yet." in html
