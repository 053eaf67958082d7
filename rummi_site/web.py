"""The web process: daphne, with its walks over every connection made lighter.

``python -m rummi_site.web <daphne's arguments>`` runs daphne's own command line. Daphne walks
all its connections in one go: every 2 s to check each one's timeouts and send the protocol
pings due (``Server.timeout_checker``) and every 1 s to reap finished applications
(``Server.application_checker``). With thousands of idle sockets open (spectators, players
waiting on other tables) those walks were nearly all the CPU the sockets cost, and each held
the event loop while the moves that arrived waited (benchmarks/bench_sockets.py). Here:

* the chores visit only the connections that have something to do: each connection waits in
  a heap until its timeouts next can act (an open socket's ping is due ``ping_interval`` after
  its last message, and a board that pings resets it), and only connections that closed or
  whose application finished are reaped; a turn visits at most ``TURN_LIMIT`` and sends at
  most ``CHECK_LIMIT`` beats, ten turns a second, so the loop is never held for long;
* a socket quiet for 55 s (``PING_INTERVAL_S``; daphne pinged every 20 s) gets the beat, a
  text frame written once (rummi_site/pings.py), instead of daphne's protocol ping, whose pong
  woke the process and went through autobahn's parser: the boards of watchers send nothing,
  and a dead client is seen by TCP (``TCP_USER_TIMEOUT``, ``keep_alive``); a socket's first
  beat comes at a random point of the interval (``first_beat_after``), not with every socket
  that opened in the same second (as they all do after a restart);
* the board's own ping (every 25 or 50 s, as the socket's hello says) is answered by the
  protocol when the socket's consumer allows it (rummi_site/pings.py): through the consumer,
  0.35 ms of CPU an answer; a ping frame that arrives on its own is read and answered without
  autobahn's frame parser and builder (``_data_received``), which took the servers' CPU with
  10,000 idle boards and no move from 64 to 53-57 ms/s;
* a frame is sent as it is written when nothing waits in the socket's buffer
  (``write_now``). Twisted buffers every write, registers the socket for writing, sends on the
  loop's next turn and unregisters it: two ``epoll_ctl`` calls and a turn of the loop a frame,
  for every pong and each of a move's frames;
* once a burst of connects is over, the garbage collector makes its full pass over the
  burst's objects at once (``settle_after_burst``), instead of a 100-150 ms pause in the
  middle of play when the young generation's collection came due;
* each read and write of a socket runs without the Twisted log context the asyncio reactor
  pushed for it (``call_with_logger``): a quarter of the CPU of a ping answered here;
* autobahn (daphne's websocket layer) builds the labels of its debug log lines even when
  nothing logs at debug: each frame sent or received paid for a type's name and two values
  coloured by ``click.style`` for the terminal, 27 calls of ``click.style`` a move (about 5% of
  a web process's CPU in a profile of the live bench, benchmarks/profile_web.py). Here the
  labels are plain: a function's name, a value's ``str``.

docs/deploy.md, "Sockets".
"""

from __future__ import annotations

import asyncio
import gc
import heapq
import itertools
import logging
import math
import random
import socket
import sys
import time
from concurrent.futures import CancelledError
from typing import Any

import autobahn.twisted.websocket
import autobahn.websocket.protocol
from daphne import server, ws_protocol
from daphne.cli import CommandLineInterface
from twisted.internet import asyncioreactor, reactor, tcp
from twisted.python import log
from twisted.web import http

from rummi_site import pings

