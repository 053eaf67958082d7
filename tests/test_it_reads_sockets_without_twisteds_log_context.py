"""The web process's reactor reads and writes each socket without pushing Twisted's log
context for the call (rummi_site/web.py ``call_with_logger``, docs/deploy.md "Sockets"), and a
failure that gets past the reactor's own handling is still logged with the socket's name.
Through the asyncio reactor daphne runs, over a real socket pair."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet import asyncioreactor, reactor
from twisted.python import context, log

from rummi_site import web


class Boom(BaseException):
    """Not an ``Exception``: the reactor's ``_readOrWrite`` lets it through."""


class Reader:
    """A readable socket as the reactor sees one: what log context each read ran in."""

    def __init__(self, sock: socket.socket, fail: BaseException | None = None) -> None:
        self.sock, self.fail = sock, fail
        self.contexts: list[Any] = []

    def fileno(self) -> int:
        return self.sock.fileno()

    def logPrefix(self) -> str:  # noqa: N802 - Twisted's
        return "board socket"

    def doRead(self) -> None:  # noqa: N802 - Twisted's
        self.contexts.append(context.get(log.ILogContext))
        self.sock.recv(100)
        if self.fail is not None:
            raise self.fail

    def connectionLost(self, reason: Any) -> None:  # noqa: N802 - Twisted's
        pass


@pytest.fixture
def pair(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[socket.socket, socket.socket]]:
    monkeypatch.setattr(asyncioreactor, "callWithLogger", asyncioreactor.callWithLogger)
    web.install_reading()
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    yield ours, theirs
    ours.close()
    theirs.close()


def read_once(reader: Reader, theirs: socket.socket) -> None:
    """Register ``reader`` with the reactor, send it a byte and turn the loop until it read."""
    loop = reactor._asyncioEventloop  # type: ignore[attr-defined]

    async def until_read() -> None:
        while not reader.contexts:
            await asyncio.sleep(0.001)

    reactor.addReader(reader)  # type: ignore[attr-defined]
    try:
        theirs.send(b"x")
        loop.run_until_complete(asyncio.wait_for(until_read(), 10))
    finally:
        reactor.removeReader(reader)  # type: ignore[attr-defined]


def test_install_reading_puts_the_light_wrapper_in_twisteds_place(pair: Any) -> None:
    assert asyncioreactor.callWithLogger is web.call_with_logger


def test_a_read_runs_in_no_log_context_of_its_own(pair: Any) -> None:
    ours, theirs = pair
    reader = Reader(ours)
    read_once(reader, theirs)
    # Twisted's wrapper ran it under {"system": "board socket"}; here the default is left.
    assert reader.contexts == [{"system": "-"}]


def test_a_failure_past_the_reactor_is_logged_with_the_sockets_name(pair: Any) -> None:
    ours, theirs = pair
    events: list[dict[str, Any]] = []
    log.addObserver(events.append)
    try:
        read_once(Reader(ours, fail=Boom("read went wrong")), theirs)
    finally:
        log.removeObserver(events.append)
    (failed,) = [e for e in events if e.get("isError")]
    assert failed["system"] == "board socket"
    assert failed["failure"].check(Boom)


def test_an_interrupt_is_not_swallowed() -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        web.call_with_logger(object(), interrupted)


def test_the_call_answers_what_it_returned() -> None:
    assert web.call_with_logger(object(), lambda a, b: a + b, 2, 3) == 5
