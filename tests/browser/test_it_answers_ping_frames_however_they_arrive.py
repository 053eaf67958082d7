"""A board's ping reaches the real web process (rummi_site.web under daphne) however TCP cuts
it: on its own (answered by the protocol without autobahn's frame parser), in two pieces, or
joined to another frame in one segment (both go through autobahn as before). Each gets its
pong, and the socket stays open (rummi_site/web.py ``_data_received``)."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from websockets.sync.client import connect

from rummi_site import pings

from ..test_it_answers_board_pings_in_the_web_process import masked
from .conftest import call

pytestmark = pytest.mark.browser


def test_a_ping_is_answered_whole_split_or_joined(site: str) -> None:
    spec: dict[str, Any] = {
        "players": ["anna"],
        "options": {"players": 2, "seats": ["bot:beginner"]},
    }
    game = call(f"{site}/__test__/games", spec)
    gid = game["url"].strip("/").split("/")[-1]
    url = site.replace("http", "ws") + f"/ws/games/{gid}/"
    with connect(url, origin=site, open_timeout=20) as ws:
        hello = json.loads(ws.recv(timeout=20))
        assert hello["type"] == "hello"
        raw: socket.socket = ws.socket
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        ping = masked(pings.PING.encode())

        def pong() -> None:
            # Moves and presence may come between: read until the pong.
            while json.loads(ws.recv(timeout=20))["type"] != "pong":
                pass

        raw.sendall(ping)  # whole and alone
        pong()
        raw.sendall(ping[:4])  # in two pieces: autobahn waits for the rest
        raw.sendall(ping[4:])
        pong()
        raw.sendall(ping + ping)  # joined: the second within the second goes to the consumer
        pong()
        pong()
        ws.send(pings.PING)  # and the library's own framing still works
        pong()
