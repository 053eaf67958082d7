"""Game ratings: Weng-Lin (openskill's Bradley-Terry "full" model), one pool per kind of game
(docs/design.md "Ratings"). The one copy of the pools and the ratings: tournaments seed by
:func:`rating_of` in the pool :func:`pool_for` names, matchmaking matches by them, and a
game's results are rated in :func:`pool_of`, which is :func:`pool_for` of the game.

* A rated game's signed-in seats are rated; a bot seat counts as an opponent at its
  strength's fixed rating (:data:`BOT_RATINGS`, never updated); a guest's seat is left out,
  as if it had not sat (an unrated account cannot be farmed for points).
* The number shown is conservative: ``SHOWN_BASE + SHOWN_SCALE * (mu - 3 sigma)``, and a
  win (place 1, shared or not) never lowers it: it is then the larger of the number before
  and the new one. Its uncertainty is ``± SHOWN_SCALE * 2 sigma``.
* A rating is provisional for its first :data:`PROVISIONAL_GAMES` games in the pool.
* Two accounts play at most :data:`PAIR_LIMIT` rated games together in a pool in any
  :data:`PAIR_WINDOW`; a game that would be one more starts unrated
  (:func:`pair_limit_reached`, :func:`limit_rated_game`). The leaderboard of a pool lists a
  player after :data:`BOARD_GAMES` rated games there against :data:`BOARD_OPPONENTS` different
  people (:func:`on_the_board`). docs/fair-play.md "Rated games between the same players" and
  "The leaderboard" say both in words.
* :func:`rate_game` is idempotent: a game's changes are written once (the
  ``RatingChange`` rows, unique per game and player), so a signal delivered twice changes
  nothing. :func:`recompute` replays every rated game in the order they finished and gives
  the same ratings as the live updates.

>>> out = rate_places([SeatIn("a", 1, *START), SeatIn("b", 2, *START)])
>>> out["a"].mu > START[0] > out["b"].mu
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import F, Func, IntegerField, OuterRef, QuerySet, Subquery
from django.utils import timezone
from openskill.models import BradleyTerryFull

from games.models import Game, GameResult, Seat, SeatKind, Status
from games.modes import mode_info
from games.services import refresh_fair_play

from .models import PairLimited, Pool, Rating, RatingChange

# limit_sigma: a game never widens a rating's uncertainty (a plain tau could, and a win could
# then lower the conservative number).
MODEL = BradleyTerryFull(limit_sigma=True)
START = (MODEL.mu, MODEL.sigma)
SHOWN_BASE = 1000
SHOWN_SCALE = 40
PROVISIONAL_GAMES = 10
# Rated games between the same two accounts: at most PAIR_LIMIT in one pool in any PAIR_WINDOW
# (docs/fair-play.md "Rated games between the same players").
PAIR_LIMIT = 3
PAIR_WINDOW = timedelta(hours=24)
# A pool's leaderboard lists a player after BOARD_GAMES rated games there against
# BOARD_OPPONENTS different people (docs/fair-play.md "The leaderboard").
BOARD_GAMES = 10
BOARD_OPPONENTS = 5
# A bot's fixed (mu, sigma) by strength: never updated by the games it plays.
BOT_RATINGS = {
    "beginner": (17.0, 1.0),
    "casual": (22.0, 1.0),
    "strong": (28.0, 1.0),
    "master": (33.0, 1.0),
}


@dataclass(frozen=True)
class SeatIn:
    """A seat of a rated game going in: who (a key), its place, its rating, fixed or not."""

    key: str
    place: int
    mu: float
    sigma: float
    fixed: bool = False


@dataclass(frozen=True)
class SeatOut:
    mu: float
    sigma: float


def shown(mu: float, sigma: float) -> int:
    """The conservative number shown for a rating."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


def shown_after(before: int, mu: float, sigma: float, won: bool) -> int:
    """The number shown after a game: a win never lowers it."""
    after = shown(mu, sigma)
    return max(before, after) if won else after


# The shown number of a rating never played: openskill's start.
FRESH = shown(*START)


def uncertainty(sigma: float) -> int:
    return round(SHOWN_SCALE * 2 * sigma)


