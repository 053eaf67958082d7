"""The puzzle trainer's rules: who plays, which puzzle comes next, attempts and their ratings,
a guest's progress joining their account. Views call these (and puzzles/daily.py,
puzzles/editor.py) with the asker's :class:`games.identity.Identity`; refusals are the domain
errors of games/errors.py, answered as JSON at the edge (rummi_site/jsonapi.py).

Ratings (Glicko-2, :mod:`puzzles.glicko`): a player's first finished attempt at a generated
puzzle is a game against the puzzle. A clean solve scores 1, each hint halves that (a hint is
a partial loss), giving up scores 0. Later attempts, shared puzzles and attempts left open
change nothing. The ramp's tutorial levels (1-4) move a rating gently: a quarter of the
Glicko change, at most 40 points either way, so a new player's first miss costs little.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, QuerySet
from django.db.models.functions import Abs
from django.utils import timezone

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.tiles import Tile, parse_tiles
from games.errors import Conflict, Illegal, Invalid, NotFound
from games.identity import Identity
from games.signals import puzzle_solved

from . import glicko
from .arrangements import codes, played_tiles, rearrangement
from .generator import parse_table
from .models import Attempt, DailyPuzzle, PlayerRating, Puzzle

RAMP_LEVELS = (1, 2, 3, 4)
RAMP_PER_LEVEL = 3
# How much a tutorial (ramp level) attempt moves the player's rating: a share of the change,
# capped (the module docstring).
TUTORIAL_SHARE = 0.25
TUTORIAL_CAP = 40.0
BANDS = (100.0, 200.0, 400.0, 800.0, 1e9)
HINT_FACTOR = 0.5
STREAK_BASE = 700.0
STREAK_STEP = 80.0


# ---------------------------------------------------------------------------------------------
# Who plays: an Identity (games/identity.py), a signed-in user or a guest by session key.


def rating_of(player: Identity, create: bool = False) -> PlayerRating | None:
    if player.anonymous:
        return None
    found = PlayerRating.objects.filter(player.owns()).first()
    if found is None and create:
        try:
            with transaction.atomic():
                found = PlayerRating.objects.create(**player.fields())
        except IntegrityError:
            found = PlayerRating.objects.filter(player.owns()).first()
    return found


def rating_json(player: Identity) -> dict[str, Any]:
    found = rating_of(player)
    return (found or PlayerRating()).to_json()


# ---------------------------------------------------------------------------------------------
# Which puzzle next


def trainer_puzzles() -> QuerySet[Puzzle]:
    """Puzzles the trainer, streaks and dailies serve: public generated ones."""
    return Puzzle.objects.filter(public=True, source=Puzzle.Source.GENERATED)


def attempted_ids(player: Identity) -> set[int]:
    if player.anonymous:
        return set()
    return set(Attempt.objects.filter(player.owns()).values_list("puzzle_id", flat=True))


def ramp_progress(player: Identity) -> dict[str, Any]:
    """How far the player is through the ramp: solved puzzles per ramp level."""
    solved: dict[int, int] = {level: 0 for level in RAMP_LEVELS}
    if not player.anonymous:
        rows = (
            Attempt.objects.filter(player.owns(), solved=True, puzzle__level__in=RAMP_LEVELS)
            .filter(puzzle__source=Puzzle.Source.GENERATED)
            .values_list("puzzle__level", "puzzle_id")
            .distinct()
        )
        for level, _ in rows:
            solved[level] += 1
    available = dict(
        trainer_puzzles()
        .filter(level__in=RAMP_LEVELS)
        .values_list("level")
        .annotate(count=Count("pk"))
        .values_list("level", "count")
    )
    levels = []
    for level in RAMP_LEVELS:
        needed = min(RAMP_PER_LEVEL, available.get(level, 0))
        levels.append(
            {
                "level": level,
                "technique": Puzzle.Technique(_ramp_technique(level)).label,
                "solved": min(solved[level], needed),
                "needed": needed,
            }
        )
    done = all(row["solved"] >= row["needed"] for row in levels)
    return {"levels": levels, "done": done}


def _ramp_technique(level: int) -> str:
    return ("extend", "split_run", "take_from_group", "free_joker")[level - 1]


def next_puzzle(
    player: Identity, mode: str = "trainer", today: dt.date | None = None
) -> Puzzle | None:
    """The ramp in order until done, then the unseen puzzle nearest the player's rating
    (the band widening when nothing fits); in streak mode, rising difficulty."""
    if mode == "streak":
        return next_streak_puzzle(player, today)
    seen = attempted_ids(player)
    pool = trainer_puzzles().exclude(pk__in=_upcoming_dailies(today))
    progress = ramp_progress(player)
    if not progress["done"]:
        for row in progress["levels"]:
            if row["solved"] < row["needed"]:
                level = pool.filter(level=row["level"]).order_by("slug")
                return level.exclude(pk__in=seen).first() or _unsolved(level, player)
    found = rating_of(player)
    return _nearest(pool.exclude(pk__in=seen), found.rating if found else 1500.0)


def _unsolved(puzzles: QuerySet[Puzzle], player: Identity) -> Puzzle | None:
    solved = Attempt.objects.filter(player.owns(), solved=True).values("puzzle_id")
    return puzzles.exclude(pk__in=solved).first()


def _nearest(puzzles: QuerySet[Puzzle], target: float) -> Puzzle | None:
    """The puzzle rated nearest ``target`` within the narrowest band that has one."""
    by_distance = puzzles.annotate(distance=Abs(F("rating") - target)).order_by("distance", "slug")
    for band in BANDS:
        found = by_distance.filter(distance__lte=band).first()
        if found is not None:
            return found
    return None


def _upcoming_dailies(today: dt.date | None) -> QuerySet[DailyPuzzle]:
    today = today or timezone.now().date()
    return DailyPuzzle.objects.filter(date__gte=today).values("puzzle_id")


def next_streak_puzzle(player: Identity, today: dt.date | None = None) -> Puzzle | None:
    """Streak puzzle number ``n`` is the one rated nearest ``STREAK_BASE + n * STREAK_STEP``
    not yet met in this streak (never-attempted ones first)."""
    found = rating_of(player)
    done = found.streak_current if found else 0
    target = STREAK_BASE + done * STREAK_STEP
    pool = trainer_puzzles().exclude(pk__in=_upcoming_dailies(today))
    if found and found.streak_started:
        this_streak = Attempt.objects.filter(
            player.owns(), mode=Attempt.Mode.STREAK, started__gte=found.streak_started
        ).values("puzzle_id")
        pool = pool.exclude(pk__in=this_streak)
    return _nearest(pool.exclude(pk__in=attempted_ids(player)), target) or _nearest(pool, target)


def trainer_state(player: Identity, mode: str = "trainer") -> dict[str, Any]:
    """What the trainer page and ``GET /puzzles/api/trainer`` show."""
    puzzle = next_puzzle(player, mode)
    return {
        "mode": mode,
        "next": None if puzzle is None else puzzle_summary(puzzle, mode),
        "ramp": ramp_progress(player),
        "rating": rating_json(player),
    }


def puzzle_summary(puzzle: Puzzle, mode: str = "trainer") -> dict[str, Any]:
    url = puzzle.get_absolute_url()
    return {
        "slug": puzzle.slug,
        "url": url if mode == "trainer" else f"{url}?mode={mode}",
        "level": puzzle.level,
        "technique": puzzle.technique,
        "rating": round(puzzle.rating),
    }


# ---------------------------------------------------------------------------------------------
# Attempts


def get_puzzle(slug: str) -> Puzzle:
    puzzle = Puzzle.objects.filter(slug=slug).first()
    if puzzle is None:
        raise NotFound("no_such_puzzle", "There is no such puzzle.")
    return puzzle


def daily_pending(puzzle: Puzzle, player: Identity, on: dt.date | None = None) -> bool:
    """Whether ``puzzle`` is the daily of ``on`` (today, UTC) and the player has not made
    their daily try at it that day: until they have, any try at it is the daily try, from
    whichever page or endpoint it starts (README "Puzzles"), so nothing about it (a hint, the
    solution) can be seen outside that try."""
    on = on or timezone.now().date()
    if not DailyPuzzle.objects.filter(date=on, puzzle=puzzle).exists():
        return False
    if player.anonymous:
        return True
    tried = Attempt.objects.filter(
        player.owns(), puzzle=puzzle, mode=Attempt.Mode.DAILY, started__date=on
    )
    return not tried.exists()


def open_attempt(
    puzzle: Puzzle, player: Identity, now: dt.datetime | None = None
) -> Attempt | None:
    """The player's open attempt at ``puzzle``. None before their daily try at today's daily
    (:func:`daily_pending`): one left open from an earlier day is not that try."""
    if player.anonymous or daily_pending(puzzle, player, (now or timezone.now()).date()):
        return None
    return (
        Attempt.objects.filter(player.owns(), puzzle=puzzle, finished__isnull=True)
        .order_by("-started")
        .first()
    )


DAILY_FIRST = (
    "This is today's daily puzzle: your first try at it today is your daily try. "
    "Start it first (on the daily puzzle's page)."
)


def _require_attempt(puzzle: Puzzle, player: Identity, now: dt.datetime | None = None) -> Attempt:
    """The open attempt, or a 409 saying why there is none: none started, the last one over
    (``already_finished``), or today's daily not started as the daily try."""
    now = now or timezone.now()
    attempt = open_attempt(puzzle, player, now)
    if attempt is not None:
        return attempt
    if daily_pending(puzzle, player, now.date()):
        raise Conflict("no_attempt", DAILY_FIRST)
    last = (
        None
        if player.anonymous
        else Attempt.objects.filter(player.owns(), puzzle=puzzle).order_by("-started").first()
    )
    if last is not None and last.finished is not None:
        how = "solved" if last.solved else "given up"
        raise Conflict(
            "already_finished",
            f"Your attempt at this puzzle is already over ({how}): start it again to play it "
            "once more.",
        )
    raise Conflict("no_attempt", "Start the puzzle first.")


