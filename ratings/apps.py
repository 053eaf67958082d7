"""Game ratings: openskill pools, one per kind of game, and each player's rating and history
in them (docs/design.md "Ratings").

It sits above games and below tournaments, matchmaking and players
(docs/design.md "Layers and the import rule"): they read a pool and a rating here, so there is
one copy of each rule. A finished rated game is rated from the ``game_finished`` signal
(ratings/receivers.py); a rated game starting between two players who have played their limit
of rated games together that day is played unrated, by the games app's rated check that
``ready`` registers (docs/fair-play.md "Rated games between the same players").
"""

from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self) -> None:
        from games.services import rated_check

        from . import receivers  # noqa: F401  (connects the receivers)
        from .services import limit_rated_game

        rated_check(limit_rated_game)
