"""Pages: lobby, new game, invite links, the board, replay, record export and seed check."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from rummi_site.jsonapi import status_of
from rummi_site.limits import limited

from . import services
from .api import invites
from .errors import DomainError
from .forms import JoinForm, NewGameForm, RematchForm
from .identity import GUEST_NAME, become_guest, identity_of, seated_identity
from .models import Game, Seat, Status
from .modes import guides
from .names import shown_name
from .review import hints_allowed
from .services.teaching import BY_SLUG, LESSONS, teaching_steps


def _my_games(request: HttpRequest) -> list[dict[str, Any]]:
    viewer = identity_of(request)
    if viewer.user_id is not None:
        seats = Seat.objects.filter(user_id=viewer.user_id)
    elif viewer.guest_key:
        seats = Seat.objects.filter(guest_key=viewer.guest_key, user__isnull=True)
    else:
        return []
    rows = []
    # The seats and their accounts for the list's avatars and profile links, in two queries.
    seats = seats.select_related("game").prefetch_related("game__seats__user")
    for seat in seats.order_by("-game__created")[:50]:
        game = seat.game
        my_turn = services.my_turn(game, seat.index)
        rows.append({"game": game, "seat": seat, "my_turn": my_turn})
    # A game the player resigned is over for them, though the others may play on.
    rows.sort(
        key=lambda r: (
            not r["my_turn"],
            r["game"].status == Status.FINISHED or r["seat"].resigned is not None,
        )
    )
    return rows


def _home(request: HttpRequest, form: NewGameForm, status: int = 200) -> HttpResponse:
    mine = _my_games(request)
    mine_ids = {row["game"].pk for row in mine}
    lobby = (
        Game.objects.filter(status=Status.WAITING, listed=True)
        .exclude(pk__in=mine_ids)
        .filter(Q(seats__joined__isnull=True, seats__kind="human"))
        .distinct()
        .prefetch_related("seats__user")
        .order_by("-created")[:30]
    )
    return render(
        request,
        "home.html",
        {
            "lobby": [{"game": g, "invites": invites(g)} for g in lobby],
            "mine": mine,
            "form": form,
            "guides": guides(),
        },
        status=status,
    )


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return _home(request, NewGameForm(initial={"name": request.session.get(GUEST_NAME, "")}))


@require_safe
def how_to_play(request: HttpRequest) -> HttpResponse:
    """The rules in a player's words (docs/rules.md) and every mode's (modes.GUIDES)."""
    return render(request, "how_to_play.html", {"guides": guides(), "lessons": LESSONS})


@require_safe
def teaching_replay(request: HttpRequest, rule: str) -> HttpResponse:
    """A Rummy 45 rule in use (docs/rules-45.md "Teaching replays"): the few steps of a shipped
    bot game around the moment, opened just before it, in the replay page's viewer."""
    lesson = BY_SLUG.get(rule)
    if lesson is None:
        known = ", ".join(f"{each.slug} ({each.title.lower()})" for each in LESSONS)
        error = {"message": f"There is no teaching replay called {rule!r}. There are: {known}."}
        return render(request, "games/error.html", {"error": error}, status=404)
    steps, moment = teaching_steps(lesson)
    index = LESSONS.index(lesson)
    context = {
        "lesson": lesson,
        "steps": steps,
        "moment": moment,
        "moment_seq": steps[moment]["seq"],
        "players": zip(lesson.names, lesson.strengths, strict=True),
        "next": LESSONS[(index + 1) % len(LESSONS)],
        "number": index + 1,
        "count": len(LESSONS),
    }
    return render(request, "games/teach.html", context)


@require_http_methods(["POST"])
@limited("create")
def new_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    try:
        viewer = become_guest(request, form.cleaned_data["name"] or identity_of(request).name)
        game = services.create_game(viewer, form.options())
    except DomainError as error:
        return render(request, "games/error.html", {"error": error.body}, status=status_of(error))
    return redirect(game)