def start_attempt(
    puzzle: Puzzle, player: Identity, mode: str = "trainer", now: dt.datetime | None = None
) -> tuple[Attempt, bool]:
    """The player's open attempt at ``puzzle``, or a new one; ``True`` when new.

    A daily attempt must be at today's daily (a second one that day is practice), and the
    first try at today's daily is the daily one whatever mode was asked (:func:`daily_pending`);
    a streak attempt at the streak's next puzzle; a puzzle shared by link is always "shared".
    """
    now = now or timezone.now()
    if mode not in Attempt.Mode.values:
        raise Invalid("bad_mode", f"mode must be one of {', '.join(Attempt.Mode.values)}.")
    existing = open_attempt(puzzle, player, now)
    if existing is not None:
        return existing, False
    mode = _checked_mode(puzzle, player, mode, now)
    if mode == Attempt.Mode.STREAK:
        found = rating_of(player, create=True)
        assert found is not None
        if found.streak_started is None:
            PlayerRating.objects.filter(pk=found.pk).update(streak_started=now)
    attempt = Attempt.objects.create(puzzle=puzzle, mode=mode, started=now, **player.fields())
    return attempt, True


def _checked_mode(puzzle: Puzzle, player: Identity, mode: str, now: dt.datetime) -> str:
    if not puzzle.public or puzzle.source == Puzzle.Source.USER:
        return Attempt.Mode.SHARED
    if daily_pending(puzzle, player, now.date()):
        return Attempt.Mode.DAILY  # whatever was asked: the first try at today's daily
    if mode == Attempt.Mode.DAILY:
        daily = DailyPuzzle.objects.filter(date=now.date()).first()
        if daily is None or daily.puzzle_id != puzzle.pk:
            raise Invalid("not_the_daily", "This is not today's daily puzzle.")
        if Attempt.objects.filter(
            player.owns(), puzzle=puzzle, mode=mode, started__date=now.date()
        ).exists():
            return Attempt.Mode.TRAINER
    if mode == Attempt.Mode.STREAK:
        expected = next_streak_puzzle(player, now.date())
        if expected is None or expected.pk != puzzle.pk:
            raise Invalid("not_the_streak_puzzle", "This is not your next streak puzzle.")
    return mode