def rate_places(seats: Sequence[SeatIn]) -> dict[str, SeatOut]:
    """New ratings of the seats that are not fixed, from their places (ties share a place).
    With fewer than two seats, or none to update, nothing changes."""
    if len(seats) < 2 or all(s.fixed for s in seats):
        return {}
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma, name=s.key)] for s in seats]
    rated = MODEL.rate(teams, ranks=[float(s.place) for s in seats])
    return {
        s.key: SeatOut(team[0].mu, team[0].sigma)
        for s, team in zip(seats, rated, strict=True)
        if not s.fixed
    }


def pool_for(mode: str, players: int, correspondence_days: int | None = None) -> str | None:
    """The pool a game of ``mode`` for ``players`` counts in, or None (Sandbox is never
    rated). Every rule of the pools is here: a game's (:func:`pool_of`), a tournament's and a
    seek's pool are this function's answer."""
    info = mode_info(mode)
    if not info.rated:
        return None
    if info.pool:
        return info.pool  # a mode with its own pool (Rummy Rush, Rummy 45), whatever its table
    if correspondence_days:
        return Pool.CORRESPONDENCE
    return Pool.LIVE_DUEL if players == 2 else Pool.LIVE_TABLE


def pool_of(game: Game) -> str | None:
    """The pool a game counts in, or None (Sandbox is never rated)."""
    return pool_for(game.mode, game.players, game.correspondence_days)


def rating_of(user_id: int, pool: str) -> int:
    """The player's shown number in ``pool``; :data:`FRESH` for a player new to it."""
    found = Rating.objects.filter(user_id=user_id, pool=pool).values_list("shown", flat=True)
    shown_now = found.first()
    return FRESH if shown_now is None else int(shown_now)


def bot_rating(strength: str) -> int:
    """The shown number of a bot of ``strength``: its fixed rating (:data:`BOT_RATINGS`)."""
    return shown(*BOT_RATINGS.get(strength, START))


def rate_game(game_id: int) -> list[RatingChange]:
    """Rate a finished rated game once; a second call (a signal delivered twice) returns []."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not game.rated or game.status != Status.FINISHED:
            return []
        pool = pool_of(game)
        if pool is None or RatingChange.objects.filter(game=game).exists():
            return []
        results = list(GameResult.objects.filter(game=game).order_by("seat"))
        if any(r.aborted for r in results):
            return []  # an aborted game is never rated (docs/fair-play.md)
        users = [
            r.user_id for r in results if r.kind == SeatKind.HUMAN and r.user_id and not r.absent
        ]
        if len(set(users)) != len(users):
            return []  # one account in two seats is never rated
        current = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(user_id__in=users, pool=pool)
        }
        seats = []
        for row in results:
            if row.absent:
                # An absent person is not rated, nor is their stand-in anyone's opponent: the
                # others are rated among themselves, and with nobody else there (a forfeit) the
                # game is not rated at all (docs/fair-play.md "Stand-ins, absence and aborts").
                continue
            if row.kind == SeatKind.BOT:
                mu, sigma = BOT_RATINGS.get(row.bot_strength, START)
                seats.append(SeatIn(f"bot{row.seat}", row.place, mu, sigma, fixed=True))
            elif row.user_id:
                have = current.get(row.user_id)
                mu, sigma = (have.mu, have.sigma) if have else START
                seats.append(SeatIn(str(row.user_id), row.place, mu, sigma))
        new = rate_places(seats) if len(seats) >= 2 else {}
        if not new:
            return []
        finished = game.finished or results[0].finished
        changes = []
        for row in results:
            if str(row.user_id) not in new or row.kind != SeatKind.HUMAN or row.absent:
                continue
            out = new[str(row.user_id)]
            have = current.get(row.user_id)
            if have is None:
                have = Rating(user_id=row.user_id, pool=pool, mu=START[0], sigma=START[1])
                have.shown = shown(*START)
            before = (have.mu, have.sigma, have.shown)
            have.mu, have.sigma = out.mu, out.sigma
            have.shown = shown_after(before[2], out.mu, out.sigma, row.place == 1)
            have.games += 1
            have.updated = finished
            have.save()
            changes.append(
                RatingChange(
                    game=game,
                    user_id=row.user_id,
                    pool=pool,
                    seat=row.seat,
                    place=row.place,
                    mu_before=before[0],
                    sigma_before=before[1],
                    mu_after=out.mu,
                    sigma_after=out.sigma,
                    shown_before=before[2],
                    shown_after=have.shown,
                    finished=finished,
                )
            )
        return RatingChange.objects.bulk_create(changes)


def rated_games() -> QuerySet[Game]:
    """Every finished rated game, in the order they finished (the order of live updates)."""
    return Game.objects.filter(rated=True, status=Status.FINISHED).order_by("finished", "pk")


def recompute() -> int:
    """Rebuild every rating and its history from the result rows; the games rated. The result
    rows' fair-play marks are rewritten from the games' logs first, so games finished before
    they were kept are skipped when aborted, and their absent seats left out
    (docs/fair-play.md)."""
    with transaction.atomic():
        refresh_fair_play()
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        count = 0
        for game_id in rated_games().values_list("pk", flat=True):
            count += bool(rate_game(game_id))
    return count


def is_provisional(rating: Rating) -> bool:
    return rating.games < PROVISIONAL_GAMES


def rating_dict(rating: Rating) -> dict[str, Any]:
    return {
        "pool": rating.pool,
        "label": Pool(rating.pool).label,
        "shown": rating.shown,
        "uncertainty": uncertainty(rating.sigma),
        "games": rating.games,
        "provisional": is_provisional(rating),
    }


def history(
    user_id: int, pools: Iterable[str] | None = None
) -> dict[str, list[tuple[Any, int, int]]]:
    """Each pool's (finished, shown before, shown after) per game, oldest first."""
    rows = RatingChange.objects.filter(user_id=user_id)
    if pools is not None:
        rows = rows.filter(pool__in=list(pools))
    found: dict[str, list[tuple[Any, int, int]]] = {}
    for pool, when, before, after in rows.order_by("finished", "pk").values_list(
        "pool", "finished", "shown_before", "shown_after"
    ):
        found.setdefault(pool, []).append((when, before, after))
    return found


