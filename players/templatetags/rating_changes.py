"""``{% rating_change game seat as change %}``: a seat's rating change in a finished game
("+12", "−8" or "unrated"), so the home page's list shows it without the games app knowing
of ratings (docs/design.md "Layers and the import rule"); render it with
templates/players/_rating_change.html."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game

from .. import changes

register = template.Library()


@register.simple_tag
def rating_change(game: Game, seat: Any) -> dict[str, Any] | None:
    """``seat``: a Seat or its index."""
    return changes.seat_change(game, getattr(seat, "index", seat))