# The chores run every TICK_S (reaping) and TIMEOUT_TICK_S (timeouts) and visit only the connections
# with something to do: the due-time heap's connections whose timeouts are due, the reap set's
# connections that closed or whose application finished. A turn visits at most TURN_LIMIT of them,
# and when more are due (the sockets of a burst of connects come due together) the next turn comes
# on the loop's next round, so a turn holds the event loop for well under a millisecond. Walking all
# the connections (daphne's way: every 2 s and 1 s) held it for tens of milliseconds with 5,000
# sockets a process; walking them 50 at a time, each once in 5 s, still cost 2,000 visits a second a
# process with nothing to do (benchmarks/bench_sockets.py). HTTP requests, closing sockets and
# sockets not yet through onConnect are checked every OTHER_CHECK_S, as daphne checks everything.
# SETTLE_PERIOD_S: how often settle_after_burst counts the open sockets.
TICK_S = 1.0
TURN_LIMIT = 200
# The timeouts' chore ticks ten times as often, and a turn makes at most CHECK_LIMIT checks
# that act (a beat sent, a handshake or lifetime ended): a second's protocol pings of 5,000
# quiet sockets (some 90, before the beat) sent in one turn a second, with their pongs parsed
# right after, held the loop for milliseconds in every second and put 54% on the moves' p99 with
# 10,000 quiet idle sockets (benchmarks/bench_sockets.py, RUMMI_BENCH_SOCKETS_BOARD_PING=0).
TIMEOUT_TICK_S = 0.1
CHECK_LIMIT = 10
OTHER_CHECK_S = 2.0
SETTLE_PERIOD_S = 5.0
# A full garbage collection once a burst of connects that opened this many sockets is over: a
# settle period opening fewer than BURST_QUIET (settle_after_burst).
BURST = 500
BURST_QUIET = 50
# A socket that has sent nothing for this long gets the beat (daphne's protocol ping, every
# 20 s by default, before): once a minute, inside the 60 s idle timeout of common load
# balancers and well inside the proxy's 1 h read timeout. A board that pings (a seat at a table
# with stand-ins, every 25 s) resets the count and gets none.
PING_INTERVAL_S = pings.BEAT_EVERY_S
logger = logging.getLogger("daphne.server")

_connect = ws_protocol.WebSocketProtocol.onConnect
_on_message_daphne = ws_protocol.WebSocketProtocol.onMessage
_data_received_autobahn = ws_protocol.WebSocketProtocol.dataReceived
_OPEN = autobahn.websocket.protocol.WebSocketProtocol.STATE_OPEN
_CONNECTING = autobahn.websocket.protocol.WebSocketProtocol.STATE_CONNECTING
_protocol_connected = server.Server.protocol_connected
_protocol_disconnected = server.Server.protocol_disconnected
_create_application = server.Server.create_application
_PING = pings.PING.encode()
_PONG = pings.PONG.encode()
_BEAT = pings.BEAT.encode()
_write_buffered = tcp.Connection.write


def write_now(self: Any, data: bytes) -> None:
    """Twisted's ``write`` of a TCP connection, but sent at once when nothing is buffered.

    The socket is non-blocking: ``send`` takes what fits and the rest is buffered and sent
    when the socket can take it, as Twisted does (pausing a streaming producer when it fills
    up). Only a plain, open connection with an empty buffer and no close under way sends here,
    with no producer or a streaming one not paused (a websocket keeps the HTTP channel it was
    upgraded from as one); anything else (TLS, a pull producer, a send that fails) goes
    Twisted's way, whose next write attempt meets the error and closes the connection as
    before. Frames keep their order: nothing is sent here while any byte waits.
    """
    if (
        type(data) is bytes
        and data
        and self.connected
        and not self.disconnecting
        and not self._writeDisconnecting
        and not self._writeDisconnected
        and not self._tempDataLen
        and self.offset == len(self.dataBuffer)
        and (self.producer is None or (self.streamingProducer and not self.producerPaused))
        and not self.TLS
    ):
        try:
            sent = self.socket.send(data)
        except OSError:
            sent = 0
        if sent == len(data):
            return
        data = data[sent:]
    _write_buffered(self, data)


def _may_answer(self: Any) -> bool:
    """The protocol may answer this socket's ping itself: its consumer allows it, the socket is
    not muted, and the last one answered here was at least ``ANSWER_EVERY_S`` ago (faster ones
    go on to the consumer's flood limit). If so, the answer is counted as made now."""
    flags = self.__dict__.get("_rummi_pings")
    if not flags or not flags.get("answer_pings") or self.muted:
        return False
    now = time.time()
    if now - flags.get("answered", 0.0) < pings.ANSWER_EVERY_S:
        return False
    flags["answered"] = now
    self.last_ping = now  # as daphne's onMessage does for every message
    return True


