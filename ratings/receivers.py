"""The ratings app's subscriber to games/signals.py: a finished rated game is rated once
(docs/design.md "Ratings").

A receiver must not raise (the mover was answered already): it logs its own failure.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished

from .services import rate_game

log = logging.getLogger(__name__)


@receiver(game_finished, sender=Game, dispatch_uid="ratings.rate")
def rate(sender: Any, gid: str, **kwargs: Any) -> None:
    game_id = Game.objects.filter(public_id=gid).values_list("pk", flat=True).first()
    if game_id is None:
        return
    try:
        rate_game(game_id)
    except Exception:
        log.exception("rating game %s failed", gid)
