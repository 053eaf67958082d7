"""Tournament pages: the list, a tournament's page (join, rounds, standings), downloads."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from games.errors import DomainError
from games.models import Status
from rummi_site.jsonapi import status_of
from rummi_site.limits import limited
from rummi_site.spreadsheet import write_csv

from . import services
from .models import Entry, Format, RoundState, State, Table, TableSeat, Tournament

TIEBREAKS = (
    ("score", "Score", "Score"),
    ("buchholz", "Buchholz", "Buch."),
    ("sonneborn_berger", "Sonneborn-Berger", "S-B"),
)


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    rows = Tournament.objects.order_by("starts_at")
    return render(
        request,
        "tournaments/list.html",
        {
            "upcoming": rows.filter(state=State.SCHEDULED),
            "running": rows.filter(state__in=[State.RUNNING, State.PAUSED]),
            "finished": rows.filter(state__in=[State.FINISHED, State.CANCELLED]).order_by(
                "-finished"
            )[:30],
        },
    )


def standing_rows(t: Tournament) -> list[dict[str, Any]]:
    entries = t.entries.select_related("user").order_by("rank", "-points", "-rating", "pk")
    absent = _absent_games(t)
    return [
        {
            "rank": e.rank,
            "entry": e.pk,
            "player": e.name,
            "username": _username(e),
            "profile": reverse("player_profile", args=[e.user.get_username()]) if e.user else None,
            "bot": e.bot_strength or None,
            "points": e.points,
            "tiebreaks": {
                "score": e.score,
                "buchholz": e.buchholz,
                "sonneborn_berger": e.sonneborn_berger,
            },
            "byes": e.byes,
            "withdrawn": e.withdrawn,
            # Games they were absent from (docs/fair-play.md): scored last, no points.
            "absent": absent.get(e.pk, 0),
        }
        for e in entries
    ]


def _absent_games(t: Tournament) -> dict[int, int]:
    """How many of its games each entry was absent from, by entry id."""
    found: dict[int, int] = {}
    for entry_id in TableSeat.objects.filter(
        table__round__tournament=t,
        table__game__results__seat=F("seat"),
        table__game__results__absent=True,
    ).values_list("entry_id", flat=True):
        found[entry_id] = found.get(entry_id, 0) + 1
    return found


def _username(entry: Entry) -> str | None:
    """The entry's account, for the link to its profile and its avatar; a bot's entry and a
    deleted player's (its user gone) have none."""
    return entry.user.get_username() if entry.user_id and entry.user else None


def pairing_rows(t: Tournament) -> list[dict[str, Any]]:
    rounds = []
    for rnd in t.rounds_set.prefetch_related(
        "tables__seats__entry__user", "tables__game__results", "byes__entry__user"
    ):
        tables = []
        for table in rnd.tables.all():
            game = table.game
            # "absent" or "played by a stand-in for N turns", by seat (docs/fair-play.md)
            fair = {r.seat: r.fair_play for r in game.results.all()} if game else {}
            finished = game is not None and game.status == Status.FINISHED
            tables.append(
                {
                    "table": table.number,
                    "game": game.public_id if game else None,
                    "url": (
                        reverse("replay", args=[game.public_id])
                        if finished and not game.sealed
                        else game.get_absolute_url()
                        if game
                        else None
                    ),
                    "done": table.done,
                    "adjudicated": table.adjudicated or None,
                    "commitment": game.commitment if game else "",
                    "players": [s.entry.name for s in table.seats.all()],
                    "entries": [s.entry_id for s in table.seats.all()],
                    "places": [s.place for s in table.seats.all()],
                    "points": [s.points for s in table.seats.all()],
                    "seats": [
                        {
                            "name": s.entry.name,
                            "username": _username(s.entry),
                            "place": s.place,
                            "points": s.points,
                            "fair_play": fair.get(s.seat, ""),
                        }
                        for s in table.seats.all()
                    ],
                }
            )
        rounds.append(
            {
                "round": rnd.number,
                "state": rnd.state,
                "deadline": rnd.deadline.isoformat() if rnd.deadline else None,
                "commitment": rnd.commitment or None,
                "seed": rnd.seed_shown or None,
                "tables": tables,
                "byes": [b.entry.name for b in rnd.byes.all()],
                "bye_points": [b.points for b in rnd.byes.all()],
                "bye_players": [
                    {"name": b.entry.name, "username": _username(b.entry)} for b in rnd.byes.all()
                ],
            }
        )
    return rounds


def standings_frame(t: Tournament) -> dict[str, Any]:
    """What the page's socket sends: the public standings, and how far the rounds have got
    (the page reloads its list of rounds and tables when that changes)."""
    rounds = list(t.rounds_set.values_list("state", flat=True))
    return {
        "type": "standings",
        "state": t.state,
        "standings": standing_rows(t),
        "progress": {
            "rounds": len(rounds),
            "done": rounds.count(RoundState.DONE),
            "tables_done": Table.objects.filter(round__tournament=t, done=True).count(),
        },
    }