def _answer_ping(self: Any, payload: bytes, binary: bool) -> bool:
    """Answer the board's ping here if ``_may_answer`` says so."""
    if binary or payload != _PING or not _may_answer(self):
        return False
    self.sendMessage(_PONG, False)
    return True


# The board's ping as a browser sends it: one final text frame (0x81), masked (0x80) with its
# length in the second byte, a 4-byte mask, the masked payload. The pong goes back as the
# server's frame: final text, unmasked.
_PING_FRAME_HEAD = bytes([0x81, 0x80 | len(_PING)])
_PING_FRAME_LEN = 2 + 4 + len(_PING)
_PONG_FRAME = bytes([0x81, len(_PONG)]) + _PONG
_BEAT_FRAME = bytes([0x81, len(_BEAT)]) + _BEAT
_PING_INT = int.from_bytes(_PING, "big")


def _is_ping_frame(data: bytes) -> bool:
    """``data`` is exactly one masked text frame whose payload is the board's ping.

    >>> mask = bytes([1, 2, 3, 4])
    >>> frame = _PING_FRAME_HEAD + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(_PING))
    >>> _is_ping_frame(frame), _is_ping_frame(frame[:-1]), _is_ping_frame(frame + b"x")
    (True, False, False)
    >>> _is_ping_frame(frame[:-1] + bytes([frame[-1] ^ 1]))
    False
    """
    if len(data) != _PING_FRAME_LEN or data[:2] != _PING_FRAME_HEAD:
        return False
    mask = int.from_bytes((data[2:6] * 4)[: len(_PING)], "big")
    return int.from_bytes(data[6:], "big") ^ mask == _PING_INT


# A socket sending more messages than this in FLOOD_WINDOW_S is dropped by the protocol itself,
# at once and without a closing handshake: the consumers close a socket past 50 messages in
# 10 s with 4429 (games/consumers.py), but autobahn then waits for the client's close while it
# parses whatever else arrives, and one client sending 300,000 pings in 6 s held the process
# for seconds (found on 2026-12-07); the player's and tournament sockets had no limit at all.
FLOOD_MESSAGES = 200
FLOOD_WINDOW_S = 10.0


def _flooding(self: Any) -> bool:
    """Count a message of this socket; past ``FLOOD_MESSAGES`` in a window, drop the
    connection (``abortConnection``) and say so from then on, for the rest of what arrived."""
    seen = self.__dict__
    if seen.get("_rummi_dropped"):
        return True
    now = time.monotonic()
    start, count = seen.get("_rummi_window", (now, 0))
    if now - start > FLOOD_WINDOW_S:
        start, count = now, 0
    seen["_rummi_window"] = (start, count + 1)
    if count + 1 <= FLOOD_MESSAGES:
        return False
    seen["_rummi_dropped"] = True
    logger.warning(
        "dropped a socket that sent over %d messages in %.0f s", FLOOD_MESSAGES, FLOOD_WINDOW_S
    )
    self.transport.abortConnection()
    return True


def _data_received(self: Any, data: bytes) -> None:
    """autobahn's ``dataReceived``, unless ``data`` is a board's ping that arrived on its own,
    between frames, and may be answered here (``_may_answer``). Its frame is read and the
    pong's written without autobahn's frame machinery (its parser, unmasker, UTF-8 validator
    and frame builder): a watcher's open board pings every 50 s, 100 pings a second for a
    process holding 5,000. Anything else (a frame split or joined with another, a compressed
    socket, a socket closing) goes autobahn's way, which answers a ping as before. A socket
    dropped for flooding (``_flooding``) reads nothing more."""
    if self.__dict__.get("_rummi_dropped"):
        return
    if (
        _is_ping_frame(data)
        and self.state == _OPEN
        and not self.data
        and self.current_frame is None
        and not self.inside_message
        and self._perMessageCompress is None
        and _may_answer(self)
    ):
        self.trafficStats.incomingOctetsWireLevel += len(data)
        self.transport.write(_PONG_FRAME)
        return
    _data_received_autobahn(self, data)


def _on_message(self: Any, payload: bytes, isBinary: bool) -> None:  # noqa: N803 - autobahn's
    """Daphne's onMessage, unless the message is a ping answered here, or the socket floods
    (``_flooding``): then it is dropped, and nothing more reaches its consumer."""
    if _flooding(self):
        return
    if not _answer_ping(self, payload, isBinary):
        _on_message_daphne(self, payload, isBinary)


