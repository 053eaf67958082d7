"""Bounded request bodies: a body over ``RUMMI_MAX_BODY_BYTES`` is a 413 with a sentence, and
the web process does not read it (README.md, "Limits and hostile input").

An anonymous 200 MB body held `make run`'s web process for 22.8 s (issue 30): daphne's Twisted
layer received it all into a temporary file, then Django read it again. Two guards:

* :class:`BodyLimit`, an ASGI middleware in front of Django: a declared ``Content-Length`` over
  the limit is answered at once, before the first body message is read; a body without one
  (chunked) is counted as Django reads it, and cut off with the same 413 when it passes the
  limit (Django then sees a disconnect, and answers nothing itself);
* :class:`BoundedWebRequest`, daphne's request with the same check where Twisted learns the
  length, before it reads the body: the 413 is written and the connection closed, so the bytes
  are never received. A chunked body is counted as it arrives. :func:`install_in_daphne` puts
  it in place; rummi_site/asgi.py calls it.

Behind a proxy (docs/deploy.md) the proxy's own limit (``client_max_body_size``) answers first.
Django's limits on what it parses (``DATA_UPLOAD_MAX_MEMORY_SIZE`` and its kin) are in
rummi_site/settings.py.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from daphne import http_protocol

from rummi_site.jsonapi import json_prefixes

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def sentence(limit: int) -> str:
    return f"The request body is larger than {limit // 1024} KB, the most a request may send."


def answer_for(path: str, limit: int) -> tuple[bytes, bytes]:
    """The 413's content type and body: JSON under the API (docs/api.md), else plain text."""
    if path.startswith(json_prefixes()):
        body = json.dumps({"error": "too_large", "message": sentence(limit)})
        return b"application/json", body.encode()
    return b"text/plain; charset=utf-8", sentence(limit).encode() + b"\n"


def declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """Answer 413 for an HTTP request whose body is over ``limit`` bytes, unread."""

    def __init__(self, app: App, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = declared_length(scope.get("headers", []))
        if length is not None and length > self.limit:
            await self.refuse(scope, send)
            return
        received = 0
        refused = False

        async def counted() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    await self.refuse(scope, send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded(message: Message) -> None:
            if not refused:
                await send(message)

        await self.app(scope, counted, guarded)

    async def refuse(self, scope: Scope, send: Send) -> None:
        kind, body = answer_for(scope.get("path", ""), self.limit)
        headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
        headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class BoundedWebRequest(http_protocol.WebRequest):  # type: ignore[misc]
    """daphne's request, refusing a body over :attr:`limit` before Twisted reads it."""

    limit = 0  # set by install_in_daphne
    refused = False
    seen = 0

    def gotLength(self, length: int | None) -> None:
        if self.limit and length is not None and length > self.limit:
            self.refuse()
        super().gotLength(None if self.refused else length)

    def handleContentChunk(self, data: bytes) -> None:
        if self.refused:
            return
        self.seen += len(data)
        if self.limit and self.seen > self.limit:
            self.refuse()
            return
        super().handleContentChunk(data)

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        if not self.refused:
            super().requestReceived(command, path, version)

    def refuse(self) -> None:
        self.refused = True
        # The request line's path: Twisted sets self.path only once the body is in.
        path = getattr(self.channel, "_path", b"").decode("latin-1").split("?")[0]
        kind, body = answer_for(path, self.limit)
        head = b"HTTP/1.1 413 Content Too Large\r\nContent-Type: " + kind
        head += b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n"
        self.channel.transport.write(head + b"Connection: close\r\n\r\n" + body)
        self.channel.transport.loseConnection()


def install_in_daphne(limit: int) -> None:
    """Have daphne's HTTP factory (which looks ``WebRequest`` up in its module each time it
    makes a protocol) make :class:`BoundedWebRequest` requests refusing bodies over ``limit``."""
    BoundedWebRequest.limit = limit
    http_protocol.WebRequest = BoundedWebRequest