def attempt_json(attempt: Attempt) -> dict[str, Any]:
    return {
        "id": attempt.pk,
        "mode": attempt.mode,
        "started": attempt.started.isoformat(),
        "hints": attempt.hints,
    }


def submit(
    puzzle: Puzzle, player: Identity, table: object, now: dt.datetime | None = None
) -> dict[str, Any]:
    """Check a final table; a legal one meeting the goal solves the attempt.

    Raises :class:`Invalid` for malformed tables, :class:`Illegal` with the engine's code and
    sentence for an illegal turn or one that falls short of the goal (a mistake, the attempt
    stays open).
    """
    now = now or timezone.now()
    attempt = _require_attempt(puzzle, player, now)
    after = parse_melds(table, "table")
    try:
        played = played_tiles(parse_table(puzzle.table), parse_tiles(puzzle.rack), after)
    except IllegalMove as error:
        _count_mistake(attempt)
        raise Illegal(error.code, error.message) from None
    except InvalidInput as error:
        raise Invalid("bad_table", str(error)) from None
    if len(played) < puzzle.tiles_needed:
        _count_mistake(attempt)
        raise Illegal("goal_not_met", _short_of_goal(puzzle, len(played)))
    result = _finish(attempt, solved=True, now=now)
    return {"solved": True, "played": [str(t) for t in played], **result}


