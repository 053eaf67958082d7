"""Websockets: each viewer gets its own projection, in order, and never another seat's rack."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import consumers, services
from games.engine.errors import IllegalMove
from games.engine.state import apply, replay, state_from_record
from games.models import Game
from rummi_site.asgi import application
from tests.engine.helpers import greedy_play

from .conftest import key, viewer

pytestmark = pytest.mark.django_db(transaction=True)


def cookie_of(client: Client) -> bytes:
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def socket(gid: str, cookie: bytes | None, origin: bytes = b"http://127.0.0.1") -> Any:
    headers = [(b"origin", origin), (b"host", b"127.0.0.1")]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, f"/ws/games/{gid}/", headers=headers)


async def closing(sock: WebsocketCommunicator) -> tuple[str, Any]:
    """How a socket that is not to stay open ends: ``("closed", code)`` when it is accepted and
    closed with a code the page reads (docs/api.md), ``("refused", ...)`` when the handshake
    itself is refused (a consumer closing before it accepts: daphne answers HTTP 403)."""
    connected, code = await sock.connect()
    if not connected:
        return "refused", code
    out = await sock.receive_output(timeout=5)
    assert out["type"] == "websocket.close", out
    return "closed", out["code"]


def assert_private(frame: dict[str, Any], seat: int | None, rack: list[int]) -> None:
    """A frame for ``seat`` holds its own rack (``rack``) and no other seat's tiles."""
    view = frame["view"]
    assert view["rack"] == rack
    assert "racks" not in view and "pool_order" not in view
    for item in frame["events"]:
        event = item["event"]
        if event["kind"] == "RoundStarted":
            assert all(r == [] for s, r in enumerate(event["racks"]) if s != seat)
            assert isinstance(event["pool"], int)
        elif event["kind"] == "TileDrawn" and event["seat"] != seat:
            assert event["tile"] is None
        elif event["kind"] == "TurnTimedOut" and event["seat"] != seat:
            assert all(t is None for t in event["drawn"])


def choose(game: Game, rng: random.Random) -> tuple[str, dict[str, Any], int]:
    state = state_from_record(game.state)
    play = greedy_play(state, state.turn)
    if play is not None and rng.random() < 0.9:
        try:
            apply(state, play, bytes.fromhex(game.seed))
            return "play", {"table": [list(m) for m in play.table]}, state.turn
        except IllegalMove:
            pass
    return "draw", {}, state.turn


def test_a_whole_game_streams_private_frames_to_every_viewer(
    alice: Any, bob: Any, outsider: Any
) -> None:
    game = services.create_game(viewer(alice), {"mode": "blitz", "players": 2, "rounds": "one"})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    clients = {}
    for name, user in (("alice", alice), ("bob", bob), ("outsider", outsider)):
        clients[name] = Client()
        clients[name].force_login(user)

    async def scenario() -> dict[str, list[dict[str, Any]]]:
        seats = {"alice": 0, "bob": 1, "outsider": None, "anonymous": None}
        sockets = {n: socket(game.public_id, cookie_of(c)) for n, c in clients.items()}
        sockets["anonymous"] = socket(game.public_id, None)
        frames: dict[str, list[dict[str, Any]]] = {n: [] for n in sockets}
        for name, sock in sockets.items():
            connected, _ = await sock.connect()
            assert connected
            hello = await sock.receive_json_from()
            assert hello["type"] == "hello" and hello["me"] == seats[name]
        rng = random.Random(7)
        users = {0: alice, 1: bob}
        for _ in range(400):
            current = await sync_to_async(Game.objects.get)(pk=game.pk)
            if current.status == "finished":
                break
            action, body, seat = await sync_to_async(choose)(current, rng)
            body |= {"expected_seq": current.seq, "key": key()}
            await sync_to_async(services.act)(game.public_id, viewer(users[seat]), action, body)
            for name, sock in sockets.items():
                frames[name].append(await sock.receive_json_from(timeout=20))
        for sock in sockets.values():
            assert await sock.receive_nothing()
            await sock.disconnect()
        return frames

    frames = asyncio.run(scenario())
    game.refresh_from_db()
    assert game.status == "finished"
    kinds = {item["event"]["kind"] for frame in frames["alice"] for item in frame["events"]}
    assert {"TilesPlayed", "TileDrawn", "RoundEnded", "GameEnded"} <= kinds
    log = [e.payload for e in game.events.order_by("seq")]
    for name, seat in (("alice", 0), ("bob", 1), ("outsider", None), ("anonymous", None)):
        seqs = [item["seq"] for frame in frames[name] for item in frame["events"]]
        assert seqs == list(range(3, game.seq + 1)), name  # no gaps, no repeats
        for frame in frames[name]:
            truth = replay(log[: frame["seq"]])
            rack = list(truth.racks[seat]) if seat is not None else []
            assert_private(frame, seat, rack)
            assert frame["view"]["seat"] == seat


