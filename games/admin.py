"""The operator's admin for games: find a game by id, player or status, and read its seats,
events and results. No row is added, changed or deleted from the admin; the one thing it
does, ending stuck games, is a call to ``services.end_game`` for each.

What a player must not see while a game runs, the operator is not shown either: the seed and
the cached state (every rack) are left out, and an event's payload (events hold the whole
truth, racks and the pool) is shown once the game is over, as the record export does.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from . import services
from .errors import DomainError
from .models import Game, GameEvent, GameResult, Seat, Status

# A game can have hundreds of events: its page shows the latest, the rest are a link away.
EVENTS_SHOWN = 30


class ReadOnly:
    """Viewable by whoever may view; never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _payload(event: GameEvent) -> str:
    if event.game.status != Status.FINISHED:
        return "shown when the game is over"
    return format_html(
        '<pre style="white-space: pre-wrap; max-width: 70em; max-height: 16em; overflow: auto">'
        "{}</pre>",
        json.dumps(event.payload, sort_keys=True),
    )


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    fields = ("index", "kind", "bot_strength", "name", "user", "joined", "open")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    @admin.display(boolean=True, description="open")
    def open(self, seat: Seat) -> bool:
        return seat.is_open


class LatestEventsFormSet(BaseInlineFormSet):
    """Only the game's latest events (a formset of hundreds would make a page of megabytes)."""

    def get_queryset(self) -> QuerySet[GameEvent]:
        if not hasattr(self, "_latest"):
            self._latest = super().get_queryset().order_by("-seq")[:EVENTS_SHOWN]
        return self._latest


class EventInline(ReadOnly, admin.TabularInline):
    model = GameEvent
    formset = LatestEventsFormSet
    fields = ("seq", "kind", "created", "payload_shown")
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name_plural = f"latest events (up to {EVENTS_SHOWN}, newest first)"

    @admin.display(description="payload")
    def payload_shown(self, event: GameEvent) -> str:
        return _payload(event)


class ResultInline(ReadOnly, admin.TabularInline):
    """How each seat finished (one row per seat of a finished game, written by the services)."""

    model = GameResult
    fields = (
        "seat",
        "name",
        "user",
        "place",
        "total",
        "went_out",
        "tiles_left",
        "resigned",
        "turns",
        "details",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False


class EndGamesForm(forms.Form):
    reason = forms.CharField(
        max_length=200,
        help_text='Kept in the game\'s log, e.g. "seat 2 left for good".',
        widget=forms.TextInput(attrs={"size": 60, "autofocus": True}),
    )


@admin.register(Game)
class GameAdmin(ReadOnly, admin.ModelAdmin):
    list_display = (
        "public_id",
        "mode",
        "status",
        "players",
        "seat_names",
        "created",
        "finished",
    )
    list_filter = ("status", "family", "mode")
    # The id is matched whole: a player's name searched for ("bob") must not also find
    # every game whose random id happens to hold those letters ("Ce-bOb5fNkF7").
    search_fields = ("=public_id", "seats__name", "seats__user__username")
    search_help_text = "A whole game id, or a player's display name or username."
    date_hierarchy = "created"
    list_per_page = 50
    fields = (
        "public_id",
        "page",
        "mode",
        "status",
        "players",
        "clock",
        "listed",
        "family",
        "config",
        "seq",
        "turn_number",
        "deadline",
        "commitment",
        "created_by",
        "created",
        "started",
        "finished",
        "all_events",
    )
    readonly_fields = ("page", "clock", "all_events")
    inlines = (SeatInline, ResultInline, EventInline)
    actions = ("end_stuck_games",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description="seats")
    def seat_names(self, game: Game) -> str:
        return ", ".join(
            seat.name or (seat.user.get_username() if seat.user else "open")
            for seat in game.seats.all()
        )

    @admin.display(description="clock")
    def clock(self, game: Game) -> str:
        return game.clock_label

    @admin.display(description="on the site")
    def page(self, game: Game) -> str:
        return format_html('<a href="{}">{}</a>', game.get_absolute_url(), game.public_id)

    @admin.display(description="events")
    def all_events(self, game: Game) -> str:
        url = reverse("admin:games_gameevent_changelist") + f"?q={game.public_id}"
        return format_html('<a href="{}">all {} events</a>', url, game.events.count())

    def has_end_permission(self, request: HttpRequest) -> bool:
        """Ending games is for those Django lets change them (superusers, or by the
        ``games.change_game`` permission); the admin's own change form stays off."""
        return bool(request.user.has_perm("games.change_game"))

    @admin.action(description="End selected stuck games", permissions=["end"])
    def end_stuck_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> Any:
        """Ask for a reason on a page of its own, then end each game through the services."""
        games = list(queryset.order_by("created"))
        form = EndGamesForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            context = {
                **self.admin_site.each_context(request),
                "title": "End stuck games",
                "opts": self.opts,
                "games": games,
                "running": sum(game.status == Status.PLAYING for game in games),
                "form": form,
                "action": "end_stuck_games",
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "admin/games/game/end_games.html", context)
        reason = form.cleaned_data["reason"]
        ended, idle = [], []
        for game in games:
            try:
                done = services.end_game(game.public_id, reason)
            except DomainError as error:
                self.message_user(
                    request, f"{game.public_id} was not ended: {error.message}", messages.ERROR
                )
                continue
            (ended if done else idle).append(game.public_id)
        if ended:
            self.message_user(
                request, f"Ended {len(ended)} game(s): {', '.join(ended)}.", messages.SUCCESS
            )
        if idle:
            self.message_user(
                request,
                f"Not running, left as they were: {', '.join(idle)}.",
                messages.WARNING,
            )
        return None


@admin.register(GameEvent)
class GameEventAdmin(ReadOnly, admin.ModelAdmin):
    """Every event, a page at a time: a game's are found by its id."""

    list_display = ("game", "seq", "kind", "created")
    list_filter = ("kind",)
    search_fields = ("=game__public_id",)
    search_help_text = "A game id (exactly)."
    list_select_related = ("game",)
    list_per_page = 100
    ordering = ("game", "seq")
    fields = ("game", "seq", "kind", "created", "payload_shown")
    readonly_fields = ("payload_shown",)

    @admin.display(description="payload")
    def payload_shown(self, event: GameEvent) -> str:
        return _payload(event)
