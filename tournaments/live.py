"""The tournament page's live standings: a frame to the tournament's group when they change,
through the one push path (rummi_site/push.py: in embedded mode a worker's frame is relayed to
the web process like a game's).

Standings are public, so every viewer gets the same frame.
"""

from __future__ import annotations

import json
from typing import Any

from rummi_site import push


def group_name(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def send(tournament_id: int, frame: dict[str, Any]) -> None:
    text = json.dumps(frame, separators=(",", ":"))
    push.send(group_name(tournament_id), {"type": "tournament.update", "text": text})
