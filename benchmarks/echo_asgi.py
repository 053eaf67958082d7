"""The bare baseline of the live bench (issue: live performance): a minimal Channels app that
speaks just enough of the site's protocol for benchmarks/live_harness.py, with no game logic.

A move is one row inserted and one group send: the mover's ``act`` message on its socket
inserts a row (``bench_echo``: the game, the new seq, when) in the site's database, answers
with the new seq and the next seat to move, and sends one frame to the game's group through
the channel layer, which every seat's socket forwards. The page GET answers a CSRF cookie and
the socket's ``hello`` the game's last seq. The seat to move is ``seq % 4``: the harness plays
round-robin draws, which is what a table of four that only draws does.

Run by ``python -m benchmarks live`` beside the site (``RUMMI_BENCH_LIVE_ECHO``), with the same
games, sockets, settings (database, Redis layer) and daphne processes, so that the site's
ceiling can be read as a fraction of this one's, measured in the same run on the same machine.
"""

from __future__ import annotations

import json
import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
django.setup()

from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.urls import path  # noqa: E402

SEATS = 4
TABLE = "bench_echo"


def ensure_table() -> None:
    """Make the table once; both daphne processes start at once, so under an advisory lock."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(4242)")
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {TABLE} (gid varchar(16) NOT NULL, seq integer NOT NULL,"
            " at timestamp with time zone NOT NULL DEFAULT now(), PRIMARY KEY (gid, seq))"
        )


def last_seq(gid: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT coalesce(max(seq), 0) FROM {TABLE} WHERE gid = %s", [gid])
        return int(cursor.fetchone()[0])


def insert(gid: str, seq: int) -> bool:
    """The move's one row; False if that seq was taken (a stale move)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} (gid, seq) VALUES (%s, %s) ON CONFLICT DO NOTHING", [gid, seq]
        )
        return bool(cursor.rowcount == 1)


def view(seq: int) -> dict[str, Any]:
    return {"turn": seq % SEATS, "finished": False}


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.gid = self.scope["url_route"]["kwargs"]["gid"]
        self.group = f"echo.{self.gid}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        seq = await database_sync_to_async(last_seq)(self.gid)
        await self.send(text_data=json.dumps({"type": "hello", "seq": seq, "view": view(seq)}))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = json.loads(text_data or "{}")
        if message.get("type") != "act":
            return
        seq = int(message["expected_seq"]) + 1
        answer: dict[str, Any] = {"type": "answer", "key": message.get("key")}
        if not await database_sync_to_async(insert)(self.gid, seq):
            now = await database_sync_to_async(last_seq)(self.gid)
            answer.update(status=409, error="stale", seq=now, view=view(now))
            await self.send(text_data=json.dumps(answer))
            return
        frame = {"type": "update", "seq": seq, "events": [{"seq": seq, "event": {}}]}
        frame["view"] = view(seq)
        await self.channel_layer.group_send(
            self.group, {"type": "echo.frame", "text": json.dumps(frame)}
        )
        answer.update(status=200, seq=seq, view=view(seq))
        await self.send(text_data=json.dumps(answer))

    async def echo_frame(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])


async def page(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Any GET: 200 with a CSRF cookie, as the game page sets one."""
    await receive()
    headers = [(b"content-type", b"text/plain"), (b"set-cookie", b"csrftoken=echo; Path=/")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"echo"})


ensure_table()
application = ProtocolTypeRouter(
    {
        "http": page,
        "websocket": URLRouter([path("ws/games/<str:gid>/", EchoConsumer.as_asgi())]),  # type: ignore[arg-type]
    }
)