def first_beat_after(interval: float) -> float:
    """Seconds from a socket's connect to its first beat: a random point of the interval, so
    that sockets that opened together (as they all do after a restart) are not beaten together,
    and the beats of a process's sockets come spread evenly over the interval.

    >>> all(0.0 <= first_beat_after(55.0) <= 55.0 for _ in range(100))
    True
    """
    return random.uniform(0.0, interval)


def _on_connect(self: Any, request: Any) -> Any:
    """Daphne's onConnect, then the first beat put at ``first_beat_after``, the socket told to
    give up on a client whose TCP leaves a frame unacknowledged for ``pings.DEAD_AFTER_S``
    (``keep_alive``), and a broken frame answered with a close that says why."""
    accepted = _connect(self, request)
    # A frame the protocol refuses (a text frame not UTF-8, a reserved opcode) is answered with
    # a close frame saying why (1007, 1002) instead of a TCP reset with no word; a client that
    # sends on regardless is dropped after the closing handshake's timeout, and a flood by
    # ``_flooding`` at once.
    self.failByDrop = False
    interval = float(self.server.ping_interval)
    self.last_ping = time.time() - interval + first_beat_after(interval)
    keep_alive(getattr(self, "transport", None))
    return accepted


def keep_alive(transport: Any) -> bool:
    """Give a socket's connection a TCP user timeout of ``pings.DEAD_AFTER_S``: data its client
    has not acknowledged for that long closes it. With the beat, a watcher's client sends
    nothing, so a client gone without a word (a closed laptop, a lost network) is seen when a
    beat (or a move's frame) goes unanswered by its TCP, as daphne's protocol ping saw it when
    no pong came in 30 s. Whether it was set (not where the system has no such option, nor on a
    transport without a TCP socket)."""
    option = getattr(socket, "TCP_USER_TIMEOUT", None)
    handle = getattr(transport, "getHandle", None)
    if option is None or handle is None:
        return False
    try:
        handle().setsockopt(socket.IPPROTO_TCP, option, int(pings.DEAD_AFTER_S * 1000))
    except (OSError, AttributeError):
        return False
    return True


def check_timeouts(self: Any) -> None:
    """Daphne's ``check_timeouts`` (daphne 4.2's ws_protocol), with the beat in place of the
    protocol ping: a socket that sent nothing for the ping interval is written the beat, a
    frame built once (rummi_site/pings.py), and nothing comes back to read. A compressed socket
    gets it through autobahn."""
    timeout = self.server.websocket_timeout
    if timeout >= 0 and self.duration() > timeout:
        self.serverClose()
    if self.state == _CONNECTING:
        if self.duration() > self.server.websocket_connect_timeout:
            self.serverReject()
    elif self.state == _OPEN:
        now = time.time()
        if now - self.last_ping > self.server.ping_interval:
            if self._perMessageCompress is None:
                self.trafficStats.outgoingOctetsWireLevel += len(_BEAT_FRAME)
                self.transport.write(_BEAT_FRAME)
            else:
                self.sendMessage(_BEAT, False)
            self.last_ping = now


def _chores(self: Any) -> dict[str, Any]:
    """The server's due-time heap of connections (timeouts) and its set of connections to reap.

    Every connection is in the heap once (``protocol_connected``), at the time its timeouts
    next have something to do (``_next_due``); the reap set holds the connections that closed
    or whose application finished, the only ones daphne's reaping changes. A reaped
    connection's heap entry is dropped when its time comes (within the ping interval), so a
    closed socket's memory may be held that much longer than daphne held it."""
    chores: dict[str, Any] | None = self.__dict__.get("_rummi_chores")
    if chores is None:
        chores = self.__dict__["_rummi_chores"] = {
            "due": [],
            "seq": itertools.count(),
            "reap": {},
            "settled": 0.0,
        }
    return chores


def _schedule(self: Any, protocol: Any, due: float) -> None:
    chores = _chores(self)
    heapq.heappush(chores["due"], (due, next(chores["seq"]), protocol))


