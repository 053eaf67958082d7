"""The web process (rummi_site/web.py) visits only the connections its chores have something to
do for: a socket's timeouts when they are due, a connection to reap once it closed or its
application ended; a turn visits at most a limit, and daphne's checks and reaping do what they
did (docs/deploy.md, "Sockets")."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import autobahn.websocket.protocol
import pytest
from daphne.server import Server

from rummi_site import web


class Protocol:
    """What daphne's chores touch of a connection: an HTTP request, or a websocket whose
    ``check_timeouts`` does what daphne's does (ws_protocol) on the test's clock."""

    def __init__(self, n: int, seen: Counter[int], kind: str = "websocket") -> None:
        self.n, self.seen, self.failed, self.application_type = n, seen, [], kind
        self.pinged: list[float] = []
        self.rejected = self.closed = False

    def open(self, server: Server, now: float) -> Protocol:
        self.server, self.socket_opened, self.last_ping = server, now, now
        self.state = web._OPEN
        return self

    def check_timeouts(self) -> None:
        self.seen[self.n] += 1
        if self.application_type != "websocket":
            return
        now, server = CLOCK[0], self.server
        if now - self.socket_opened > server.websocket_timeout >= 0:
            self.closed = True
        if self.state == web._CONNECTING:
            if now - self.socket_opened > server.websocket_connect_timeout:
                self.rejected = True
        elif self.state == web._OPEN and now - self.last_ping > server.ping_interval:
            self.pinged.append(now)
            self.last_ping = now

    def handle_exception(self, exception: BaseException) -> None:
        self.failed.append(exception)


# The test's clock: what time.time() says to the fake protocols.
CLOCK = [0.0]


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, Any]]:
    scheduled: list[tuple[float, Any]] = []
    monkeypatch.setattr(web.reactor, "callLater", lambda delay, f: scheduled.append((delay, f)))
    return scheduled


def a_server(**options: Any) -> Server:
    server = Server(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"], **options)
    server.connections = {}  # as Server.run sets it
    return server


def connected(server: Server, protocols: list[Protocol], now: float) -> list[Protocol]:
    """The protocols connected at ``now`` (daphne's protocol_connected, then the heap)."""
    monkey = pytest.MonkeyPatch()
    monkey.setattr(web.time, "time", lambda: now)
    try:
        for protocol in protocols:
            web.protocol_connected(server, protocol)
    finally:
        monkey.undo()
    return protocols


def run(server: Server, start: float, seconds: float) -> int:
    """The timeout chore's turns every tick from ``start`` for ``seconds`` (several a tick while
    more are due); how many turns."""
    turns = 0
    for tick in range(int(seconds / web.TICK_S)):
        CLOCK[0] = now = start + tick * web.TICK_S
        turns += 1
        while web.timeouts_turn(server, now):
            turns += 1
    return turns


def test_sockets_that_ping_are_never_checked_and_quiet_ones_are_pinged_on_time() -> None:
    """Ten minutes of 200 open sockets: the 150 whose board pings every 50 s are never
    checked (daphne's count is back to zero before each is due); the 50 quiet ones are pinged
    every ping interval, within a tick; nothing is checked in between."""
    server = a_server(ping_interval=55)
    seen: Counter[int] = Counter()
    boards = [Protocol(n, seen).open(server, 0.0) for n in range(150)]
    quiet = [Protocol(n, seen).open(server, 0.0) for n in range(150, 200)]
    connected(server, boards + quiet, 0.0)
    for second in range(600):
        CLOCK[0] = float(second)
        if second % 50 == 0 and second:
            for board in boards:
                board.last_ping = float(second)  # the board's ping (daphne's onMessage)
        while web.timeouts_turn(server, float(second)):
            pass  # the rest of a second's due checks, on the loop's next rounds
    assert all(seen[b.n] == 0 for b in boards)
    for protocol in quiet:
        gaps = [b - a for a, b in zip([0.0, *protocol.pinged], protocol.pinged, strict=False)]
        assert len(protocol.pinged) == 10 and all(55 < gap <= 55 + web.TICK_S for gap in gaps)
        assert seen[protocol.n] == 10  # checked only when a ping was due


def test_a_turn_checks_at_most_its_limit_and_asks_for_the_next_at_once(
    later: list[tuple[float, Any]],
) -> None:
    """A burst of sockets that come due together is checked a turn at a time: each turn at most
    CHECK_LIMIT pings, the next on the loop's next round, then back to a turn a tick."""
    server = a_server(ping_interval=55)
    seen: Counter[int] = Counter()
    count = 2 * web.CHECK_LIMIT + 3
    sockets = connected(server, [Protocol(n, seen).open(server, 0.0) for n in range(count)], 0.0)
    CLOCK[0] = 60.0
    monkey = pytest.MonkeyPatch()
    monkey.setattr(web.time, "time", lambda: 60.0)
    try:
        sizes = []
        for _ in range(4):
            before = sum(seen.values())
            web.timeout_checker(server)
            sizes.append(sum(seen.values()) - before)
    finally:
        monkey.undo()
    assert sizes == [web.CHECK_LIMIT, web.CHECK_LIMIT, 3, 0]
    assert [delay for delay, _ in later] == [0, 0, web.TIMEOUT_TICK_S, web.TIMEOUT_TICK_S]
    assert set(seen.values()) == {1} and all(s.pinged == [60.0] for s in sockets)


def test_a_turn_visits_at_most_its_limit_of_sockets_that_pinged_since(
    later: list[tuple[float, Any]],
) -> None:
    """Sockets whose boards pinged since they were put in the heap are put back unchecked, and
    a turn visits at most TURN_LIMIT of them, the rest on the loop's next round."""
    server = a_server(ping_interval=55)
    seen: Counter[int] = Counter()
    count = web.TURN_LIMIT + 7
    sockets = connected(server, [Protocol(n, seen).open(server, 0.0) for n in range(count)], 0.0)
    for protocol in sockets:
        protocol.last_ping = 50.0  # each board's ping, after its place in the heap was set
    heap = web._chores(server)["due"]
    heap[:] = [(30.0, n, protocol) for n, protocol in enumerate(sockets)]  # all due at 30
    assert web.timeouts_turn(server, 60.0)
    assert sum(due <= 60.0 for due, _, _ in heap) == 7
    assert not web.timeouts_turn(server, 60.0)
    assert not seen and [due for due, _, _ in heap] == pytest.approx([105.0] * count)


def test_handshakes_lifetimes_and_requests_are_checked_when_due() -> None:
    """A socket still connecting is rejected once its handshake timeout is out, a socket is
    closed at its websocket_timeout, an HTTP request is checked every OTHER_CHECK_S, and a
    connection gone from the server is forgotten."""
    server = a_server(ping_interval=55, websocket_connect_timeout=20, websocket_timeout=300)
    seen: Counter[int] = Counter()
    slow = Protocol(0, seen).open(server, 0.0)
    slow.state = web._CONNECTING
    lifetime = Protocol(1, seen).open(server, 0.0)
    request = Protocol(2, seen, kind="http")
    gone = Protocol(3, seen).open(server, 0.0)
    connected(server, [slow, lifetime, request, gone], 0.0)
    del server.connections[gone]  # closed and reaped
    run(server, 0.0, 20.0)
    assert not slow.rejected
    run(server, 20.0, 2.0)
    assert slow.rejected
    # Rejected, so closing: checked every OTHER_CHECK_S, as daphne checks everything.
    slow.state = autobahn.websocket.protocol.WebSocketProtocol.STATE_CLOSING
    run(server, 22.0, 300.0)
    assert lifetime.closed and [p for p in lifetime.pinged if p > 300] == []
    assert len(lifetime.pinged) == 5  # quiet for 300 s: pinged every 55 s till then
    assert seen[request.n] == pytest.approx(322 / web.OTHER_CHECK_S, abs=2)
    assert seen[gone.n] == 0 and gone not in [entry[2] for entry in web._chores(server)["due"]]


def test_only_closed_connections_and_finished_applications_are_reaped(
    later: list[tuple[float, Any]],
) -> None:
    loop = asyncio.new_event_loop()
    try:
        seen: Counter[int] = Counter()
        server = a_server()
        now = time.time()
        long_ago = now - server.application_close_timeout - 1

        def done(exception: BaseException | None = None) -> asyncio.Future[None]:
            future: asyncio.Future[None] = loop.create_future()
            if exception is None:
                future.set_result(None)
            else:
                future.set_exception(exception)
            return future

        running, stuck, waiting = (loop.create_future() for _ in range(3))
        gone, open_, failed, lingering, closing, leaving = (Protocol(n, seen) for n in range(6))
        server.connections = {
            gone: {"disconnected": long_ago, "application_instance": done()},
            open_: {"application_instance": running},
            failed: {"application_instance": done(ValueError("boom"))},
            lingering: {"disconnected": long_ago, "application_instance": stuck},
            closing: {"disconnected": now},
            leaving: {"disconnected": now, "application_instance": waiting},
        }
        for protocol in (gone, failed, lingering, closing, leaving):  # closed, or finished
            web._to_reap(server, protocol)
        web.application_checker(server)
        assert gone not in server.connections  # closed and its application done: forgotten
        assert closing not in server.connections  # closed with no application left
        assert server.connections[open_] == {"application_instance": running}
        assert not running.cancelled()
        assert "application_instance" not in server.connections[failed]  # reaped ...
        assert [str(e) for e in failed.failed] == ["boom"]  # ... its error told to its client
        assert stuck.cancelled()  # an application that would not close after its client left
        assert not waiting.cancelled()  # closed a moment ago: its application may still finish
        assert lingering not in server.connections  # cancelled, so done: reaped at once
        assert [delay for delay, _ in later] == [web.TICK_S]
        assert list(web._chores(server)["reap"]) == [leaving]  # left to reap: still closing
        waiting.set_result(None)
        web.reap_turn(server, now)
        assert leaving not in server.connections
        assert server.connections == {open_: {"application_instance": running}, failed: {}}
        assert web._chores(server)["reap"] == {}
    finally:
        loop.close()


def test_a_connection_is_queued_to_reap_when_it_closes_or_its_application_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """daphne's protocol_disconnected and an application's end put the connection in the reap
    set; nothing else does."""

    async def application(scope: Any, receive: Any, send: Any) -> None:
        await receive()

    async def scenario() -> None:
        server = Server(application=application, endpoints=["tcp:port=0:interface=127.0.0.1"])
        server.connections = {}
        seen: Counter[int] = Counter()
        first, second = Protocol(0, seen), Protocol(1, seen)
        for protocol in (first, second):
            web.protocol_connected(server, protocol)
        queue = web.create_application(server, first, {"type": "websocket"})
        web.create_application(server, second, {"type": "websocket"})
        await asyncio.sleep(0)
        assert web._chores(server)["reap"] == {}
        await queue.put({"type": "websocket.disconnect"})  # the first's application ends
        await asyncio.sleep(0.01)
        assert list(web._chores(server)["reap"]) == [first]
        web.protocol_disconnected(server, second)  # the second's client leaves
        assert list(web._chores(server)["reap"]) == [first, second]
        server.connections[second]["application_instance"].cancel()
        await asyncio.sleep(0.01)

    asyncio.run(scenario())


def test_first_beats_are_spread_over_the_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket's first beat comes within the interval, spread over it rather than all at once
    for sockets that opened together (as they all do after a restart)."""
    interval = 55
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
        # the beat comes once time.time() - last_ping > interval (web.check_timeouts)
        firsts.append(protocol.last_ping + interval - connected)  # type: ignore[attr-defined]
    assert all(-0.1 <= first <= interval + 0.1 for first in firsts)
    early = sum(first < interval / 2 for first in firsts)
    assert 60 <= early <= 140


def test_install_puts_the_chores_in_daphnes_place(monkeypatch: pytest.MonkeyPatch) -> None:
    from daphne import server as daphne_server
    from daphne import ws_protocol
    from twisted.internet import asyncioreactor, tcp

    for owner, name in (
        (tcp.Connection, "write"),
        (asyncioreactor, "callWithLogger"),
        (daphne_server.Server, "timeout_checker"),
        (daphne_server.Server, "application_checker"),
        (daphne_server.Server, "create_application"),
        (daphne_server.Server, "protocol_connected"),
        (daphne_server.Server, "protocol_disconnected"),
        (ws_protocol.WebSocketProtocol, "onConnect"),
        (ws_protocol.WebSocketProtocol, "onMessage"),
        (ws_protocol.WebSocketProtocol, "check_timeouts"),
        (ws_protocol.WebSocketProtocol, "dataReceived"),
        *((module, label) for module in web.LABELLED for label in ("hltype", "hlval")),
    ):
        monkeypatch.setattr(owner, name, getattr(owner, name))
    web.install()
    assert daphne_server.Server.timeout_checker is web.timeout_checker
    assert daphne_server.Server.application_checker is web.application_checker
    assert ws_protocol.WebSocketProtocol.onConnect is web._on_connect
    assert ws_protocol.WebSocketProtocol.onMessage is web._on_message
    assert ws_protocol.WebSocketProtocol.check_timeouts is web.check_timeouts
    assert daphne_server.Server.create_application is web.create_application
    assert daphne_server.Server.protocol_connected is web.protocol_connected
    assert daphne_server.Server.protocol_disconnected is web.protocol_disconnected
    assert tcp.Connection.write is web.write_now
    assert asyncioreactor.callWithLogger is web.call_with_logger
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


def test_the_timeout_chore_settles_once_a_settle_period(
    monkeypatch: pytest.MonkeyPatch, later: list[tuple[float, Any]]
) -> None:
    seen: list[int] = []
    monkeypatch.setattr(web, "settle_after_burst", lambda server, n: seen.append(n))
    server = a_server()
    server.connections = {Protocol(n, Counter()): {} for n in range(120)}
    clock = [1_000.0]
    monkeypatch.setattr(web.time, "time", lambda: clock[0])
    for _ in range(int(2 * web.SETTLE_PERIOD_S / web.TICK_S)):  # two settle periods of ticks
        web.timeout_checker(server)
        clock[0] += web.TICK_S
    assert seen == [120, 120]
