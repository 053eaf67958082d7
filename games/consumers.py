"""The game socket: authorise from the session, join the game's group, forward own frames."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections

from rummi_site.jsonapi import read_json, status_of
from rummi_site.pings import PING, PONG, PRESENCE_EVERY_S, answer_here, keep_alive
from rummi_site.refusals import close_socket
from rummi_site.retry import once_more_if_the_connection_died

from .errors import DomainError
from .identity import Identity, identity_of
from .live import SPECTATOR, frames_held, group_name
from .models import Game
from .services import act, game_summary, seat_of, seen

T = TypeVar("T")

# A socket may send a few messages a second (pings, resync requests); past that it is closed.
FLOOD_WINDOW_S = 10.0
FLOOD_LIMIT = 50
REFUSE_MESSAGE = {
    "type": "error",
    "error": "bad_message",
    "message": 'A socket message is {"type":"ping"} or {"type":"act", "action": ...}.',
}


# Moves sent on sockets run on their own threads, several at a time: each mostly waits for its
# database round trips and commit, and Channels' single database thread would queue every
# socket of the process behind the one move in flight. Moves on one game still go one at a
# time (the game row is locked); each thread holds its own connection from the pool, closed
# or handed back around each move as database_sync_to_async does.
_ACT_THREADS = ThreadPoolExecutor(max_workers=settings.RUMMI_ACT_THREADS, thread_name_prefix="act")


def _on_act_thread(func: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run ``func`` on an act thread, as ``database_sync_to_async`` would (old connections
    closed before and after, the caller's context variables), without asgiref's per-call
    machinery for thread-sensitive code, which cost more of the loop than the hop itself."""

    @functools.wraps(func)
    async def on_thread(*args: Any, **kwargs: Any) -> T:
        call = functools.partial(_with_connections, func, *args, **kwargs)
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(_ACT_THREADS, context.run, call)

    return on_thread


