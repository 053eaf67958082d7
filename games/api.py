"""The JSON API of docs/api.md: thin views over games.services."""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from rummi_site import push
from rummi_site.jsonapi import is_json_path, json_errors, read_body
from rummi_site.limits import limited
from rummi_site.retry import idempotent

from . import services
from .errors import Conflict, Forbidden, Invalid, refuse_other_fields, sent_as
from .identity import become_guest, identity_of, seated_identity
from .models import Game
from .modes import BOT_STRENGTHS, CORRESPONDENCE_DAYS, GUIDES, LIVE_CLOCKS, TARGET_SCORES, TILE_SETS
from .review import best_play, hints_allowed, played_for_an_occasion
from .services import get_game


@require_safe
@json_errors
def game_detail(request: HttpRequest, gid: str) -> JsonResponse:
    return JsonResponse(services.game_summary(get_game(gid), identity_of(request)))


@require_safe
@json_errors
def game_events(request: HttpRequest, gid: str) -> JsonResponse:
    raw = request.GET.get("after", "0")
    after = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else -1
    if after < 0:
        raise Invalid(
            "bad_after",
            "after must be a whole number: the seq of the last event you have, 0 for all.",
        )
    return JsonResponse(services.events_after(get_game(gid), identity_of(request), after))


@require_safe
@json_errors
@limited("hint", methods=("GET", "HEAD"))
def game_hint(request: HttpRequest, gid: str) -> JsonResponse:
    """The solver's best play for the asking seat: Sandbox and bot practice only, for a player
    still in the game, in a family that has the solver."""
    game = get_game(gid)
    seat = services.seat_of(game, identity_of(request))
    if seat is None:
        raise Forbidden("not_a_player", "You are not playing in this game.")
    family = services.family_of(game)
    if not family.reviewed:
        raise Forbidden(
            "no_hints", f"{family.label} has no hints: they come from the Rummikub solver."
        )
    if game.rated:
        raise Forbidden("rated_no_hints", "A rated game has no hints.")
    if seat.resigned is not None:
        raise Forbidden("resigned", "You resigned from this game: it has no hints for you.")
    if played_for_an_occasion(game):
        raise Forbidden(
            "tournament_no_hints", "A tournament's table has no hints, even against bots."
        )
    if not hints_allowed(game):
        raise Forbidden("hints_off", "Hints are for Sandbox and practice against bots.")
    state = services.load_state(game)
    if state is None or state.finished:
        raise Conflict("not_playing", "This game is not being played now.")
    return JsonResponse({"seq": game.seq, **best_play(state, seat.index, for_web=True)})


@require_safe
@json_errors
def game_end(request: HttpRequest, gid: str) -> JsonResponse:
    """A finished game's scorecard, links and rematch, for the board's end dialog."""
    return JsonResponse(services.end_of_game(get_game(gid), identity_of(request)))


@require_POST
@json_errors
@limited("create")
def game_rematch(request: HttpRequest, gid: str) -> JsonResponse:
    """Ask for or accept a rematch; answers the new game's address and the rematch's state."""
    refuse_other_fields(read_body(request), (), "bad_field", "a rematch")
    # A signed-in player sits down under the name every page shows for them, as at create.
    viewer = seated_identity(request)
    new = services.offer_rematch(gid, viewer)
    state = services.rematch_state(get_game(gid), viewer)
    return JsonResponse({"gid": new.public_id, "url": new.get_absolute_url(), **state})


@require_POST
@json_errors
def game_leave(request: HttpRequest, gid: str) -> JsonResponse:
    """Leave a table waiting for players: the creator closes it, anyone else gives their seat
    back (its invite link takes a new player), a rematch offer is called off."""
    refuse_other_fields(read_body(request), (), "bad_field", "leaving a table")
    closed = services.leave_table(gid, identity_of(request))
    return JsonResponse({"gid": gid, "closed": closed})


