"""Games, their seats and their event log. The log is the truth; ``state`` is its cache."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse


def new_public_id() -> str:
    return secrets.token_urlsafe(9)


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class Mode(models.TextChoices):
    PARLOR = "parlor", "Parlor League"
    BLITZ = "blitz", "Blitz"
    SANDBOX = "sandbox", "Sandbox"
    RUSH = "rush", "Rummy Rush"
    LAN = "lan", "LAN rules"
    R45 = "r45", "Rummy 45"  # the Rummy 45 family's one mode (games/engine/r45/family.py)


class Status(models.TextChoices):
    WAITING = "waiting", "Waiting for players"
    PLAYING = "playing", "Playing"
    FINISHED = "finished", "Finished"


class Game(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    # The game family (games.engine.families) and its mode, the variant within it.
    family = models.CharField(max_length=16, default="rummikub")
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.PARLOR)
    config = models.JSONField(
        default=dict,
        blank=True,
        help_text="the family's own setup (Rummikub: its rules and match format)",
    )
    players = models.PositiveSmallIntegerField()
    clock_seconds = models.PositiveIntegerField(null=True, blank=True)
    correspondence_days = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    listed = models.BooleanField(default=True, help_text="shown in the lobby while open")
    rated = models.BooleanField(
        default=False, help_text="changes its signed-in players' ratings (docs/design.md)"
    )
    seed = models.CharField(max_length=64, editable=False, help_text="secret until the end")
    stand_in = models.BooleanField(
        default=False,
        help_text="a seat whose player has been gone a minute is played by a bot until they "
        "return (live tournament tables; each such turn is a StandIn row)",
    )
    sealed = models.BooleanField(
        default=False,
        help_text="its deal is shared with tables still playing (a duplicate round): the replay, "
        "record and seed are withheld until that round ends",
    )
    occasion = models.CharField(
        max_length=120,
        blank=True,
        help_text="what the game is played for, in words, set by its maker (a tournament "
        "table: 'Winter cup, round 2'); shown on its page and in the turn digest",
    )
    occasion_url = models.CharField(
        max_length=200,
        blank=True,
        help_text="where the game's end leads back to (its tournament's page), set by its maker",
    )
    commitment = models.CharField(max_length=64, blank=True)
    state = models.JSONField(null=True, blank=True, help_text="cached engine state")
    seq = models.PositiveIntegerField(default=0, help_text="seq of the last event applied")
    review = models.JSONField(null=True, blank=True, help_text="post-game review, once made")
    review_requested = models.DateTimeField(
        null=True, blank=True, help_text="when the review was last queued (compare-and-set)"
    )
    turn_number = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    # Kept by the event writer (games/services/record.py) from the family's Turn, so that beat's
    # sweeps find due games in one query whatever their number, reading no state: the seats
    # that may act now (bit n: seat n), the seat a stand-in may play a turn for, and when the
    # last event was written.
    acting = models.PositiveSmallIntegerField(default=0, help_text="bit n set: seat n may act")
    stand_in_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    moved = models.DateTimeField(null=True, blank=True, help_text="when the last event was written")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # A rematch: the finished game this one replays with the same seats and options
    # (services.offer_rematch). Set when the game is made, never by a move.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
        # Only columns a move does not change are indexed, so that on PostgreSQL a move's
        # update of the row is a HOT update (no index entries to write; see migration 0004's
        # fillfactor). The clock sweeps find running games by status and read their deadlines.
        indexes = [models.Index(fields=["status"], name="games_game_status")]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} {self.public_id}"

    def get_absolute_url(self) -> str:
        """The game's page: the board, or the waiting room until every seat is taken."""
        return reverse("game", args=[self.public_id])

    @property
    def api_url(self) -> str:
        """The game's JSON (docs/api.md); its actions are under it."""
        return reverse("api_game", args=[self.public_id])

    @property
    def socket_path(self) -> str:
        """The path of the game's websocket (games/routing.py)."""
        return socket_path(self.public_id)

    @property
    def is_correspondence(self) -> bool:
        return self.correspondence_days is not None

    @property
    def clock_label(self) -> str:
        if self.correspondence_days:
            days = self.correspondence_days
            return f"{days} day{'s' if days > 1 else ''} a move"
        if self.clock_seconds:
            return f"{self.clock_seconds} s a turn"
        return "no clock"