def _with_connections(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    close_old_connections()
    try:
        return func(*args, **kwargs)
    finally:
        close_old_connections()


# What a game id can be (games.models.new_public_id, within the column's 16 characters), and so
# within what a channel layer's group name may hold.
GAME_ID = re.compile(r"[A-Za-z0-9_.-]{1,16}")


class GameConsumer(AsyncWebsocketConsumer):
    refused = False  # closed as it opened (an unknown game): nothing it sends is read

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Handle a message without Channels' per-message hop to the database thread.

        Channels runs ``close_old_connections`` in the database thread before every message a
        consumer handles: one thread hop per frame per socket. Here only ``connect``, ``_act``
        and ``_rekey`` (when a seat changes hands) touch the database, each in its own hop,
        which closes old connections itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.gid = self.scope["url_route"]["kwargs"]["gid"]
        # The socket joins the game's group before the hello's summary is read: a move that
        # commits between the two then reaches it as a frame (one the hello already holds is
        # dropped by its seq), where joining after the read lost it, and with it a game's end.
        if not GAME_ID.fullmatch(self.gid):
            await self._refuse(4404)  # no game has such an id, nor could a group hold it
            return
        self.group = group_name(self.gid)
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            found = await self._load()
        except BaseException:  # the database is away: the socket fails as before, out of the group
            await self.channel_layer.group_discard(self.group, self.channel_name)
            raise
        if not isinstance(found, tuple):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            del self.group
            await self._refuse(found)
            return
        self.viewer, self.viewer_key, hello = found
        self.received: list[float] = []
        await self.accept()
        # How the board keeps its socket alive (rummi_site/pings.py): a stand-in game's seats
        # ping often, each ping recording that the player is there; any other board sends
        # nothing and hears the web process's beat (or, outside it, pings now and then).
        alive = (
            {"ping_s": PRESENCE_EVERY_S} if self.presence else keep_alive(answer_here(self.scope))
        )
        await self.send(text_data=json.dumps({"type": "hello", **hello, **alive}))

    async def _refuse(self, code: int) -> None:
        """Close with ``code`` (``close_socket``); whatever it is sent before the close lands
        is not read."""
        self.refused = True
        await close_socket(self, code)

    @database_sync_to_async
    def _load(self) -> tuple[Identity, str, dict[str, Any]] | int:
        """The viewer, their seat's frame key and the hello's summary; or the code to close
        with: 4404 for no such game, 4403 for a sealed game's outsider (reading.seat_at_sealed)."""
        game = Game.objects.filter(public_id=self.gid).first()
        if game is None:
            return 4404
        viewer = identity_of(self.scope)
        seat = seat_of(game, viewer)
        if seat is None and game.sealed:
            return 4403
        key = str(seat.index) if seat is not None else SPECTATOR
        # A stand-in game hears from its players' sockets (services.seen): one write on
        # connect, each ping (every 25 s) and disconnect, for those games only.
        self.presence = (game.pk, seat.index) if game.stand_in and seat is not None else None
        if self.presence:
            seen(*self.presence)
        return viewer, key, game_summary(game, viewer)

    @database_sync_to_async
    def _seen(self) -> None:
        if self.presence:
            seen(*self.presence)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "presence", None):
            await self._seen()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.refused:
            return
        now = time.monotonic()
        self.received = [t for t in self.received if now - t < FLOOD_WINDOW_S] + [now]
        if len(self.received) > FLOOD_LIMIT:
            await self.close(code=4429)
            return
        if text_data == PING:
            await self.send(text_data=PONG)
            if self.presence:
                await self._seen()
            return
        try:
            message = read_json(text_data or "", source="message")
        except DomainError as error:
            # A malformed message gets an error frame; the socket stays open (floods close it).
            refused = {"type": "error", "status": status_of(error), **error.body}
            await self.send(text_data=json.dumps(refused))
            return
        if message.get("type") != "act":
            await self.send(text_data=json.dumps(REFUSE_MESSAGE))
            return
        answer, frames = await self._act(message)
        # The game's frames go out from this loop, as a frame sent from a thread would go
        # anyway, but without the thread waiting on the hop; the mover's answer follows them.
        for group, update in frames:
            await self.channel_layer.group_send(group, update)
        await self.send(text_data=json.dumps(answer))

    @_on_act_thread
    def _act(self, message: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
        """An action sent on the socket: the same service call, checks and answers as
        ``POST /api/games/<gid>/<action>``, for the viewer who opened the socket (the socket's
        Origin was checked when it opened, as CSRF is checked for a POST). Returns the answer
        and the group messages the action's commit made, for the loop to send."""
        key = message.get("key")
        reply = {"type": "answer", "key": key if isinstance(key, str) else None}
        # The message's type and action say what it is; the rest is the action's body.
        body = {k: v for k, v in message.items() if k not in ("type", "action")}
        with frames_held() as frames:
            try:
                answer = once_more_if_the_connection_died(
                    lambda: act(self.gid, self.viewer, str(message.get("action")), body)
                )
                return {**reply, "status": 200, **answer}, frames
            except DomainError as error:
                return {**reply, "status": status_of(error), **error.body}, frames

    @database_sync_to_async
    def _rekey(self) -> None:
        """Look the viewer's seat up again: a seat changed hands (live.seats_changed)."""
        game = Game.objects.filter(public_id=self.gid).first()
        seat = seat_of(game, self.viewer) if game is not None else None
        self.viewer_key = str(seat.index) if seat is not None else SPECTATOR

    async def game_update(self, message: dict[str, Any]) -> None:
        if self.refused:
            return  # a frame sent as the refused socket left the group: it has no viewer
        if message.get("rekey"):
            # Before the frames that follow (a group's messages reach a socket in order).
            await self._rekey()
        text = message["frames"].get(self.viewer_key)
        if text is not None:
            await self.send(text_data=text)
