"""The players app's subscribers to games/signals.py: a finished game's trophies are awarded
(its rating is the ratings app's: ratings/receivers.py); a solved puzzle awards the solver's
puzzle trophies; a finished tournament awards its entrants' tournament trophies.

A receiver must not raise (the mover was answered already): each logs its own failure.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished, puzzle_solved, tournament_finished

from . import trophies

log = logging.getLogger(__name__)


@receiver(game_finished, sender=Game, dispatch_uid="players.award_game_trophies")
def award_game_trophies(sender: Any, gid: str, **kwargs: Any) -> None:
    game_id = Game.objects.filter(public_id=gid).values_list("pk", flat=True).first()
    if game_id is None:
        return
    try:
        trophies.award_game(game_id)
    except Exception:
        log.exception("awarding the trophies of game %s failed", gid)


@receiver(puzzle_solved, dispatch_uid="players.award_puzzle_trophies")
def award_puzzle_trophies(sender: Any, user_id: int, **kwargs: Any) -> None:
    """Each puzzle trophy once: a trophy held already (a second delivery) awards nothing."""
    try:
        trophies.award(list(trophies.puzzle_trophies(user_id)))
    except Exception:
        log.exception("awarding the puzzle trophies of user %s failed", user_id)


@receiver(tournament_finished, dispatch_uid="players.award_tournament_trophies")
def award_tournament_trophies(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    """From the stored final standings, as the backfill reads them; a second delivery awards
    nothing more (each trophy is held once)."""
    try:
        trophies.award(list(trophies.tournament_trophies(tournament_id)))
    except Exception:
        log.exception("awarding the trophies of tournament %s failed", tournament_id)