@require_http_methods(["GET", "HEAD", "POST"])
@json_errors
def game_away(request: HttpRequest, gid: str) -> JsonResponse:
    """GET: the seats marked away (three timeouts in a row). POST ``{"seat", "choice"}``:
    a player at the table puts a bot in that seat (``"bot"``) or ends the game (``"end"``)."""
    if request.method in ("GET", "HEAD"):
        return JsonResponse({"away": services.away_seats(get_game(gid))})
    body = read_body(request)
    seat = body.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise Invalid("bad_seat", "seat must be a seat number.")
    viewer = identity_of(request)
    return JsonResponse(services.settle_away_seat(gid, viewer, seat, str(body.get("choice"))))


@idempotent  # a move's key makes a second run answer the first answer (rummi_site/retry.py)
@require_POST
@json_errors
def game_action(request: HttpRequest, gid: str, action: str) -> JsonResponse:
    body = read_body(request)
    viewer = identity_of(request)
    return JsonResponse(services.act(gid, viewer, action, body))


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object) -> bool:
    return isinstance(value, str)


def _flag(value: object) -> bool:
    return isinstance(value, bool)


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _listed(values: Iterable[object]) -> str:
    return ", ".join(map(str, values))


# The fields of POST /api/games/ (docs/api.md): each one's JSON type, and what it takes in
# words for the sentence refusing another. null is a field left out.
NEW_GAME: dict[str, tuple[Callable[[object], bool], str]] = {
    "mode": (_text, f"text, one of {_listed(GUIDES)}"),
    "players": (_whole, "a whole number (how many sit at the table)"),
    "seats": (_texts, 'a list of the other seats, each "human" or "bot:<strength>"'),
    "clock": (_whole, f"a whole number of seconds a turn ({_listed(LIVE_CLOCKS)}), or null"),
    "days": (_whole, f"a whole number of days a move ({_listed(CORRESPONDENCE_DAYS)}), or null"),
    "target": (_whole, f"a whole number of points ({_listed(TARGET_SCORES)})"),
    "rounds": (_text, '"one" (a single round) or "target" (play to the target score)'),
    "tiles": (_text, f"text, one of {_listed(TILE_SETS)}"),
    "opening": (_whole, "a whole number of points"),
    "rated": (_flag, "true or false"),
    "listed": (_flag, "true or false"),
    "name": (_text, "text: the name shown at the table"),
    "watch": (_text, f"text, a bot strength ({_listed(BOT_STRENGTHS)})"),
}
# The fields only some modes take (their guide's options; Sandbox's tile set and opening).
MODE_FIELDS = ("clock", "days", "target", "rounds", "tiles", "opening")


def new_game_options(body: dict[str, Any]) -> dict[str, Any]:
    """The body of ``POST /api/games/`` checked field by field, as the page's form checks its
    own: a known field, of its JSON type or null, and an option the mode takes; else 400
    ``bad_options`` (``bad_name`` for the name) with a sentence naming the field and what it
    takes. A null field is one left out. Its values are then the services' to check (a clock
    the mode does not offer)."""
    refuse_other_fields(body, tuple(NEW_GAME), "bad_options", "a new game")
    for key, value in body.items():
        check, takes = NEW_GAME[key]
        if value is not None and not check(value):
            code = "bad_name" if key == "name" else "bad_options"
            came = f"it came as {sent_as(value)}"
            if check is _texts and isinstance(value, list):  # which item is not text
                n, item = next((n, v) for n, v in enumerate(value, 1) if not isinstance(v, str))
                came = f"its item {n} came as {sent_as(item)}"
            raise Invalid(code, f"{key} takes {takes}; {came}.")
    if body.get("rounds") not in (None, "", "one", "target"):
        raise Invalid("bad_options", f"rounds takes {NEW_GAME['rounds'][1]}.")
    body = {key: value for key, value in body.items() if value is not None}  # null: left out
    if body.get("clock") not in (None, "") and body.get("days") not in (None, ""):
        raise Invalid(
            "bad_options",
            "A game has a clock (seconds a turn) or days a move, not both: "
            "send clock for a live game, days for a correspondence game.",
        )
    info = GUIDES.get(body.get("mode") or "parlor")
    if info is None:
        return body  # a mode no family plays: the services say which there are
    takes = set(info.options)
    for key in MODE_FIELDS:
        if body.get(key) in (None, "") or key in takes:
            continue
        if key == "clock" and info.fixed_clock:
            message = f"{info.label} has a {info.fixed_clock}-second clock: leave clock out."
        else:
            own = _listed(sorted(takes - {"players"})) or "none but players"
            message = f"{info.label} has no {key} option (its options: {own})."
        raise Invalid("bad_options", message)
    return body