# Rated games between the same players:
# docs/fair-play.md "Rated games between the same players"


@dataclass(frozen=True, order=True)
class PairAtLimit:
    """Two accounts (``first`` < ``second``) that have played their limit of rated games
    together in a pool: the rated games in the window, and when the oldest of them leaves it
    (from then on their next game together is rated again)."""

    first: int
    second: int
    games: int
    rated_again: datetime


def _rated_tables(
    user_ids: Iterable[int], since: datetime, until: datetime, exclude_game: int | None = None
) -> list[tuple[str, datetime, set[int]]]:
    """Each rated game started in (``since``, ``until``] (being played or over) at which any of
    ``user_ids`` sat: its pool, when it started, and the accounts seated at it."""
    games = Game.objects.filter(
        rated=True, started__gt=since, started__lte=until, seats__user_id__in=list(user_ids)
    ).exclude(status=Status.WAITING)
    if exclude_game is not None:
        games = games.exclude(pk=exclude_game)
    rows = Seat.objects.filter(
        game__in=games.values("pk"), kind=SeatKind.HUMAN, user__isnull=False
    ).values_list(
        "game_id",
        "user_id",
        "game__mode",
        "game__players",
        "game__correspondence_days",
        "game__started",
    )
    tables: dict[int, tuple[str, datetime, set[int]]] = {}
    for game_id, user_id, mode, players, days, started in rows:
        pool = pool_for(mode, players, days)
        if pool is not None:
            tables.setdefault(game_id, (pool, started, set()))[2].add(user_id)
    return list(tables.values())


def _at_limit(first: int, second: int, started: list[datetime]) -> PairAtLimit | None:
    if len(started) < PAIR_LIMIT:
        return None
    started = sorted(started)
    # Below the limit again once all but PAIR_LIMIT - 1 of them have left the window.
    leaves = started[len(started) - PAIR_LIMIT]
    return PairAtLimit(first, second, len(started), leaves + PAIR_WINDOW)


