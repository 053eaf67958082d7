"""The web process (rummi_site/web.py) walks its connections a chunk at a time: each is still
visited once a period, no turn of the walk visits more than a chunk, and daphne's reaping does what
it did (docs/deploy.md, "Sockets")."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import pytest
from daphne.server import Server

from rummi_site import pings, web


class Protocol:
    """What daphne's chores touch of a connection."""

    def __init__(self, n: int, seen: Counter[int]) -> None:
        self.n, self.seen, self.failed = n, seen, []

    def check_timeouts(self) -> None:
        self.seen[self.n] += 1

    def handle_exception(self, exception: BaseException) -> None:
        self.failed.append(exception)


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, Any]]:
    scheduled: list[tuple[float, Any]] = []
    monkeypatch.setattr(web.reactor, "callLater", lambda delay, f: scheduled.append((delay, f)))
    return scheduled


def server_with(count: int, seen: Counter[int]) -> Server:
    server = Server(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    server.connections = {Protocol(n, seen): {} for n in range(count)}
    return server


def test_each_connection_is_checked_once_a_period_a_chunk_at_a_time(
    later: list[tuple[float, Any]],
) -> None:
    seen: Counter[int] = Counter()
    server = server_with(1_000, seen)
    turns = 1_000 // web.CHUNK
    sizes = []
    for _ in range(turns):
        before = sum(seen.values())
        web.timeout_checker(server)
        sizes.append(sum(seen.values()) - before)
    assert sorted(seen) == list(range(1_000)) and set(seen.values()) == {1}
    assert max(sizes) == web.CHUNK
    # The turns are spread evenly over the period.
    assert [delay for delay, _ in later] == [web.TIMEOUT_PERIOD_S / turns] * turns
    # The next period starts over: every connection once more.
    for _ in range(turns):
        web.timeout_checker(server)
    assert set(seen.values()) == {2}


def test_a_period_walks_the_connections_open_at_its_start(
    later: list[tuple[float, Any]],
) -> None:
    seen: Counter[int] = Counter()
    server = server_with(2 * web.CHUNK, seen)
    web.timeout_checker(server)  # the first turn of two
    first, second = list(server.connections)[: web.CHUNK], list(server.connections)[web.CHUNK :]
    gone = second[0]
    del server.connections[gone]  # closed and reaped before its turn: not visited
    newcomer = Protocol(10_000, seen)
    server.connections[newcomer] = {}  # opened in the period: waits for the next one
    web.timeout_checker(server)
    assert seen[gone.n] == 0 and seen[newcomer.n] == 0
    assert all(seen[p.n] == 1 for p in first + second[1:])
    for _ in range(2):  # the next period: the 100 connections open at its start
        web.timeout_checker(server)
    assert seen[newcomer.n] == 1 and seen[gone.n] == 0
    assert all(seen[p.n] == 2 for p in first + second[1:])


def test_a_few_connections_take_one_turn_a_period(later: list[tuple[float, Any]]) -> None:
    seen: Counter[int] = Counter()
    server = server_with(3, seen)
    web.timeout_checker(server)
    web.application_checker(server)
    assert set(seen.values()) == {1}
    assert [delay for delay, _ in later] == [web.TIMEOUT_PERIOD_S, web.REAP_PERIOD_S]


def test_reaping_a_turn_does_what_daphne_does(later: list[tuple[float, Any]]) -> None:
    loop = asyncio.new_event_loop()
    try:
        seen: Counter[int] = Counter()
        server = server_with(0, seen)
        long_ago = time.time() - server.application_close_timeout - 1

        def done(exception: BaseException | None = None) -> asyncio.Future[None]:
            future: asyncio.Future[None] = loop.create_future()
            if exception is None:
                future.set_result(None)
            else:
                future.set_exception(exception)
            return future

        running, stuck = loop.create_future(), loop.create_future()
        gone, open_, failed, lingering, closing = (Protocol(n, seen) for n in range(5))
        server.connections = {
            gone: {"disconnected": long_ago, "application_instance": done()},
            open_: {"application_instance": running},
            failed: {"application_instance": done(ValueError("boom"))},
            lingering: {"disconnected": long_ago, "application_instance": stuck},
            closing: {"disconnected": time.time()},
        }
        web.application_checker(server)  # five connections: one turn a period
        assert gone not in server.connections  # closed and its application done: forgotten
        assert closing not in server.connections  # closed with no application left
        assert server.connections[open_] == {"application_instance": running}
        assert not running.cancelled()
        assert "application_instance" not in server.connections[failed]  # reaped ...
        assert [str(e) for e in failed.failed] == ["boom"]  # ... its error told to its client
        assert stuck.cancelled()  # an application that would not close after its client left
        assert [delay for delay, _ in later] == [web.REAP_PERIOD_S]
    finally:
        loop.close()


@pytest.mark.parametrize(
    ("interval", "earliest"), [(55, pings.EVERY_S + web.FIRST_PING_MARGIN_S), (20, 0.0)]
)
def test_first_pings_come_after_the_boards_and_are_spread(
    monkeypatch: pytest.MonkeyPatch, interval: int, earliest: float
) -> None:
    """Daphne's first ping of a socket comes after the board's first ping (which resets its
    count, so a board's socket is never pinged) and before the interval is out, spread over
    that window rather than all at once for sockets that opened together."""
    server = Server(
        application=None, endpoints=["tcp:port=0:interface=127.0.0.1"], ping_interval=interval
    )

    def daphne_connect(self: Any, request: Any) -> str:
        self.server, self.last_ping = server, time.time()
        return "accepted"

    monkeypatch.setattr(web, "_connect", daphne_connect)
    firsts = []
    for _ in range(200):
        protocol = Protocol(0, Counter())
        connected = time.time()
        assert web._on_connect(protocol, object()) == "accepted"
        # daphne pings once time.time() - last_ping > interval (ws_protocol.check_timeouts)
        firsts.append(protocol.last_ping + interval - connected)  # type: ignore[attr-defined]
    assert all(earliest - 0.1 <= first <= interval + 0.1 for first in firsts)
    middle = (earliest + interval) / 2
    early = sum(first < middle for first in firsts)
    assert 40 <= early <= 160


def test_install_puts_the_chores_in_daphnes_place(monkeypatch: pytest.MonkeyPatch) -> None:
    from daphne import server as daphne_server
    from daphne import ws_protocol
    from twisted.internet import tcp

    for owner, name in (
        (tcp.Connection, "write"),
        (daphne_server.Server, "timeout_checker"),
        (daphne_server.Server, "application_checker"),
        (daphne_server.Server, "create_application"),
        (ws_protocol.WebSocketProtocol, "onConnect"),
        (ws_protocol.WebSocketProtocol, "onMessage"),
        *((module, label) for module in web.LABELLED for label in ("hltype", "hlval")),
    ):
        monkeypatch.setattr(owner, name, getattr(owner, name))
    web.install()
    assert daphne_server.Server.timeout_checker is web.timeout_checker
    assert daphne_server.Server.application_checker is web.application_checker
    assert ws_protocol.WebSocketProtocol.onConnect is web._on_connect
    assert ws_protocol.WebSocketProtocol.onMessage is web._on_message
    assert daphne_server.Server.create_application is web.create_application
    assert tcp.Connection.write is web.write_now
    for module in web.LABELLED:
        assert module.hltype is web.plain_type and module.hlval is str


def test_a_frame_sent_builds_no_coloured_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """autobahn labels each frame's debug line, logged or not: after install, without
    click.style (27 calls a move before, from frames sent and received; receiving takes the
    same two labels from the same modules)."""
    from collections import deque

    import autobahn.twisted.websocket as twisted_websocket
    import autobahn.websocket.protocol as protocol
    import click

    for module in web.LABELLED:
        monkeypatch.setattr(module, "hltype", module.hltype)
        monkeypatch.setattr(module, "hlval", module.hlval)
    styled: list[str] = []
    monkeypatch.setattr(click, "style", lambda text, **kw: styled.append(text) or text)

    class Transport:
        def __init__(self) -> None:
            self.written: list[bytes] = []

        def write(self, data: bytes) -> None:
            self.written.append(data)

    def send_one() -> list[bytes]:
        sock = twisted_websocket.WebSocketServerProtocol()
        sock.transport, sock.send_queue, sock.peer = Transport(), deque(), "tcp:127.0.0.1:1"
        sock.state, sock.logOctets = protocol.WebSocketProtocol.STATE_CLOSING, False
        sock.sendData(b"frame")
        return sock.transport.written

    assert send_one() == [b"frame"] and styled  # autobahn as it comes styles its labels
    styled.clear()
    web.install()
    assert protocol.hltype is web.plain_type and twisted_websocket.hlval is str
    assert send_one() == [b"frame"] and styled == []


def test_a_burst_of_connects_is_collected_once_it_is_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """settle_after_burst: one full collection when a burst of connects is over, none while it
    goes on, none for a slow trickle or a small burst, and again for a new burst."""
    collected: list[int] = []
    monkeypatch.setattr(web.gc, "collect", lambda *generation: collected.append(1) or 0)

    class Server:
        pass

    server = Server()

    def periods(*open_at_each_start: int) -> None:
        for n in open_at_each_start:
            web.settle_after_burst(server, n)

    burst = [10 + web.BURST // 2, 10 + web.BURST, 10 + 2 * web.BURST]
    periods(10, *burst)  # the burst, still coming
    assert collected == []
    periods(burst[-1] + 1)  # over: a period with next to none new
    assert collected == [1]
    periods(*range(burst[-1] + 2, burst[-1] + 4 * web.BURST, web.BURST_QUIET - 1))  # a trickle
    periods(100, 100 + web.BURST - 1, 100 + web.BURST - 1)  # most closed; a burst too small
    assert collected == [1]
    periods(100 + 2 * web.BURST, 100 + 3 * web.BURST, 100 + 3 * web.BURST)  # a new burst, over
    assert collected == [1, 1]


def test_the_timeout_walk_settles_at_the_start_of_each_period(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[int] = []
    monkeypatch.setattr(web, "settle_after_burst", lambda server, n: seen.append(n))
    server = Server(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    server.connections = {Protocol(n, Counter()): {} for n in range(120)}
    for _ in range(6):  # two periods of 3 turns (50, 50, 20)
        web._next_chunk(server, "timeouts", 5.0)
        web._next_chunk(server, "reaps", 5.0)
    assert seen == [120, 120]
