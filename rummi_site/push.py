"""The one push path (docs/design.md "The live layer"): every frame the site sends to a
channel group, a game's or a tournament's, leaves through :func:`send`.

It owns what sending needs in each process:

* in a web request or a Celery task on the Redis layer, the group send itself, through one
  long-lived event loop in a worker process (``start_sender_loop``), so the layer keeps its
  connections instead of making a loop (and connections) per send;
* on a socket's thread, the held frames (``frames_held``): the caller sends them on its own
  loop afterwards, rather than each send blocking the thread on a hop to the loop and back;
* in embedded mode (the in-memory layer lives in the web process), the relay: a worker hands
  its messages to the web process over a local request signed with the run's secret
  (``RUMMI_FRAME_RELAY_SECRET``), which sends them on through its own layer.
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

SEND_TIMEOUT_S = 10.0
RELAY_TIMEOUT_S = 2.0
# The groups and message types a relayed message may reach: a game's frames, a tournament's,
# a player's notices (rummi_site/me.py).
RELAYED = {
    "game.": "game.update",
    "tournament.": "tournament.update",
    "player.": "player.notice",
}
log = logging.getLogger(__name__)

# While a thread holds frames (``frames_held``), what it sends is collected for its caller to
# send instead of being sent from the thread.
_held = threading.local()

# In a Celery worker process, frames go out through one event loop kept for the process.
_sender_loop: asyncio.AbstractEventLoop | None = None


def send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` (a channels message: ``type`` and its fields) to ``group``."""
    layer = get_channel_layer()
    if layer is None:
        return
    if _sender_loop is not None and isinstance(layer, InMemoryChannelLayer):
        # A worker's in-memory layer reaches no socket: the web process has its own.
        if relay_on():
            relay(group, message)
        return
    held: list[tuple[str, dict[str, Any]]] | None = getattr(_held, "messages", None)
    if held is not None:
        held.append((group, message))
        return
    if _sender_loop is None:
        async_to_sync(layer.group_send)(group, message)
        return
    sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _sender_loop)
    sent.result(SEND_TIMEOUT_S)


def user_group(user_id: int) -> str:
    """The group of a signed-in player's own sockets (rummi_site/me.py), one per open page."""
    return f"player.{int(user_id)}"


def notify(user_id: int, notice: dict[str, Any]) -> None:
    """Send ``notice`` (a JSON-ready dict with a ``kind``) to every open page of the player."""
    text = json.dumps(notice, separators=(",", ":"))
    send(user_group(user_id), {"type": "player.notice", "text": text})


def in_worker_memory() -> bool:
    """Whether this process is a worker on the in-memory layer (its sends are relayed)."""
    return _sender_loop is not None and isinstance(get_channel_layer(), InMemoryChannelLayer)


@contextlib.contextmanager
def frames_held() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Collect the group messages this thread's changes send, as ``(group, message)``.

    For a caller that runs the change on a worker thread of an event loop (a socket): it sends
    them on its loop afterwards.
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


# The relay (embedded mode: the in-memory layer, one web process, a separate worker)

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


def relay(group: str, message: dict[str, Any]) -> bool:
    """Hand a worker's message to the web process, which sends it through its own layer.

    Best effort: if the web process is down, nobody is watching, and pages fetch the state
    when they come back (frames carry their seq).
    """
    body = json.dumps({"group": group, "message": message}).encode()
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


def relayed(body: object) -> tuple[str, dict[str, Any]]:
    """The ``(group, message)`` of a relayed body, checked: a known group and its message type
    with string frames; ValueError otherwise."""
    if not isinstance(body, dict):
        raise ValueError("expected an object")
    group, message = body.get("group"), body.get("message")
    if not isinstance(group, str) or not isinstance(message, dict):
        raise ValueError("expected group and message")
    kind = next((t for prefix, t in RELAYED.items() if group.startswith(prefix)), None)
    if kind is None or message.get("type") != kind:
        raise ValueError("not a group and message type the relay carries")
    frames = message.get("frames", {"text": message.get("text")})
    if not isinstance(frames, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in frames.items()
    ):
        raise ValueError("frames are text")
    return group, message


def send_relayed(group: str, message: dict[str, Any]) -> None:
    """In the web process: send a message a worker relayed to this process's sockets."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)
