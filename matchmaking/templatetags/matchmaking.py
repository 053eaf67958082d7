"""``{% seek_panel %}``: the lobby's "Find a rated game" panel (templates/matchmaking/
seek_panel.html), so the home page shows it without the games app knowing of matchmaking."""

from __future__ import annotations

from typing import Any

from django import template

from games.identity import Identity
from games.models import Mode
from games.modes import BOT_STRENGTHS, players_allowed

from .. import services

register = template.Library()

WAIT_LABELS = {30: "30 seconds", 60: "1 minute", 120: "2 minutes", 300: "5 minutes"}


@register.inclusion_tag("matchmaking/seek_panel.html", takes_context=True)
def seek_panel(context: dict[str, Any]) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    panel: dict[str, Any] = {
        "signed_in": bool(user and user.is_authenticated),
        "csrf_token": context.get("csrf_token"),
    }
    if not panel["signed_in"]:
        return panel
    panel.update(
        modes=[
            {"mode": m, "label": Mode(m).label, "players": list(players_allowed(m))}
            for m in services.SEEKABLE
        ],
        players=list(range(2, 7)),
        waits=[{"seconds": s, "label": WAIT_LABELS.get(s, f"{s} s")} for s in services.BOT_WAITS],
        strengths=BOT_STRENGTHS,
        state=services.status(Identity(user_id=user.pk, name=user.get_username())),
    )
    return panel