@require_http_methods(["GET", "HEAD", "POST"])
@limited("join")
def join(request: HttpRequest, token: str) -> HttpResponse:
    seat = get_object_or_404(Seat.objects.select_related("game"), invite_token=token)
    game = seat.game
    viewer = identity_of(request)
    if services.seat_of(game, viewer) is not None:
        return redirect(game)

    def page(context: dict[str, Any], status: int = 200) -> HttpResponse:
        # A signed-in player sits under the name every page shows for them.
        shown = shown_name(request.user) if request.user.is_authenticated else ""
        context = {"game": game, "seated_as": shown, **context}
        return render(request, "games/join.html", context, status=status)

    refused = 409 if request.method == "POST" else 200
    if not _has_a_seat_to_take(game):
        # Every seat is taken (or kept for a rematch's player): the page says so, with the game
        # to watch once it is dealt, and no form to fill in for nothing.
        return page({"full": True}, refused)
    if not game.listed and not seat.is_open and not seat.reserved:
        # An unlisted table's links are one to a person: this one's seat is someone's now.
        return page({"full": True, "taken": True}, refused)
    if request.method == "POST":
        form = JoinForm(request.POST)
        if not form.is_valid():
            return page({"form": form}, 400)
        try:
            viewer = become_guest(request, form.cleaned_data["name"] or viewer.name)
            services.join_game(viewer, token)
        except DomainError as error:
            context = {"form": form, "error": error.body}
            if error.code in ("game_full", "seat_taken"):  # taken by someone else meanwhile
                context |= {"full": True, "taken": error.code == "seat_taken"}
            return page(context, status_of(error))
        return redirect(game)
    return page({"form": JoinForm(initial={"name": request.session.get(GUEST_NAME, "")})})


def _has_a_seat_to_take(game: Game) -> bool:
    """Whether an invite link of ``game`` can still seat someone (services.join_game takes any
    open seat that is not kept for one person)."""
    return game.status == Status.WAITING and any(
        seat.is_open and not seat.reserved for seat in game.seats.all()
    )


@require_http_methods(["POST"])
@limited("create")
def rematch(request: HttpRequest, gid: str) -> HttpResponse:
    """Ask for or accept a rematch of finished game ``gid``, then go to the new game."""
    if not RematchForm(request.POST).is_valid():
        return render(request, "games/error.html", {"error": {"message": "Bad form."}}, status=400)
    try:
        new = services.offer_rematch(gid, seated_identity(request))
    except DomainError as error:
        return render(request, "games/error.html", {"error": error.body}, status=status_of(error))
    return redirect(new)


@require_http_methods(["POST"])
def leave(request: HttpRequest, gid: str) -> HttpResponse:
    """Leave a table waiting for players (the waiting room's button): the creator closes it,
    anyone else gives their seat back; then the parlor, saying which."""
    if not RematchForm(request.POST).is_valid():  # no fields: the CSRF token alone
        return render(request, "games/error.html", {"error": {"message": "Bad form."}}, status=400)
    try:
        closed = services.leave_table(gid, identity_of(request))
    except DomainError as error:
        return render(request, "games/error.html", {"error": error.body}, status=status_of(error))
    said = "You closed the table." if closed else "You left the table: your seat is open again."
    messages.success(request, said)
    return redirect("home")


@require_safe
def game_page(request: HttpRequest, gid: str) -> HttpResponse:
    game = Game.objects.filter(public_id=gid).first()
    if game is None:
        closed = services.closed_table(gid)
        if closed is not None:  # a table closed before it started says why
            context = {"reason": closed}
            return render(request, "games/closed.html", context, status=410)
        # A rematch offer that lapsed unaccepted says so, with the way back to its game.
        back = services.lapsed_rematch(gid)
        if back is None:
            raise Http404("No such game.")
        context = {"back": back, "open_for": open_for_words(back)}
        return render(request, "games/lapsed.html", context, status=410)
    viewer = identity_of(request)
    try:
        summary = services.game_summary(game, viewer)
    except DomainError as error:  # a sealed game's outsider
        context = {"game": game, "why": error.message, "back": services.way_back(game)}
        return render(request, "games/sealed.html", context, status=status_of(error))
    if game.status == Status.WAITING:
        # A listed game's open seats are in the lobby for anyone to take; an unlisted game's
        # invite links are its creator's (seat 0) to hand out, shown to nobody else.
        shown = invites(game) if game.listed or summary["me"] == 0 else []
        context = {"game": game, "summary": summary, "invites": shown, "me": summary["me"]}
        mine = services.seat_of(game, viewer)
        context["seated"] = mine is not None and mine.joined is not None
        context["closes"] = game.created + services.waiting_open_for(game)
        if game.rematch_of is not None:
            context["rematch_of"] = game.rematch_of
            context["rematch"] = services.rematch_state(game.rematch_of, viewer)
            context["rematch_expires"] = services.rematch_expires(game)
            context["rematch_open_for"] = open_for_words(game)
        return render(request, "games/waiting.html", context)
    # One template and one page module per family (templates/games/<family>.html), over the
    # shared board kit; only the asking seat's own tiles are in its bootstrap, as in the API.
    bootstrap = {
        **summary,
        "seat": summary["me"],
        "tile_codes": services.tile_codes(game),
        "api": game.api_url,
        "ws": game.socket_path,
        "home": reverse("home"),
        "back": services.way_back(game),
        "csrf": get_token(request),
        "hints": hints_allowed(game),
        "away": services.away_seats(game),
        # The in-memory channel layer lives in one process: moves made by the Celery worker
        # (bots, timeouts) reach no socket, so with it the board also polls.
        "poll_ms": 2000 if "InMemory" in settings.CHANNEL_LAYERS["default"]["BACKEND"] else None,
    }
    page = select_template([f"games/{game.family}.html", "games/family.html"])
    return HttpResponse(page.render({"game": game, "bootstrap": bootstrap}, request))


