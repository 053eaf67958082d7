"""`make run`'s site shows no debug page to anyone (issue 30): a missing page, a raised error,
a forged Host and a POST to a path without its slash each get the site's own answer, with no
traceback and no settings.

The site is started as `make run` starts its web process: through rummi_site/lan.py, with no
RUMMI_DEBUG, on collected static files. Its database file is left without tables, so that a
page that reads the database raises (``no such table``): a real error in the real stack. The
control starts it again with RUMMI_DEBUG=1, and the same requests then show Django's debug
pages, which is what the checks would catch.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
# What a debug page shows and the site's own pages never do.
LEAKS = ("Traceback", "SECRET_KEY", "INSTALLED_APPS", "no such table", "URLconf", "DEBUG = True")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(url: str, method: str = "GET", host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, method=method, data=b"x=1" if method == "POST" else None)
    if host:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def start(tmp_path: Path, static: Path, debug: str | None) -> Iterator[str]:
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "RUMMI_DEBUG", "RUMMI_HTTPS")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="rummi_site.settings",
        PYTHONPATH=str(ROOT),
        RUMMI_SQLITE_PATH=str(tmp_path / "no-tables.sqlite3"),
        RUMMI_STATIC_ROOT=str(static),
    )
    if debug is not None:
        env["RUMMI_DEBUG"] = debug
    log = (tmp_path / "web.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "rummi_site.lan", "--host", "127.0.0.1", "--port", str(port)]
        + ["--", sys.executable, "-m", "rummi_site.web", "-b", "127.0.0.1", "-p", str(port)]
        + ["rummi_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        until = time.monotonic() + 60
        while fetch_or_none(url + "/no/such/page/") is None:
            assert process.poll() is None, (tmp_path / "web.log").read_text()
            assert time.monotonic() < until, (tmp_path / "web.log").read_text()
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(10)
        log.close()


def fetch_or_none(url: str) -> int | None:
    try:
        return fetch(url)[0]
    except OSError:
        return None


@pytest.fixture
def make_run_site(tmp_path: Path, collected_static: Path) -> Iterator[str]:
    yield from start(tmp_path, collected_static, None)


@pytest.fixture
def debug_site(tmp_path: Path, collected_static: Path) -> Iterator[str]:
    yield from start(tmp_path, collected_static, "1")


def test_make_runs_site_answers_errors_with_its_own_pages(make_run_site: str) -> None:
    status, page = fetch(make_run_site + "/no/such/table/")
    assert status == 404 and "There is nothing at this address" in page
    status, broken = fetch(make_run_site + "/")
    assert status == 500 and "Something broke at our end" in broken
    status, forged = fetch(make_run_site + "/", host="evil.example")
    assert status == 400
    status, no_slash = fetch(make_run_site + "/accounts/login", method="POST")
    assert status == 404 and "There is nothing at this address" in no_slash
    status, api = fetch(make_run_site + "/api/games", method="POST")
    assert status == 404 and "the address ends with a slash: /api/games/" in api
    for answer in (page, broken, forged, no_slash, api):
        leaked = [word for word in LEAKS if word in answer]
        assert not leaked, (leaked, answer[:2000])


def test_the_control_with_debug_on_shows_debug_pages(debug_site: str) -> None:
    """What the test above guards against, seen: Django's debug pages, only with RUMMI_DEBUG=1."""
    _, page = fetch(debug_site + "/no/such/table/")
    assert "URLconf" in page
    status, broken = fetch(debug_site + "/")
    assert status == 500 and "Traceback" in broken and "no such table" in broken
