"""The site's URLs plus endpoints that only the browser tests' server has.

They sign a test user in, set up a game at a chosen position (the deal of its first round
replaced, as a sandbox position would be, and the log replayed into the cached state), run
a turn's clock out now instead of after its 30 seconds, let a seek's wait pass at once and run
beat's match, load the puzzle fixture, and let a tournament table's first minute pass.
"""

from __future__ import annotations

import json
import os
import random
import threading
import uuid
from datetime import timedelta
from typing import Any
from unittest import mock

from django.contrib.auth import get_user_model, login
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import path
from django.utils import timezone
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt

from games import services
from games import tasks as games_tasks
from games.engine.state import replay, state_to_record
from games.identity import Identity
from games.models import Game, Seat, SeatKind, Status
from games.services import lobby
from matchmaking import tasks as matchmaking
from matchmaking.models import Seek, SeekStatus
from rummi_site.urls import urlpatterns as site_patterns
from tournaments import services as tournaments
from tournaments.models import Table, Tournament

PASSWORD = "tiles-and-racks-42"


# A table of bots only (one watched: services.watch_bots) plays on a thread of its own, as on a
# worker: run eagerly, each bot turn would queue the next inside itself, a whole game deep, past
# Python's recursion limit. Tables with a person keep running their bot turns on the spot, so
# the tests that play them see a bot's reply in the answer to their own move.
_eager_bot_turn = games_tasks.bot_turn.apply_async


def _bot_turn(args: Any = None, kwargs: Any = None, **options: Any) -> Any:
    gid = (args or ())[0] if args else (kwargs or {}).get("gid")
    if gid and not Seat.objects.filter(game__public_id=gid, kind=SeatKind.HUMAN).exists():

        def play() -> None:
            try:
                games_tasks.bot_turn.apply(args=args, kwargs=kwargs)
            finally:
                connection.close()

        threading.Thread(target=play, daemon=True).start()
        return None
    return _eager_bot_turn(args, kwargs, **options)


# Only in the browser tests' server: pytest imports this module too (collecting doctests),
# where bot turns must stay on the spot.
if os.environ.get("DJANGO_SETTINGS_MODULE") == "tests.browser.site_settings":
    games_tasks.bot_turn.apply_async = _bot_turn  # type: ignore[method-assign]


def _user(name: str) -> Any:
    user, made = get_user_model().objects.get_or_create(
        username=name, defaults={"email": f"{name}@example.com"}
    )
    if made:
        user.set_password(PASSWORD)
        user.save()
    return user


def sign_in_organiser(request: HttpRequest) -> HttpResponse:
    """Sign in as "organiser", a superuser: the admin is the tournaments' console."""
    user = _user("organiser")
    if not user.is_superuser:
        user.is_staff = user.is_superuser = True
        user.save(update_fields=["is_staff", "is_superuser"])
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(request.GET.get("next", "/admin/"))


@csrf_exempt
def make_tournament(request: HttpRequest) -> JsonResponse:
    """Body: name, players (usernames entered), bots (how many beginner bots), and any other
    Tournament fields; it starts in a day unless "start" is true."""
    spec = json.loads(request.body)
    fields = {k: v for k, v in spec.items() if k not in ("players", "bots", "start")}
    fields.setdefault("starts_at", timezone.now() + timedelta(days=1))
    t = Tournament.objects.create(**{"mode": "lan", "table_size": 2, "rounds": 1, **fields})
    for name in spec.get("players", []):
        tournaments.add_player(None, t, username=_user(name).username)
    for _ in range(spec.get("bots", 0)):
        tournaments.add_player(None, t, bot="beginner")
    if spec.get("start"):
        tournaments.start(None, t.pk)
    tables = Table.objects.filter(round__tournament=t, game__isnull=False)
    games = list(tables.values_list("game__public_id", flat=True))
    return JsonResponse({"id": t.pk, "url": t.get_absolute_url(), "games": games})


def sign_in(request: HttpRequest, name: str) -> HttpResponse:
    login(request, _user(name), backend="django.contrib.auth.backends.ModelBackend")
    return redirect(request.GET.get("next", "/"))


