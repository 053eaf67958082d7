"""The puzzle trainer's JSON API: thin views over puzzles.services (and daily, editor).

POST bodies are JSON and need Django's CSRF token in ``X-CSRFToken`` (the puzzle pages set the
``csrftoken`` cookie). A guest is known by the session; the first ``attempt`` makes them one.

=======================================  ===================================================
``GET  /puzzles/api/trainer?mode=``      ``{"mode", "next": {"slug", "url", "level",
                                         "technique", "rating"} | null, "ramp": {"levels":
                                         [{"level", "technique", "solved", "needed"}],
                                         "done"}, "rating": {"rating", "rd", "games",
                                         "streak": {"current", "best"}}}``; mode trainer or
                                         streak
``GET  /puzzles/api/daily``              ``{"date", "puzzle": {...as next}, "leaderboard":
                                         [{"rank", "name", "username", "seconds",
                                         "hints"}], "streak", "solved"}``
``POST /puzzles/api/<slug>/attempt``     ``{"mode": "trainer"|"streak"|"daily"}`` -> 201 a
                                         new attempt, 200 the open one: ``{"id", "mode",
                                         "started", "hints"}``; the first try at today's
                                         daily is ``"daily"`` whatever the mode asked
``POST /puzzles/api/<slug>/submit``      ``{"table": [[codes]]}`` (the whole final table) ->
                                         ``{"solved": true, "played", "seconds", "hints",
                                         "rating": {"before", "after", "change", "rd",
                                         "puzzle": {"before", "after"}} | null}``
``POST /puzzles/api/<slug>/hint``        ``{"meld": [codes], "hint", "hints_left",
                                         "message"}``
``POST /puzzles/api/<slug>/give-up``     ``{"solution": [[codes]], "solved": false,
                                         "rating": {...} | null}``
``POST /puzzles/api/editor``             ``{"table": [[codes]], "rack": [codes], "save"}`` ->
                                         ``{"tiles_placeable", "rack_size", "played",
                                         "solution"}`` (+ ``"slug", "share_url"``, 201)
=======================================  ===================================================

Errors are JSON ``{"error": code, "message": sentence}`` with a 4xx status: 400 malformed
(``bad_json``, ``bad_table``, ``bad_rack``, ``bad_mode``, ``bad_save`` (save not true,
false or left out), ``not_the_daily``,
``not_the_streak_puzzle``, and ``bad_field`` for a field the call does not take: hint and
give-up take none), 403 ``daily_position`` (the editor given the position of a daily
whose leaderboard is still open: today's or yesterday's, its table tiles however grouped, or
all its tiles), 404
``no_such_puzzle``, 409 ``no_attempt`` (none started, or today's daily not yet started as the
daily try), ``already_finished`` (submit, hint or give-up after the last attempt was solved or
given up: start it again) or ``no_more_hints``, 422 a rule broken: the engine's code
(``meld_invalid``, ``table_tile_taken``, ``tile_not_in_rack``, ``no_tile_played``,
``joker_not_replaced``) or ``goal_not_met``, and in the editor ``too_many_copies`` or
``nothing_playable``.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST, require_safe

from games.errors import Invalid, refuse_other_fields, sent_as
from games.identity import guest_key, identity_of
from rummi_site.jsonapi import json_errors, read_body
from rummi_site.limits import limited

from . import daily as dailies
from . import editor as editing
from . import services
from .models import Attempt


def _mode(value: object) -> str:
    """The attempt's ``mode`` as sent: missing or null is the trainer; anything but text is
    refused here, and text that is no mode by :func:`services.start_attempt`."""
    if value is None:
        return "trainer"
    if not isinstance(value, str):
        modes = ", ".join(f'"{mode}"' for mode in Attempt.Mode.values)
        raise Invalid("bad_mode", f"mode must be one of {modes} (as text), or left out.")
    return value


@require_safe
@json_errors
def trainer(request: HttpRequest) -> JsonResponse:
    mode = request.GET.get("mode") or "trainer"
    if mode not in ("trainer", "streak"):
        raise Invalid("bad_mode", "mode must be trainer or streak.")
    return JsonResponse(services.trainer_state(identity_of(request), mode))


@require_safe
@json_errors
def daily(request: HttpRequest) -> JsonResponse:
    return JsonResponse(dailies.daily_state(identity_of(request), dailies.today()))


@require_POST
@json_errors
@limited("puzzle")
def attempt(request: HttpRequest, slug: str) -> JsonResponse:
    body = read_body(request)
    refuse_other_fields(body, ("mode",), "bad_field", "an attempt")
    puzzle = services.get_puzzle(slug)
    if not request.user.is_authenticated:
        guest_key(request.session)  # a first puzzle makes the visitor a guest
    player = identity_of(request)
    found, created = services.start_attempt(puzzle, player, _mode(body.get("mode")))
    return JsonResponse(services.attempt_json(found), status=201 if created else 200)


@require_POST
@json_errors
@limited("puzzle")
def submit(request: HttpRequest, slug: str) -> JsonResponse:
    body = read_body(request)
    refuse_other_fields(body, ("table",), "bad_field", "a solution")
    puzzle = services.get_puzzle(slug)
    return JsonResponse(services.submit(puzzle, identity_of(request), body.get("table")))


@require_POST
@json_errors
@limited("puzzle")
def hint(request: HttpRequest, slug: str) -> JsonResponse:
    # No fields, but a malformed body is refused like anywhere else, and so is a field.
    refuse_other_fields(read_body(request), (), "bad_field", "a hint")
    puzzle = services.get_puzzle(slug)
    return JsonResponse(services.hint(puzzle, identity_of(request)))


@require_POST
@json_errors
@limited("puzzle")
def give_up(request: HttpRequest, slug: str) -> JsonResponse:
    refuse_other_fields(read_body(request), (), "bad_field", "giving up")
    puzzle = services.get_puzzle(slug)
    return JsonResponse(services.give_up(puzzle, identity_of(request)))


# The fields of POST /puzzles/api/editor.
EDITOR_FIELDS = ("table", "rack", "save")


@require_POST
@json_errors
@limited("editor")
def editor(request: HttpRequest) -> JsonResponse:
    """``{"table": [[codes]], "rack": [codes], "save": false}``: the solver's verdict, and
    with ``save`` a new puzzle shared by link. Any other field is refused with a sentence (a
    misspelt ``sav`` would check the position and save nothing, in silence)."""
    body = read_body(request)
    refuse_other_fields(body, EDITOR_FIELDS, "bad_field", "a position")
    save = body.get("save")
    if save is not None and not isinstance(save, bool):
        # Not read as truthy: "no" or [0] would save a puzzle nobody asked for.
        came = sent_as(save)
        raise Invalid("bad_save", f"save is true or false, or left out; it came as {came}.")
    checked = editing.check_position(body.get("table"), body.get("rack"))
    if save:
        user = request.user.pk if request.user.is_authenticated else None
        puzzle = editing.save_user_puzzle(body.get("table"), body.get("rack"), user)
        checked["share_url"] = puzzle.get_absolute_url()
        checked["slug"] = puzzle.slug
        return JsonResponse(checked, status=201)
    return JsonResponse(checked)
