"""A board's ping is answered by the web process's protocol when the socket's consumer needs
nothing from it, without waking the consumer, and a watcher's board is told to send nothing and
hear the beat instead (rummi_site/pings.py, rummi_site/web.py, docs/deploy.md "Sockets"); a
stand-in game's seats still ping, and the consumer hears each ping."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from autobahn.websocket.protocol import WebSocketProtocol
from channels.testing import WebsocketCommunicator
from daphne import server as daphne_server
from django.test import Client

from games import services
from games.services.fairness import STAND_IN_AFTER
from rummi_site import pings, web
from rummi_site.asgi import application

from .games.test_it_pushes_frames_without_leaking_racks import cookie_of


class Protocol:
    """What the protocol's message handler touches of daphne's websocket protocol."""

    muted = False

    def __init__(self, answer: bool) -> None:
        self._rummi_pings: dict[str, Any] = {"answer_pings": True} if answer else {}
        self.sent: list[tuple[bytes, bool]] = []
        self.last_ping = 0.0

    def sendMessage(self, payload: bytes, binary: bool) -> None:  # noqa: N802 - autobahn's
        self.sent.append((payload, binary))


@pytest.fixture
def passed_on(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The messages handed to daphne's own onMessage (and so to the consumer)."""
    seen: list[bytes] = []
    monkeypatch.setattr(
        web, "_on_message_daphne", lambda self, payload, binary: seen.append(payload)
    )
    return seen


def test_a_ping_is_answered_here_once_a_second_when_the_consumer_allows(
    passed_on: list[bytes],
) -> None:
    protocol = Protocol(answer=True)
    before = time.time()
    web._on_message(protocol, pings.PING.encode(), False)
    assert protocol.sent == [(pings.PONG.encode(), False)] and passed_on == []
    assert protocol.last_ping >= before  # daphne's own ping waits as for any message
    # A second ping within the second goes to the consumer, whose flood limit counts it.
    web._on_message(protocol, pings.PING.encode(), False)
    assert passed_on == [pings.PING.encode()] and len(protocol.sent) == 1
    # Anything else goes on as before.
    for payload, binary in ((b'{"type":"act"}', False), (pings.PING.encode(), True)):
        web._on_message(protocol, payload, binary)
    assert passed_on[1:] == [b'{"type":"act"}', pings.PING.encode()]
    protocol._rummi_pings["answered"] -= pings.ANSWER_EVERY_S
    web._on_message(protocol, pings.PING.encode(), False)
    assert len(protocol.sent) == 2


def test_a_ping_goes_to_the_consumer_unless_it_allows_or_while_muted(
    passed_on: list[bytes],
) -> None:
    quiet = Protocol(answer=False)
    web._on_message(quiet, pings.PING.encode(), False)
    muted = Protocol(answer=True)
    muted.muted = True
    web._on_message(muted, pings.PING.encode(), False)
    assert passed_on == [pings.PING.encode()] * 2 and quiet.sent == muted.sent == []