@csrf_exempt
def make_game(request: HttpRequest) -> JsonResponse:
    """Body: players (names, seat order), options (as for a new game), and optionally racks
    (tile codes per seat), pool_head (codes drawn first, in order), first (who starts),
    draws (each person draws once, in turn), seed (hex: the game's deal and its bots'
    choices, the same every run) and stand_in (a table with stand-ins, as a tournament's)."""
    spec = json.loads(request.body)
    viewers = [Identity(user_id=_user(name).pk, name=name) for name in spec["players"]]
    options = {"players": len(viewers), **spec.get("options", {})}
    # One live game at a time (docs/fair-play.md): the players' live games left over from the
    # tests before this one on the shared site are set aside, as if over, for a fresh table.
    # The tables they wait at stay as they are (a walk visits a waiting table and a rematch
    # offer beside their other games): the rule is not applied to a table made here.
    for viewer in viewers:
        while (left := services.live_game_of(viewer)) is not None:
            if left.status == Status.WAITING:
                break
            Game.objects.filter(pk=left.pk).update(status=Status.FINISHED, deadline=None)
    with _beside_other_tables():
        game = _made(spec, viewers, options)
    if spec.get("stand_in"):
        # A table with stand-ins (as a tournament's): its seats' pings record their presence.
        Game.objects.filter(pk=game.pk).update(stand_in=True)
    game.refresh_from_db()
    if "racks" in spec and not _deal(game, spec):
        # A bot that drew first has moved already: the deal cannot be set under its move.
        return JsonResponse({"gid": game.public_id, "moved": True})
    if spec.get("draws"):
        # Each person draws once: a game resigned after this is not aborted (docs/fair-play.md).
        game = _each_draws(game)
    invites = [seat.invite_url for seat in game.seats.all() if seat.is_open]
    return JsonResponse({"gid": game.public_id, "url": f"/g/{game.public_id}/", "invites": invites})


def _beside_other_tables() -> Any:
    """The one-live-table rule set aside for a table the test site makes: the tests' players
    sit at many tables of the shared site (docs/fair-play.md "One live game at a time" is
    tested in tests/games/test_it_closes_waiting_tables.py)."""
    return mock.patch.object(lobby, "refuse_a_second_live_game", lambda viewer: None)


def _made(spec: dict[str, Any], viewers: list[Identity], options: dict[str, Any]) -> Game:
    if "seed" in spec:
        # A given deal (hex), every seat taken at once: the people in ``players`` first, then
        # the bots of ``options["seats"]``; the game then plays the same moves every run.
        bots = [{"bot": str(s).partition(":")[2]} for s in options.pop("seats", [])]
        people = [{"user_id": v.user_id, "name": v.name} for v in viewers]
        game = services.create_seated_game(
            {**options, "players": len(people) + len(bots)},
            people + bots,
            seed=bytes.fromhex(spec["seed"]),
        )
    else:
        game = services.create_game(viewers[0], options)
        for index, viewer in enumerate(viewers[1:], start=1):
            services.join_game(viewer, game.seats.get(index=index).invite_token)
    return game


def _deal(game: Game, spec: dict[str, Any]) -> bool:
    kinds = services.tile_codes(game)
    free = list(range(len(kinds)))

    def take(code: str) -> int:
        tile = next(i for i in free if kinds[i] == code)
        free.remove(tile)
        return tile

    racks = [sorted(take(code) for code in rack) for rack in spec["racks"]]
    head = [take(code) for code in spec.get("pool_head", [])]
    random.Random(6).shuffle(free)
    row = game.events.get(kind="RoundStarted")
    if game.events.filter(seq__gt=row.seq).exists():
        return False
    row.payload = {
        **row.payload,
        "racks": racks,
        "pool": head + free,
        "first": spec.get("first", 0),
    }
    row.save()
    state = replay([e.payload for e in game.events.order_by("seq")])
    game.state = state_to_record(state)
    if game.clock_seconds:
        game.deadline = timezone.now() + timedelta(seconds=game.clock_seconds)
    game.save()
    return True


@csrf_exempt
def expire(request: HttpRequest, gid: str) -> JsonResponse:
    """Run the current turn's clock out now, as the sweeper would once it had."""
    game = Game.objects.get(public_id=gid)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=2))
    return JsonResponse({"timed_out": services.timeout(gid, game.turn_number)})


def _each_draws(game: Game) -> Game:
    """Each person's seat draws once, in turn (a real move of their own), until a bot's turn."""
    for _ in range(game.players):
        turn = services.family_of(game).turn(services.load_state(game))
        seat = game.seats.get(index=turn.to_act[0])
        if seat.user_id is None:
            break
        draw = {"key": uuid.uuid4().hex, "expected_seq": game.seq}
        services.act(game.public_id, Identity(user_id=seat.user_id, name=seat.name), "draw", draw)
        game.refresh_from_db()
    return game


