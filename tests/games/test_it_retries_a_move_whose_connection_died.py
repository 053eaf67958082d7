"""A move whose PostgreSQL connection is killed while its transaction is open is answered
200, not 500: nothing of it was written, and the web process tries it once more on a live
connection (rummi_site/retry.py); it lands once. Over HTTP and on the socket. So is a read, and
a move whose connection dies as its session is looked up, before the move began. PostgreSQL only
(SQLite has no connection to kill): tests/games/test_it_runs_safe_requests_again.py has the
rule on every database."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import Client

from games import rows
from games.models import Game
from rummi_site.sessions import SessionStore

from .conftest import key
from .test_it_pushes_frames_without_leaking_racks import cookie_of, socket

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only"),
]


def kill_on_first_call(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Make the first call of ``owner.name`` terminate its own backend (waiting until it is
    gone), then go on, to meet the dead connection."""
    killed: list[int] = []
    function = getattr(owner, name)
    db = connection.settings_dict

    def dying(*args: Any, **kwargs: Any) -> Any:
        if not killed:
            connection.ensure_connection()
            pid = connection.connection.info.backend_pid
            url = f"postgresql://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
            with psycopg.connect(url, autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", [pid])
                until = time.monotonic() + 10
                while time.monotonic() < until:
                    gone = "SELECT count(*) FROM pg_stat_activity WHERE pid = %s"
                    if other.execute(gone, [pid]).fetchone() == (0,):
                        break
            killed.append(pid)
        return function(*args, **kwargs)

    monkeypatch.setattr(owner, name, dying)
    return killed


def kill_on_first_lock(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    return kill_on_first_call(monkeypatch, rows, "lock_game")


# Killed while the move's transaction is open (the lock), or before the move began (the
# session lookup that tells who sent it).
@pytest.mark.parametrize(("owner", "name"), [(rows, "lock_game"), (SessionStore, "load")])
def test_a_move_over_http_survives_its_connection_killed(
    duel: Game, monkeypatch: pytest.MonkeyPatch, owner: Any, name: str
) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(duel.seats.get(index=duel.state["turn"]).user)
    killed = kill_on_first_call(monkeypatch, owner, name)

    answer = client.post(
        f"/api/games/{duel.public_id}/draw",
        {"key": key(), "expected_seq": duel.seq},
        "application/json",
    )

    assert killed and answer.status_code == 200, answer.content
    assert Game.objects.get(pk=duel.pk).seq == answer.json()["seq"] > duel.seq


def test_a_move_on_the_socket_survives_its_connection_killed(
    duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = Client()
    client.force_login(duel.seats.get(index=duel.state["turn"]).user)
    killed = kill_on_first_lock(monkeypatch)

    async def scenario() -> dict[str, Any]:
        sock = socket(duel.public_id, cookie_of(client))
        connected, _ = await sock.connect()
        assert connected
        await sock.receive_json_from(timeout=10)  # hello
        move = {"type": "act", "action": "draw", "key": key(), "expected_seq": duel.seq}
        await sock.send_json_to(move)
        while True:
            frame = await sock.receive_json_from(timeout=20)
            if frame.get("type") == "answer":
                await sock.disconnect()
                return frame

    answer = asyncio.run(scenario())

    assert killed and answer["status"] == 200, answer
    assert Game.objects.get(pk=duel.pk).seq == answer["seq"]


def test_a_read_survives_its_connection_killed_under_the_session_lookup(
    duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(duel.seats.get(index=0).user)
    killed = kill_on_first_call(monkeypatch, SessionStore, "load")

    answer = client.get(f"/api/games/{duel.public_id}/")

    assert killed and answer.status_code == 200, answer.content
    assert answer.json()["seq"] == duel.seq


def test_a_page_survives_its_connection_killed_under_the_session_lookup(
    duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trophy toasts read the session before any view, for pages only: tried once more."""
    client = Client(raise_request_exception=False)
    client.force_login(duel.seats.get(index=0).user)
    killed = kill_on_first_call(monkeypatch, SessionStore, "load")

    answer = client.get(duel.get_absolute_url(), headers={"Accept": "text/html"})

    assert killed and answer.status_code == 200, answer.content[:500]