def _short_of_goal(puzzle: Puzzle, played: int) -> str:
    left = len(puzzle.rack) - played
    if puzzle.goal is None:
        return f"Put down every rack tile: {left} still on your rack."
    return f"Put down at least {puzzle.goal} rack tiles: you put down {played}."


def _count_mistake(attempt: Attempt) -> None:
    Attempt.objects.filter(pk=attempt.pk).update(mistakes=F("mistakes") + 1)


def parse_melds(value: object, name: str) -> tuple[tuple[Tile, ...], ...]:
    if not isinstance(value, list) or not all(
        isinstance(meld, list) and all(isinstance(code, str) for code in meld) for meld in value
    ):
        raise Invalid(f"bad_{name}", f"{name} must be a list of melds of tile codes.")
    try:
        return parse_table(value)
    except InvalidInput as error:
        raise Invalid(f"bad_{name}", str(error)) from None


def hint(puzzle: Puzzle, player: Identity) -> dict[str, Any]:
    """The next meld of the solution that takes rack tiles; each costs rating (and, in a
    streak, ends it)."""
    attempt = _require_attempt(puzzle, player)
    melds = hint_melds(puzzle)
    if attempt.hints >= len(melds):
        raise Conflict("no_more_hints", "Every meld with rack tiles has been shown.")
    claimed = Attempt.objects.filter(
        pk=attempt.pk, finished__isnull=True, hints=attempt.hints
    ).update(hints=F("hints") + 1)
    if not claimed:
        raise Conflict("conflict", "Another request changed this attempt; try again.")
    if attempt.mode == Attempt.Mode.STREAK:
        _end_streak(player)
    meld = melds[attempt.hints]
    return {
        "meld": meld,
        "hint": attempt.hints + 1,
        "hints_left": len(melds) - attempt.hints - 1,
        "message": f"Make {' '.join(meld)}.",
    }


def hint_melds(puzzle: Puzzle) -> list[list[str]]:
    """The solution's melds that take rack tiles, in order."""
    table, rack = parse_table(puzzle.table), parse_tiles(puzzle.rack)
    solution = parse_table(puzzle.solution)
    from_rack = rearrangement(table, rack, solution).from_rack
    return [codes([meld])[0] for meld, uses in zip(solution, from_rack, strict=True) if uses]


def give_up(puzzle: Puzzle, player: Identity, now: dt.datetime | None = None) -> dict[str, Any]:
    """The solution; the open attempt counts as a loss. Only an open attempt can be given up
    (a finished one is ``already_finished``): a player who finished the puzzle sees it again
    by starting it again, a later try that costs no rating."""
    now = now or timezone.now()
    attempt = _require_attempt(puzzle, player, now)
    result = _finish(attempt, solved=False, now=now)
    return {"solution": puzzle.solution, "solved": False, **result}


