"""Live updates: after a change commits, each viewer's frame goes to the game's group.

The sender projects once per seat (and once for spectators); each consumer forwards only the
frame for its own viewer, so consumers touch neither the database nor the engine, and a rack
never reaches a socket that is not its owner's.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.engine.events import Event
from games.engine.projection import event_for, view_for
from games.engine.state import GameState

SPECTATOR = "spectator"
SEND_TIMEOUT_S = 10.0

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
    state: GameState,
    seq: int,
    numbered: list[tuple[int, Event]],
    extra: dict[str, Any] | None = None,
) -> dict[str, dict[str, Any]]:
    seats: list[int | None] = [*range(state.config.players), None]
    return {
        SPECTATOR if s is None else str(s): frame_for(state, seq, numbered, s, extra) for s in seats
    }


def broadcast(
    gid: str,
    seq: int,
    state: GameState,
    numbered: list[tuple[int, Event]],
    extra: dict[str, Any] | None = None,
) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if _sender_loop is not None and isinstance(layer, InMemoryChannelLayer):
        return  # a worker's in-memory layer reaches no socket: the web process has its own
    # Each viewer's frame is encoded once here, not once per socket in every consumer.
    frames = frames_by_viewer(state, seq, numbered, extra)
    texts = {viewer: json.dumps(frame, separators=(",", ":")) for viewer, frame in frames.items()}
    message = {"type": "game.update", "frames": texts}
    if _sender_loop is None:
        async_to_sync(layer.group_send)(group_name(gid), message)
        return
    sent = asyncio.run_coroutine_threadsafe(
        layer.group_send(group_name(gid), message), _sender_loop
    )
    sent.result(SEND_TIMEOUT_S)


def start_sender_loop() -> None:
    """Send this process's frames through one long-lived loop (Celery worker processes)."""
    global _sender_loop
    if _sender_loop is not None:
        return
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="frame-sender", daemon=True).start()
    _sender_loop = loop
