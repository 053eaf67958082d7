"""The puzzle trainer's pages: server-rendered for now; the board front end reads the
``puzzle-bootstrap`` JSON on the puzzle page and talks to the API (puzzles/api.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_safe

from games.errors import DomainError
from games.identity import identity_of
from games.models import Game, Status
from games.review import position_before
from rummi_site.jsonapi import status_of
from rummi_site.limits import limited

from . import daily as dailies
from . import editor as editing
from . import services
from .captions import caption
from .forms import EditorForm
from .models import Attempt, Puzzle

MODES = ("trainer", "streak", "daily")
DAILY_HERE = (
    "That is today's daily puzzle: your first try at it is your daily try, so it opens here. "
    "Once you have made it, the puzzle opens on its own page too."
)


@require_safe
def trainer(request: HttpRequest) -> HttpResponse:
    if (refused := _refuse_a_bad_mode(request)) is not None:
        return refused
    player = identity_of(request)
    state = services.trainer_state(player)
    streak = services.next_puzzle(player, "streak")
    context = {
        "state": state,
        "streak_next": streak and services.puzzle_summary(streak, "streak"),
    }
    return render(request, "puzzles/trainer.html", context)


# The modes the trainer's pages take in ?mode=, as its API does (GET /puzzles/api/trainer).
TRAINER_MODES = ("trainer", "streak")


def _refuse_a_bad_mode(
    request: HttpRequest, modes: tuple[str, ...] = TRAINER_MODES
) -> HttpResponse | None:
    """A 400 page for a ?mode= that is not one of ``modes`` (it was ignored in silence), else
    None."""
    asked = request.GET.get("mode") or "trainer"
    if asked in modes:
        return None
    named = ", ".join(modes[:-1]) + f" or {modes[-1]}"
    message = f"The mode must be {named}, as in ?mode=streak (not {asked[:20]!r})."
    return render(request, "400.html", {"message": message}, status=400)


@require_safe
def next_puzzle(request: HttpRequest) -> HttpResponse:
    """Go to the next puzzle of the trainer (or of the streak, ``?mode=streak``)."""
    if (refused := _refuse_a_bad_mode(request)) is not None:
        return refused
    mode = request.GET.get("mode") or "trainer"
    puzzle = services.next_puzzle(identity_of(request), mode)
    if puzzle is None:
        return HttpResponseRedirect(reverse("puzzles:trainer"))
    return HttpResponseRedirect(services.puzzle_summary(puzzle, mode)["url"])


def bootstrap(puzzle: Puzzle, mode: str) -> dict[str, Any]:
    """What the board front end needs to show and play ``puzzle``."""

    def api(name: str) -> str:
        return reverse(f"puzzles:api_{name}", args=[puzzle.slug])

    return {
        "slug": puzzle.slug,
        "table": puzzle.table,
        "rack": puzzle.rack,
        "goal": puzzle.goal_json,
        "level": puzzle.level,
        "lesson": caption(puzzle),
        "technique": puzzle.get_technique_display(),  # a label for people, not the identifier
        "mode": mode,
        "api": {name: api(name) for name in ("attempt", "submit", "hint", "give_up")},
    }


def _puzzle_page(request: HttpRequest, puzzle: Puzzle, mode: str) -> HttpResponse:
    player = identity_of(request)
    if services.daily_pending(puzzle, player):
        # Today's daily opens on its own page until the player's daily try is made: any try
        # at it is that try (README "Puzzles"); afterwards it opens here as practice.
        messages.info(request, DAILY_HERE)
        return redirect("puzzles:daily")
    attempt = services.open_attempt(puzzle, player)
    context = {
        "puzzle": puzzle,
        "mode": mode,
        "bootstrap": {
            **bootstrap(puzzle, mode),
            "give_up_cost": services.give_up_cost(puzzle, player),
        },
        "attempt": attempt,
        "rating": services.rating_json(player),
        "share_url": request.build_absolute_uri(puzzle.get_absolute_url())
        if puzzle.share_token
        else None,
    }
    return render(request, "puzzles/puzzle.html", context)


@require_safe
@ensure_csrf_cookie
def puzzle_page(request: HttpRequest, slug: str) -> HttpResponse:
    puzzle = get_object_or_404(Puzzle, slug=slug)
    if (refused := _refuse_a_bad_mode(request, MODES)) is not None:
        return refused
    mode = request.GET.get("mode") or "trainer"
    if not puzzle.public:
        mode = Attempt.Mode.SHARED
    return _puzzle_page(request, puzzle, mode)


@require_safe
@ensure_csrf_cookie
def shared_page(request: HttpRequest, token: str) -> HttpResponse:
    puzzle = get_object_or_404(Puzzle, share_token=token)
    return _puzzle_page(request, puzzle, Attempt.Mode.SHARED if not puzzle.public else "trainer")


@require_safe
@ensure_csrf_cookie
def daily(request: HttpRequest) -> HttpResponse:
    player = identity_of(request)
    on = dailies.today()
    try:
        state = dailies.daily_state(player, on)
    except DomainError as error:
        raise Http404(error.message) from None
    puzzle = Puzzle.objects.get(slug=state["puzzle"]["slug"])
    context = {
        "state": state,
        "puzzle": puzzle,
        "mode": "daily",
        "bootstrap": {
            **bootstrap(puzzle, "daily"),
            "give_up_cost": services.give_up_cost(puzzle, player),
            # Solved today already: the board shows the solved table, not a fresh start.
            "solved_table": puzzle.solution if state["solved"] else None,
            "daily_api": reverse("puzzles:api_daily"),
        },
    }
    return render(request, "puzzles/daily.html", context)


@require_safe
def daily_archive(request: HttpRequest) -> HttpResponse:
    rows = dailies.daily_archive(dailies.today())
    return render(request, "puzzles/archive.html", {"rows": rows})


@require_http_methods(["GET", "HEAD", "POST"])
@limited("editor")
def editor(request: HttpRequest) -> HttpResponse:
    """The puzzle editor: meld lines and a rack line; the solver checks, saving shares."""
    form = EditorForm(request.POST if request.method == "POST" else None)
    context: dict[str, Any] = {"form": form}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "puzzles/editor.html", context, status=400)
        data = form.cleaned_data
        table, rack = editing.parse_editor_text(data["table"], data["rack"])
        try:
            context["result"] = editing.check_position(table, rack)
            if data["action"] == "save":
                user = request.user.pk if request.user.is_authenticated else None
                puzzle = editing.save_user_puzzle(table, rack, user)
                return HttpResponseRedirect(puzzle.get_absolute_url())
        except DomainError as error:
            context["error"] = error.message
            status = status_of(error)
            return render(request, "puzzles/editor.html", context, status=status)
    return render(request, "puzzles/editor.html", context)


@require_http_methods(["POST"])
def missed_play_puzzle(request: HttpRequest, gid: str, seq: int) -> HttpResponse:
    """Open a finished game's reviewed turn, where a better play was missed, as a puzzle
    shared by link (the editor's kind), from the game's replay page."""
    game = get_object_or_404(Game, public_id=gid, status=Status.FINISHED)
    if game.sealed:
        # A duplicate round's deal is still being played at other tables: its positions are
        # withheld with its replay until that round ends (docs/design.md "Tournaments").
        why = (
            "This table shares its deal with tables of its round that are still playing: its "
            "missed plays open as puzzles when that round ends."
        )
        return render(request, "games/sealed.html", {"game": game, "why": why}, status=403)
    row = next((r for r in game.review or [] if r["seq"] == seq), None)
    if row is None or not row["missed"] or not row.get("opened"):
        error = {"message": "That turn has no missed play to open as a puzzle."}
        return render(request, "games/error.html", {"error": error}, status=404)
    table, rack, _ = position_before(game, seq)
    user = request.user.pk if request.user.is_authenticated else None
    try:
        lesson = f"From a finished game: the play missed at step {seq} of its replay."
        puzzle = editing.save_user_puzzle(table, rack, user, lesson=lesson)
    except DomainError as error:
        context = {"error": {"message": error.message}}
        return render(request, "games/error.html", context, status=status_of(error))
    return redirect(puzzle.get_absolute_url())