def _to_reap(self: Any, protocol: Any) -> None:
    _chores(self)["reap"][protocol] = None


def protocol_connected(self: Any, protocol: Any) -> None:
    """Daphne's ``protocol_connected``, the connection then put in the due-time heap: a turn
    from now, when its kind and state are known."""
    _protocol_connected(self, protocol)
    _schedule(self, protocol, time.time() + TICK_S)


def protocol_disconnected(self: Any, protocol: Any) -> None:
    """Daphne's ``protocol_disconnected``, the connection then put in the reap set."""
    _protocol_disconnected(self, protocol)
    _to_reap(self, protocol)


def _next_due(self: Any, protocol: Any) -> float | None:
    """When ``protocol.check_timeouts`` (daphne's ws_protocol) next has something to do: an
    open socket's beat (``ping_interval`` after its last message or beat), a socket's
    handshake timeout while it connects, its ``websocket_timeout``. None for an HTTP request, a
    closing socket or a socket not yet through ``onConnect``: those are checked every
    ``OTHER_CHECK_S``, as daphne checks everything (they are few and short-lived)."""
    opened = getattr(protocol, "socket_opened", None)
    if getattr(protocol, "application_type", None) != "websocket" or opened is None:
        return None
    state = protocol.state
    if state == _OPEN:
        due = protocol.last_ping + self.ping_interval
    elif state == _CONNECTING:
        due = opened + self.websocket_connect_timeout
    else:
        return None
    if self.websocket_timeout >= 0:
        due = min(due, opened + self.websocket_timeout)
    # daphne acts once the time is strictly past (``duration() > timeout``)
    return math.nextafter(due, math.inf)


def settle_after_burst(self: Any, open_now: int) -> None:
    """Once a burst of connects is over, run a full collection of the cyclic garbage collector.

    Called every ``SETTLE_PERIOD_S`` from the timeout chore with the number of open sockets.
    Each socket leaves hundreds of long-lived objects (its protocol, consumer, task, scope), and
    a burst of thousands (a restart's reconnects, a big event's watchers) left about 260,000 in
    the young generations of a process holding 5,000 sockets: the collection of generation 1
    that came due later, in the middle of play, held the loop for 100-150 ms
    (benchmarks/bench_sockets.py, its stall record). A burst is a run of periods each opening
    ``BURST_QUIET`` sockets or more; once one opened ``BURST`` or more in all and a period
    opens fewer, the same work is done at once, in one pause, while the burst's own handshakes
    have just held every socket up. Its objects are then old and counted, and the collector
    waits for a quarter as many again before its next full pass. A trickle is left to the
    collector's own pace."""
    state: dict[str, int] = self.__dict__.setdefault("_rummi_settle", {"last": open_now})
    last = state["last"]
    state["last"] = open_now
    if open_now - last >= BURST_QUIET:
        state.setdefault("burst_from", last)
        return
    began = state.pop("burst_from", None)
    if began is not None and open_now - began >= BURST:
        gc.collect()


def timeouts_turn(self: Any, now: float) -> bool:
    """Check the timeouts of the connections due by ``now``: at most ``TURN_LIMIT`` visits and
    ``CHECK_LIMIT`` checks, each connection put back at its next due time; a connection found
    not yet due (its socket sent a message since) goes back at its new time unchecked. Whether
    more are due."""
    heap: list[tuple[float, int, Any]] = _chores(self)["due"]
    connections = self.connections
    checks = 0
    for _ in range(TURN_LIMIT):
        if not heap or heap[0][0] > now or checks == CHECK_LIMIT:
            break
        protocol = heapq.heappop(heap)[2]
        if protocol not in connections:
            continue  # reaped: forgotten
        due = _next_due(self, protocol)
        if due is None or due <= now:
            checks += 1
            protocol.check_timeouts()
            due = _next_due(self, protocol)
            due = now + OTHER_CHECK_S if due is None else max(due, now + TICK_S)
        _schedule(self, protocol, due)
    return bool(heap) and heap[0][0] <= now


