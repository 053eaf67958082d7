"""A socket quiet for the ping interval gets the web process's beat, a text frame written once
that asks for nothing back, instead of daphne's protocol ping; its connection gives up on a client
whose TCP leaves data unacknowledged for ``pings.DEAD_AFTER_S`` (rummi_site/web.py
``check_timeouts`` and ``keep_alive``, rummi_site/pings.py, docs/deploy.md "Sockets"). The real
web process's beat: tests/test_it_pings_and_reaps_in_the_web_process.py."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from rummi_site import pings, web


class Stats:
    outgoingOctetsWireLevel = 0  # noqa: N815 - autobahn's


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)


class Server:
    websocket_timeout = 86400
    websocket_connect_timeout = 20
    ping_interval = 55


class Protocol:
    """What ``check_timeouts`` touches of daphne's websocket protocol."""

    def __init__(self, state: int, last_ping: float, compressed: bool = False) -> None:
        self.server, self.state, self.last_ping = Server(), state, last_ping
        self.transport, self.trafficStats = Transport(), Stats()
        self._perMessageCompress = object() if compressed else None
        self.sent: list[tuple[bytes, bool]] = []
        self.pinged = self.closed = self.rejected = False
        self.age = 10.0

    def duration(self) -> float:
        return self.age

    def sendMessage(self, payload: bytes, binary: bool) -> None:  # noqa: N802 - autobahn's
        self.sent.append((payload, binary))

    def _sendAutoPing(self) -> None:  # noqa: N802 - autobahn's
        self.pinged = True

    def serverClose(self) -> None:  # noqa: N802 - daphne's
        self.closed = True

    def serverReject(self) -> None:  # noqa: N802 - daphne's
        self.rejected = True


def beat_frame(payload: bytes) -> bytes:
    """A server's final, unmasked text frame."""
    return bytes([0x81, len(payload)]) + payload


def test_a_socket_quiet_for_the_interval_gets_the_beat_and_no_protocol_ping() -> None:
    now = web.time.time()
    quiet = Protocol(web._OPEN, now - 56)
    web.check_timeouts(quiet)
    assert quiet.transport.written == [beat_frame(pings.BEAT.encode())]
    assert not quiet.pinged and quiet.sent == []
    assert quiet.last_ping >= now  # the next one an interval from now
    assert quiet.trafficStats.outgoingOctetsWireLevel == len(pings.BEAT) + 2
    web.check_timeouts(quiet)  # not due again yet
    assert len(quiet.transport.written) == 1


def test_a_socket_that_spoke_within_the_interval_gets_nothing() -> None:
    spoke = Protocol(web._OPEN, web.time.time() - 30)
    web.check_timeouts(spoke)
    assert spoke.transport.written == [] and spoke.sent == [] and not spoke.pinged


def test_a_compressed_socket_gets_the_beat_through_autobahn() -> None:
    compressed = Protocol(web._OPEN, web.time.time() - 56, compressed=True)
    web.check_timeouts(compressed)
    assert compressed.sent == [(pings.BEAT.encode(), False)]
    assert compressed.transport.written == [] and not compressed.pinged


def test_daphnes_other_timeouts_still_act() -> None:
    connecting = Protocol(web._CONNECTING, 0.0)
    connecting.age = 21.0
    web.check_timeouts(connecting)
    assert connecting.rejected and connecting.transport.written == []
    old = Protocol(web._OPEN, web.time.time())
    old.age = Server.websocket_timeout + 1
    web.check_timeouts(old)
    assert old.closed


@pytest.mark.skipif(not hasattr(socket, "TCP_USER_TIMEOUT"), reason="Linux's TCP option")
def test_a_sockets_connection_gives_up_on_data_unacknowledged_for_30_s() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        accepted, _ = listener.accept()
        with client, accepted:

            class Transport:
                def getHandle(self) -> socket.socket:  # noqa: N802 - Twisted's
                    return accepted

            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 0
            assert web.keep_alive(Transport())
            set_ms = accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT)
            assert set_ms == pings.DEAD_AFTER_S * 1000 == 30_000


def test_a_transport_without_a_tcp_socket_is_left_alone() -> None:
    left, right = socket.socketpair()  # a Unix socket: no TCP option to set
    with left, right:

        class Unix:
            def getHandle(self) -> Any:  # noqa: N802 - Twisted's
                return left

        assert not web.keep_alive(Unix())
    assert not web.keep_alive(None) and not web.keep_alive(object())


def test_a_board_hears_of_a_dead_socket_after_two_lost_beats() -> None:
    alive = pings.keep_alive(float(web.PING_INTERVAL_S))
    assert alive == {"ping_s": 0, "silent_s": 2 * 55 + 10}
    assert pings.keep_alive(None) == {"ping_s": pings.EVERY_S}
