"""A request the site cannot take says what was wrong (rummi_site/refusals.py): an address
asked with the wrong method says which it takes, a form too large says the limit, an upload
whose file name is too long says so; and the log gets one line for each, never a traceback."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games import services
from games.identity import Identity
from rummi_site.logs import FolderMakingRotatingFileHandler

pytestmark = pytest.mark.django_db
BOUNDARY = "rummi-boundary-7"


def _log_file() -> Path:
    [handler] = [
        h for h in logging.getLogger().handlers if isinstance(h, FolderMakingRotatingFileHandler)
    ]
    handler.flush()
    return Path(handler.baseFilename)


def _one_line(start: int, marker: str) -> str:
    """The one line the log got since ``start`` that holds ``marker``; no traceback with it."""
    with _log_file().open(encoding="utf-8") as file:
        file.seek(start)
        lines = file.read().splitlines()
    assert not any("Traceback" in line for line in lines), lines
    [line] = [line for line in lines if marker in line]
    return line


@pytest.fixture
def log_start() -> int:
    log = _log_file()
    return log.stat().st_size if log.exists() else 0


@override_settings(DEBUG=False)
def test_a_page_asked_with_get_that_takes_post_says_so(alice: Any) -> None:
    game = services.create_game(Identity(user_id=alice.pk, name="alice"), {"mode": "parlor"})
    for url in (f"/g/{game.public_id}/rematch", f"/g/{game.public_id}/replay/1/puzzle"):
        page = Client().get(url)
        assert page.status_code == 405 and page["Allow"] == "POST", url
        html = page.content.decode()
        assert "This address takes POST, not GET." in html and "· Rummi</title>" in html


@override_settings(DEBUG=False)
def test_a_page_that_is_only_read_refuses_other_methods_and_says_so(
    alice: Any, make_tournament: Any
) -> None:
    """Pages that only show something take GET and HEAD (a monitor's or a link checker's): a
    POST, PUT or DELETE to them is a 405 page naming the method, never the page itself."""
    game = services.create_game(Identity(user_id=alice.pk, name="alice"), {"mode": "parlor"})
    cup = make_tournament()
    gid = game.public_id
    pages = [reverse(name) for name in ("home", "how_to_play", "tournaments", "tournaments_help")]
    pages += [reverse(name, args=[gid]) for name in ("game", "replay", "record", "verify")]
    pages += [reverse("tournament", args=[cup.pk])]
    pages += [reverse("teaching_replay", args=["break"])]
    client = Client()
    client.force_login(alice)
    for url in pages:
        assert client.get(url).status_code != 405, url
        assert client.head(url).status_code != 405, url
        for method in ("post", "put", "delete"):
            page = getattr(client, method)(url)
            assert page.status_code == 405 and page["Allow"] == "GET, HEAD", (method, url)
            sentence = f"This address takes GET or HEAD, not {method.upper()}."
            assert sentence in page.content.decode(), (method, url)


@override_settings(DEBUG=False)
def test_every_page_and_read_of_the_api_answers_head(alice: Any, make_tournament: Any) -> None:
    """The profile, account, puzzle and tournament pages and the API's reads take HEAD as
    GET does (a monitor, a link checker, ``curl -I``), and a POST to them is a 405 naming both:
    an HTML page for a page, a JSON error for the API."""
    game = services.create_game(Identity(user_id=alice.pk, name="alice"), {"mode": "parlor"})
    cup = make_tournament()
    gid = game.public_id
    pages = [
        reverse(name, args=["alice"])
        for name in ("player_profile", "player_games", "player_avatar")
    ]
    pages += [reverse(name) for name in ("leaderboard", "account_page", "account_data")]
    pages += ["/puzzles/", "/puzzles/daily/archive/"]
    pages += [reverse("tournament_standings_csv", args=[cup.pk])]
    reads = [f"/api/games/{gid}/", f"/api/games/{gid}/events", "/puzzles/api/trainer"]
    reads += [reverse("tournament_my_tables")]
    client = Client()
    client.force_login(alice)
    for url in pages + reads:
        got, head = client.get(url), client.head(url)
        assert got.status_code < 400, (url, got.status_code)
        assert head.status_code == got.status_code, (url, head.status_code)
        refused = client.post(url)
        assert refused.status_code == 405 and refused["Allow"] == "GET, HEAD", url
        sentence = "This address takes GET or HEAD, not POST."
        if url in reads:
            assert refused.json() == {"error": "http_405", "message": sentence}, url
        else:
            assert sentence in refused.content.decode(), url


@override_settings(DEBUG=False)
def test_the_frame_relay_asked_with_get_says_so_in_json() -> None:
    answer = Client().get("/internal/frames")
    assert answer.status_code == 405 and answer["Allow"] == "POST"
    assert answer.json() == {"error": "http_405", "message": "This address takes POST, not GET."}


@override_settings(DEBUG=False)
def test_a_bio_too_large_says_the_limit_and_logs_one_line(alice: Any, log_start: int) -> None:
    client = Client()
    client.force_login(alice)
    page = client.post("/account/profile", {"display_name": "Al", "bio": "x" * 300_000})

    assert page.status_code == 400
    html = page.content.decode()
    assert "The form sent is too large" in html and "256 KB" in html
    assert "The request was malformed" not in html
    line = _one_line(log_start, "RequestDataTooBig")
    assert f"WARNING django.security.RequestDataTooBig [{os.getpid()}]" in line
    assert "/account/profile" in line


@override_settings(DEBUG=False)
def test_an_upload_with_a_file_name_too_long_says_so_and_logs_one_line(
    alice: Any, log_start: int
) -> None:
    client = Client()
    client.force_login(alice)
    # Built by hand: Django's test client would cut the name to 255 characters.
    name = "a" * 3000 + ".png"
    body = (
        f"--{BOUNDARY}\r\n"
        f'Content-Disposition: form-data; name="avatar"; filename="{name}"\r\n'
        "Content-Type: image/png\r\n\r\nPNG\r\n"
        f"--{BOUNDARY}--\r\n"
    ).encode()
    page = client.post(
        "/account/avatar", body, content_type=f"multipart/form-data; boundary={BOUNDARY}"
    )

    assert page.status_code == 400
    assert "A file name in the upload is too long" in page.content.decode()
    line = _one_line(log_start, "Unable to parse request body")
    assert "WARNING django.request" in line and "/account/avatar" in line


@override_settings(DEBUG=False)
def test_a_media_path_leaving_its_folder_is_refused_on_one_line(log_start: int) -> None:
    page = Client().get("/media/../../etc/passwd")

    assert page.status_code == 400
    assert "That file path is not allowed" in page.content.decode()
    line = _one_line(log_start, "SuspiciousFileOperation")
    assert "WARNING" in line and "/media/../../etc/passwd" in line


@override_settings(DEBUG=False)
def test_a_media_name_too_long_for_the_file_system_is_a_404(log_start: int) -> None:
    """It was a 500 (OSError: file name too long); the media address reads only, too."""
    long = "/media/" + "a" * 256

    assert Client().get(long).status_code == 404
    assert Client().head(long).status_code == 404
    assert Client().post(long).status_code == 405
    assert Client().get("/media/avatars/nobody.png").status_code == 404