# The websocket route: games/routing.py routes it, pages and emails never write it out.
SOCKET_ROUTE = "ws/games/<segment:gid>/"


def socket_path(gid: str) -> str:
    return "/" + SOCKET_ROUTE.replace("<segment:gid>", gid)


class SeatKind(models.TextChoices):
    HUMAN = "human", "Person"
    BOT = "bot", "Bot"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=SeatKind.choices, default=SeatKind.HUMAN)
    bot_strength = models.CharField(max_length=10, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)
    name = models.CharField(max_length=40, blank=True)
    invite_token = models.CharField(max_length=40, unique=True, default=new_invite_token)
    joined = models.DateTimeField(null=True, blank=True)
    last_seen = models.DateTimeField(
        null=True, blank=True, help_text="the seat's socket last heard from (stand-in games)"
    )
    first_seen = models.DateTimeField(
        null=True,
        blank=True,
        help_text="the seat's socket first heard from (stand-in games): a seat not seen in the "
        "game's first minute is absent (docs/fair-play.md)",
    )
    resigned = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when the seat's player resigned (the log's resignation, kept by the event "
        "writer): they no longer play it, though the others may play on",
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="unique_seat")]
        ordering = ["index"]

    def __str__(self) -> str:
        return f"seat {self.index} of {self.game.public_id}: {self.name or 'open'}"

    @property
    def is_open(self) -> bool:
        return self.kind == SeatKind.HUMAN and self.joined is None

    @property
    def reserved(self) -> bool:
        """An open seat kept for one person (a rematch's player, until they accept)."""
        return self.is_open and bool(self.user_id or self.guest_key)

    @property
    def invite_url(self) -> str:
        """The seat's invite link (a path): whoever opens it may take the seat."""
        return reverse("join", args=[self.invite_token])

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "name": self.name or ("Open seat" if self.is_open else "Player"),
            "kind": self.kind,
            "strength": self.bot_strength or None,
            "joined": self.joined is not None,
            # An account's seat links to its profile and shows its avatar (players app's URLs
            # /@/<username>/ and /@/<username>/avatar.svg); a guest or a bot has neither.
            "username": (
                self.user.get_username() if self.user_id and self.kind == "human" else None
            ),
        }


class StandIn(models.Model):
    """A turn a bot played for a person who was gone (``Game.stand_in``): shown in the record."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="stand_ins")
    seat = models.PositiveSmallIntegerField()
    turn_number = models.PositiveIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "turn_number"], name="one_stand_in_a_turn")
        ]
        ordering = ["game", "turn_number"]


class GoneTable(models.Model):
    """A table deleted before it started (docs/design.md "Waiting tables"): closed by its
    creator, closed unfilled, or a rematch offer that lapsed. Its address says why for a week
    (``games.services.lobby.closed_table``, ``lapsed_rematch``), whichever process deleted it:
    the web process, or the worker's sweep."""

    class Reason(models.TextChoices):
        CANCELLED = "cancelled", "closed by its creator"
        UNFILLED = "unfilled", "nobody took its seats in time"
        LAPSED = "lapsed", "a rematch offer not accepted in time"

    public_id = models.CharField(max_length=16, unique=True)
    reason = models.CharField(max_length=10, choices=Reason.choices)
    # The finished game a lapsed rematch offer was for (its public id), else "".
    back = models.CharField(max_length=16, blank=True, default="")
    gone = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.public_id} ({self.reason})"


class GameEvent(models.Model):
    """One engine event. ``(game, seq)`` is unique: two racing writers cannot both land."""

    # No index of its own: the unique (game, seq) leads with the game (one index less to
    # write on every move).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    payload = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq")]
        ordering = ["seq"]

    def __str__(self) -> str:
        return f"{self.game.public_id} #{self.seq} {self.kind}"


class ActionReceipt(models.Model):
    """The answer given to an action, kept so a retry with the same key gets it again."""

    # As for events: the unique (game, seat, key) serves lookups by game.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="receipts", db_index=False
    )
    key = models.CharField(max_length=80)
    seat = models.PositiveSmallIntegerField()
    status = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "key"], name="unique_action_key")
        ]


