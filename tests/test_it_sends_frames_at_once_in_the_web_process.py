"""The web process sends a frame as it is written when nothing waits in the socket's buffer,
instead of Twisted's way of registering the socket for writing and sending on the loop's next
turn (rummi_site/web.py ``write_now``, docs/deploy.md "Sockets"). Over a real socket pair:
what is sent at once, what is buffered, and that bytes keep their order and errors still close
the connection."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet import main, tcp

from rummi_site import web


class Reactor:
    """What a connection asks of the reactor: which sockets are registered for writing."""

    def __init__(self) -> None:
        self.writers: set[Any] = set()
        self.added = 0

    def addWriter(self, writer: Any) -> None:  # noqa: N802 - Twisted's
        if writer not in self.writers:  # as the real reactor: adding twice registers once
            self.added += 1
            self.writers.add(writer)

    def removeWriter(self, writer: Any) -> None:  # noqa: N802 - Twisted's
        self.writers.discard(writer)

    def addReader(self, reader: Any) -> None:  # noqa: N802 - Twisted's
        pass

    def removeReader(self, reader: Any) -> None:  # noqa: N802 - Twisted's
        pass


class Protocol:
    def __init__(self) -> None:
        self.lost: list[Any] = []

    def connectionLost(self, reason: Any) -> None:  # noqa: N802 - Twisted's
        self.lost.append(reason)


@pytest.fixture
def pair(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, socket.socket, Reactor]]:
    """A Twisted TCP connection over one end of a real socket pair (``write_now`` installed),
    the other end to read from, and the reactor it registers with."""
    monkeypatch.setattr(tcp.Connection, "write", web.write_now)
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)
    reactor = Reactor()
    connection = tcp.Connection(ours, Protocol(), reactor)
    connection.connected = 1
    yield connection, theirs, reactor
    ours.close()
    theirs.close()


def received(theirs: socket.socket) -> bytes:
    chunks = []
    while True:
        try:
            chunk = theirs.recv(1 << 20)
        except BlockingIOError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_frame_is_on_the_wire_before_the_loop_turns(pair: Any) -> None:
    connection, theirs, reactor = pair
    connection.write(b"\x81\x0fpong")
    connection.write(b"\x81\x0fmove")
    assert received(theirs) == b"\x81\x0fpong\x81\x0fmove"
    assert reactor.added == 0 and not reactor.writers  # no epoll registration, no next turn


def test_what_does_not_fit_waits_and_later_frames_wait_behind_it(pair: Any) -> None:
    connection, theirs, reactor = pair
    big = bytes(range(256)) * 40_000  # 10 MB: more than any socket buffer takes at once
    connection.write(big)
    assert connection in reactor.writers  # the rest waits for the socket to take it
    connection.write(b"after")  # sent after the rest, not before it
    assert reactor.added == 1
    got = bytearray()
    while connection in reactor.writers:
        got += received(theirs)
        assert connection.doWrite() is None
    got += received(theirs)
    assert bytes(got) == big + b"after"
    # Once drained, a frame goes out at once again.
    connection.write(b"again")
    assert received(theirs) == b"again" and reactor.added == 1


def test_a_closing_connection_writes_twisteds_way(pair: Any) -> None:
    connection, theirs, reactor = pair
    connection.disconnecting = 1
    connection.write(b"last words")
    assert connection in reactor.writers and received(theirs) == b""


def test_a_send_that_fails_closes_the_connection_as_before(pair: Any) -> None:
    connection, theirs, reactor = pair
    theirs.close()
    connection.write(b"to nobody")  # the send fails: buffered, the writer registered
    assert connection in reactor.writers
    assert connection.doWrite() is main.CONNECTION_LOST  # and the reactor closes it


class Producer:
    """A producer registered on the connection, as daphne's websocket keeps the HTTP channel
    it was upgraded from (a streaming one)."""

    def __init__(self) -> None:
        self.paused = self.resumed = 0

    def pauseProducing(self) -> None:  # noqa: N802 - Twisted's
        self.paused += 1

    def resumeProducing(self) -> None:  # noqa: N802 - Twisted's
        self.resumed += 1

    def stopProducing(self) -> None:  # noqa: N802 - Twisted's
        pass


def test_a_websocket_upgraded_from_http_sends_at_once_and_pauses_its_channel_when_full(
    pair: Any,
) -> None:
    connection, theirs, reactor = pair
    channel = Producer()
    connection.registerProducer(channel, True)  # streaming, as twisted.web's HTTPChannel
    connection.write(b"pong")
    assert received(theirs) == b"pong" and reactor.added == 0
    connection.write(bytes(10_000_000))  # what does not fit pauses the channel, as before
    assert channel.paused == 1 and connection in reactor.writers


def test_a_pull_producer_is_served_twisteds_way(pair: Any) -> None:
    connection, theirs, reactor = pair
    puller = Producer()
    connection.registerProducer(puller, False)  # asks for more as each write drains
    connection.write(b"chunk")
    assert connection in reactor.writers and received(theirs) == b""
    assert connection.doWrite() is None and received(theirs) == b"chunk"
    assert puller.resumed == 2  # once on registering, once as the write drained
