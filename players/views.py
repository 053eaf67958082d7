"""Profile pages (``/@/<username>/`` and its games), the leaderboards, default avatars and
your account page (display name, avatar, data download, deletion)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.core.files.storage import default_storage
from django.core.paginator import Paginator
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.errors import DomainError, Forbidden, Invalid, refuse_other_fields, sent_as
from games.models import Game, GameResult, SeatKind, Status
from games.names import shown_name
from puzzles import services as puzzles
from ratings import services as ratings
from ratings.models import Pool, Rating
from rummi_site.jsonapi import json_errors, read_body, status_of
from rummi_site.limits import count_one, limited, used_up

from . import account, changes, cosmetics, stats
from .avatars import set_avatar
from .chart import history_points, summary
from .forms import AvatarForm, DeleteForm, ProfileForm
from .models import PlayerProfile, TrophyAward
from .trophies import TROPHIES

BOARD_SIZE = 50
GAMES_PER_PAGE = 25
PLAYING_SHOWN = 20
# A pool's leaderboard lists players with a rated game there in the last BOARD_ACTIVE_DAYS.
BOARD_ACTIVE_DAYS = 30


def _user(username: str) -> Any:
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    return user


def avatar_url(user: Any, profile: PlayerProfile | None, size: int = 256) -> str:
    """The uploaded avatar's URL, or the initials drawn by :func:`default_avatar`."""
    if profile is not None:
        name = profile.avatar_256 if size > 64 else profile.avatar_64
        if name:
            return str(default_storage.url(name))
    return reverse("player_avatar", args=[user.get_username()])


def _table(result: GameResult) -> list[dict[str, Any]]:
    """The game's seats for a games list: each account's name links to its profile (a guest's,
    a bot's or a deleted player's does not)."""
    return [
        {
            "name": r.name or "deleted player",
            "place": r.place,
            "total": r.total,
            "absent": r.absent,
            "user": r.user_id,
            "username": r.user.get_username() if r.user and r.kind == SeatKind.HUMAN else None,
        }
        for r in sorted(result.game.results.all(), key=lambda r: r.seat)
    ]


def _game_rows(user_id: int, results: list[GameResult]) -> list[dict[str, Any]]:
    """A games list's rows, each with the player's rating change ("+12", "unrated")."""
    rating = changes.user_changes(user_id, results)
    return [
        {
            "rating": rating[r.game_id],
            "game": r.game,
            "place": r.place,
            "won": r.won,
            # "aborted", "absent" or "played by a stand-in for N turns" (docs/fair-play.md)
            "fair_play": r.fair_play,
            "total": r.total,
            "finished": r.finished,
            "table": _table(r),
            "replay": reverse("replay", args=[r.game.public_id]),
        }
        for r in results
    ]


def _puzzles(user_id: int) -> dict[str, Any] | None:
    """The puzzle rating and daily streak, as the puzzles app's services give them."""
    found = puzzles.player_rating(user_id)
    daily = puzzles.daily_runs(user_id)
    return {
        "rating": round(found.rating) if found else None,
        "rd": round(found.rd) if found else None,
        "streak_best": found.streak_best if found else 0,
        "daily_current": daily["current"],
        "daily_best": daily["best"],
    }


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = _user(username)
    player = PlayerProfile.objects.filter(user=user).first()
    points = ratings.history(user.pk)
    since = stats.active_since(BOARD_ACTIVE_DAYS)
    pools = []
    for rating in ratings.with_opponents(Rating.objects.filter(user=user)).order_by("pool"):
        row = ratings.rating_dict(rating)
        # How far the player is from the pool's leaderboard:
        # docs/fair-play.md "The leaderboard".
        opponents = getattr(rating, "opponents", None) or 0
        row["board"] = ratings.board_progress(rating, opponents, since)
        row["points_id"] = f"points-{rating.pool}"
        row["points"] = history_points(points.get(rating.pool, []))
        row["summary"] = summary(row["label"], [p["value"] for p in row["points"]])
        row["last"] = row["points"][-1]["change"] if row["points"] else None
        pools.append(row)
    awards = [
        {
            "trophy": TROPHIES[a.key],
            "earned": a.earned,
            "replay": (
                reverse("replay", args=[a.game.public_id]) + (f"#seq-{a.seq}" if a.seq else "")
                if a.game
                else a.link or None
            ),
            "where": "the game" if a.game else "the tournament" if a.link else "",
        }
        for a in TrophyAward.objects.filter(user=user).select_related("game")
        if a.key in TROPHIES
    ]
    context = {
        "person": user,
        "player": player,
        "name": player.name if player else user.get_username(),
        "avatar": avatar_url(user, player),
        "last_seen": stats.last_seen(user),
        "pools": pools,
        "modes": stats.per_mode(user.pk),
        "streaks": stats.streaks(user.pk),
        "totals": stats.totals(user.pk),
        "awards": awards,
        "recent": _game_rows(user.pk, stats.recent(user.pk)),
        "puzzles": _puzzles(user.pk),
        "board_rule": _board_rule(),
        # Only the owner sees their games in play (an invite-only game is nobody else's).
        "playing": _playing(user) if request.user == user else [],
    }
    return render(request, "players/profile.html", context)


