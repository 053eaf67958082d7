"""Tournaments, their entries, rounds and tables (docs/design.md "Tournaments").

A table is a game (games.models.Game) made by the tournament's services; its places come from
the game's result rows (or the organiser's adjudication), its points from the format's
scoring. Standings are a cache of those rows: ``services.recompute_standings`` rebuilds them.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.engine.errors import InvalidInput
from games.models import Game, Mode
from games.modes import setup_from


class Format(models.TextChoices):
    SWISS = "swiss", "Swiss"
    ROUND_ROBIN = "roundrobin", "Round robin"
    ARENA = "arena", "Arena"
    DUPLICATE = "duplicate", "Duplicate"


class State(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


# Sandbox has the creator's own rules. Rummy 45 tournaments are live only (services.check says
# why; docs/tournaments.md "Rummy 45").
TOURNAMENT_MODES = [c for c in Mode.choices if c[0] != Mode.SANDBOX]


def new_seed() -> str:
    return secrets.token_bytes(32).hex()


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True)
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    mode = models.CharField(max_length=10, choices=TOURNAMENT_MODES, default=Mode.PARLOR)
    clock_seconds = models.PositiveIntegerField(
        null=True, blank=True, default=60, help_text="a live turn clock (30, 60 or 120 s)"
    )
    correspondence_days = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="days a move (1, 3 or 7): a correspondence tournament"
    )
    target_score = models.PositiveIntegerField(
        null=True, blank=True, help_text="the match target (Parlor League); empty: the mode's"
    )
    table_size = models.PositiveSmallIntegerField(
        choices=[(2, "2 per table"), (3, "3 per table"), (4, "4 per table")], default=4
    )
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss and duplicate; a round robin plays its schedule"
    )
    duration_minutes = models.PositiveIntegerField(
        null=True, blank=True, help_text="an arena's length"
    )
    starts_at = models.DateTimeField(help_text="beat starts it then")
    registration_opens = models.DateTimeField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    registration_open = models.BooleanField(
        default=True, help_text="the organiser's switch, within the window"
    )
    rated = models.BooleanField(default=False)
    min_games = models.PositiveIntegerField(default=0, help_text="finished games to enter")
    min_rating = models.PositiveIntegerField(null=True, blank=True)
    max_rating = models.PositiveIntegerField(null=True, blank=True)
    max_players = models.PositiveIntegerField(null=True, blank=True)
    points_scheme = models.JSONField(
        null=True, blank=True, help_text="points per place, first first; empty: the default"
    )
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.SCHEDULED)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["state", "starts_at"], name="tournament_state")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    @property
    def is_correspondence(self) -> bool:
        return self.correspondence_days is not None

    def game_options(self) -> dict[str, Any]:
        """What each table is created with (games.modes.setup_from's options, the seats apart):
        the tournament's clock or days a move, and its target score if it has one."""
        options: dict[str, Any] = {"mode": self.mode}
        if self.correspondence_days:
            options["days"] = self.correspondence_days
        else:
            options["clock"] = self.clock_seconds
        if self.target_score:
            options["target"] = self.target_score
        return options

    @property
    def match_label(self) -> str:
        """What a table plays, as its game will (docs/fair-play.md "Tournament settings")."""
        try:
            setup = setup_from({**self.game_options(), "players": self.table_size})
        except InvalidInput:
            return ""  # services.check refuses such a tournament with a sentence
        match = setup.config.get("match")
        if match is None:
            return "single games"  # a family of one game, no rounds (Rummy 45)
        if match["kind"] == "target":
            return f"games to {match['target']} points"
        if match["kind"] == "rounds":
            return f"games of {match['rounds']} rounds"
        return "one-round games"

    @property
    def clock_label(self) -> str:
        if self.correspondence_days:
            days = self.correspondence_days
            return f"{days} day{'s' if days > 1 else ''} a move"
        return f"{self.clock_seconds or 60} s a turn"


class Entry(models.Model):
    """A player in a tournament: a person, or a bot the organiser added."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_entries",
    )
    bot_strength = models.CharField(max_length=10, blank=True)
    name = models.CharField(max_length=40)
    rating = models.PositiveIntegerField(default=1500, help_text="at entry, for seeding")
    points = models.FloatField(default=0)
    score = models.IntegerField(default=0, help_text="the sum of its games' match totals")
    buchholz = models.FloatField(default=0)
    sonneborn_berger = models.FloatField(default=0)
    rank = models.PositiveIntegerField(null=True, blank=True)
    byes = models.PositiveSmallIntegerField(default=0)
    withdrawn = models.BooleanField(default=False, help_text="paired no more")
    absent = models.BooleanField(default=False, help_text="sits out the next round")
    joined = models.DateTimeField(auto_now_add=True)
    joined_round = models.PositiveSmallIntegerField(default=0, help_text="0: before the start")

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["rank", "-points", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(user__isnull=False),
                name="one_entry_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_strength)

    @property
    def playing(self) -> bool:
        return not self.withdrawn and not self.absent


class RoundState(models.TextChoices):
    PLAYING = "playing", "Playing"
    DONE = "done", "Done"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds_set")
    number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=8, choices=RoundState.choices, default=RoundState.PLAYING)
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, help_text="correspondence rounds")
    # A duplicate round's one deal: its commitment is public from the start, its seed once the
    # round is over (docs/design.md "Tournaments").
    seed = models.CharField(max_length=64, blank=True, editable=False)
    commitment = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    @property
    def seed_shown(self) -> str:
        return self.seed if self.state == RoundState.DONE else ""


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_table"
    )
    done = models.BooleanField(default=False)
    adjudicated = models.TextField(blank=True, help_text="the organiser's reason, shown publicly")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    total = models.IntegerField(null=True, blank=True, help_text="the game's match total")
    points = models.FloatField(null=True, blank=True, help_text="tournament points earned")

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_player_per_seat")
        ]


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="bye_rows")
    points = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="one_bye_a_round")]


class Action(models.Model):
    """What was done to a tournament, by whom and when: the organiser's console history."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    at = models.DateTimeField(auto_now_add=True)
    verb = models.CharField(max_length=30)
    detail = models.TextField(blank=True)
    public = models.BooleanField(default=False, help_text="shown on the tournament's page")

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        who = self.actor.get_username() if self.actor else "the site"
        return f"{self.at:%Y-%m-%d %H:%M} {who}: {self.verb} {self.detail}".strip()
