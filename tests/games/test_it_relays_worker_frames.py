"""Embedded mode: a worker's moves reach the web process's sockets through a signed relay."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import urllib.request
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from games import services
from games.engine.state import state_from_record
from games.models import Game
from rummi_site import push

from .conftest import viewer
from .test_it_pushes_frames_without_leaking_racks import assert_private, cookie_of, socket

pytestmark = pytest.mark.django_db(transaction=True)
RUN_SECRET = secrets.token_hex(32)


@pytest.fixture
def in_a_worker(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[urllib.request.Request]:
    """live.broadcast as a Celery worker process on the in-memory layer runs it, with the relay
    on; the requests it makes are kept instead of sent."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.RUMMI_FRAME_RELAY_URL = "http://127.0.0.1:8000/"
    settings.RUMMI_FRAME_RELAY_SECRET = RUN_SECRET
    monkeypatch.setattr(push, "_sender_loop", asyncio.new_event_loop())
    sent: list[urllib.request.Request] = []

    class Answer:
        status = 204

        def __enter__(self) -> Answer:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

    def fake_urlopen(request: urllib.request.Request, timeout: float) -> Answer:
        sent.append(request)
        return Answer()

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    return sent


def test_a_worker_timeout_reaches_the_players_socket_through_the_relay(
    alice: Any, bob: Any, in_a_worker: list[urllib.request.Request]
) -> None:
    game = services.create_game(viewer(alice), {"mode": "blitz", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    in_a_worker.clear()
    game = Game.objects.get(pk=game.pk)
    mover = state_from_record(game.state).turn
    client = Client()
    client.force_login([alice, bob][mover])

    async def scenario() -> tuple[dict[str, Any], int]:
        sock = socket(game.public_id, cookie_of(client))
        await sock.connect()
        await sock.receive_json_from()
        past = timezone.now() - timedelta(seconds=5)
        await sync_to_async(Game.objects.filter(pk=game.pk).update)(deadline=past)
        assert await sync_to_async(services.timeout)(game.public_id, game.turn_number)
        [request] = in_a_worker
        assert request.full_url == "http://127.0.0.1:8000/internal/frames"
        relayed = await sync_to_async(Client().post)(
            "/internal/frames",
            request.data,
            content_type="application/json",
            headers={"X-Rummi-Signature": request.get_header("X-rummi-signature")},
        )
        frame = await sock.receive_json_from(timeout=10)
        await sock.disconnect()
        return frame, relayed.status_code

    frame, status = asyncio.run(scenario())
    assert status == 204
    game.refresh_from_db()
    assert frame["type"] == "update" and frame["seq"] == game.seq
    assert [e["event"]["kind"] for e in frame["events"]] == ["TurnTimedOut"]
    assert_private(frame, mover, list(state_from_record(game.state).racks[mover]))


def test_the_relay_refuses_what_is_not_signed_or_not_frames(settings: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    body = json.dumps(
        {"group": "game.abc", "message": {"type": "game.update", "frames": {"0": "{}"}}}
    ).encode()
    url = "/internal/frames"
    settings.RUMMI_FRAME_RELAY_URL = "http://127.0.0.1:8000/"
    # Signed with a key from the development SECRET_KEY, as the relay once was: refused.
    old_key = hashlib.sha256(b"rummi frame relay:" + settings.SECRET_KEY.encode()).digest()
    old = {"X-Rummi-Signature": hmac.new(old_key, body, hashlib.sha256).hexdigest()}
    off = client.post(url, body, content_type="application/json", headers=old)
    assert off.status_code == 404 and off.json()["error"] == "relay_off"  # no run secret: off
    settings.RUMMI_FRAME_RELAY_SECRET = RUN_SECRET
    assert client.post(url, body, content_type="application/json", headers=old).status_code == 403
    forged = client.post(
        url, body, content_type="application/json", headers={"X-Rummi-Signature": "0" * 64}
    )
    assert forged.status_code == 403 and forged.json()["error"] == "bad_signature"
    assert client.post(url, body, content_type="application/json").status_code == 403
    wrong_type = {"group": "game.abc", "message": {"type": "user.notice", "frames": {}}}
    elsewhere = {"group": "chat.x", "message": {"type": "game.update", "frames": {}}}
    unsafe = {"group": "game.abc", "message": {"type": "game.update", "frames": {"0": 1}}}
    for bad in (
        b"not json",
        b"[]",
        *(json.dumps(b).encode() for b in (wrong_type, elsewhere, unsafe)),
    ):
        signed = {"X-Rummi-Signature": push.signature(bad)}
        answer = client.post(url, bad, content_type="application/json", headers=signed)
        assert answer.status_code == 400 and answer.json()["error"] == "bad_frames"
    assert client.get(url).status_code == 405
    good = client.post(
        url,
        body,
        content_type="application/json",
        headers={"X-Rummi-Signature": push.signature(body)},
    )
    assert good.status_code == 204
    settings.RUMMI_FRAME_RELAY_SECRET = secrets.token_hex(32)  # the next run's secret
    assert (
        client.post(
            url,
            body,
            content_type="application/json",
            headers={
                "X-Rummi-Signature": hmac.new(RUN_SECRET.encode(), body, "sha256").hexdigest()
            },
        ).status_code
        == 403
    )


def test_without_a_relay_a_worker_sends_nothing(
    alice: Any, bob: Any, in_a_worker: list[urllib.request.Request], settings: Any
) -> None:
    settings.RUMMI_FRAME_RELAY_URL = ""
    game = services.create_game(viewer(alice), {"mode": "blitz", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    assert in_a_worker == []
