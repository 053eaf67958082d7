"""A POST (PUT, PATCH, DELETE) to a path that exists only with a trailing slash is a 404 that
says where the page is (rummi_site/slashes.py), with DEBUG on or off: never Django's redirect,
which a browser follows as a GET without the body, nor its DEBUG RuntimeError, a 500. A GET is
still sent on to the slash."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_write_to_a_path_without_its_slash_is_a_404(method: str, debug: bool) -> None:
    with override_settings(DEBUG=debug):
        page = getattr(Client(), method)("/accounts/login")
        api = getattr(Client(), method)("/api/games", content_type="application/json")

    assert page.status_code == 404 and "There is nothing at this address" in page.content.decode()
    assert api.status_code == 404
    assert api.json() == {
        "error": "not_found",
        "message": "There is nothing at /api/games; the address ends with a slash: /api/games/",
    }


def test_a_get_without_its_slash_is_still_redirected() -> None:
    answer = Client().get("/accounts/login?next=/puzzles/")

    assert answer.status_code == 301 and answer["Location"] == "/accounts/login/?next=/puzzles/"


def test_a_write_to_a_path_that_exists_nowhere_is_a_plain_404() -> None:
    answer = Client().post("/no/such/page")

    assert answer.status_code == 404 and "ends with a slash" not in answer.content.decode()
