"""Tournaments' subscribers: a table's game finished (games/signals.py), standings changed.

A receiver must not raise (the mover was answered already): each logs its own failure.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished

from . import live, signals, tasks
from .models import Table, Tournament
from .views import standings_frame

log = logging.getLogger(__name__)


@receiver(game_finished, sender=Game, dispatch_uid="tournaments.table_finished")
def on_game_finished(sender: Any, gid: str, **kwargs: Any) -> None:
    try:
        if Table.objects.filter(game__public_id=gid).exists():
            tasks.table_finished.delay(gid)
    except Exception:
        log.exception("queueing tournament table %s failed", gid)


@receiver(signals.standings_changed, sender=Tournament, dispatch_uid="tournaments.frames")
def on_standings_changed(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    try:
        t = Tournament.objects.filter(pk=tournament_id).first()
        if t is not None:
            live.send(tournament_id, standings_frame(t))
    except Exception:
        log.exception("sending the standings of tournament %s failed", tournament_id)