def _finish(attempt: Attempt, solved: bool, now: dt.datetime) -> dict[str, Any]:
    """Close the attempt once (a conditional update claims it) and apply its rating."""
    seconds = max(0.0, (now - attempt.started).total_seconds())
    with transaction.atomic():
        claimed = Attempt.objects.filter(pk=attempt.pk, finished__isnull=True).update(
            finished=now, solved=solved, gave_up=not solved, seconds=seconds
        )
        if not claimed:
            raise Conflict("already_finished", "This attempt is already over.")
        attempt.refresh_from_db()
        player = Identity(user_id=attempt.user_id, guest_key=attempt.guest_key)
        change = _rate(attempt, player) if _is_rated(attempt, player) else None
        _streak_after(attempt, player, solved)
        if solved and attempt.user_id is not None:
            sent = {"user_id": attempt.user_id, "attempt_id": attempt.pk}
            transaction.on_commit(lambda: puzzle_solved.send(Attempt, **sent))
    return {"seconds": round(seconds, 1), "hints": attempt.hints, "rating": change}


def _is_rated(attempt: Attempt, player: Identity) -> bool:
    if attempt.mode == Attempt.Mode.SHARED:
        return False
    earlier = Attempt.objects.filter(player.owns(), puzzle_id=attempt.puzzle_id).exclude(
        pk=attempt.pk
    )
    return not earlier.filter(finished__isnull=False).exists()


def score_of(attempt: Attempt) -> float:
    """What the attempt scores against the puzzle: 1 clean, halved by each hint, 0 given up."""
    return HINT_FACTOR**attempt.hints if attempt.solved else 0.0


def _played(
    before: glicko.Rating, puzzle: Puzzle, score: float
) -> tuple[glicko.Rating, glicko.Rating]:
    """The player's and the puzzle's ratings after the player scores ``score`` against it;
    a tutorial level moves the player's gently."""
    after, puzzle_after = glicko.play(before, puzzle.glicko, score)
    if puzzle.level in RAMP_LEVELS and puzzle.source == Puzzle.Source.GENERATED:
        change = (after.rating - before.rating) * TUTORIAL_SHARE
        change = max(-TUTORIAL_CAP, min(TUTORIAL_CAP, change))
        after = replace(after, rating=before.rating + change)
    return after, puzzle_after


def give_up_cost(puzzle: Puzzle, player: Identity) -> float | None:
    """How many rating points giving up the player's open attempt now would cost (a positive
    number), or ``None`` when it would cost nothing (unrated: a shared puzzle, a later try,
    no attempt yet). What the Give up button says before it is pressed."""
    if not puzzle.public or puzzle.source == Puzzle.Source.USER:
        return None  # shared puzzles are never rated
    attempt = open_attempt(puzzle, player)
    if attempt is not None and not _is_rated(attempt, player):
        return None
    if attempt is None and not player.anonymous:
        tried = Attempt.objects.filter(player.owns(), puzzle=puzzle, finished__isnull=False)
        if tried.exists():
            return None  # only the first finished attempt is rated
    found = rating_of(player)
    before = found.glicko if found is not None else glicko.Rating()
    after, _ = _played(before, puzzle, 0.0)
    return round(before.rating - after.rating, 1)


def _rate(attempt: Attempt, player: Identity) -> dict[str, Any]:
    puzzle = Puzzle.objects.select_for_update().get(pk=attempt.puzzle_id)
    rating_of(player, create=True)
    mine = PlayerRating.objects.select_for_update().get(player.owns())
    before = mine.glicko
    after, puzzle_after = _played(before, puzzle, score_of(attempt))
    mine.set_glicko(after)
    mine.games += 1
    mine.save(update_fields=["rating", "rd", "vol", "games"])
    puzzle_before = puzzle.rating
    puzzle.set_glicko(puzzle_after)
    puzzle.save(update_fields=["rating", "rd", "vol"])
    change = after.rating - before.rating
    Attempt.objects.filter(pk=attempt.pk).update(rated=True, rating_change=change)
    return {
        "before": round(before.rating, 1),
        "after": round(after.rating, 1),
        "change": round(change, 1),
        "rd": round(after.rd, 1),
        "puzzle": {"before": round(puzzle_before, 1), "after": round(puzzle_after.rating, 1)},
    }


