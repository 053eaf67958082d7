"""The real web process (rummi_site.web under daphne) still does daphne's chores now that they
visit only the connections due (rummi_site/web.py, docs/deploy.md "Sockets"): a quiet socket
gets the beat once its interval is out, and again, and connections that close, or
whose application ends, are forgotten. Served here: a bare websocket app
(tests/web_chores_app.py) that tells how many connections its server holds."""

from __future__ import annotations

import base64
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosedOK
from websockets.sync.client import ClientConnection, connect

from rummi_site import pings

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
PING_INTERVAL = 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    port = free_port()
    log = (tmp_path_factory.mktemp("web") / "web.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "rummi_site.web", "--ping-interval", str(PING_INTERVAL)]
        + ["-b", "127.0.0.1", "-p", str(port), "tests.web_chores_app:application"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        until = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the web process exited"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < until, "the web process never listened"
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def raw_socket(port: int) -> socket.socket:
    """A websocket opened by hand, so that the test sees the protocol's own frames."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    key = base64.b64encode(secrets.token_bytes(16)).decode()
    sock.sendall(
        (
            f"GET /ws/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """One unmasked server frame with a short payload: its opcode and payload."""

    def exactly(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            assert chunk, "the server closed the socket"
            data += chunk
        return data

    first, length = exactly(2)
    assert length < 126
    return first & 0x0F, exactly(length)


def test_a_quiet_socket_gets_the_beat_when_its_interval_is_out_and_again(port: int) -> None:
    """The beat, a text frame that asks for nothing back, not daphne's protocol ping: the
    socket sends nothing at all and is kept open (rummi_site/pings.py)."""
    sock = raw_socket(port)
    try:
        beats = []
        while len(beats) < 3:  # waits on the frames, whatever the machine's load
            opcode, payload = read_frame(sock)
            # nothing else comes to a quiet socket: no protocol ping (0x9)
            assert (opcode, payload) == (0x1, pings.BEAT.encode()), (opcode, payload)
            beats.append(time.monotonic())
        # the first at a random point of the interval (spread), then one an interval
        gaps = [b - a for a, b in zip(beats, beats[1:], strict=False)]
        assert all(gap > PING_INTERVAL * 0.9 for gap in gaps), gaps
    finally:
        sock.close()


def held(counter: ClientConnection, expected: int) -> int:
    """The server's connections once they come to ``expected``, or the last count after 30 s."""
    until = time.monotonic() + 30
    while True:
        counter.send("count")
        while (said := counter.recv(timeout=30)) == pings.BEAT:
            pass  # a beat may come first (one a second here)
        count = int(said)
        if count == expected or time.monotonic() > until:
            return count
        time.sleep(0.2)


def test_closed_connections_and_ended_applications_are_forgotten(port: int) -> None:
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/", open_timeout=30))
            for _ in range(10)
        ]
        counter, rest = sockets[0], sockets[1:]
        # The ten sockets, their upgrade requests forgotten once done.
        assert held(counter, 10) == 10
        for sock in rest[:5]:  # five clients leave
            sock.close()
        for sock in rest[5:7]:  # two applications end, closing their sockets
            sock.send("bye")
            with pytest.raises(ConnectionClosedOK):
                while sock.recv(timeout=30) == pings.BEAT:
                    pass  # a beat may come first (one a second here)
        assert held(counter, 3) == 3


def masked_text(payload: bytes) -> bytes:
    """A client's final text frame carrying ``payload`` (short), masked as a browser masks."""
    mask = secrets.token_bytes(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


@pytest.mark.parametrize(
    ("sent", "code"),
    [
        (masked_text(b"\xff\xfe not UTF-8"), 1007),  # a text frame that is not UTF-8
        (bytes([0x83, 0x80]) + secrets.token_bytes(4), 1002),  # opcode 3: reserved
        # a message over daphne's 1 MiB limit (a zero mask leaves the payload as it is)
        (bytes([0x82, 0x80 | 127]) + (2**20 + 1).to_bytes(8, "big") + bytes(4 + 2**20 + 1), 1009),
    ],
    ids=["not-utf-8", "reserved-opcode", "too-big"],
)
def test_a_broken_frame_gets_a_close_with_its_code_not_a_reset(
    port: int, sent: bytes, code: int
) -> None:
    """A frame the protocol refuses is answered with a close frame saying why (1007 invalid
    payload, 1002 protocol error), as RFC 6455 has it, not a TCP reset with no word (autobahn's
    failByDrop, daphne's default until 2026-12-07)."""
    sock = raw_socket(port)
    try:
        try:
            sock.sendall(sent)
        except ConnectionResetError:  # the reset came while sending
            pytest.fail("the server reset the connection")
        while True:  # waits on the frames: a beat may come first (one a second here)
            opcode, payload = read_frame(sock)
            if (opcode, payload) != (0x1, pings.BEAT.encode()):
                break
        assert opcode == 0x8, (opcode, payload)
        assert int.from_bytes(payload[:2], "big") == code, payload
    finally:
        sock.close()