def pair_limit_reached(
    user_ids: Iterable[int | None],
    pool: str | None,
    now: datetime | None = None,
    *,
    exclude_game: int | None = None,
) -> list[PairAtLimit]:
    """The pairs of these accounts that have played :data:`PAIR_LIMIT` rated games together
    in ``pool`` in the :data:`PAIR_WINDOW` up to ``now``: a game of theirs together now would
    be played unrated. A rated game counts from its start, finished or still being played, at
    any table size (each pair at a table of more counts it); ``exclude_game`` is left out (the
    game being decided). None (a guest) is never limited."""
    people = sorted({u for u in user_ids if u is not None})
    if pool is None or len(people) < 2:
        return []
    now = now or timezone.now()
    together: dict[tuple[int, int], list[datetime]] = defaultdict(list)
    for table_pool, started, seated in _rated_tables(people, now - PAIR_WINDOW, now, exclude_game):
        if table_pool == pool:
            for pair in combinations(sorted(seated.intersection(people)), 2):
                together[pair].append(started)
    found = (_at_limit(a, b, started) for (a, b), started in together.items())
    return sorted(p for p in found if p is not None)


def limited_partners(user_id: int, now: datetime | None = None) -> dict[str, list[PairAtLimit]]:
    """Per pool, the accounts ``user_id`` has played :data:`PAIR_LIMIT` rated games with in
    the :data:`PAIR_WINDOW` up to ``now``, each as a pair whose ``second`` is the other
    account (``first`` is ``user_id``): what the seek panel warns of before a seek."""
    now = now or timezone.now()
    together: dict[tuple[str, int], list[datetime]] = defaultdict(list)
    for pool, started, seated in _rated_tables([user_id], now - PAIR_WINDOW, now):
        for other in seated - {user_id}:
            together[(pool, other)].append(started)
    found: dict[str, list[PairAtLimit]] = {}
    for (pool, other), started in sorted(together.items()):
        pair = _at_limit(user_id, other, started)
        if pair is not None:
            found.setdefault(pool, []).append(pair)
    return found


def limit_rated_game(game: Game) -> str | None:
    """The games app's rated check, run as a rated game starts (registered in
    ``RatingsConfig.ready``; games/services/lobby.py ``start_if_full``): when a pair of its
    players has reached :data:`PAIR_LIMIT` in its pool, the game's pairs are recorded
    (:class:`PairLimited`) and the sentence why it is unrated is returned; the games app then
    plays it unrated. None: it may be rated. The same for every family and table size: one
    pair at its limit makes the whole table unrated (a rating comes from every seat's place)."""
    pool = pool_of(game)
    seats = {
        s.user_id: s.index
        for s in Seat.objects.filter(game=game, kind=SeatKind.HUMAN, user__isnull=False)
    }
    reached = pair_limit_reached(list(seats), pool, exclude_game=game.pk)
    if not reached or pool is None:
        return None
    pairs = [[seats[p.first], seats[p.second], p.games] for p in reached]
    PairLimited.objects.update_or_create(
        game=game, defaults={"pool": pool, "pairs": pairs, "decided": timezone.now()}
    )
    return pair_limit_reasons([game.pk])[game.pk]


def times(count: int) -> str:
    """``once``, ``twice``, ``three times``, then figures: how often a pair played."""
    return {1: "once", 2: "twice", 3: "three times"}.get(count, f"{count} times")


def _pair_words(names: Sequence[str], viewer_name: str | None, games: int, past: bool) -> str:
    """How a pair at its limit is said: "you have played Bob three times" to one of the
    two, "Ann and Bob have played each other three times" to anyone else."""
    have = "had" if past else "have"
    if viewer_name is not None and viewer_name in names:
        other = names[1] if names[0] == viewer_name else names[0]
        return f"you {have} played {other} {times(games)}"
    return f"{names[0]} and {names[1]} {have} played each other {times(games)}"


def pair_limit_reasons(game_ids: Iterable[int]) -> dict[int, str]:
    """Why each of these games that a pair's limit made unrated is unrated, in words (the
    rating changes' reason, "unrated: ..."): by game id, only for such games."""
    wanted = PairLimited.objects.filter(game_id__in=list(game_ids))
    limited = {p.game_id: p for p in wanted}
    # Two queries, however many games (a games list asks for a page of them at once).
    seats = Seat.objects.filter(game_id__in=wanted.values("game_id"))
    names: dict[tuple[int, int], str] = {
        (game_id, index): name or f"Seat {index + 1}"
        for game_id, index, name in seats.values_list("game_id", "index", "name")
    }
    reasons = {}
    for game_id, row in limited.items():
        said = [
            _pair_words([names.get((game_id, a), "?"), names.get((game_id, b), "?")], None, n, True)
            for a, b, n in row.pairs
        ]
        reasons[game_id] = f"unrated: {'; '.join(said)} in 24 h in this pool"
    return reasons