def open_for_words(game: Game) -> str:
    """How long a rematch offer of ``game`` stays open, in words ("10 minutes", "3 days")."""
    minutes = int(services.rematch_open_for(game).total_seconds() // 60)
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return f"{days} day{'s' if days != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


SEALED = (
    "This table shares its deal with tables of its round that are still playing: its replay, "
    "record and seed open when that round ends."
)


def _sealed(game: Game) -> HttpResponse:
    """What a sealed game's replay, record and seed check answer until its round ends."""
    return JsonResponse({"error": "sealed", "message": SEALED}, status=403)


@require_safe
def replay_page(request: HttpRequest, gid: str) -> HttpResponse:
    game = get_object_or_404(Game, public_id=gid)
    if game.status == Status.WAITING:
        raise Http404("The game has not started.")
    if game.sealed:
        return render(request, "games/sealed.html", {"game": game, "why": SEALED}, status=403)
    steps = services.replay_steps(game)
    # The review is made by a task when the game ends (and asked for again by a beat sweep if
    # it was lost); a GET only shows it, and says so while it is being made.
    if game.review is not None:
        notes = {row["seq"]: row for row in game.review}
        for step in steps:
            row = notes.get(step["seq"])
            if row and row["missed"] and row.get("opened"):
                step["puzzle_url"] = reverse("missed_play_puzzle", args=[gid, row["seq"]])
            if row and row["missed"]:
                step["review"] = (
                    f"{row['name']} laid {row['played']}; the best play laid {row['best']} "
                    f"({row['missed']} more): " + "  ".join(" ".join(m) for m in row["best_table"])
                )
    # Who played, for the page's player line and its racks' names: an account's name links to
    # its profile; a guest's, a bot's and a deleted player's do not (Seat.as_dict's username).
    seats = list(game.seats.select_related("user"))
    usernames = [s.as_dict()["username"] for s in seats]
    # How each seat was played, and the steps a stand-in played (docs/fair-play.md).
    results = list(game.results.all())
    fair = {r.seat: r.fair_play for r in results if r.fair_play != "aborted"}
    players = [(s, fair.get(s.index, "")) for s in seats]
    stood = {seq for seqs in services.stand_in_seqs(game).values() for seq in seqs}
    for step in steps:
        if step["seq"] in stood:
            step["text"] += " (stand-in)"
    context = {
        "game": game,
        "steps": steps,
        "seats": seats,
        "players": players,
        "aborted": any(r.aborted for r in results),
        "usernames": usernames,
    }
    return render(request, "games/replay.html", context)


@require_safe
def record(request: HttpRequest, gid: str) -> HttpResponse:
    game = get_object_or_404(Game, public_id=gid)
    if game.status != Status.FINISHED:
        return JsonResponse(
            {"error": "not_finished", "message": "A record is exported once the game is over."},
            status=409,  # as the end's scorecard and a rematch before the end
        )
    if game.sealed:
        return _sealed(game)
    response = JsonResponse(
        {
            "game": gid,
            "mode": game.mode,
            "commitment": game.commitment,
            "seed": game.seed,
            "events": [e.payload for e in game.events.order_by("seq")],
            # Turns a bot played for a person who was gone (docs/design.md "Tournaments").
            "stand_ins": list(game.stand_ins.values("seat", "turn_number")),
        }
    )
    response["Content-Disposition"] = f'attachment; filename="rummi-{gid}.json"'
    return response


@require_safe
def verify(request: HttpRequest, gid: str) -> HttpResponse:
    game = get_object_or_404(Game, public_id=gid)
    if game.sealed:
        return render(request, "games/sealed.html", {"game": game, "why": SEALED}, status=403)
    check = services.seed_check(game)
    return render(request, "games/verify.html", {"game": game, "check": check})
