"""``{% turn_status game %}``: whose turn it is in a game being played and how long the mover
has left, for the lists of games (the home page's "My games", a profile's games in play), so
that the player who waits sees the clock too, not only the mover (docs/design.md "Clocks and bots").

>>> from datetime import timedelta
>>> [time_left(timedelta(seconds=s)) for s in (-5, 40, 125, 3 * 3600 + 60, 2 * 86400 + 23 * 3600)]
['out of time', 'under a minute left', '2m left', '3h 1m left', '2d 23h left']
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.utils import timezone

from games import services
from games.models import Game, Status

register = template.Library()

URGENT_DAYS = timedelta(hours=12)
URGENT_LIVE = timedelta(seconds=15)


def time_left(left: timedelta) -> str:
    """A clock's time left, to the two largest units."""
    seconds = int(left.total_seconds())
    if seconds <= 0:
        return "out of time"
    if seconds < 60:
        return "under a minute left"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h left"
    if hours:
        return f"{hours}h {minutes}m left"
    return f"{minutes}m left"


def movers(game: Game) -> list[int]:
    """The seats whose move it is, as the game's family says (Rummy 45's setup can wait on
    several)."""
    state = services.load_state(game)
    return list(services.family_of(game).turn(state).to_act) if state is not None else []


@register.inclusion_tag("games/_turn_status.html")
def turn_status(game: Game, mine: Any = None) -> dict[str, Any]:
    """``mine``: the viewer's seat (a Seat or its index), to say "your turn" (or, for a Seat
    whose player resigned, that they did: the others may play on)."""
    if game.status != Status.PLAYING:
        return {"playing": False}
    if getattr(mine, "resigned", None) is not None:
        return {"playing": True, "resigned": True}
    seats = {s.index: s for s in game.seats.all()}
    to_move = movers(game)
    index = getattr(mine, "index", mine)
    left = game.deadline - timezone.now() if game.deadline else None
    urgent = URGENT_DAYS if game.correspondence_days else URGENT_LIVE
    return {
        "playing": True,
        "yours": index is not None and index in to_move,
        "names": [seats[n].name or f"Seat {n + 1}" for n in to_move if n in seats],
        "deadline": game.deadline,
        "left": time_left(left) if left is not None else None,
        # The last half day of a correspondence move, the last 15 s of a live one.
        "urgent": left is not None and left < urgent,
    }
