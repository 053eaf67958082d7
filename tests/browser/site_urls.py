"""The site's URLs plus endpoints that only the browser tests' server has.

They sign a test user in, set up a game at a chosen position (the deal of its first round
replaced, as a sandbox position would be, and the log replayed into the cached state), run
a turn's clock out now instead of after its 30 seconds, let a seek's wait pass at once and run
beat's match, and load the puzzle fixture.
"""

from __future__ import annotations

import json
import random
import uuid
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model, login
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import path
from django.utils import timezone
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt

from games import services
from games.engine.rules import Rules
from games.engine.state import replay, state_to_record
from games.identity import Identity
from games.models import Game
from matchmaking import tasks as matchmaking
from matchmaking.models import Seek, SeekStatus
from rummi_site.urls import urlpatterns as site_patterns
from tournaments import services as tournaments
from tournaments.models import Tournament

PASSWORD = "tiles-and-racks-42"


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
    return JsonResponse({"id": t.pk, "url": t.get_absolute_url()})


def sign_in(request: HttpRequest, name: str) -> HttpResponse:
    login(request, _user(name), backend="django.contrib.auth.backends.ModelBackend")
    return redirect(request.GET.get("next", "/"))


@csrf_exempt
def make_game(request: HttpRequest) -> JsonResponse:
    """Body: players (names, seat order), options (as for a new game), and optionally racks
    (tile codes per seat), pool_head (codes drawn first, in order) and first (who starts)."""
    spec = json.loads(request.body)
    viewers = [Identity(user_id=_user(name).pk, name=name) for name in spec["players"]]
    options = {"players": len(viewers), **spec.get("options", {})}
    game = services.create_game(viewers[0], options)
    for index, viewer in enumerate(viewers[1:], start=1):
        services.join_game(viewer, game.seats.get(index=index).invite_token)
    game.refresh_from_db()
    if "racks" in spec and not _deal(game, spec):
        # A bot that drew first has moved already: the deal cannot be set under its move.
        return JsonResponse({"gid": game.public_id, "moved": True})
    invites = [seat.invite_url for seat in game.seats.all() if seat.is_open]
    return JsonResponse({"gid": game.public_id, "url": f"/g/{game.public_id}/", "invites": invites})


def _deal(game: Game, spec: dict[str, Any]) -> bool:
    kinds = [str(t) for t in Rules.from_dict(game.rules).tile_set.tiles]
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


@csrf_exempt
def resign(request: HttpRequest, gid: str, name: str) -> JsonResponse:
    """Resign ``name``'s seat, as that player would (ends a two-player game)."""
    game = Game.objects.get(public_id=gid)
    body = {"key": uuid.uuid4().hex, "expected_seq": game.seq}
    return JsonResponse(
        services.act(gid, Identity(user_id=_user(name).pk, name=name), "resign", body)
    )


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
    path("__test__/error/<int:code>", error_page),
    *site_patterns,
]