def _streak_after(attempt: Attempt, player: Identity, solved: bool) -> None:
    if attempt.mode != Attempt.Mode.STREAK:
        return
    if solved and attempt.hints == 0:
        PlayerRating.objects.filter(player.owns()).update(streak_current=F("streak_current") + 1)
        PlayerRating.objects.filter(player.owns(), streak_best__lt=F("streak_current")).update(
            streak_best=F("streak_current")
        )
    else:
        _end_streak(player)


def _end_streak(player: Identity) -> None:
    """A miss: the streak is over (its best is kept)."""
    PlayerRating.objects.filter(player.owns(), streak_best__lt=F("streak_current")).update(
        streak_best=F("streak_current")
    )
    PlayerRating.objects.filter(player.owns()).update(streak_current=0, streak_started=None)


# ---------------------------------------------------------------------------------------------
# Guests who sign in


def adopt_guest(key: str, user: Any) -> int:
    """Give a guest's attempts and rating to ``user``; the number of attempts moved.

    If the account already has a rating, it keeps it unless it was never used; the best
    streak is the better of the two.
    """
    moved = Attempt.objects.filter(guest_key=key, user__isnull=True).update(user=user, guest_key="")
    guest = PlayerRating.objects.filter(guest_key=key, user__isnull=True).first()
    if guest is None:
        return moved
    mine = PlayerRating.objects.filter(user=user).first()
    if mine is None:
        guest.user, guest.guest_key = user, ""
        guest.save(update_fields=["user", "guest_key"])
        return moved
    if mine.games == 0:
        mine.set_glicko(guest.glicko)
        mine.games = guest.games
    mine.streak_best = max(mine.streak_best, guest.streak_best, guest.streak_current)
    mine.save()
    guest.delete()
    return moved


# ---------------------------------------------------------------------------------------------
# A signed-in player's puzzle record, as the apps above read it (players: the profile, the
# leaderboards, the trophies and the data export; docs/design.md "Layers and the import rule")


def attempts_of(user_id: int) -> list[dict[str, Any]]:
    """Every attempt of the player, oldest first, as the data export gives them."""
    attempts = Attempt.objects.filter(user_id=user_id).select_related("puzzle")
    return [
        {
            "puzzle": a.puzzle.slug,
            "mode": a.mode,
            "started": a.started.isoformat(),
            "solved": a.solved,
            "hints": a.hints,
            "seconds": a.seconds,
        }
        for a in attempts.order_by("started")
    ]


def player_rating(user_id: int) -> PlayerRating | None:
    """The player's puzzle rating and streaks, or None before their first puzzle."""
    return PlayerRating.objects.filter(user_id=user_id).first()


def rated_players() -> QuerySet[PlayerRating]:
    """The signed-in, active players who finished a rated puzzle, with their users."""
    rated = PlayerRating.objects.filter(user__isnull=False, user__is_active=True, games__gt=0)
    return rated.select_related("user", "user__player")


def solved_levels(user_id: int) -> dict[int, tuple[int, dt.datetime | None]]:
    """Per trainer level: how many distinct puzzles the player solved, and when the last."""
    solved = Attempt.objects.filter(user_id=user_id, solved=True)
    per_level = solved.values("puzzle__level").annotate(
        n=Count("puzzle", distinct=True), last=Max("finished")
    )
    return {row["puzzle__level"]: (row["n"], row["last"]) for row in per_level.order_by()}


def daily_runs(user_id: int) -> dict[str, Any]:
    """The player's daily puzzle streaks over every daily: ``current`` (ending on the last
    daily) and ``best``, in days, and the date the best first reached 7 and 30 days."""
    dates = sorted(DailyPuzzle.objects.values_list("date", flat=True))
    solved = set(
        Attempt.objects.filter(user_id=user_id, solved=True, mode=Attempt.Mode.DAILY).values_list(
            "puzzle_id", flat=True
        )
    )
    solved_dates = set(
        DailyPuzzle.objects.filter(puzzle_id__in=solved).values_list("date", flat=True)
    )
    best = run = 0
    when: dict[int, Any] = {}
    for date in dates:
        run = run + 1 if date in solved_dates else 0
        best = max(best, run)
        for days in (7, 30):
            if run == days and days not in when:
                when[days] = date
    return {"current": run, "best": best, "when": when}
