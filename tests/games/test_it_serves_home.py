from __future__ import annotations

from typing import Any

import pytest
from django.test import Client


@pytest.mark.django_db
def test_it_serves_home(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert "<h1>Rummi</h1>" in response.content.decode()


@pytest.mark.django_db
def test_it_offers_sign_in_to_a_visitor(client: Client) -> None:
    page = client.get("/").content.decode()

    assert 'href="/accounts/login/"' in page
    assert 'href="/accounts/signup/"' in page


@pytest.mark.django_db
def test_it_names_the_signed_in_player(client: Client, alice: Any) -> None:
    client.force_login(alice)

    page = client.get("/").content.decode()

    assert 'Signed in as <a href="/@/alice/">alice</a>' in page
    assert 'href="/accounts/login/"' not in page
