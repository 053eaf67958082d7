"""``{% seek_panel %}``: the lobby's "Find a rated game" panel (templates/matchmaking/
seek_panel.html), so the home page shows it without the games app knowing of matchmaking."""

from __future__ import annotations

from typing import Any

from django import template

from games.identity import Identity
from games.modes import BOT_STRENGTHS, mode_info, players_allowed
from ratings import services as ratings

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
            {
                "mode": m,
                "label": mode_info(m).label,
                "players": list(players_allowed(m)),
                # The pool each table size is rated in: the panel warns of the players a seek
                # there would meet only unrated (services.unrated_with).
                "pools": {n: ratings.pool_for(m, n) for n in players_allowed(m)},
            }
            for m in services.SEEKABLE
        ],
        players=list(range(2, 7)),
        waits=[{"seconds": s, "label": WAIT_LABELS.get(s, f"{s} s")} for s in services.BOT_WAITS],
        strengths=BOT_STRENGTHS,
        state=services.status(Identity(user_id=user.pk, name=user.get_username())),
    )
    return panel
