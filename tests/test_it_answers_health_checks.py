"""``GET /health/`` (rummi_site/health.py, docs/deploy.md "Health"): 200 with one line a check
when the database, the cache and the broker answer; 503, naming the failing check, when one
does not."""

from __future__ import annotations

import socket
from typing import Any

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_healthy_site_answers_200_with_each_check(client: Any, settings: Any) -> None:
    settings.CELERY_BROKER_URL = "filesystem://"  # the embedded broker has no server to ask
    answer = client.get("/health/")
    assert answer.status_code == 200, answer.content
    text = answer.content.decode()
    assert answer["Content-Type"].startswith("text/plain")
    assert "Database(alias='default'): OK" in text
    assert "Cache(alias='default'): OK" in text
    assert "no-cache" in answer["Cache-Control"]


def test_a_broker_that_does_not_answer_is_a_503_naming_it(client: Any, settings: Any) -> None:
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    answer = client.get("/health/", HTTP_ACCEPT="text/html")
    assert answer.status_code == 503, answer.content
    lines = answer.content.decode().splitlines()
    assert any(line.startswith("Redis(") and not line.endswith(": OK") for line in lines), lines
    assert "Database(alias='default'): OK" in lines
