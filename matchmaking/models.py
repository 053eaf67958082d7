"""A seek: a signed-in player asking for a rated live game of a mode and a player count
(docs/design.md "Matchmaking")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import Game, Mode


class SeekStatus(models.TextChoices):
    OPEN = "open", "Seeking"
    MATCHED = "matched", "Matched"
    CANCELLED = "cancelled", "Cancelled"


class Seek(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=40, help_text="the name shown at the table")
    mode = models.CharField(max_length=10, choices=Mode.choices)
    players = models.PositiveSmallIntegerField()
    clock_seconds = models.PositiveIntegerField(help_text="the live clock of the game")
    bots_after_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="fill the table with bots after this wait; null: never"
    )
    bot_strength = models.CharField(max_length=10, default="casual")
    pool = models.CharField(max_length=8, help_text="the rating pool the game counts in")
    rating = models.IntegerField(help_text="the player's shown rating in the pool when seeking")
    created = models.DateTimeField()
    status = models.CharField(max_length=10, choices=SeekStatus.choices, default=SeekStatus.OPEN)
    matched = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="open"), name="one_open_seek_per_user"
            )
        ]
        indexes = [models.Index(fields=["status", "mode", "players"], name="matchmaking_open")]

    def __str__(self) -> str:
        return f"{self.name} seeks {self.mode} x{self.players} ({self.status})"