def timeout_checker(self: Any) -> None:
    """Daphne's ``timeout_checker`` (timeouts and beats) for the connections due: every
    ``TIMEOUT_TICK_S``, or on the loop's next round while more are due (a turn at a time, the
    loop free between)."""
    now = time.time()
    chores = _chores(self)
    if now - chores["settled"] >= SETTLE_PERIOD_S:
        chores["settled"] = now
        settle_after_burst(self, len(self.connections))
    more = timeouts_turn(self, now)
    reactor.callLater(0 if more else TIMEOUT_TICK_S, self.timeout_checker)


def create_application(self: Any, protocol: Any, scope: dict[str, Any]) -> Any:
    """Daphne's ``create_application``, a websocket's scope given a dict it shares with its
    protocol, where the consumer says whether the protocol may answer its pings; the connection
    goes in the reap set when its application finishes."""
    if scope.get("type") == "websocket":
        flags = protocol.__dict__.setdefault("_rummi_pings", {})
        flags["beat_s"] = float(self.ping_interval)
        scope[pings.ANSWER_KEY] = flags
    queue = _create_application(self, protocol, scope)
    instance = self.connections.get(protocol, {}).get("application_instance")
    if instance is not None:
        instance.add_done_callback(lambda _: _to_reap(self, protocol))
    return queue


def reap_turn(self: Any, now: float) -> None:
    """Daphne's ``application_checker`` steps (daphne 4.2's server.py), in the same order, for
    the connections in the reap set, at most ``TURN_LIMIT``: a closed connection whose
    application lingers stays in the set until it finishes or is cancelled (so the next turn
    waits a tick: a lingering application would otherwise keep the turns coming at once)."""
    reap: dict[Any, None] = _chores(self)["reap"]
    for protocol in list(itertools.islice(reap, TURN_LIMIT)):
        del reap[protocol]
        details = self.connections.get(protocol)
        if details is None:
            continue
        disconnected = details.get("disconnected", None)
        instance = details.get("application_instance", None)
        # An application that takes too long to close after its client left is cancelled.
        late = disconnected and now - disconnected > self.application_close_timeout
        if late and instance and not instance.done():
            logger.warning(
                "Application instance %r for connection %s took too long to shut down "
                "and was killed.",
                instance,
                repr(protocol),
            )
            instance.cancel()
        # A finished application is reaped, its exception logged (and told to its client).
        if instance and instance.done():
            try:
                exception = instance.exception()
            except (CancelledError, asyncio.CancelledError):
                pass
            else:
                if exception:
                    if isinstance(exception, KeyboardInterrupt):
                        self.stop()
                    else:
                        logger.error(
                            "Exception inside application: %s", exception, exc_info=exception
                        )
                        if not disconnected:
                            protocol.handle_exception(exception)
            del details["application_instance"]
            instance = None
        # A closed connection whose application is gone is forgotten; one whose application
        # still runs is looked at again next turn.
        if not instance and disconnected:
            del self.connections[protocol]
        elif disconnected:
            reap[protocol] = None


def application_checker(self: Any) -> None:
    """Daphne's ``application_checker`` for the connections that closed or whose application
    finished, every ``TICK_S`` (daphne walks them all every second)."""
    reap_turn(self, time.time())
    reactor.callLater(TICK_S, self.application_checker)


def call_with_logger(selectable: Any, func: Any, *args: Any) -> Any:
    """Twisted's ``callWithLogger`` as the asyncio reactor wraps each socket's read and write
    in it, without the log context it pushed for the call.

    Twisted's pushes a context naming the socket (its ``logPrefix``) for the Twisted log lines
    the call might write, a dict copied and a context tracker entered and left each time: a web
    process holding 5,000 sockets, each ping answered here, spent 16.2 ms of CPU a second on
    100 pings a second with it and 12.2 without (py-spy put it at about 30% of the samples).
    Daphne sends Twisted's log nowhere at its default verbosity, and above it through
    ``STDLibLogObserver``, whose lines do not show the context's name, so it named nothing
    anyone read. A failure the reactor's own handling let through is still logged with the
    socket's name.
    """
    try:
        return func(*args)
    except KeyboardInterrupt:
        raise
    except BaseException:
        try:
            prefix = selectable.logPrefix()
        except BaseException:
            prefix = "(buggy logPrefix method)"
        log.err(system=prefix)
        return None