class NoticeKind(models.TextChoices):
    YOUR_TURN = "your_turn", "Your turn"
    CLOCK_WARNING = "clock_warning", "Clock warning"


class Notice(models.Model):
    """Something to tell a player by email: queued by the service, sent by a beat task."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    game = models.ForeignKey(Game, on_delete=models.CASCADE)
    kind = models.CharField(max_length=16, choices=NoticeKind.choices)
    turn_number = models.PositiveIntegerField()
    created = models.DateTimeField(auto_now_add=True)
    sent = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "kind", "turn_number"], name="one_notice_per_turn"
            )
        ]


class GameResult(models.Model):
    """How one seat finished a game (docs/design.md "Results"): written with the final event.

    Profiles, ratings and standings read these rows, never the cached JSON state. The columns
    are the fields every family counts (``games.engine.family.RESULT_FIELDS``); ``details``
    holds the family's own counts, the keys its ``result_details`` declares (Rummikub's are
    those of :data:`games.engine.results.DETAILS`).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="game_results",
    )
    kind = models.CharField(max_length=5, choices=SeatKind.choices, default=SeatKind.HUMAN)
    bot_strength = models.CharField(max_length=10, blank=True)
    name = models.CharField(max_length=40, blank=True)
    finished = models.DateTimeField(help_text="when the game ended")
    place = models.PositiveSmallIntegerField(help_text="1 is first; equal seats share a place")
    total = models.IntegerField(help_text="the match total")
    went_out = models.BooleanField(help_text="ended the last round by laying the last tile")
    tiles_left = models.PositiveSmallIntegerField()
    resigned = models.BooleanField()
    turns = models.PositiveIntegerField()
    average_turn_seconds = models.FloatField(null=True, blank=True)
    # Fair play (docs/fair-play.md), common to every family, from the log and the StandIn rows
    # (games/services/fairness.py): none of these seats' games is rated or earns a trophy.
    absent = models.BooleanField(
        default=False, help_text="a person never seen in the game's first minute: scored last"
    )
    stand_in_turns = models.PositiveIntegerField(
        default=0, help_text="turns a stand-in bot played for this seat"
    )
    aborted = models.BooleanField(
        default=False,
        help_text="the game was aborted: a person resigned or timed out before any real move "
        "of their own (the same on every row of the game)",
    )
    repeat_pair = models.BooleanField(
        default=False,
        help_text="two accounts at the table had finished 3 counted games together in the 24 h "
        "before: the game counts in nobody's figures, win counts or trophies (the same on every "
        "row of the game)",
    )
    details = models.JSONField(
        default=dict, blank=True, help_text="the family's own counts (its result_details)"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_result_per_seat")]
        indexes = [models.Index(fields=["user", "finished"], name="games_result_user")]
        ordering = ["game", "seat"]

    def __str__(self) -> str:
        return f"{self.game.public_id} seat {self.seat}: place {self.place}, {self.total}"

    @property
    def won(self) -> bool:
        return self.place == 1 and not self.aborted and not self.absent

    @property
    def counted(self) -> bool:
        """Whether the game counts for this seat: in win counts, ratings and trophies."""
        return not self.aborted and not self.absent

    @property
    def fair_play(self) -> str:
        """What the scorecard, the lists and the profile say of how this seat was played:
        "aborted", "absent", "played by a stand-in for N turns", "not counted" (a game past the
        3 a day two accounts count together), or nothing."""
        if self.absent:
            return "absent"
        if self.aborted:
            return "aborted"
        if self.stand_in_turns:
            n = self.stand_in_turns
            return f"played by a stand-in for {n} turn{'s' if n != 1 else ''}"
        if self.repeat_pair:
            return "not counted (a 4th game together in 24 h)"
        return ""


class NoticeSettings(models.Model):
    """What a signed-in player wants emailed about their games, and when the last digest went."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings"
    )
    email_turn_notices = models.BooleanField(
        default=True, help_text="email a digest of correspondence games waiting for my move"
    )
    last_digest = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "notice settings"

    def __str__(self) -> str:
        return f"notice settings of {self.user}"

    @classmethod
    def of(cls, user_id: int) -> NoticeSettings:
        found, _ = cls.objects.get_or_create(user_id=user_id)
        return found
