"""Live updates: after a change commits, each viewer's frame goes to the game's group.

The sender projects once per seat (and once for spectators); each consumer forwards only the
frame for its own viewer, so consumers touch neither the database nor the engine, and a rack
never reaches a socket that is not its owner's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.urls import reverse

from games.engine.events import Event
from games.engine.projection import event_for, view_for
from games.engine.r45.state import R45State
from games.engine.state import GameState

from . import r45_services
from .models import Game
from .services import without_seed

SPECTATOR = "spectator"
SEND_TIMEOUT_S = 10.0
RELAY_TIMEOUT_S = 2.0
log = logging.getLogger(__name__)

# While a thread holds frames (``frames_held``), what it broadcasts is collected for its caller
# to send instead of being sent from the thread.
_held = threading.local()

# In a Celery worker process, frames go out through one event loop kept for the process, so
# the channel layer keeps its Redis connections: ``async_to_sync`` would make a new loop, and
# with it new connections, for every timeout and bot move. See ``start_sender_loop``.
_sender_loop: asyncio.AbstractEventLoop | None = None


def group_name(gid: str) -> str:
    return f"game.{gid}"


def frame_for(
    state: GameState,
    seq: int,
    numbered: list[tuple[int, Event]],
    seat: int | None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One viewer's frame: the new events and view as that seat may see them.

    ``extra`` carries game-level facts the engine does not know (the turn's deadline, the
    game's status).
    """
    return {
        "type": "update",
        "seq": seq,
        "events": [{"seq": n, "event": event_for(e, seat)} for n, e in numbered],
        "view": view_for(state, seat),
        **(extra or {}),
    }


def frames_by_viewer(
    state: GameState | R45State,
    seq: int,
    numbered: list[tuple[int, Event]],
    extra: dict[str, Any] | None = None,
) -> dict[str, dict[str, Any]]:
    if isinstance(state, R45State):  # Rummy 45: its own views, as secret (r45_services)
        return r45_services.frames_by_viewer(state, seq, numbered, extra or {})  # type: ignore[arg-type]
    seats: list[int | None] = [*range(state.config.players), None]
    return {
        SPECTATOR if s is None else str(s): frame_for(state, seq, numbered, s, extra) for s in seats
    }


def broadcast(
    gid: str,
    seq: int,
    state: GameState | R45State,
    numbered: list[tuple[int, Event]],
    extra: dict[str, Any] | None = None,
) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    in_worker_memory = _sender_loop is not None and isinstance(layer, InMemoryChannelLayer)
    if in_worker_memory and not relay_on():
        return  # a worker's in-memory layer reaches no socket: the web process has its own
    # Each viewer's frame is encoded once here, not once per socket in every consumer.
    frames = frames_by_viewer(state, seq, numbered, extra)
    # Only a game's last frame shows its seed: a sealed game's is left out (one query, at
    # the end of a game only).
    if state.finished and Game.objects.filter(public_id=gid, sealed=True).exists():
        frames = {viewer: _sealed_frame(frame) for viewer, frame in frames.items()}
    texts = {viewer: json.dumps(frame, separators=(",", ":")) for viewer, frame in frames.items()}
    if in_worker_memory:
        relay(gid, texts)
        return
    message = {"type": "game.update", "frames": texts}
    held: list[tuple[str, dict[str, Any]]] | None = getattr(_held, "messages", None)
    if held is not None:
        held.append((group_name(gid), message))
        return
    if _sender_loop is None:
        async_to_sync(layer.group_send)(group_name(gid), message)
        return
    sent = asyncio.run_coroutine_threadsafe(
        layer.group_send(group_name(gid), message), _sender_loop
    )
    sent.result(SEND_TIMEOUT_S)


def _sealed_frame(frame: dict[str, Any]) -> dict[str, Any]:
    events = [{**e, "event": without_seed(e["event"])} for e in frame["events"]]
    return {**frame, "view": without_seed(frame["view"]), "events": events}


@contextlib.contextmanager
def frames_held() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Collect the group messages this thread's changes broadcast, as ``(group, message)``.

    For a caller that runs the change on a worker thread of an event loop (the game socket):
    it sends them on its loop afterwards, rather than each broadcast blocking its thread on a
    hop to the loop (``async_to_sync``) and back.
    """
    messages: list[tuple[str, dict[str, Any]]] = []
    outer = getattr(_held, "messages", None)
    _held.messages = messages
    try:
        yield messages
    finally:
        _held.messages = outer


def start_sender_loop() -> None:
    """Send this process's frames through one long-lived loop (Celery worker processes)."""
    global _sender_loop
    if _sender_loop is not None:
        return
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="frame-sender", daemon=True).start()
    _sender_loop = loop


# The frame relay (embedded mode: the in-memory layer, one web process, a separate worker)


# The relay's key is a secret made fresh for each run (`make run` sets it for the web process
# and the worker alike), never derived from SECRET_KEY, whose development value is public.
RELAY_SECRET_MIN = 32


def relay_on() -> bool:
    """Whether this run relays frames: a relay address and a fresh secret are both set."""
    secret = settings.RUMMI_FRAME_RELAY_SECRET
    return bool(settings.RUMMI_FRAME_RELAY_URL) and len(secret) >= RELAY_SECRET_MIN


def signature(body: bytes) -> str:
    """The body's signature under this run's relay secret ("" when the relay is off)."""
    if not relay_on():
        return ""
    key = settings.RUMMI_FRAME_RELAY_SECRET.encode()
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def relay(gid: str, texts: dict[str, str]) -> bool:
    """Hand a worker's frames to the web process, which sends them through its own layer.

    Best effort: if the web process is down, nobody is watching, and the board fetches the
    state when it comes back (frames carry their seq).
    """
    body = json.dumps({"gid": gid, "frames": texts}).encode()
    request = urllib.request.Request(
        settings.RUMMI_FRAME_RELAY_URL.rstrip("/") + reverse("relayed_frames"),
        data=body,
        headers={"Content-Type": "application/json", "X-Rummi-Signature": signature(body)},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=RELAY_TIMEOUT_S) as answer:
            return bool(answer.status == 204)
    except OSError as error:
        log.warning("frame relay to %s failed: %s", settings.RUMMI_FRAME_RELAY_URL, error)
        return False


def send_relayed(gid: str, texts: dict[str, str]) -> None:
    """In the web process: send frames a worker relayed to this process's sockets."""
    layer = get_channel_layer()
    if layer is not None:
        message = {"type": "game.update", "frames": texts}
        async_to_sync(layer.group_send)(group_name(gid), message)