def _playing(user: Any) -> list[dict[str, Any]]:
    """The player's games being played, the nearest deadline first, each with the player's
    seat (the list says "your turn" or who is to move, and the mover's time left)."""
    games = Game.objects.filter(seats__user=user, status=Status.PLAYING).distinct()
    # The seat itself: one the player resigned says so (the others may play on).
    return [
        {"game": game, "seat": next(s for s in game.seats.all() if s.user_id == user.pk)}
        for game in games.prefetch_related("seats").order_by("deadline", "pk")[:PLAYING_SHOWN]
    ]


@require_safe
def games(request: HttpRequest, username: str) -> HttpResponse:
    user = _user(username)
    rows = stats.results_of(user.pk).order_by("-finished", "-game_id")
    rows = rows.select_related("game").prefetch_related("game__results__user")
    page = Paginator(rows, GAMES_PER_PAGE)
    asked = request.GET.get("page", "1")
    if not asked.isdecimal() or len(asked) > 6:
        message = f"The page number must be a whole number, as in ?page=2 (not {asked[:20]!r})."
        return render(request, "400.html", {"message": message}, status=400)
    number = int(asked)
    if not 1 <= number <= max(page.num_pages, 1):
        raise Http404("No such page.")
    current = page.page(number)
    rows_shown = _game_rows(user.pk, list(current.object_list))
    context = {"person": user, "name": shown_name(user), "page": current, "rows": rows_shown}
    return render(request, "players/games.html", context)


@require_safe
@json_errors
def game_rating_changes(request: HttpRequest, gid: str) -> JsonResponse:
    """``GET /api/ratings/game/<gid>``: each seat's rating change in a finished game (the end
    dialog's "+12"; docs/api.md "Endpoints")."""
    return JsonResponse({"seats": changes.game_changes(gid)})


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    since = stats.active_since(BOARD_ACTIVE_DAYS)
    boards = []
    for pool in Pool:
        # Listed after BOARD_GAMES rated games against BOARD_OPPONENTS different people, with
        # one in the last BOARD_ACTIVE_DAYS (docs/fair-play.md "The leaderboard").
        top = (
            ratings.on_the_board(pool, since)
            .select_related("user", "user__player")
            .order_by("-shown", "user_id")[:BOARD_SIZE]
        )
        boards.append({"pool": pool, "rows": [_board_row(r.user, r.shown, r) for r in top]})
    puzzle_rows: list[dict[str, Any]] = []
    streak_rows: list[dict[str, Any]] = []
    rated = puzzles.rated_players()
    for row in rated.order_by("-rating", "pk")[:BOARD_SIZE]:
        puzzle_rows.append(_board_row(row.user, round(row.rating)))
    for row in rated.filter(streak_best__gt=0).order_by("-streak_best", "pk")[:BOARD_SIZE]:
        streak_rows.append(_board_row(row.user, row.streak_best))
    context = {
        "boards": boards,
        "puzzle_rows": puzzle_rows,
        "streak_rows": streak_rows,
        "board_rule": _board_rule(),
        "pair_limit": ratings.PAIR_LIMIT,
    }
    return render(request, "players/leaderboard.html", context)