def unrated_notices(game: Game, viewer_id: int | None) -> list[str]:
    """What a game's page says, before it starts and while it is played, of a pair at its
    limit: "Unrated: you have played Bob three times in 24 h in this pool". A rated game
    waiting for players counts the seated accounts and the viewer (who may be about to take
    a seat); a started game says what was decided when it started."""
    seats = list(Seat.objects.filter(game=game).order_by("index"))
    if game.status != Status.WAITING:
        row = PairLimited.objects.filter(game=game).first()
        if row is None:
            return []
        by_index = {s.index: s for s in seats}
        mine = next((s.index for s in seats if viewer_id and s.user_id == viewer_id), None)
        said = []
        for a, b, n in row.pairs:
            names = [by_index[i].name if i in by_index else "?" for i in (a, b)]
            me = by_index[mine].name if mine in (a, b) and mine is not None else None
            said.append(_pair_words(names, me, n, True))
        return [f"Unrated: {s} in 24 h in this pool." for s in said]
    if not game.rated:
        return []
    names = {s.user_id: s.name for s in seats if s.kind == SeatKind.HUMAN and s.user_id}
    people = list(names) + ([viewer_id] if viewer_id and viewer_id not in names else [])
    notices = []
    for pair in pair_limit_reached(people, pool_of(game), exclude_game=game.pk):
        if viewer_id in (pair.first, pair.second):
            other = pair.second if pair.first == viewer_id else pair.first
            said = f"you have played {names.get(other, '?')} {times(pair.games)}"
        else:
            said = _pair_words([names[pair.first], names[pair.second]], None, pair.games, False)
        notices.append(f"Unrated: {said} in 24 h in this pool, so this game will be unrated.")
    return notices


# The leaderboard (docs/fair-play.md "The leaderboard")


def _opponents() -> Subquery:
    """For a Rating row: the different people rated at the same tables in its pool (its
    player's opponents there), as a subquery."""
    mine = RatingChange.objects.filter(
        user_id=OuterRef(OuterRef("user_id")), pool=OuterRef(OuterRef("pool"))
    ).values("game_id")
    others = (
        RatingChange.objects.filter(game_id__in=mine)
        .exclude(user_id=OuterRef("user_id"))
        .order_by()
        .annotate(
            n=Func(
                F("user_id"),
                function="COUNT",
                template="%(function)s(DISTINCT %(expressions)s)",
                output_field=IntegerField(),
            )
        )
        .values("n")
    )
    return Subquery(others, output_field=IntegerField())


def with_opponents(ratings: QuerySet[Rating]) -> QuerySet[Rating]:
    """The ratings, each with ``opponents``: the different people its player met, rated, in
    its pool (bots are not opponents: their ratings are fixed)."""
    return ratings.annotate(opponents=_opponents())


def on_the_board(pool: str, since: datetime) -> QuerySet[Rating]:
    """The ratings a pool's leaderboard may list: :data:`BOARD_GAMES` rated games against
    :data:`BOARD_OPPONENTS` different people, and a rated game there since ``since``."""
    return with_opponents(
        Rating.objects.filter(pool=pool, games__gte=BOARD_GAMES, updated__gte=since)
    ).filter(opponents__gte=BOARD_OPPONENTS)


def board_progress(rating: Rating, opponents: int, since: datetime) -> dict[str, Any]:
    """How far a rating is from its pool's leaderboard: the games and opponents still needed,
    and whether it is listed (it also needs a rated game since ``since``)."""
    games_needed = max(0, BOARD_GAMES - rating.games)
    opponents_needed = max(0, BOARD_OPPONENTS - opponents)
    return {
        "games": rating.games,
        "opponents": opponents,
        "games_needed": games_needed,
        "opponents_needed": opponents_needed,
        "active": rating.updated >= since,
        "listed": not games_needed and not opponents_needed and rating.updated >= since,
    }
