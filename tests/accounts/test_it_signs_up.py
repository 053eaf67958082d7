from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_it_signs_up_and_signs_in(client: Client, django_user_model: Any) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "email": "dora@example.com",
            "username": "dora",
            "password1": "a-long-rack-of-tiles",
            "password2": "a-long-rack-of-tiles",
        },
    )

    assert response.status_code == 302
    user = django_user_model.objects.get(username="dora")
    assert user.email == "dora@example.com"
    assert client.session["_auth_user_id"] == str(user.pk)
    assert 'Signed in as <a href="/@/dora/">dora</a>' in client.get("/").content.decode()


@pytest.mark.django_db
def test_it_refuses_mismatched_passwords(client: Client, django_user_model: Any) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "email": "dora@example.com",
            "username": "dora",
            "password1": "a-long-rack-of-tiles",
            "password2": "another-rack-of-tiles",
        },
    )

    assert response.status_code == 200
    assert not django_user_model.objects.filter(username="dora").exists()


@pytest.mark.django_db
def test_the_account_pages_are_titled_as_the_sites_other_pages(client: Client) -> None:
    """ "Sign up · Rummi", as the links say, like "Join a game · Rummi": not allauth's "Signup"."""
    for name, title in (("account_signup", "Sign up · Rummi"), ("account_login", "· Rummi")):
        page = client.get(reverse(name)).content.decode()
        assert f"{title}</title>" in page, name
    assert "<title>Signup" not in client.get(reverse("account_signup")).content.decode()