def _guest_name(body: dict[str, Any]) -> str | None:
    """The ``name`` a guest sent, text or nothing (its rules: :func:`become_guest`); a body that
    sends any other field is refused with a sentence (a misspelt ``nmae`` would otherwise sit
    the guest down under the name of their session)."""
    refuse_other_fields(body, ("name",), "bad_options", "joining")
    name = body.get("name")
    if name is not None and not isinstance(name, str):
        raise Invalid("bad_name", f"name takes {NEW_GAME['name'][1]}; it came as {sent_as(name)}.")
    return name


@require_POST
@json_errors
@limited("create")
def create(request: HttpRequest) -> JsonResponse:
    body = new_game_options(read_body(request))
    viewer = identity_of(request)
    # A guest names themselves (the name rules apply); an account sits under its shown name.
    viewer = become_guest(request, body.get("name") or viewer.name)
    game = services.create_game(viewer, body)
    return JsonResponse(
        {"gid": game.public_id, "url": game.get_absolute_url(), "invites": invites(game)},
        status=201,
    )


@require_POST
@json_errors
@limited("join")
def join(request: HttpRequest, token: str) -> JsonResponse:
    name = _guest_name(read_body(request))
    seated = services.game_seating(identity_of(request), token)
    if seated is not None:
        # Already at this table: joining again changes nothing, the guest's name included (it
        # is the name the table knows them by), as the join page sends them to the game.
        return JsonResponse({"gid": seated.public_id, "url": seated.get_absolute_url()})
    viewer = become_guest(request, name or identity_of(request).name)
    game = services.join_game(viewer, token)
    return JsonResponse({"gid": game.public_id, "url": game.get_absolute_url()})


def invites(game: Game) -> list[dict[str, Any]]:
    """The links of the open seats anyone may take (not those a rematch keeps for a player)."""
    return [
        {"seat": s.index, "url": s.invite_url}
        for s in game.seats.all()
        if s.is_open and not s.reserved
    ]


def csrf_failure(request: HttpRequest, reason: str = "") -> Any:
    """CSRF failures: JSON for the API, the site's own page elsewhere (templates/403_csrf.html:
    a form from a stale page or a browser keeping no cookies, never Django's page)."""
    match = request.resolver_match  # the JSON endpoints' URL names start with api_
    if is_json_path(request) or (match is not None and (match.url_name or "").startswith("api_")):
        return JsonResponse(
            {"error": "csrf", "message": "The request lacks a valid CSRF token; reload the page."},
            status=403,
        )
    return render(request, "403_csrf.html", status=403)


@csrf_exempt
@require_POST
def relayed_frames(request: HttpRequest) -> HttpResponse:
    """Messages from a Celery worker in embedded mode (rummi_site/push.py ``relay``), signed
    with the run's fresh relay secret; sent on to this process's sockets. Off (404) without
    one."""
    if not push.relay_on():
        return JsonResponse({"error": "relay_off", "message": "No frame relay here."}, status=404)
    given = request.headers.get("X-Rummi-Signature", "")
    if not given or not hmac.compare_digest(given, push.signature(request.body)):
        return JsonResponse({"error": "bad_signature", "message": "Not signed."}, status=403)
    try:
        group, message = push.relayed(json.loads(request.body))
    except ValueError:
        refused = {"error": "bad_frames", "message": "Expected a group and its message."}
        return JsonResponse(refused, status=400)
    push.send_relayed(group, message)
    return HttpResponse(status=204)