def test_a_websockets_scope_shares_the_flags_with_its_protocol(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[dict[str, Any]] = []
    monkeypatch.setattr(
        web, "_create_application", lambda self, protocol, scope: made.append(scope)
    )
    protocol, other = Protocol(answer=False), Protocol(answer=False)
    del protocol._rummi_pings, other._rummi_pings
    server = daphne_server.Server(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    server.connections = {}  # as Server.run sets it
    web.create_application(server, protocol, {"type": "websocket"})
    web.create_application(server, other, {"type": "http"})
    # The consumer learns how often the web process beats a quiet socket (daphne's interval).
    assert pings.answer_here(made[0]) == server.ping_interval == 20
    assert protocol._rummi_pings == {"beat_s": 20.0, "answer_pings": True}  # type: ignore[attr-defined]
    assert pings.ANSWER_KEY not in made[1] and not hasattr(other, "_rummi_pings")


def consumer_flags(
    gid: str, cookie: bytes | None, beat_s: float | None = 55.0
) -> tuple[dict[str, Any], tuple[int, float | None]]:
    """Open the game's socket with the flags the web process's protocol would share (with no
    beat: none, as under a plain daphne); return them and what its hello tells the board: how
    often to ping, and after how long without a frame the socket is dead."""
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if cookie:
        headers.append((b"cookie", cookie))
    flags: dict[str, Any] = {} if beat_s is None else {"beat_s": beat_s}

    async def scenario() -> tuple[int, float | None]:
        sock = WebsocketCommunicator(application, f"/ws/games/{gid}/", headers=headers)
        if beat_s is not None:
            sock.scope[pings.ANSWER_KEY] = flags  # before the application first runs
        assert (await sock.connect())[0]
        hello = await sock.receive_json_from()
        assert hello["type"] == "hello"
        await sock.send_to(text_data=pings.PING)
        assert await sock.receive_json_from(timeout=10) == {"type": "pong"}
        await sock.disconnect()
        return int(hello["ping_s"]), hello.get("silent_s")

    return flags, asyncio.run(scenario())


@pytest.mark.django_db(transaction=True)
def test_a_watcher_lets_the_protocol_answer_and_a_stand_in_games_seat_does_not(
    alice: Any, bob: Any
) -> None:
    seats = [{"user_id": alice.pk, "name": "alice"}, {"user_id": bob.pk, "name": "bob"}]
    covered = services.create_seated_game({"mode": "lan", "clock": 60}, seats, stand_in=True)
    plain = services.create_seated_game({"mode": "lan", "clock": 60}, seats, stand_in=False)
    client = Client()
    client.force_login(alice)
    mine = cookie_of(client)
    # A watcher, a seat at a plain table: the board sends nothing and hears the web process's
    # beat every 55 s; with no frame for two beats and 10 s it is dead. A ping it may still
    # send is answered by the protocol.
    beaten = ({"beat_s": 55.0, "answer_pings": True}, (0, 120.0))
    assert consumer_flags(plain.public_id, None) == beaten
    assert consumer_flags(plain.public_id, mine) == beaten
    assert consumer_flags(covered.public_id, None) == beaten
    # A seat at a table with stand-ins: its pings keep the seat present, every 25 s, well
    # inside the 60 s after which a stand-in plays for an unheard seat.
    assert consumer_flags(covered.public_id, mine) == (
        {"beat_s": 55.0},
        (pings.PRESENCE_EVERY_S, None),
    )
    # Under a plain daphne, which sends no beat: the watcher's board pings every 50 s.
    assert consumer_flags(plain.public_id, None, beat_s=None) == ({}, (pings.EVERY_S, None))
    assert STAND_IN_AFTER.total_seconds() > 2 * pings.PRESENCE_EVERY_S  # one ping may be lost


class Frames(Protocol):
    """What the frame-level fast path touches of autobahn's protocol: its state, its buffer of
    unparsed bytes and the frame or message it is in the middle of, its transport."""

    state = web._OPEN
    current_frame = None
    inside_message = False
    _perMessageCompress = None

    def __init__(self, answer: bool) -> None:
        super().__init__(answer)
        self.data = b""
        self.written: list[bytes] = []
        self.transport = self
        self.trafficStats = type("Stats", (), {"incomingOctetsWireLevel": 0})()

    def write(self, data: bytes) -> None:
        self.written.append(data)


def masked(payload: bytes, mask: bytes = b"\x9a\x01\xfe\x33") -> bytes:
    """A client's frame: final, text, masked, short."""
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The bytes handed on to autobahn's own frame parser."""
    seen: list[bytes] = []
    monkeypatch.setattr(web, "_data_received_autobahn", lambda self, data: seen.append(data))
    return seen


def test_a_ping_frame_on_its_own_is_answered_without_autobahns_parser(
    parsed: list[bytes],
) -> None:
    protocol = Frames(answer=True)
    frame = masked(pings.PING.encode())
    web._data_received(protocol, frame)
    # The pong is the frame autobahn's sendMessage makes of it: final, text, unmasked.
    assert protocol.written == [b"\x81" + bytes([len(pings.PONG)]) + pings.PONG.encode()]
    assert parsed == [] and protocol.last_ping > 0
    # Within the second it goes the long way, to the consumer's flood limit.
    web._data_received(protocol, frame)
    assert parsed == [frame] and len(protocol.written) == 1


@pytest.mark.parametrize(
    "case",
    [
        "not allowed",
        "muted",
        "split",
        "joined",
        "other text",
        "bytes left over",
        "mid message",
        "compressed",
        "closing",
    ],
)
def test_anything_but_a_lone_allowed_ping_goes_to_autobahn(parsed: list[bytes], case: str) -> None:
    protocol = Frames(answer=case != "not allowed")
    frame = masked(pings.PING.encode())
    if case == "muted":
        protocol.muted = True
    elif case == "split":
        frame = frame[:5]
    elif case == "joined":
        frame += masked(b'{"type":"act"}')
    elif case == "other text":
        frame = masked(b'{"type":"pinG"}')
    elif case == "bytes left over":
        protocol.data = b"\x81"
    elif case == "mid message":
        protocol.inside_message = True
    elif case == "compressed":
        protocol._perMessageCompress = object()
    elif case == "closing":
        protocol.state = WebSocketProtocol.STATE_CLOSING
    web._data_received(protocol, frame)
    assert parsed == [frame] and protocol.written == []


class Flooded(Frames):
    def __init__(self) -> None:
        super().__init__(answer=False)
        self.aborted = 0

    def abortConnection(self) -> None:  # noqa: N802 - twisted's
        self.aborted += 1


def test_a_socket_that_floods_is_dropped_and_read_no_more(
    passed_on: list[bytes], parsed: list[bytes]
) -> None:
    """Found on 2026-12-07: a client sending 300,000 pings in 6 s held the web process for
    seconds after its consumer had closed it, autobahn parsing all it sent while it waited for
    a closing handshake that never came."""
    protocol = Flooded()
    for _ in range(web.FLOOD_MESSAGES):
        web._on_message(protocol, _PING_BYTES, False)
    assert len(passed_on) == web.FLOOD_MESSAGES and protocol.aborted == 0
    web._on_message(protocol, _PING_BYTES, False)
    assert protocol.aborted == 1 and len(passed_on) == web.FLOOD_MESSAGES
    # What else it sent, already read or still arriving, goes nowhere.
    web._on_message(protocol, b'{"type":"act"}', False)
    web._data_received(protocol, masked(_PING_BYTES))
    assert len(passed_on) == web.FLOOD_MESSAGES and parsed == [] and protocol.aborted == 1


def test_a_steady_socket_is_never_dropped(passed_on: list[bytes]) -> None:
    protocol = Flooded()
    for _window in range(3):
        for _ in range(web.FLOOD_MESSAGES):
            web._on_message(protocol, _PING_BYTES, False)
        start, count = protocol._rummi_window  # type: ignore[attr-defined]
        protocol._rummi_window = (start - web.FLOOD_WINDOW_S - 1, count)  # type: ignore[attr-defined]
    assert protocol.aborted == 0 and len(passed_on) == 3 * web.FLOOD_MESSAGES


_PING_BYTES = pings.PING.encode()
