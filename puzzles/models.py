"""Puzzles, attempts at them, players' puzzle ratings and the daily puzzle.

A player is a signed-in user or a guest known by the ``guest_key`` in their session (the same
key games use, see ``games/identity.py``); rows carry exactly one of the two.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from .glicko import DEFAULT_PLAYER, Rating

PLAYER_IS_ONE_OF = Q(user__isnull=False, guest_key="") | (Q(user__isnull=True) & ~Q(guest_key=""))


class Puzzle(models.Model):
    """A table and a rack; the goal is to put down every rack tile (or at least ``goal``)."""

    class Technique(models.TextChoices):
        EXTEND = "extend", "Extending a run"
        SPLIT_RUN = "split_run", "Splitting a long run"
        TAKE_FROM_GROUP = "take_from_group", "Taking a tile from a four-group"
        FREE_JOKER = "free_joker", "Freeing a joker"
        MIXED = "mixed", "Mixed"

    class Source(models.TextChoices):
        GENERATED = "generated", "Generated"
        USER = "user", "Made in the editor"

    slug = models.SlugField(max_length=64, unique=True)
    table = models.JSONField(help_text="The starting table: a list of melds of tile codes.")
    rack = models.JSONField(help_text="The rack: a list of tile codes.")
    goal = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Put down at least this many rack tiles; empty: all."
    )
    solution = models.JSONField(help_text="A legal final table; melds with rack tiles first.")
    level = models.PositiveSmallIntegerField(default=1)
    technique = models.CharField(max_length=20, choices=Technique.choices, default="mixed")
    lesson = models.CharField(max_length=200, blank=True)

    table_size = models.PositiveSmallIntegerField(default=0)
    melds_disturbed = models.PositiveSmallIntegerField(default=0)
    tiles_moved = models.PositiveSmallIntegerField(default=0)
    chain_depth = models.PositiveSmallIntegerField(default=0)
    jokers = models.PositiveSmallIntegerField(default=0)
    solutions = models.PositiveSmallIntegerField(default=1, help_text="Distinct, up to 10.")

    rating = models.FloatField(default=1500.0)
    rd = models.FloatField(default=350.0)
    vol = models.FloatField(default=0.06)

    source = models.CharField(max_length=10, choices=Source.choices, default="generated")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    share_token = models.CharField(max_length=32, unique=True, null=True, blank=True)
    public = models.BooleanField(default=True, help_text="Served by the trainer and the daily.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["level", "slug"]
        indexes = [models.Index(fields=["public", "rating"])]

    def __str__(self) -> str:
        return self.slug

    @property
    def goal_json(self) -> str | int:
        """``"all"`` or the least number of rack tiles to put down."""
        return "all" if self.goal is None else self.goal

    @property
    def tiles_needed(self) -> int:
        return len(self.rack) if self.goal is None else self.goal

    @property
    def glicko(self) -> Rating:
        return Rating(self.rating, self.rd, self.vol)

    def set_glicko(self, rating: Rating) -> None:
        self.rating, self.rd, self.vol = rating.rating, rating.rd, rating.vol

    def get_absolute_url(self) -> str:
        if self.share_token and not self.public:
            return reverse("puzzles:shared", args=[self.share_token])
        return reverse("puzzles:puzzle", args=[self.slug])


class Attempt(models.Model):
    """One go at a puzzle, from start to solved or given up (or left open)."""

    class Mode(models.TextChoices):
        TRAINER = "trainer", "Trainer"
        STREAK = "streak", "Streak"
        DAILY = "daily", "Daily"
        SHARED = "shared", "Shared link"

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)
    mode = models.CharField(max_length=10, choices=Mode.choices, default="trainer")
    started = models.DateTimeField()
    finished = models.DateTimeField(null=True, blank=True)
    solved = models.BooleanField(default=False)
    hints = models.PositiveSmallIntegerField(default=0)
    mistakes = models.PositiveSmallIntegerField(default=0)
    gave_up = models.BooleanField(default=False)
    seconds = models.FloatField(null=True, blank=True)
    rated = models.BooleanField(default=False, help_text="Whether it changed the ratings.")
    rating_change = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-started"]
        constraints = [models.CheckConstraint(condition=PLAYER_IS_ONE_OF, name="attempt_player")]
        indexes = [models.Index(fields=["puzzle", "mode", "solved"])]

    def __str__(self) -> str:
        return f"{self.puzzle} by {self.user or 'guest'} at {self.started:%Y-%m-%d %H:%M}"

    @property
    def is_open(self) -> bool:
        return self.finished is None


class PlayerRating(models.Model):
    """A player's puzzle rating (Glicko-2), streak-mode record and rated attempts."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="puzzle_rating",
    )
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)
    rating = models.FloatField(default=DEFAULT_PLAYER.rating)
    rd = models.FloatField(default=DEFAULT_PLAYER.rd)
    vol = models.FloatField(default=DEFAULT_PLAYER.vol)
    games = models.PositiveIntegerField(default=0, help_text="Rated attempts.")
    streak_current = models.PositiveIntegerField(default=0)
    streak_best = models.PositiveIntegerField(default=0)
    streak_started = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=PLAYER_IS_ONE_OF, name="rating_player"),
            models.UniqueConstraint(
                fields=["guest_key"], condition=~Q(guest_key=""), name="one_rating_per_guest"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user or 'guest'}: {self.rating:.0f}"

    @property
    def glicko(self) -> Rating:
        return Rating(self.rating, self.rd, self.vol)

    def set_glicko(self, rating: Rating) -> None:
        self.rating, self.rd, self.vol = rating.rating, rating.rd, rating.vol

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": round(self.rating),
            "rd": round(self.rd),
            "games": self.games,
            "streak": {"current": self.streak_current, "best": self.streak_best},
        }


class DailyPuzzle(models.Model):
    """The puzzle everyone gets on one UTC day."""

    date = models.DateField(unique=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="dailies")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"{self.date}: {self.puzzle}"
