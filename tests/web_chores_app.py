"""A bare ASGI websocket app for tests/test_it_pings_and_reaps_in_the_web_process.py, served by
the real web process (rummi_site.web under daphne): it accepts every socket, and answers
"count" with how many connections the daphne server in its process holds (the test's window on
the reaping)."""

from __future__ import annotations

import gc
from typing import Any

from daphne.server import Server


def held() -> int:
    """The connections held by this process's daphne server (there is one)."""
    (server,) = [o for o in gc.get_objects() if isinstance(o, Server)]
    return len(server.connections)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "websocket":
        return
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            if message.get("text") == "count":
                await send({"type": "websocket.send", "text": str(held())})
            elif message.get("text") == "bye":  # the application ends, the socket still open
                await send({"type": "websocket.close"})
                return
        elif message["type"] == "websocket.disconnect":
            return
