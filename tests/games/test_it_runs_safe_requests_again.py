"""A request whose database connection died (an ``OperationalError`` or ``InterfaceError``
escaping its view) is run once more when that is safe: reads (GET, HEAD) and moves, whose key
makes a second run answer the first answer; any other write is not run twice and answers a JSON
500 (rummi_site/retry.py). The errors are raised here by hand, so this holds on every database;
tests/games/test_it_retries_a_move_whose_connection_died.py kills real PostgreSQL connections.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client

from games import services
from games.models import Game

from .conftest import key

pytestmark = pytest.mark.django_db(transaction=True)  # no test transaction around the view


def failing_once(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, error: Exception
) -> list[int]:
    """``owner.name`` raises ``error`` on its first call; the calls are counted."""
    calls: list[int] = []
    function = getattr(owner, name)

    def flaky(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise error
        return function(*args, **kwargs)

    monkeypatch.setattr(owner, name, flaky)
    return calls


@pytest.mark.parametrize(
    "error", [OperationalError("server closed the connection"), InterfaceError("closed")]
)
def test_a_read_is_run_again(duel: Game, monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(duel.seats.get(index=0).user)
    calls = failing_once(monkeypatch, services, "game_summary", error)

    answer = client.get(f"/api/games/{duel.public_id}/")

    assert (answer.status_code, len(calls)) == (200, 2), answer.content
    assert answer.json()["seq"] == duel.seq


def test_a_move_is_run_again_and_lands_once(duel: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(duel.seats.get(index=duel.state["turn"]).user)
    calls = failing_once(monkeypatch, services, "act", OperationalError("connection lost"))

    answer = client.post(
        f"/api/games/{duel.public_id}/draw",
        {"key": key(), "expected_seq": duel.seq},
        "application/json",
    )

    assert (answer.status_code, len(calls)) == (200, 2), answer.content
    assert Game.objects.get(pk=duel.pk).seq == answer.json()["seq"] == duel.seq + 1


def test_a_read_failing_twice_is_a_json_500(duel: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(duel.seats.get(index=0).user)
    calls: list[int] = []

    def dead(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        raise OperationalError("server closed the connection")

    monkeypatch.setattr(services, "game_summary", dead)

    answer = client.get(f"/api/games/{duel.public_id}/")

    assert (answer.status_code, len(calls)) == (500, 2)
    assert answer.json()["error"] == "server_error"


def test_a_new_game_is_not_made_twice(alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    calls = failing_once(monkeypatch, services, "create_game", OperationalError("lost"))

    answer = client.post(
        "/api/games/", {"mode": "parlor", "players": 2}, content_type="application/json"
    )

    assert (answer.status_code, len(calls)) == (500, 1)
    assert answer.json()["error"] == "server_error"
    assert not Game.objects.exists()


def test_other_errors_are_not_run_again(duel: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(duel.seats.get(index=0).user)
    calls = failing_once(monkeypatch, services, "game_summary", ValueError("a bug"))

    answer = client.get(f"/api/games/{duel.public_id}/")

    assert (answer.status_code, len(calls)) == (500, 1)
