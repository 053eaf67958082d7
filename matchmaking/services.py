"""Matchmaking (docs/design.md "Matchmaking"): seek a rated live game, be seated with seekers
near your rating, or with bots after a wait you chose.

* :func:`seek` opens the player's one open seek (a new one replaces the last) and matches at
  once, so two seekers who fit meet without waiting for beat.
* :func:`match` seats the open seeks: per mode and player count, oldest first, each with the
  seekers whose ratings are within both players' windows (:func:`window`, which widens with
  the wait). A table short of people is filled with bots when everyone at it allowed bots and
  has waited their chosen time.
* A table's seeks are claimed with a conditional update inside the transaction that makes its
  game (their rows locked first on PostgreSQL), so two workers matching at once seat each
  seek once.

>>> [window(s) for s in (0, 9.9, 10, 35, 3600)]
[100, 100, 150, 250, 600]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from games import services as games
from games.engine.families import modes
from games.errors import Conflict, Forbidden, Invalid, refuse_other_fields, sent_as
from games.identity import Identity
from games.models import Game, Status
from games.modes import BOT_STRENGTHS, mode_info, players_allowed, setup_from
from games.names import shown_name
from ratings import services as ratings

from .models import Seek, SeekStatus

# The rating window: WINDOW_START points either side at first, WINDOW_STEP more for every
# WINDOW_EVERY seconds waited, never more than WINDOW_MAX.
WINDOW_START = 100
WINDOW_STEP = 50
WINDOW_EVERY = 10
WINDOW_MAX = 600
# The waits a seeker may choose before bots fill the table (seconds); None: never.
BOT_WAITS = (30, 60, 120, 300)
# LAN rules have no clock unless one is set; a rated live game always has one.
LIVE_CLOCK = 60
# Every mode of every family that plays rated games (Sandbox never does); a seek's game is made
# and dealt by games' create_seated_game, whatever its family.
SEEKABLE = tuple(name for name, info in modes().items() if info.rated)


def window(waited: float) -> int:
    """How far (in shown rating points) a seek that has waited ``waited`` seconds reaches."""
    steps = int(max(0.0, waited) // WINDOW_EVERY)
    return min(WINDOW_START + WINDOW_STEP * steps, WINDOW_MAX)


# Seeking


def _signed_in(viewer: Identity) -> int:
    if viewer.user_id is None:
        raise Forbidden("sign_in_to_seek", "Sign in to seek a rated game.")
    return viewer.user_id


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# What a seek's body may hold (docs/api.md "Matchmaking").
SEEK_FIELDS = ("mode", "players", "bots_after", "bot_strength")


def read_seek(options: dict[str, Any]) -> dict[str, Any]:
    """The seek asked for, checked: mode, players, bots_after (seconds or null), bot_strength;
    :class:`Invalid` with a sentence otherwise (a field it does not take, too)."""
    refuse_other_fields(options, SEEK_FIELDS, "bad_seek", "a seek")
    mode = options.get("mode")
    if mode not in SEEKABLE:
        raise Invalid("bad_seek", f"mode must be one of {', '.join(SEEKABLE)} (rated games).")
    players = options.get("players", 2)
    allowed = players_allowed(str(mode))
    counts = ", ".join(map(str, allowed))
    if not _whole(players):
        raise Invalid(
            "bad_seek", f"players takes a whole number ({counts}); it came as {sent_as(players)}."
        )
    if players not in allowed:
        raise Invalid("bad_seek", f"{mode_info(str(mode)).label} is played by {counts} players.")
    bots_after = options.get("bots_after")
    if bots_after is not None and (not _whole(bots_after) or bots_after not in BOT_WAITS):
        waits = ", ".join(map(str, BOT_WAITS))
        raise Invalid("bad_seek", f"bots_after is null (never) or one of {waits} seconds.")
    strength = options.get("bot_strength") or "casual"
    if strength not in BOT_STRENGTHS:
        raise Invalid("bad_seek", f"bot_strength is one of {', '.join(BOT_STRENGTHS)}.")
    clock = setup_from({"mode": mode, "players": players}).clock_seconds or LIVE_CLOCK
    return {
        "mode": mode,
        "players": players,
        "bots_after_seconds": bots_after,
        "bot_strength": strength,
        "clock_seconds": clock,
    }


def seek(viewer: Identity, options: dict[str, Any], now: datetime | None = None) -> dict[str, Any]:
    """Open the player's seek (replacing an open one), match at once, and answer its state."""
    user_id = _signed_in(viewer)
    plan = read_seek(options)
    # A seek's game is live: not while another live game is being played.
    games.refuse_a_second_live_game(viewer)
    now = now or timezone.now()
    # The pool the game will be rated in, and the seeker's rating there (the ratings app's).
    pool = ratings.pool_for(plan["mode"], plan["players"])
    if pool is None:  # read_seek lets no mode through that is never rated
        raise Invalid("bad_seek", "Sandbox games are never rated.")
    try:
        with transaction.atomic():
            Seek.objects.filter(user_id=user_id, status=SeekStatus.OPEN).update(
                status=SeekStatus.CANCELLED
            )
            Seek.objects.create(
                user_id=user_id,
                name=viewer.name,
                pool=pool,
                rating=ratings.rating_of(user_id, pool),
                created=now,
                **plan,
            )
    except IntegrityError:
        raise Conflict(
            "seek_busy", "Another seek of yours was made at that moment; try again."
        ) from None
    match(now)
    return status(viewer, now)