@csrf_exempt
def resign(request: HttpRequest, gid: str, name: str) -> JsonResponse:
    """Resign ``name``'s seat, as that player would (ends a two-player game), once each
    person's seat has drawn in turn: a game resigned before a real move is aborted, unrated
    (docs/fair-play.md), and these games are for their ratings."""
    game = _each_draws(Game.objects.get(public_id=gid))
    body = {"key": uuid.uuid4().hex, "expected_seq": game.seq}
    return JsonResponse(
        services.act(gid, Identity(user_id=_user(name).pk, name=name), "resign", body)
    )


@csrf_exempt
def rematch(request: HttpRequest, gid: str, name: str) -> JsonResponse:
    """``name`` asks for (or accepts) a rematch of finished game ``gid``; as for a game made
    here, the tables the player waits at elsewhere (a walk's) do not stop it."""
    with _beside_other_tables():
        new = services.offer_rematch(gid, Identity(user_id=_user(name).pk, name=name))
    return JsonResponse({"gid": new.public_id, "url": new.get_absolute_url()})


@csrf_exempt
def lapse_rematch(request: HttpRequest, gid: str) -> JsonResponse:
    """The rematch offer of finished game ``gid`` was made long ago: beat's sweep
    (``expire-rematches``) runs now and lets it lapse."""
    Game.objects.filter(rematch_of__public_id=gid, status=Status.WAITING).update(
        created=timezone.now() - timedelta(days=30)
    )
    return JsonResponse({"lapsed": services.expire_rematches()})


@csrf_exempt
def seek_waited(request: HttpRequest, name: str) -> JsonResponse:
    """Body: seconds. ``name``'s open seek was made that much earlier (as if they had waited so
    long), then beat's match task runs (``matchmaking-match``, every 3 s on the site)."""
    seconds = int(json.loads(request.body or b"{}").get("seconds", 0))
    moved = 0
    for seek in Seek.objects.filter(user=_user(name), status=SeekStatus.OPEN):
        Seek.objects.filter(pk=seek.pk).update(created=seek.created - timedelta(seconds=seconds))
        moved += 1
    return JsonResponse({"moved": moved, "made": matchmaking.match()})


def seen_seats(request: HttpRequest, gid: str) -> JsonResponse:
    """The names of the game's seats whose page has been heard from (docs/fair-play.md)."""
    seats = Seat.objects.filter(game__public_id=gid, first_seen__isnull=False)
    return JsonResponse({"seen": sorted(seats.values_list("name", flat=True))})


@csrf_exempt
def first_minute_passed(request: HttpRequest, gid: str) -> JsonResponse:
    """As if the tournament table ``gid`` had started two minutes ago, its seats seen so far
    seen in its first second (a loaded machine may take more than a minute to open a page):
    the stand-in plays a gone player's turn if it is theirs, then the organiser ends the table
    (scored as if blocked)."""
    game = Game.objects.get(public_id=gid)
    started = timezone.now() - timedelta(minutes=2)
    Game.objects.filter(pk=game.pk).update(started=started)
    # Seen at the start (and still there: their last sighting stays).
    Seat.objects.filter(game=game, first_seen__isnull=False).update(
        first_seen=started + timedelta(seconds=1)
    )
    stood = (gid, game.turn_number) in services.due_stand_ins()
    if stood:
        services.play_stand_in_turn(gid, game.turn_number)
    tournaments.adjudicate(None, Table.objects.get(game=game), "the browser test ends it")
    return JsonResponse({"stood_in": stood})


def error_page(request: HttpRequest, code: int) -> HttpResponse:
    """The site's own 403, 404 and 500 pages, as Django's handlers show them with DEBUG off."""
    if code == 403:
        return defaults.permission_denied(request, PermissionDenied())
    if code == 500:
        return defaults.server_error(request)
    return defaults.page_not_found(request, Http404())


@csrf_exempt
def load_puzzles(request: HttpRequest) -> JsonResponse:
    """Load the shipped puzzles (the fresh database has none), as ``make run`` does."""
    call_command("loadpuzzles", verbosity=0)
    return JsonResponse({"loaded": True})


urlpatterns = [
    path("__test__/login/<str:name>/", sign_in),
    path("__test__/organiser/", sign_in_organiser),
    path("__test__/tournament", make_tournament),
    path("__test__/games", make_game),
    path("__test__/expire/<str:gid>", expire),
    path("__test__/puzzles", load_puzzles),
    path("__test__/resign/<str:gid>/<str:name>", resign),
    path("__test__/seek/<str:name>/waited", seek_waited),
    path("__test__/rematch/<str:gid>/lapse", lapse_rematch),
    path("__test__/rematch/<str:gid>/<str:name>", rematch),
    path("__test__/error/<int:code>", error_page),
    path("__test__/seen/<str:gid>", seen_seats),
    path("__test__/first-minute/<str:gid>", first_minute_passed),
    *site_patterns,
]
