"""``{% unrated_notice game %}``: what a game's page says when the game is, or will be, played
unrated because two of its players have played their limit of rated games together
(docs/fair-play.md "Rated games between the same players"): on the waiting page and the
invite page before it starts, on the board once it has. A template tag, so the games app's
pages show it without the games app knowing of ratings."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game

from ..services import unrated_notices

register = template.Library()


@register.inclusion_tag("ratings/_unrated_notice.html", takes_context=True)
def unrated_notice(context: dict[str, Any], game: Game) -> dict[str, Any]:
    user = getattr(context.get("request"), "user", None)
    viewer = user.pk if user is not None and user.is_authenticated else None
    return {"notices": unrated_notices(game, viewer)}
