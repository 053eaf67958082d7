"""The players app's subscribers to games/signals.py: a finished game is rated and its
trophies awarded.

A receiver must not raise (the mover was answered already): each logs its own failure.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished

from . import ratings, trophies

log = logging.getLogger(__name__)


@receiver(game_finished, sender=Game, dispatch_uid="players.rate_and_award")
def rate_and_award(sender: Any, gid: str, **kwargs: Any) -> None:
    game_id = Game.objects.filter(public_id=gid).values_list("pk", flat=True).first()
    if game_id is None:
        return
    try:
        ratings.rate_game(game_id)
    except Exception:
        log.exception("rating game %s failed", gid)
    try:
        trophies.award_game(game_id)
    except Exception:
        log.exception("awarding the trophies of game %s failed", gid)