def _refuse(channel: Any, status: bytes, sentence: str) -> None:
    """Answer a request Twisted could not read with ``status`` and a sentence, and close."""
    body = sentence.encode() + b"\n"
    channel.transport.write(
        b"HTTP/1.1 " + status + b"\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body
    )
    channel.loseConnection()


def line_too_long(self: Any, line: bytes) -> None:
    """Twisted's HTTP channel closed a connection whose request line or a header line was over
    its line limit (16 KB) without a word: the client saw an empty reply. Here it is answered:
    414 for the request line (an address too long), 431 for a header line.

    >>> class Channel:
    ...     _HTTPChannel__first_line = 1
    ...     def __init__(self): self.transport, self.sent = self, []
    ...     def write(self, data): self.sent.append(data)
    ...     def loseConnection(self): self.sent.append(b"closed")
    >>> channel = Channel()
    >>> line_too_long(channel, b"GET /?x=...")
    >>> channel.sent[0].startswith(b"HTTP/1.1 414 URI Too Long"), channel.sent[-1]
    (True, b'closed')
    """
    if getattr(self, "_HTTPChannel__first_line", 0):
        _refuse(self, b"414 URI Too Long", "The address is too long: at most 16 KB.")
    else:
        _refuse(
            self,
            b"431 Request Header Fields Too Large",
            "A header of the request is too long: at most 16 KB.",
        )


def bad_request(self: Any) -> None:
    """Twisted's answer to a request it cannot read (a malformed request line or header,
    headers over 16 KB in all) was a bare 400 with no body; here it says what went wrong."""
    _refuse(
        self,
        b"400 Bad Request",
        "The request could not be read: it is malformed, or its headers are over 16 KB in all.",
    )


def install_reading() -> None:
    """Put ``call_with_logger`` in the asyncio reactor's hands: the sockets it registers for
    reading or writing from then on are called through it."""
    asyncioreactor.callWithLogger = call_with_logger  # type: ignore[attr-defined]


def plain_type(obj: Any) -> str:
    """autobahn's ``hltype`` label without the terminal colours: ``<module.qualname>``.

    >>> plain_type(plain_type)
    '<rummi_site.web.plain_type>'
    """
    name = getattr(obj, "__qualname__", None)
    return f"<{obj.__module__}.{name}>" if name else "<unknown>"


# autobahn's modules whose per-frame debug lines take these labels (their own names for them).
LABELLED = (autobahn.websocket.protocol, autobahn.twisted.websocket)


def install() -> None:
    """Put the chunked chores, the spread first ping, the pings answered here, frames sent at
    once and plain debug labels in place of daphne's, autobahn's and Twisted's."""
    ws_protocol.WebSocketProtocol.onConnect = _on_connect
    ws_protocol.WebSocketProtocol.check_timeouts = check_timeouts
    ws_protocol.WebSocketProtocol.onMessage = _on_message
    ws_protocol.WebSocketProtocol.dataReceived = _data_received
    server.Server.create_application = create_application
    server.Server.protocol_connected = protocol_connected
    server.Server.protocol_disconnected = protocol_disconnected
    server.Server.timeout_checker = timeout_checker
    server.Server.application_checker = application_checker
    tcp.Connection.write = write_now  # type: ignore[method-assign]
    install_reading()
    http.HTTPChannel.lineLengthExceeded = line_too_long  # type: ignore[method-assign]
    http.HTTPChannel._respondToBadRequestAndDisconnect = bad_request  # type: ignore[method-assign]
    for module in LABELLED:
        module.hltype = plain_type  # type: ignore[attr-defined]
        module.hlval = str  # type: ignore[attr-defined]


def arguments(given: list[str]) -> list[str]:
    """Daphne's arguments, with this site's ping interval unless one is given.

    >>> arguments(["-p", "8001", "rummi_site.asgi:application"])[:2]
    ['--ping-interval', '55']
    >>> arguments(["--ping-interval", "20", "app"])
    ['--ping-interval', '20', 'app']
    """
    if any(a == "--ping-interval" or a.startswith("--ping-interval=") for a in given):
        return given
    return ["--ping-interval", str(PING_INTERVAL_S), *given]


def main() -> None:
    install()
    sys.argv[1:] = arguments(sys.argv[1:])
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