def _board_rule() -> str:
    """What it takes to be listed on a pool's leaderboard, in words."""
    return (
        f"{ratings.BOARD_GAMES} rated games against {ratings.BOARD_OPPONENTS} different "
        f"opponents in its pool, and a rated game there in the last {BOARD_ACTIVE_DAYS} days"
    )


def _board_row(user: Any, value: int, rating: Rating | None = None) -> dict[str, Any]:
    player = getattr(user, "player", None)
    return {
        "username": user.get_username(),
        "name": player.name if player else user.get_username(),
        "avatar": avatar_url(user, player, 64),
        "value": value,
        "uncertainty": ratings.uncertainty(rating.sigma) if rating else None,
    }


def initials_of(name: str) -> str:
    """Up to two letters for a drawn avatar, as the board draws them (static/kit/ui.js): the
    first letters of the name's first two words of letters and digits, or the first two of its
    only one; "?" when it has none. A name of three words or more that ends in a single digit
    keeps the digit, so that two bots of one strength at a table ("Strong bot 1", "Strong bot
    2", games/services/lobby.py) are told apart where a phone cuts their names.

    >>> initials_of("Ada Lovelace"), initials_of("tile_queen"), initials_of("<svg onload=x>")
    ('AL', 'TQ', 'SO')
    >>> initials_of("Zed"), initials_of("!!!"), initials_of("Strong bot 2"), initials_of("R2 D2")
    ('ZE', '?', 'S2', 'RD')
    """
    words = re.findall(r"[^\W_]+", name)
    if not words:
        return "?"
    if len(words) > 2 and re.fullmatch(r"[0-9]", words[-1]):
        return (words[0][0] + words[-1]).upper()
    return (words[0][0] + (words[1][0] if len(words) > 1 else words[0][1:2])).upper()


@require_safe
def default_avatar(request: HttpRequest, username: str) -> HttpResponse:
    """The player's avatar at 64 px: the uploaded one (a redirect to its file), else one drawn
    from the initials on a colour picked from the username. Other apps' pages show avatars
    through this URL, since they do not import this app."""
    user = _user(username)
    player = PlayerProfile.objects.filter(user=user).first()
    if player is not None and player.avatar_64:
        # Not cached: the upload's file name changes with each upload, this address does not.
        moved = redirect(default_storage.url(player.avatar_64))
        moved["Cache-Control"] = "no-cache"
        return moved
    name = player.name if player else user.get_username()
    initials = initials_of(name)
    hue = int(hashlib.sha256(user.get_username().encode()).hexdigest()[:4], 16) % 360
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        f'<rect width="64" height="64" rx="8" fill="hsl({hue},45%,40%)"/>'
        '<text x="32" y="41" font-family="sans-serif" font-size="26" text-anchor="middle" '
        f'fill="#fff">{escape(initials[:2])}</text></svg>'
    )
    # Kept, but asked again each time it is shown: a 304 while the initials are the same, the
    # new drawing (or the redirect to an upload) as soon as they change. Kept for an hour, a
    # changed name's or a new upload's pages showed the old initials that long.
    tag = f'"{hashlib.sha256(svg.encode()).hexdigest()[:20]}"'
    if tag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(svg, content_type="image/svg+xml")
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache"
    return response


def _account_page(request: HttpRequest, status: int = 200, **forms: Any) -> HttpResponse:
    player = PlayerProfile.of(request.user)
    context = {
        "player": player,
        "avatar": avatar_url(request.user, player),
        "profile_form": forms.get("profile_form")
        or ProfileForm(initial={"display_name": player.display_name, "bio": player.bio}),
        "avatar_form": forms.get("avatar_form") or AvatarForm(),
        "delete_form": forms.get("delete_form") or DeleteForm(),
        "error": forms.get("error"),
        "board": cosmetics.settings_of(player),
        "catalogue": cosmetics.catalogue(request.user.pk),
        "sorts": cosmetics.SORTS,
    }
    return render(request, "players/account.html", context, status=status)


