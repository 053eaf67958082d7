"""Bounded requests (issue 30): a body over RUMMI_MAX_BODY_BYTES is a 413 with a sentence, and
the web process does not read it, whether the length is declared or the body is chunked; a
request sent meanwhile is answered at once. rummi_site/bodylimit.py."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.conf import settings

from rummi_site.asgi import application
from tests.faults.helpers import HOST, servers, site_env

LIMIT = settings.RUMMI_MAX_BODY_BYTES
BIG = 200 * 1000 * 1000


def scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }


async def answer_of(app: ApplicationCommunicator) -> tuple[int, bytes]:
    start = await app.receive_output(timeout=10)
    body = await app.receive_output(timeout=10)
    return start["status"], body["body"]


def test_a_declared_length_over_the_limit_is_answered_before_any_body_is_read() -> None:
    async def scenario() -> tuple[int, bytes]:
        length = [(b"content-length", str(BIG).encode()), (b"content-type", b"application/json")]
        app = ApplicationCommunicator(application, scope("/api/games/", length))
        # No body message is ever sent: the answer comes from the headers alone.
        return await answer_of(app)

    status, body = asyncio.run(scenario())

    assert status == 413
    assert json.loads(body) == {
        "error": "too_large",
        "message": f"The request body is larger than {LIMIT // 1024} KB, the most a request "
        "may send.",
    }


def test_a_streamed_body_is_cut_off_at_the_limit() -> None:
    chunk = b"x" * (256 * 1024)

    async def scenario() -> tuple[int, bytes, int]:
        app = ApplicationCommunicator(application, scope("/account/avatar", []))
        sent = 0
        while app.output_queue.empty() and sent <= 4 * LIMIT:
            await app.send_input({"type": "http.request", "body": chunk, "more_body": True})
            sent += len(chunk)
            await asyncio.sleep(0.01)  # Django reads each chunk as it comes
        status, body = await answer_of(app)
        return status, body, sent

    status, body, sent = asyncio.run(scenario())

    assert status == 413 and b"larger than" in body
    assert LIMIT < sent <= LIMIT + 2 * len(chunk)


def send_big(port: int, chunked: bool) -> tuple[bytes, int]:
    """POST a 200 MB body (declared or chunked) until the server answers: (status line, bytes
    sent)."""
    with socket.create_connection((HOST, port)) as sock:
        head = b"POST /account/avatar HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        head += b"Content-Type: multipart/form-data; boundary=x\r\n"
        head += (
            b"Transfer-Encoding: chunked\r\n\r\n"
            if chunked
            else b"Content-Length: %d\r\n\r\n" % BIG
        )
        sock.sendall(head)
        sock.setblocking(False)
        chunk = b"x" * 65536
        sent, reply = 0, b""
        while sent < BIG and not reply:
            try:
                sock.sendall(b"10000\r\n" + chunk + b"\r\n" if chunked else chunk)
                sent += len(chunk)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                pass
            try:
                reply = sock.recv(4096)
            except BlockingIOError:
                pass
            except ConnectionResetError:
                break
        return reply.split(b"\r\n")[0], sent


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_daphne_refuses_a_big_body_without_receiving_it(
    tmp_path: Path, collected_static: Path
) -> None:
    with servers(tmp_path) as running:
        # A page as make run serves it: DEBUG off, the hashed static files collected.
        env = {**site_env(tmp_path, None), "RUMMI_STATIC_ROOT": str(collected_static)}
        web = running.daphne("web", env)
        results: dict[bool, tuple[bytes, int]] = {}
        meanwhile = []
        for chunked in (False, True):
            sender = threading.Thread(
                target=lambda c=chunked: results.update({c: send_big(web.port, c)})
            )
            sender.start()
            started = time.monotonic()
            with urllib.request.urlopen(f"{web.origin}/how-to-play/", timeout=10) as page:
                assert page.status == 200
            meanwhile.append(time.monotonic() - started)
            sender.join(30)

    assert results[False][0] == b"HTTP/1.1 413 Content Too Large", running.logs()
    assert results[True][0] == b"HTTP/1.1 413 Content Too Large"
    # Refused as the headers came (a declared length) or at the limit (chunked), not after 200
    # MB: what the client could send is what the sockets' buffers took before the answer.
    assert results[False][1] < BIG // 20 and results[True][1] < BIG // 20
    assert max(meanwhile) < 5