def cancel(viewer: Identity, now: datetime | None = None) -> dict[str, Any]:
    """Stop seeking (nothing to cancel is no error); answers the state after."""
    user_id = _signed_in(viewer)
    Seek.objects.filter(user_id=user_id, status=SeekStatus.OPEN).update(status=SeekStatus.CANCELLED)
    return status(viewer, now)


def seeking() -> list[dict[str, Any]]:
    """How many are seeking, per mode and player count (the lobby's counts)."""
    rows = (
        Seek.objects.filter(status=SeekStatus.OPEN)
        .values("mode", "players")
        .annotate(count=Count("pk"))
        .order_by("mode", "players")
    )
    return [{**row, "label": mode_info(row["mode"]).label} for row in rows]


def status(viewer: Identity, now: datetime | None = None) -> dict[str, Any]:
    """The player's latest seek: ``open`` (with how many seek the same game and the current
    window), ``matched`` (with the game's address, while it is played) or ``none``."""
    user_id = _signed_in(viewer)
    now = now or timezone.now()
    latest = (
        Seek.objects.filter(user_id=user_id)
        .exclude(status=SeekStatus.CANCELLED)
        .select_related("game")
        .order_by("-created", "-pk")
        .first()
    )
    over = latest is not None and (latest.game is None or latest.game.status == Status.FINISHED)
    if latest is not None and latest.status == SeekStatus.MATCHED and over:
        latest = None  # its game is over: nothing to go back to
    answer: dict[str, Any] = {"status": "none", "game": None, "waiting": 0, "window": None}
    if latest is not None:
        answer.update(
            status=latest.status,
            mode=latest.mode,
            players=latest.players,
            bots_after=latest.bots_after_seconds,
            bot_strength=latest.bot_strength,
            rating=latest.rating,
        )
    if latest is not None and latest.status == SeekStatus.OPEN:
        waited = (now - latest.created).total_seconds()
        same = Seek.objects.filter(status=SeekStatus.OPEN, mode=latest.mode, players=latest.players)
        answer.update(waiting=same.count(), window=window(waited), waited=int(max(0, waited)))
    if latest is not None and latest.status == SeekStatus.MATCHED and latest.game:
        answer["game"] = latest.game.get_absolute_url()
        answer["rated"] = latest.game.rated
    answer["seeking"] = seeking()
    # As the game would be decided: now, whatever time the seek's matching was asked for.
    answer["unrated_with"] = unrated_with(user_id)
    return answer


def unrated_with(user_id: int, now: datetime | None = None) -> list[dict[str, Any]]:
    """The players a seek would meet only unrated, before it is made: per pool, each account
    the seeker has played the limit of rated games with in the last 24 hours (ratings'
    ``limited_partners``; docs/fair-play.md "Rated games between the same players"), with the
    sentence the seek panel shows and when their games together are rated again."""
    limited = ratings.limited_partners(user_id, now)
    others = {p.second for pairs in limited.values() for p in pairs}
    names = {u.pk: shown_name(u) for u in get_user_model().objects.filter(pk__in=others)}
    return [
        {
            "pool": pool,
            "name": names.get(pair.second, "?"),
            "games": pair.games,
            "rated_again": pair.rated_again.isoformat(),
            "notice": (
                f"Unrated: you have played {names.get(pair.second, '?')} "
                f"{ratings.times(pair.games)} in 24 h in this pool, so a game with them "
                "here is unrated."
            ),
        }
        for pool, pairs in sorted(limited.items())
        for pair in pairs
    ]


