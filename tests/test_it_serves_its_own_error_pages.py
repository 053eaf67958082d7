"""The site's 403, 404 and 500 pages are its own, in the site layout, and a 404 with DEBUG off
lists no URL pattern; the favicon and the web app manifest are served."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.test import Client, RequestFactory, override_settings
from django.views import defaults

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=False, SECURE_SSL_REDIRECT=False)
def test_a_missing_page_is_the_sites_404_without_url_patterns() -> None:
    response = Client().get("/no/such/table/")

    assert response.status_code == 404
    page = response.content.decode()
    assert "There is nothing at this address" in page and 'href="/how-to-play/"' in page
    assert "URLconf" not in page and "admin/" not in page


def test_the_403_and_500_pages_are_the_sites() -> None:
    request = RequestFactory().get("/")

    request.user = AnonymousUser()
    forbidden = defaults.permission_denied(request, PermissionError())
    broken = defaults.server_error(request)

    assert forbidden.status_code == 403 and "not yours to open" in forbidden.content.decode()
    assert broken.status_code == 500 and "Something broke at our end" in broken.content.decode()


def test_the_favicon_and_manifest_are_served() -> None:
    response = Client().get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("/static/favicon.svg")
    assert finders.find("favicon.svg")
    manifest = json.loads(Path(finders.find("manifest.webmanifest")).read_text(encoding="utf-8"))
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon
    page = Client().get("/").content.decode()
    assert 'rel="icon"' in page and 'rel="manifest"' in page


@override_settings(DEBUG=False, SECURE_SSL_REDIRECT=False)
def test_a_form_without_its_csrf_token_gets_the_sites_page_saying_to_reload() -> None:
    """A stale form (or cookies off) is told so in the site's layout, never Django's page."""
    client = Client(enforce_csrf_checks=True)
    for url, form in (("/games/new", {"mode": "parlor"}), ("/accounts/signup/", {})):
        response = client.post(url, form)
        assert response.status_code == 403, url
        page = response.content.decode()
        assert "That form could not be sent" in page and "reload the page" in page
        assert "cookies" in page and 'href="/"' in page and "· Rummi</title>" in page
        assert "DEBUG" not in page and "CSRF verification failed" not in page
    api = client.post("/api/games/", {}, content_type="application/json")
    assert api.status_code == 403 and api.json()["error"] == "csrf"
