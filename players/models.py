"""What a player keeps: trophies, a profile (display name, bio, avatar) and the board settings
that follow the account (docs/design.md "Players"); ratings are the ratings app's."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


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
