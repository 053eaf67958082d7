"""The game socket carries Rummy 45 too: an ``act`` frame with ``"action": "r45"`` and its
``move`` is answered like the POST, and every viewer's frame holds only its own board."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import services
from rummi_site.asgi import application

from ..conftest import key, viewer

pytestmark = pytest.mark.django_db(transaction=True)


def cookie_of(client: Client) -> bytes:
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def socket(gid: str, cookie: bytes) -> Any:
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie)]
    return WebsocketCommunicator(application, f"/ws/games/{gid}/", headers=headers)


def test_a_move_on_the_socket_reaches_each_viewer_privately(
    alice: Any, bob: Any, outsider: Any
) -> None:
    game = services.create_game(viewer(alice), {"mode": "r45", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game.refresh_from_db()
    assert game.state is not None
    racks = [list(rack) for rack in game.state["racks"]]
    clients = {}
    for name, user in (("alice", alice), ("bob", bob), ("outsider", outsider)):
        clients[name] = Client()
        clients[name].force_login(user)

    async def scenario() -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
        sockets = {n: socket(game.public_id, cookie_of(c)) for n, c in clients.items()}
        for sock in sockets.values():
            connected, _ = await sock.connect()
            assert connected
            hello = await sock.receive_json_from()
            assert hello["type"] == "hello" and hello["view"]["game"] == "r45"
        move = {"type": "act", "action": "r45", "move": {"action": "Ready"}}
        await sockets["alice"].send_json_to({**move, "key": key(), "expected_seq": game.seq})
        frames: dict[str, list[dict[str, Any]]] = {n: [] for n in sockets}
        answer: dict[str, Any] = {}
        for name, sock in sockets.items():
            got = await sock.receive_json_from(timeout=20)
            if got["type"] == "answer":
                answer, got = got, await sock.receive_json_from(timeout=20)
            frames[name].append(got)
            if name == "alice" and not answer:
                answer = await sock.receive_json_from(timeout=20)
        for sock in sockets.values():
            await sock.disconnect()
        return answer, frames

    answer, frames = asyncio.run(scenario())
    assert answer["type"] == "answer" and answer["status"] == 200, answer
    assert answer["view"]["ready"] == [True, False]
    for name, seat in (("alice", 0), ("bob", 1), ("outsider", None)):
        (frame,) = frames[name]
        assert frame["type"] == "update" and frame["events"][0]["event"]["kind"] == "PlayerReady"
        assert frame["view"]["rack"] == (racks[seat] if seat is not None else [])
        assert frame["view"]["racks"] is None
    game.refresh_from_db()
    assert game.state is not None and game.state["ready"] == [True, False]
