"""The tournament page's live standings: a frame to the tournament's group when they change.

Standings are public, so every viewer gets the same frame. With the in-memory channel layer a
worker's frame reaches no socket; the page also polls then (tournaments/views.py).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def send(tournament_id: int, frame: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    text = json.dumps(frame, separators=(",", ":"))
    async_to_sync(layer.group_send)(
        group_name(tournament_id), {"type": "tournament.update", "text": text}
    )
