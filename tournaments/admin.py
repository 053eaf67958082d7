"""The organiser's console: Django's admin, every action a call to tournaments/services.py,
kept as the tournament's history (who, when, what), which its page shows."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from games.errors import DomainError, NotFound
from games.modes import BOT_STRENGTHS

from . import services
from .models import Action, Entry, Round, State, Table, TableSeat, Tournament

# The organiser's buttons on a tournament's own change page, by its state.
STEPS_OF = {
    State.SCHEDULED: (("start", "Start now"), ("cancel", "Cancel…")),
    State.RUNNING: (("pause", "Pause"), ("cancel", "Cancel…")),
    State.PAUSED: (("resume", "Resume"), ("cancel", "Cancel…")),
}


class NoAdding:
    """Rows made only by the services (an action, an entry, a table): the admin adds none."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ActionInline(NoAdding, admin.TabularInline):
    model = Action
    fields = ("at", "actor", "verb", "detail", "public")
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name_plural = "history"


class EntryInline(NoAdding, admin.TabularInline):
    model = Entry
    verbose_name_plural = "entries"
    fields = ("rank", "name", "user", "bot_strength", "rating", "points", "byes", "withdrawn")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


class AddPlayerForm(forms.Form):
    username = forms.CharField(required=False, max_length=150)
    bot = forms.ChoiceField(
        required=False, choices=[("", "—")] + [(s, s.title()) for s in BOT_STRENGTHS]
    )
    count = forms.IntegerField(min_value=1, max_value=200, initial=1, help_text="bots to add")


class EmptyWhenNone(forms.JSONField):
    """A JSON field left empty when the value is None, not pre-filled with ``null``."""

    def prepare_value(self, value: Any) -> Any:
        return "" if value is None else super().prepare_value(value)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=300,
        help_text="Shown on the tournament's page and kept in the game's record.",
        widget=forms.TextInput(attrs={"size": 60, "autofocus": True}),
    )


def _tournament_or_404(tid: int) -> Tournament:
    """The tournament of an admin page's address, or the admin's 404 (an id typed or stale)."""
    try:
        return services.get(tid)
    except NotFound:
        raise Http404("There is no such tournament.") from None


