"""A request the web process cannot read is answered with a status and a sentence, never an
empty reply (rummi_site/web.py ``line_too_long``, ``bad_request``): an address over 16 KB is a
414 (Twisted closed the connection without a word), a header line over 16 KB a 431, and
headers over 16 KB in all or a malformed request line a 400 that says why (Twisted's had no
body). Against the real web process (tests/web_chores_app.py, whose requests never get this
far)."""

from __future__ import annotations

import socket

import pytest

from . import test_it_pings_and_reaps_in_the_web_process as web_process

pytestmark = pytest.mark.slow
# The real web process serving the bare app, one for this module.
port = web_process.port


def answer_to(port: int, request: bytes) -> tuple[str, str]:
    """The status line and body of the server's answer to ``request``, read until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0].decode(), body.decode()


def test_an_address_over_16_kb_is_a_414_with_a_sentence(port: int) -> None:
    status, body = answer_to(port, b"GET /?x=" + b"A" * 30_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == "HTTP/1.1 414 URI Too Long"
    assert body == "The address is too long: at most 16 KB.\n"


def test_a_header_line_over_16_kb_is_a_431_with_a_sentence(port: int) -> None:
    status, body = answer_to(port, b"GET / HTTP/1.1\r\nX-Big: " + b"B" * 20_000 + b"\r\n\r\n")
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    assert body == "A header of the request is too long: at most 16 KB.\n"


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: %s\r\n" % (n, b"c" * 1000) for n in range(20)),
        b"NONSENSE\r\n\r\n",
    ],
    ids=["headers over 16 KB in all", "a malformed request line"],
)
def test_a_request_that_cannot_be_read_is_a_400_that_says_why(
    port: int,
    request_bytes: bytes,
) -> None:
    status, body = answer_to(port, request_bytes + b"\r\n")
    assert status == "HTTP/1.1 400 Bad Request"
    assert body.startswith("The request could not be read")
