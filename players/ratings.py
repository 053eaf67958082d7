"""Game ratings: Weng-Lin (openskill's Bradley-Terry "full" model), one pool per kind of game
(docs/design.md "Ratings").

* A rated game's signed-in seats are rated; a bot seat counts as an opponent at its
  strength's fixed rating (:data:`BOT_RATINGS`, never updated); a guest's seat is left out,
  as if it had not sat (an unrated account cannot be farmed for points).
* The number shown is conservative: ``SHOWN_BASE + SHOWN_SCALE * (mu - 3 sigma)``, and a
  win (place 1, shared or not) never lowers it: it is then the larger of the number before
  and the new one. Its uncertainty is ``± SHOWN_SCALE * 2 sigma``.
* A rating is provisional for its first :data:`PROVISIONAL_GAMES` games in the pool.
* :func:`rate_game` is idempotent: a game's changes are written once (the
  ``RatingChange`` rows, unique per game and player), so a signal delivered twice changes
  nothing. :func:`recompute` replays every rated game in the order they finished and gives
  the same ratings as the live updates.

>>> out = rate_places([SeatIn("a", 1, *START), SeatIn("b", 2, *START)])
>>> out["a"].mu > START[0] > out["b"].mu
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from openskill.models import BradleyTerryFull

from games.models import Game, GameResult, Mode, SeatKind, Status

from .models import Pool, Rating, RatingChange

# limit_sigma: a game never widens a rating's uncertainty (a plain tau could, and a win could
# then lower the conservative number).
MODEL = BradleyTerryFull(limit_sigma=True)
START = (MODEL.mu, MODEL.sigma)
SHOWN_BASE = 1000
SHOWN_SCALE = 40
PROVISIONAL_GAMES = 10
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


def pool_of(game: Game) -> str | None:
    """The pool a game counts in, or None (Sandbox is never rated)."""
    if game.mode == Mode.R45:
        return Pool.RUMMY45
    if game.mode == Mode.SANDBOX:
        return None
    if game.mode == Mode.RUSH:
        return Pool.RUSH
    if game.correspondence_days:
        return Pool.CORRESPONDENCE
    return Pool.LIVE_DUEL if game.players == 2 else Pool.LIVE_TABLE


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
        users = [r.user_id for r in results if r.kind == SeatKind.HUMAN and r.user_id]
        if len(set(users)) != len(users):
            return []  # one account in two seats is never rated
        current = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(user_id__in=users, pool=pool)
        }
        seats = []
        for row in results:
            if row.kind == SeatKind.BOT:
                mu, sigma = BOT_RATINGS.get(row.bot_strength, START)
                seats.append(SeatIn(f"bot{row.seat}", row.place, mu, sigma, fixed=True))
            elif row.user_id:
                have = current.get(row.user_id)
                mu, sigma = (have.mu, have.sigma) if have else START
                seats.append(SeatIn(str(row.user_id), row.place, mu, sigma))
        new = rate_places(seats)
        if not new:
            return []
        finished = game.finished or results[0].finished
        changes = []
        for row in results:
            if str(row.user_id) not in new or row.kind != SeatKind.HUMAN:
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
    """Rebuild every rating and its history from the result rows; the games rated."""
    with transaction.atomic():
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


def history(user_id: int, pools: Iterable[str] | None = None) -> dict[str, list[tuple[Any, int]]]:
    """Each pool's (finished, shown) points, oldest first."""
    rows = RatingChange.objects.filter(user_id=user_id)
    if pools is not None:
        rows = rows.filter(pool__in=list(pools))
    found: dict[str, list[tuple[Any, int]]] = {}
    for pool, when, value in rows.order_by("finished", "pk").values_list(
        "pool", "finished", "shown_after"
    ):
        found.setdefault(pool, []).append((when, value))
    return found