def tournament_page(
    request: HttpRequest, tid: int, error: DomainError | None = None
) -> HttpResponse:
    t = get_object_or_404(Tournament, pk=tid)
    mine: Entry | None = None
    if request.user.is_authenticated:
        mine = t.entries.filter(user=request.user).first()
    allowed, why = services.registration_state(t)
    my_tables = [
        row
        for row in services.my_tables(request.user)
        if row["tournament_url"] == t.get_absolute_url()
    ]
    context = {
        "t": t,
        "mine": mine,
        "can_join": allowed and (mine is None or mine.withdrawn),
        "why_closed": why,
        "standings": standing_rows(t),
        "rounds": pairing_rows(t),
        "my_entry": mine.pk if mine else None,
        "my_tables": my_tables,
        "notes": t.actions.filter(public=True)[:30],
        "tiebreaks": TIEBREAKS,
        "planned": services.planned_rounds(t) if t.format != Format.ARENA else None,
        "arena_end": services.arena_end(t) if t.format == Format.ARENA and t.started else None,
        "now": timezone.now(),
        "live": {
            "socket": f"/ws/tournaments/{t.pk}/",
            "json": reverse("tournament_standings_json", args=[t.pk]),
            # The page polls only while its socket is down (static/tournaments/tournament.js).
            "poll_ms": 5000,
            "me": mine.pk if mine else None,
        },
        "error": error.message if error else None,
        "round_done": RoundState.DONE,
    }
    return render(
        request, "tournaments/detail.html", context, status=status_of(error) if error else 200
    )


@require_POST
@limited("join")
def join(request: HttpRequest, tid: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={reverse('tournament', args=[tid])}")
    try:
        services.join(request.user, tid)
    except DomainError as error:
        return tournament_page(request, tid, error)
    return redirect("tournament", tid=tid)


@require_POST
@login_required
def withdraw(request: HttpRequest, tid: int) -> HttpResponse:
    try:
        services.withdraw_self(request.user, tid)
    except DomainError as error:
        return tournament_page(request, tid, error)
    return redirect("tournament", tid=tid)


@require_safe
def standings_json(request: HttpRequest, tid: int) -> JsonResponse:
    t = get_object_or_404(Tournament, pk=tid)
    return JsonResponse({"tournament": t.name, **standings_frame(t)})


@require_safe
def pairings_json(request: HttpRequest, tid: int) -> JsonResponse:
    t = get_object_or_404(Tournament, pk=tid)
    return JsonResponse({"tournament": t.name, "format": t.format, "rounds": pairing_rows(t)})


def _csv(name: str, header: list[str], rows: list[list[Any]]) -> HttpResponse:
    """A CSV download; no cell is a formula to a spreadsheet (docs/fair-play.md "Exports")."""
    response = HttpResponse(write_csv(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_safe
def standings_csv(request: HttpRequest, tid: int) -> HttpResponse:
    t = get_object_or_404(Tournament, pk=tid)
    rows = [
        [
            r["rank"] or "",
            r["player"],
            r["points"],
            *(r["tiebreaks"][k] for k, _, _ in TIEBREAKS),
            r["byes"],
            "withdrawn" if r["withdrawn"] else "",
        ]
        for r in standing_rows(t)
    ]
    header = ["rank", "player", "points", *(k for k, _, _ in TIEBREAKS), "byes", "note"]
    return _csv(f"tournament-{t.pk}-standings.csv", header, rows)


@require_safe
def pairings_csv(request: HttpRequest, tid: int) -> HttpResponse:
    t = get_object_or_404(Tournament, pk=tid)
    rows: list[list[Any]] = []
    for rnd in pairing_rows(t):
        for table in rnd["tables"]:
            for seat, player in enumerate(table["players"]):
                rows.append(
                    [
                        rnd["round"],
                        table["table"],
                        seat + 1,
                        player,
                        table["places"][seat] or "",
                        "" if table["points"][seat] is None else table["points"][seat],
                        table["game"] or "",
                    ]
                )
        for name, points in zip(rnd["byes"], rnd["bye_points"], strict=True):
            rows.append([rnd["round"], "bye", "", name, "", points, ""])
    header = ["round", "table", "seat", "player", "place", "points", "game"]
    return _csv(f"tournament-{t.pk}-pairings.csv", header, rows)


@require_safe
def help_page(request: HttpRequest) -> HttpResponse:
    """How tournaments are paired and scored, in a player's words (docs/tournaments.md)."""
    return render(request, "tournaments/help.html")


@require_safe
def my_tables(request: HttpRequest) -> JsonResponse:
    """The signed-in player's tournament tables in play (the site-wide toast polls this)."""
    return JsonResponse({"tables": services.my_tables(request.user)})