def _run(model_admin: admin.ModelAdmin, request: HttpRequest, done: str, call: Any) -> bool:
    try:
        call()
    except DomainError as error:
        model_admin.message_user(request, error.message, messages.ERROR)
        return False
    model_admin.message_user(request, done, messages.SUCCESS)
    return True


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "mode", "table_size", "state", "starts_at", "players")
    list_filter = ("state", "format", "mode")
    search_fields = ("name",)
    inlines = (EntryInline, ActionInline)
    readonly_fields = ("state", "started", "finished", "page", "console")
    fieldsets = (
        (None, {"fields": ("name", "description", "page", "console")}),
        (
            "Format",
            {
                "fields": (
                    "format",
                    "mode",
                    "table_size",
                    "rounds",
                    "duration_minutes",
                    "points_scheme",
                )
            },
        ),
        ("Clock", {"fields": ("clock_seconds", "correspondence_days", "target_score")}),
        (
            "Schedule",
            {
                "fields": (
                    "starts_at",
                    "registration_opens",
                    "registration_closes",
                    "registration_open",
                )
            },
        ),
        ("Entry", {"fields": ("rated", "min_games", "min_rating", "max_rating", "max_players")}),
        ("State", {"fields": ("state", "started", "finished")}),
    )
    actions = (
        "open_registration",
        "close_registration",
        "start_now",
        "pause",
        "resume",
        "cancel",
    )

    @admin.display(description="players")
    def players(self, t: Tournament) -> int:
        return t.entries.filter(withdrawn=False).count()

    @admin.display(description="on the site")
    def page(self, t: Tournament) -> str:
        if not t.pk:
            return "—"
        return format_html('<a href="{}">{}</a>', t.get_absolute_url(), t.get_absolute_url())

    @admin.display(description="console")
    def console(self, t: Tournament) -> str:
        if not t.pk:
            return "Save the tournament first."
        return format_html(
            '<a class="button" href="{}">Add players</a> '
            '<a class="button" href="{}">Rounds and tables</a> '
            '<a class="button" href="{}">Entries (withdraw, reinstate)</a>',
            reverse("admin:tournaments_tournament_add_player", args=[t.pk]),
            reverse("admin:tournaments_round_changelist") + f"?tournament__id__exact={t.pk}",
            reverse("admin:tournaments_entry_changelist") + f"?tournament__id__exact={t.pk}",
        )

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "points_scheme":
            kwargs["form_class"] = EmptyWhenNone
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        t = Tournament.objects.filter(pk=object_id).first() if object_id.isdigit() else None
        buttons = [
            {"verb": verb, "label": label, "url": self._step_url(t, verb)}
            for verb, label in (STEPS_OF.get(t.state, ()) if t else ())
        ]
        context = {**(extra_context or {}), "organiser_steps": buttons}
        return super().change_view(request, object_id, form_url, context)

    @staticmethod
    def _step_url(t: Tournament, verb: str) -> str:
        return reverse("admin:tournaments_tournament_step", args=[t.pk, verb])

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        return form.save(commit=False)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)
        fields = ", ".join(form.changed_data)
        services.record(obj, request.user, "changed" if change else "created", fields)

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, **kwargs)

        class Checked(form):  # type: ignore[misc, valid-type]
            def clean(self) -> dict[str, Any]:
                data = super().clean()
                probe = Tournament(**{k: v for k, v in data.items() if hasattr(Tournament, k)})
                try:
                    services.check(probe)
                except DomainError as error:
                    raise forms.ValidationError(error.message) from None
                starts = data.get("starts_at")
                if obj is None and starts is not None and starts < timezone.now():
                    self.add_error(
                        "starts_at", "The start is in the past: choose a time still to come."
                    )
                return data

        return Checked

    def get_urls(self) -> list[Any]:
        own = [
            path(
                "<int:tid>/add-player/",
                self.admin_site.admin_view(self.add_player_view),
                name="tournaments_tournament_add_player",
            ),
            path(
                "<int:tid>/step/<str:verb>/",
                self.admin_site.admin_view(self.step_view),
                name="tournaments_tournament_step",
            ),
        ]
        return own + super().get_urls()

    def add_player_view(self, request: HttpRequest, tid: int) -> HttpResponse:
        """Adding players (and reinstating a withdrawn one) changes the tournament: only for
        those who may change it, as its other steps."""
        t = _tournament_or_404(tid)
        if not self.has_change_permission(request, t):
            raise PermissionDenied
        form = AddPlayerForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            username, bot = form.cleaned_data["username"], form.cleaned_data["bot"]
            count = form.cleaned_data["count"] if bot else 1
            for _ in range(count):
                if not _run(
                    self,
                    request,
                    f"Added {username or bot}.",
                    lambda: services.add_player(request.user, t, username, bot),
                ):
                    break
            return HttpResponseRedirect(reverse("admin:tournaments_tournament_change", args=[tid]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Add players to {t.name}",
            "opts": self.opts,
            "original": t,
            "form": form,
        }
        return TemplateResponse(request, "admin/tournaments/add_player.html", context)

    def step_view(self, request: HttpRequest, tid: int, verb: str) -> HttpResponse:
        """The change page's Start, Pause, Resume and Cancel buttons: the same services as the
        changelist's actions, each kept in the tournament's history by those services. Cancel
        asks for its reason first."""
        t = _tournament_or_404(tid)
        if not self.has_change_permission(request, t):
            raise PermissionDenied
        back = HttpResponseRedirect(reverse("admin:tournaments_tournament_change", args=[tid]))
        if verb == "cancel":
            form = ReasonForm(request.POST if "apply" in request.POST else None)
            if request.method != "POST" or not form.is_valid():
                return _ask_reason(self, request, [t], form, "cancel", f"Cancel {t.name}")
            reason = form.cleaned_data["reason"]

            def cancel() -> None:
                services.cancel(request.user, t, reason)

            _run(self, request, f"Cancelled {t.name}.", cancel)
            return back
        steps: dict[str, tuple[str, Any]] = {
            "start": (f"Started {t.name}.", lambda: services.start(request.user, t.pk)),
            "pause": (f"Paused {t.name}.", lambda: services.pause(request.user, t)),
            "resume": (f"Resumed {t.name}.", lambda: services.resume(request.user, t)),
        }
        if verb not in steps:
            raise Http404("No such step: start, pause, resume or cancel.")
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"], "Use the buttons of the tournament's page.")
        done, call = steps[verb]
        _run(self, request, done, call)
        return back

    @admin.action(description="Open registration")
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            services.set_registration(request.user, t, True)
        self.message_user(request, "Registration opened.", messages.SUCCESS)

    @admin.action(description="Close registration")
    def close_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            services.set_registration(request.user, t, False)
        self.message_user(request, "Registration closed.", messages.SUCCESS)

    @admin.action(description="Start now")
    def start_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            _run(
                self, request, f"Started {t.name}.", lambda t=t: services.start(request.user, t.pk)
            )

    @admin.action(description="Pause")
    def pause(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            _run(self, request, f"Paused {t.name}.", lambda t=t: services.pause(request.user, t))

    @admin.action(description="Resume")
    def resume(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            _run(self, request, f"Resumed {t.name}.", lambda t=t: services.resume(request.user, t))

    @admin.action(description="Cancel")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> Any:
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return _ask_reason(self, request, queryset, form, "cancel", "Cancel tournaments")
        reason = form.cleaned_data["reason"]
        for t in queryset:
            _run(
                self,
                request,
                f"Cancelled {t.name}.",
                lambda t=t: services.cancel(request.user, t, reason),
            )
        return None


def _ask_reason(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any] | list[Any],
    form: Any,
    action: str,
    title: str,
) -> TemplateResponse:
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "opts": model_admin.opts,
        "objects": list(queryset),
        "form": form,
        "action": action,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/tournaments/reason.html", context)


@admin.register(Entry)
class EntryAdmin(NoAdding, admin.ModelAdmin):
    list_display = ("name", "tournament", "rank", "points", "rating", "byes", "withdrawn", "absent")
    list_filter = ("tournament", "withdrawn")
    search_fields = ("name", "user__username")
    readonly_fields = (
        "tournament",
        "user",
        "bot_strength",
        "name",
        "points",
        "score",
        "buchholz",
        "sonneborn_berger",
        "rank",
        "byes",
        "joined",
        "joined_round",
        "withdrawn",
    )
    fields = readonly_fields + ("rating", "absent")
    actions = ("withdraw", "reinstate")

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if form.changed_data:
            services.record(
                obj.tournament,
                request.user,
                "changed entry",
                f"{obj.name}: {', '.join(form.changed_data)}",
            )

    @admin.action(description="Withdraw")
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset.select_related("tournament"):
            _run(
                self,
                request,
                f"Withdrew {entry.name}.",
                lambda e=entry: services.withdraw(request.user, e),
            )

    @admin.action(description="Reinstate")
    def reinstate(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset.select_related("tournament"):
            _run(
                self,
                request,
                f"Reinstated {entry.name}.",
                lambda e=entry: services.reinstate(request.user, e),
            )


class TableInline(NoAdding, admin.TabularInline):
    model = Table
    fields = ("number", "game", "done", "adjudicated", "players")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    @admin.display(description="players")
    def players(self, table: Table) -> str:
        return ", ".join(s.entry.name for s in table.seats.select_related("entry"))


@admin.register(Round)
class RoundAdmin(NoAdding, admin.ModelAdmin):
    list_display = ("__str__", "state", "started", "ended", "deadline")
    list_filter = ("tournament", "state")
    readonly_fields = (
        "tournament",
        "number",
        "state",
        "started",
        "ended",
        "deadline",
        "commitment",
    )
    fields = readonly_fields
    inlines = (TableInline,)
    actions = ("repair",)

    @admin.action(description="Pair again (a round with no move made)")
    def repair(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for rnd in queryset.select_related("tournament"):
            _run(
                self,
                request,
                f"Paired {rnd} again.",
                lambda r=rnd: services.repair_round(request.user, r),
            )


class TableSeatInline(NoAdding, admin.TabularInline):
    model = TableSeat
    fields = ("seat", "entry", "place", "total", "points")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Table)
class TableAdmin(NoAdding, admin.ModelAdmin):
    list_display = ("__str__", "game", "done", "adjudicated")
    list_filter = ("round__tournament", "done")
    readonly_fields = ("round", "number", "game", "done", "adjudicated")
    fields = readonly_fields
    inlines = (TableSeatInline,)
    actions = ("adjudicate",)

    @admin.action(description="Adjudicate (end now, scored as if blocked)")
    def adjudicate(self, request: HttpRequest, queryset: QuerySet[Table]) -> Any:
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return _ask_reason(self, request, queryset, form, "adjudicate", "Adjudicate tables")
        reason = form.cleaned_data["reason"]
        for table in queryset.select_related("round__tournament", "game"):
            _run(
                self,
                request,
                f"Adjudicated {table}.",
                lambda tb=table: services.adjudicate(request.user, tb, reason),
            )
        return None