# Matching


def fits(a: Seek, b: Seek, now: datetime) -> bool:
    """Each of the two ratings is within the other seek's window."""
    reach = min(
        window((now - a.created).total_seconds()), window((now - b.created).total_seconds())
    )
    return abs(a.rating - b.rating) <= reach


def ready_for_bots(s: Seek, now: datetime) -> bool:
    waited = (now - s.created).total_seconds()
    return s.bots_after_seconds is not None and waited >= s.bots_after_seconds


def _nearest(anchor: Seek, others: Iterable[Seek], size: int, now: datetime) -> list[Seek]:
    """The anchor and up to ``size - 1`` others, nearest its rating first (then the oldest),
    every pair within each other's window."""
    table = [anchor]
    for other in sorted(others, key=lambda s: (abs(s.rating - anchor.rating), s.created, s.pk)):
        if len(table) == size:
            break
        if all(fits(other, seated, now) for seated in table):
            table.append(other)
    return table


def tables_of(seeks: Sequence[Seek], now: datetime) -> list[list[Seek]]:
    """The tables to make from the open seeks of one mode and player count (oldest first):
    full tables of people, or people who all allowed bots and waited their time."""
    waiting = list(seeks)
    tables = []
    while waiting:
        anchor, rest = waiting[0], waiting[1:]
        size = anchor.players
        table = _nearest(anchor, rest, size, now)
        if len(table) < size:
            table = (
                _nearest(anchor, [s for s in rest if ready_for_bots(s, now)], size, now)
                if ready_for_bots(anchor, now)
                else []
            )
        if table:
            tables.append(table)
        waiting = [s for s in rest if s not in table]
    return tables


def match(now: datetime | None = None) -> list[Game]:
    """Seat every open seek that can be seated now; the games made."""
    now = now or timezone.now()
    seeks = list(Seek.objects.filter(status=SeekStatus.OPEN).order_by("created", "pk"))
    # A seeker who has sat down at a live table since (made one, or joined one) is not seated
    # in a second live game: their seek is withdrawn (docs/fair-play.md).
    busy = games.live_players([s.user_id for s in seeks])
    if busy:
        Seek.objects.filter(status=SeekStatus.OPEN, user_id__in=busy).update(
            status=SeekStatus.CANCELLED
        )
    groups: dict[tuple[str, int], list[Seek]] = defaultdict(list)
    for s in seeks:
        if s.user_id not in busy:
            groups[(s.mode, s.players)].append(s)
    made = []
    for seeks in groups.values():
        for table in tables_of(seeks, now):
            game = _seat(table, now)
            if game is not None:
                made.append(game)
    return made


class _Taken(Exception):
    """Another worker claimed one of the table's seeks first: make nothing."""


def _seat(table: list[Seek], now: datetime) -> Game | None:
    """Claim the table's seeks and make its rated game, in one transaction; None if another
    worker claimed any of them first."""
    ids = sorted(s.pk for s in table)
    first = table[0]
    people = [{"user_id": s.user_id, "name": s.name} for s in table]
    bots = [
        # Two bots of one strength at a table are told apart by number.
        {"bot": first.bot_strength, "name": f"{first.bot_strength.title()} bot {n}"}
        for n in range(1, first.players - len(table) + 1)
    ]
    try:
        with transaction.atomic():
            # PostgreSQL: lock the rows in one order, waiting for a worker that holds any (a
            # short transaction). The first to lock them all seats them; the next finds them
            # matched once it gets them. Passing over held rows (SKIP LOCKED) let two workers
            # each take a part, and both gave up: nobody seated until the next sweep.
            held = Seek.objects.select_for_update().filter(pk__in=ids, status=SeekStatus.OPEN)
            if len(list(held.order_by("pk"))) != len(ids):
                raise _Taken
            claimed = Seek.objects.filter(pk__in=ids, status=SeekStatus.OPEN).update(
                status=SeekStatus.MATCHED, matched=now
            )
            if claimed != len(ids):
                raise _Taken
            game = games.create_seated_game(
                {"mode": first.mode, "clock": first.clock_seconds},
                people + bots,
                rated=True,
                occasion="Found by a rated seek",
            )
            Seek.objects.filter(pk__in=ids).update(game=game)
    except _Taken:
        return None
    return game