def test_a_foreign_origin_cannot_open_a_socket(alice: Any, bob: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})

    async def scenario() -> tuple[bool, bool]:
        evil = socket(game.public_id, None, origin=b"https://evil.example")
        good = socket(game.public_id, None)
        refused, _ = await evil.connect()
        accepted, _ = await good.connect()
        await good.disconnect()
        return refused, accepted

    assert asyncio.run(scenario()) == (False, True)


@pytest.mark.parametrize(
    ("origin", "host", "trusted", "opens"),
    [
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000", [], True),
        (b"http://localhost:3000", b"localhost:8000", [], False),  # another port
        (b"https://127.0.0.1:8000", b"127.0.0.1:8000", [], False),  # another scheme
        (b"http://localhost:8000", b"127.0.0.1:8000", [], False),  # another host
        (b"http://127.0.0.1:8000.evil.example", b"127.0.0.1:8000", [], False),
        (b"null", b"127.0.0.1:8000", [], False),
        (None, b"127.0.0.1:8000", [], False),  # no Origin at all
        (b"http://evil.example", b"evil.example", [], False),  # a Host not allowed
        (b"https://rummi.example", b"127.0.0.1:8000", ["https://rummi.example"], True),
        (b"https://other.example", b"127.0.0.1:8000", ["https://rummi.example"], False),
    ],
)
def test_only_the_sites_own_origin_or_a_trusted_one_opens_a_socket(
    alice: Any, settings: Any, origin: bytes | None, host: bytes, trusted: list[str], opens: bool
) -> None:
    settings.CSRF_TRUSTED_ORIGINS = trusted
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    headers = [(b"host", host)] + ([(b"origin", origin)] if origin is not None else [])

    async def scenario() -> bool:
        sock = WebsocketCommunicator(application, f"/ws/games/{game.public_id}/", headers=headers)
        connected, _ = await sock.connect()
        if connected:
            await sock.disconnect()
        return connected

    assert asyncio.run(scenario()) is opens


def test_an_unknown_game_closes_the_socket_with_4404() -> None:
    assert asyncio.run(closing(socket("no-such-game", None))) == ("closed", 4404)


@pytest.mark.parametrize("gid", ["a@b", "x" * 17, "é", "%00"])
def test_an_id_no_game_can_have_closes_the_socket_as_unknown(gid: str) -> None:
    assert asyncio.run(closing(socket(gid, None))) == ("closed", 4404)


def test_a_move_made_while_the_socket_opens_still_reaches_it(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob resigns just after the hello's summary is read for Alice's opening socket: the
    game's end comes to her as the frame after the hello, not never."""
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    client = Client()
    client.force_login(alice)
    summary = consumers.game_summary

    def summary_then_a_move(*args: Any) -> Any:
        read = summary(*args)
        monkeypatch.setattr(consumers, "game_summary", summary)
        seq = Game.objects.get(pk=game.pk).seq
        services.act(game.public_id, viewer(bob), "resign", {"key": key(), "expected_seq": seq})
        return read

    monkeypatch.setattr(consumers, "game_summary", summary_then_a_move)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        sock = socket(game.public_id, cookie_of(client))
        connected, _ = await sock.connect()
        assert connected
        hello = await sock.receive_json_from()
        update = await sock.receive_json_from(timeout=10)
        await sock.disconnect()
        return hello, update

    hello, update = asyncio.run(scenario())
    game.refresh_from_db()
    assert game.status == "finished"
    assert hello["type"] == "hello" and hello["status"] == "playing"
    assert update["type"] == "update" and update["seq"] == game.seq > hello["seq"]
    assert "GameEnded" in {item["event"]["kind"] for item in update["events"]}


def test_a_flooding_socket_is_closed(alice: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})

    async def scenario() -> list[Any]:
        sock = socket(game.public_id, None)
        await sock.connect()
        await sock.receive_json_from()
        answers = []
        for _ in range(60):
            await sock.send_to(text_data='{"type":"ping"}')
        while True:
            output = await sock.receive_output(timeout=2)
            answers.append(output)
            if output["type"] == "websocket.close":
                return answers

    answers = asyncio.run(scenario())
    assert answers[-1] == {"type": "websocket.close", "code": 4429}
    assert sum(a.get("text") == '{"type":"pong"}' for a in answers) == 50