@login_required
@require_safe
def account_page(request: HttpRequest) -> HttpResponse:
    return _account_page(request)


@login_required
@require_POST
@limited("profile")
def account_profile(request: HttpRequest) -> HttpResponse:
    """Save the display name and bio. Only a change of name made counts against the limit on
    name changes (rummi_site/limits.py): a bio edit, the same name again or a refused name
    does not (every save counts against the looser limit on profile saves)."""
    form = ProfileForm(request.POST)
    if not form.is_valid():
        return _account_page(request, 400, profile_form=form)
    profile = PlayerProfile.of(request.user)
    name = form.cleaned_data["display_name"]
    renaming = name != profile.display_name
    if renaming and (refused := used_up(request, "rename")) is not None:
        return refused
    try:
        account.rename(profile, name, form.cleaned_data["bio"])
    except DomainError as error:
        return _account_page(request, status_of(error), profile_form=form, error=error.body)
    if renaming:
        count_one(request, "rename")
    messages.success(request, "Profile saved.")
    return redirect("account_page")


@login_required
@require_POST
@limited("avatar")
def account_avatar(request: HttpRequest) -> HttpResponse:
    form = AvatarForm(request.POST, request.FILES)
    if not form.is_valid():
        return _account_page(request, 400, avatar_form=form)
    try:
        set_avatar(PlayerProfile.of(request.user), form.cleaned_data["avatar"])
    except DomainError as error:
        return _account_page(request, status_of(error), avatar_form=form, error=error.body)
    messages.success(request, "Avatar saved.")
    return redirect("account_page")


@login_required
@require_safe
def account_data(request: HttpRequest) -> JsonResponse:
    response = JsonResponse(account.export(request.user), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = 'attachment; filename="rummi-data.json"'
    return response


@login_required
@require_POST
def account_delete(request: HttpRequest) -> HttpResponse:
    form = DeleteForm(request.POST)
    if not form.is_valid() or form.cleaned_data["confirm"] != request.user.get_username():
        error = {"message": "Type your username exactly to delete the account."}
        return _account_page(request, 400, delete_form=form, error=error)
    user = request.user
    logout(request)
    account.delete_account(user)
    messages.success(request, "Your account is deleted; your games stay as a deleted player.")
    return redirect("home")


@require_http_methods(["GET", "HEAD", "POST"])
@json_errors
def settings_api(request: HttpRequest) -> JsonResponse:
    """The board settings saved on the account (GET), or changes to them (POST
    ``{"settings": {...}, "adopt": false}``), with the felts and backs and what locks them."""
    if not request.user.is_authenticated:
        raise Forbidden("sign_in", "Sign in to keep your settings on your account.")
    profile = PlayerProfile.of(request.user)
    if request.method == "POST":
        body = read_body(request)
        refuse_other_fields(body, ("settings", "adopt"), "bad_settings", "the settings")
        adopt = body.get("adopt")
        if adopt is not None and not isinstance(adopt, bool):
            came = sent_as(adopt)
            raise Invalid("bad_settings", f"adopt takes true or false; it came as {came}.")
        saved = cosmetics.save(profile, body.get("settings"), adopt=bool(adopt))
    else:
        saved = cosmetics.settings_of(profile)
    return JsonResponse(
        {"settings": saved, "saved": bool(profile.board), **cosmetics.catalogue(request.user.pk)}
    )


@login_required
@require_POST
def account_board(request: HttpRequest) -> HttpResponse:
    """The account page's board settings form: the same rules as the settings API."""
    raw: dict[str, Any] = {}
    for name in ("felt", "back", "sort"):
        if request.POST.get(name):
            raw[name] = request.POST[name]
    for name in ("cb", "outline", "mute"):
        raw[name] = request.POST.get(name) == "on"
    try:
        cosmetics.save(PlayerProfile.of(request.user), raw)
    except DomainError as error:
        return _account_page(request, status_of(error), error=error.body)
    messages.success(request, "Board settings saved; they follow you to every device.")
    return redirect("account_page")
