"""Ratings per pool and their history (docs/design.md "Ratings").

The tables were made by the players app, which kept ratings until the ratings app was split
out of it; the models keep their tables (``db_table``), so no row moved
(ratings/migrations/0001_initial.py, players/migrations/0003_ratings.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Pool(models.TextChoices):
    """Rating pools: each rated game counts in exactly one (ratings/services.py ``pool_for``)."""

    LIVE_DUEL = "live2", "Live, 2 players"
    LIVE_TABLE = "live36", "Live, 3-6 players"
    CORRESPONDENCE = "corr", "Correspondence"
    RUSH = "rush", "Rummy Rush"
    RUMMY45 = "r45", "Rummy 45"  # every rated Rummy 45 game


class Rating(models.Model):
    """A player's current rating in one pool: the Weng-Lin ``mu`` and ``sigma``, and the
    number shown (which a win never lowers)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    pool = models.CharField(max_length=8, choices=Pool.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.IntegerField()
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField()

    class Meta:
        db_table = "players_rating"  # made by the players app, kept when the model moved here
        constraints = [models.UniqueConstraint(fields=["user", "pool"], name="one_rating_per_pool")]
        indexes = [models.Index(fields=["pool", "-shown"], name="players_rating_board")]

    def __str__(self) -> str:
        return f"{self.user} {self.pool} {self.shown}"


class RatingChange(models.Model):
    """One rated seat's change in one game: the history, and what makes updates idempotent
    (a game's changes are written once; a second delivery finds them)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    pool = models.CharField(max_length=8, choices=Pool.choices)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    shown_before = models.IntegerField()
    shown_after = models.IntegerField()
    finished = models.DateTimeField()

    class Meta:
        db_table = "players_ratingchange"  # as Rating's: the players app made the table
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_seat")
        ]
        indexes = [models.Index(fields=["user", "pool", "finished"], name="players_change_hist")]


class PairLimited(models.Model):
    """A game asked for rated and played unrated, because two of its players had played their
    limit of rated games together in its pool in 24 hours (ratings/services.py
    ``pair_limit_reached``; docs/fair-play.md "Rated games between the same players").

    ``pairs`` holds the seats of each pair at its limit and the rated games they had played:
    ``[[seat, seat, games], ...]``; a page names them by the game's seats, so no account is
    named here and a renamed or deleted account is shown as its seat is."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="+", primary_key=True
    )
    pool = models.CharField(max_length=8, choices=Pool.choices)
    pairs = models.JSONField()
    decided = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.game_id} unrated in {self.pool}: {self.pairs}"
