"""The fixed cast: alice, bob and carol play; outsider watches games they are not in."""

from __future__ import annotations

import atexit
import logging.config
import os
import shutil
import tempfile
from typing import Any

import pytest

PASSWORD = "tiles-and-racks-42"


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


@pytest.fixture(autouse=True)
def _no_rate_limits(settings: Any) -> None:
    """Tests act faster than people; tests/games/test_it_limits_rates.py turns limits on."""
    settings.RATELIMIT_ENABLE = False


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that patch solver internals mean nothing on the compiled solver: skip them there."""
    from games.engine import native

    if native.kind() != "native":
        return
    skip = pytest.mark.skip(reason="patches solver internals; the compiled solver is running")
    for item in items:
        if item.get_closest_marker("pure_python"):
            item.add_marker(skip)
