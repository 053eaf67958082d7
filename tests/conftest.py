"""The fixed cast: alice, bob and carol play; outsider watches games they are not in."""

from __future__ import annotations

import atexit
import logging.config
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

PASSWORD = "tiles-and-racks-42"
ROOT = Path(__file__).resolve().parents[1]


def _log_to_a_folder_of_the_run() -> None:
    """Logs of a test run go to a temporary folder, not the repository's var/log/.

    pytest-django configured Django, logging included, before this file was imported; the
    file handler opens its file on the first line, so nothing was written yet. The folder is
    also handed to every process a test starts (manage.py, daphne, Celery workers).
    """
    from django.conf import settings

    from rummi_site.settings import logging_from_env

    folder = tempfile.mkdtemp(prefix="rummi-test-logs-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ["RUMMI_LOG_DIR"] = folder
    settings.LOGGING = logging_from_env(os.environ)
    logging.config.dictConfig(settings.LOGGING)


_log_to_a_folder_of_the_run()


def _plain_static_files() -> None:
    """Tests in this process render pages without a ``collectstatic`` first: ``{% static %}``
    gives the plain names of static/, as with DEBUG on, and WhiteNoise finds nothing to serve
    in an empty folder (a collected var/static/ would be read by every test client).

    The site the browser tests start runs the hashed storage of ``make run``
    (tests/browser/conftest.py), and tests/test_it_serves_hashed_static_files.py collects it.
    """
    from django.test import override_settings

    folder = tempfile.mkdtemp(prefix="rummi-test-static-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    from django.conf import settings

    override_settings(
        STORAGES={**settings.STORAGES, "staticfiles": plain}, STATIC_ROOT=folder
    ).enable()


_plain_static_files()


@pytest.fixture(autouse=True)
def _no_rate_limits(settings: Any) -> None:
    """Tests act faster than people; a test that checks a limit asks for ``limits_on``."""
    settings.RATELIMIT_ENABLE = False


@pytest.fixture
def limits_on(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Limits on, counted in a cache of this test's own: the Redis of the PostgreSQL leg is
    shared by the suite's parallel workers, whose users and address are the same.

    Every window of the test is one that opens as it starts. django-ratelimit's fixed windows
    end at a point of each period set by the key (the user's id, the address), so a test's
    burst of requests met the end of its window now and then and its count began again: in
    CI, 31 editor checks in 0.15 s never reached 429."""
    import django_ratelimit.core
    from django.core.cache import caches

    start = int(time.time())
    monkeypatch.setattr(django_ratelimit.core, "_get_window", lambda value, period: start + period)

    settings.CACHES = {
        **settings.CACHES,
        "limits": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"limits-{uuid.uuid4().hex}",
        },
    }
    settings.RATELIMIT_USE_CACHE = "limits"
    settings.RATELIMIT_ENABLE = True
    caches["limits"].clear()


def _make_user(django_user_model: Any, username: str) -> Any:
    return django_user_model.objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD
    )


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    return _make_user(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model: Any) -> Any:
    return _make_user(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model: Any) -> Any:
    return _make_user(django_user_model, "carol")


@pytest.fixture
def outsider(django_user_model: Any) -> Any:
    return _make_user(django_user_model, "outsider")


@pytest.fixture
def make_tournament(db: Any) -> Any:
    """A maker of tournaments (a Swiss LAN cup of 3 rounds starting in an hour, unless told
    otherwise), with ``bots`` bot entries of ``strength``."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import services
    from tournaments.models import Tournament

    def make(bots: int = 0, strength: str = "beginner", **fields: Any) -> Tournament:
        values: dict[str, Any] = {
            "name": "Winter cup",
            "format": "swiss",
            "mode": "lan",
            "table_size": 2,
            "rounds": 3,
            "starts_at": timezone.now() + timedelta(hours=1),
            "clock_seconds": 60,
        }
        values.update(fields)
        t = Tournament.objects.create(**values)
        for _ in range(bots):
            services.add_player(None, t, bot=strength)
        return t

    return make


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """static/ collected as ``make run`` collects it (hashed names, rewritten module imports),
    for the sites the tests start in processes of their own: give it as RUMMI_STATIC_ROOT."""
    folder = tmp_path_factory.mktemp("static")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT,
        env={**env, "RUMMI_STATIC_ROOT": str(folder)},
        check=True,
    )
    return folder


@pytest.fixture(scope="session", autouse=True)
def _close_database_pools(request: pytest.FixtureRequest) -> Any:
    """PostgreSQL pools keep connections open; close them so the test database can be dropped."""
    from django.conf import settings

    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        yield
        return
    request.getfixturevalue("django_db_setup")
    blocker = request.getfixturevalue("django_db_blocker")
    yield
    from django.db import connections

    with blocker.unblock():
        for conn in connections.all():
            close_pool = getattr(conn, "close_pool", None)
            if close_pool is not None:
                close_pool()
        # Sessions a pool cannot close are ended too: a connection still checked out by a
        # thread the tests left (a move's thread, a killed connection's retry) kept the test
        # database open, and its drop failed with "is being accessed by other users".
        default = connections["default"]
        with default._nodb_cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                [default.settings_dict["NAME"]],
            )


@pytest.hookimpl(trylast=True)  # after pytest-django's ordering by database use
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The browser tests go last, whatever their folder's place: the first one starts
    Playwright's event loop in its worker for the rest of the session, and a later test that
    runs its own (``asyncio.run``) would fail there. xdist hands tests out in this order.

    Tests that patch solver internals mean nothing on the compiled solver: skipped there."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)  # stable
    from games.engine import native

    if native.kind() != "native":
        return
    skip = pytest.mark.skip(reason="patches solver internals; the compiled solver is running")
    for item in items:
        if item.get_closest_marker("pure_python"):
            item.add_marker(skip)
