"""What a player keeps: ratings per pool with their history, trophies, a profile (display
name, bio, avatar) and the board settings that follow the account (docs/design.md "Players")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class Pool(models.TextChoices):
    """Rating pools: each rated game counts in exactly one (players/ratings.py ``pool_of``)."""

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
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_seat")
        ]
        indexes = [models.Index(fields=["user", "pool", "finished"], name="players_change_hist")]


class TrophyAward(models.Model):
    """A trophy a player earned: once per player (the unique constraint), kept once given."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="trophies"
    )
    key = models.CharField(max_length=40)
    earned = models.DateTimeField()
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seq = models.PositiveIntegerField(null=True, blank=True, help_text="the event it was earned at")
    link = models.CharField(
        max_length=200, blank=True, help_text="where it was earned, when not a game (a tournament)"
    )
    seen = models.BooleanField(default=False, help_text="its toast was shown")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_trophy_each")]
        ordering = ["earned", "pk"]


class PlayerProfile(models.Model):
    """The profile's own fields and the settings that follow the account."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=24, blank=True)
    display_name_key = models.CharField(
        max_length=24, null=True, blank=True, unique=True, help_text="casefolded, for uniqueness"
    )
    bio = models.CharField(max_length=280, blank=True)
    avatar_256 = models.CharField(max_length=200, blank=True)
    avatar_64 = models.CharField(max_length=200, blank=True)
    board = models.JSONField(default=dict, blank=True, help_text="players/cosmetics.py DEFAULTS")

    def __str__(self) -> str:
        return f"player {self.user}"

    @classmethod
    def of(cls, user: Any) -> PlayerProfile:
        found, _ = cls.objects.get_or_create(user=user)
        return found

    @property
    def name(self) -> str:
        return self.display_name or self.user.get_username()
