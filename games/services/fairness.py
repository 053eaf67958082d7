"""Fair play at a finished table (docs/fair-play.md "Stand-ins, absence and aborts"), for every
family, from the game's log, its StandIn rows and its seats:

* **absent**: a person in a stand-in game (a live tournament table) whose seat was not seen in
  the game's first minute (no socket heard from, ``first_seen`` empty or later) and who made no
  move of their own: scored as the table's last place, never rated, no trophy;
* **stand-in turns**: the turns a bot played for a person gone (the StandIn rows), and the
  events it played in them (no trophy comes from those);
* **aborted**: a person resigned or timed out without a real move of their own (the family
  says which moves are real: ``own_moves``); the whole game is unrated, earns no trophy and is
  left out of the win counts;
* **a repeated pair**: two accounts at the table had already finished ``PAIR_COUNTED`` counted
  games together in the ``PAIR_COUNT_WINDOW`` before this one ended (``repeated_pair``): the
  whole game earns no trophy and is left out of everyone's figures and win counts, as a rated
  game past the ratings' pair limit is unrated
  (docs/fair-play.md "Games between the same players").

:func:`judge` reads all three; ``record.write_results`` writes them on the result rows, and
:func:`refresh` rewrites them for games finished before (``manage.py recomputeratings``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.db.models import Count, Q

from games.engine.families import family_named
from games.engine.family import GameFamily

from ..models import Game, GameResult, Seat, SeatKind, StandIn, Status

# A person gone this long has their turn played by a stand-in (services.bots); a person not
# seen this long after the start is absent.
STAND_IN_AFTER = timedelta(seconds=60)
ABSENT_AFTER = STAND_IN_AFTER


# Two accounts count at most this many games finished together in any window of this length in
# their figures, win counts and trophies (the ratings' pair limit is the same for rated games).
PAIR_COUNTED = 3
PAIR_COUNT_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class Fairness:
    absent: frozenset[int] = frozenset()
    stand_in_turns: Mapping[int, int] = field(default_factory=dict)
    aborted: bool = False


def stood_in(
    game: Game, family: GameFamily, payloads: Sequence[Mapping[str, Any]]
) -> dict[int, set[int]]:
    """Each stood-in seat's events played by its stand-in, as indexes into ``payloads`` (the
    whole log, the first event first): the events of the turns its StandIn rows name. Found by
    replaying the log, as the turn each event was played in is the state's, not the event's."""
    rows = set(StandIn.objects.filter(game=game).values_list("seat", "turn_number"))
    if not rows or not payloads:
        return {}
    state = family.replay([payloads[0]])
    found: dict[int, set[int]] = {}
    for index, payload in enumerate(payloads[1:], start=1):
        turn = family.turn(state)
        seat = turn.stand_in_seat
        if seat is not None and (seat, turn.turn_number) in rows:
            found.setdefault(seat, set()).add(index)
        state = family.evolve(state, family.event_from_dict(payload))
    return found


def stand_in_seqs(game: Game) -> dict[int, set[int]]:
    """Each stood-in seat's events (their seqs) played by its stand-in (for the trophies)."""
    if not StandIn.objects.filter(game=game).exists():
        return {}
    payloads = list(game.events.order_by("seq").values_list("payload", flat=True))
    first = game.events.order_by("seq").values_list("seq", flat=True).first() or 1
    found = stood_in(game, family_named(game.family), payloads)
    return {seat: {first + i for i in indexes} for seat, indexes in found.items()}


def is_absent(game: Game, seat: Seat, ended: datetime) -> bool:
    """Whether a person's seat was not seen in the first minute of a stand-in game that lasted
    longer. Seats from before ``first_seen`` was kept count as seen if ever seen."""
    if not game.stand_in or seat.kind != SeatKind.HUMAN or game.started is None:
        return False
    deadline = game.started + ABSENT_AFTER
    if ended < deadline:
        return False
    if seat.first_seen is not None:
        return seat.first_seen > deadline
    return seat.last_seen is None


def _movers(
    family: GameFamily, payloads: Sequence[Mapping[str, Any]], stood: Mapping[int, set[int]]
) -> set[int]:
    """The seats with a real move of their own, outside their stand-in's turns."""
    moved: set[int] = set()
    for index, seat in enumerate(family.own_moves(payloads)):
        if seat is not None and index not in stood.get(seat, ()):
            moved.add(seat)
    return moved


def _turn_enders(
    family: GameFamily, payloads: Sequence[Mapping[str, Any]], stood: Mapping[int, set[int]]
) -> set[int]:
    """The seats that ended a turn of their own (a move, the clock's, a resignation) outside
    their stand-in's turns."""
    ended: set[int] = set()
    for index, payload in enumerate(payloads):
        found = family.activity(payload)
        if found is not None and index not in stood.get(found[0], ()):
            ended.add(found[0])
    return ended


def aborters(game: Game) -> frozenset[int]:
    """The seats that aborted a game: people present who ended a turn of their own (resigned,
    or let the clock end it) without a real move of their own. Not a seat that never had a
    turn (the game ended before it), nor an absent one.
    See docs/fair-play.md "Stand-ins, absence and aborts"."""
    family = family_named(game.family)
    payloads = list(game.events.order_by("seq").values_list("payload", flat=True))
    stood = stood_in(game, family, payloads)
    moved = _movers(family, payloads, stood)
    absent = set(GameResult.objects.filter(game=game, absent=True).values_list("seat", flat=True))
    people = {s.index for s in game.seats.all() if s.kind == SeatKind.HUMAN}
    ended = _turn_enders(family, payloads, stood)
    return frozenset(s for s in ended if s in people and s not in moved and s not in absent)


def own_movers(game: Game) -> frozenset[int]:
    """The seats of a game that made a real move of their own (not their stand-in's): in an
    aborted game, the others are the seats that aborted it or never played
    (docs/fair-play.md "Stand-ins, absence and aborts")."""
    family = family_named(game.family)
    payloads = list(game.events.order_by("seq").values_list("payload", flat=True))
    return frozenset(_movers(family, payloads, stood_in(game, family, payloads)))


def judge(
    game: Game, family: GameFamily, payloads: Sequence[Mapping[str, Any]], ended: datetime
) -> Fairness:
    """The absent seats, the stand-in turns per seat and whether the game is aborted."""
    seats = list(game.seats.all())
    people = {s.index for s in seats if s.kind == SeatKind.HUMAN}
    stood = stood_in(game, family, payloads)
    turns = dict(
        StandIn.objects.filter(game=game)
        .values("seat")
        .annotate(n=Count("pk"))
        .values_list("seat", "n")
    )
    moved = _movers(family, payloads, stood)
    ended_a_turn = _turn_enders(family, payloads, stood)
    absent = frozenset(s.index for s in seats if s.index not in moved and is_absent(game, s, ended))
    aborted = any(s in ended_a_turn and s not in moved and s not in absent for s in sorted(people))
    return Fairness(absent, turns, aborted)


def apply(rows: Sequence[GameResult], fairness: Fairness) -> None:
    """Mark the result rows (not saved): the absent seats are the table's last place (sharing
    it), the others keep their order before them."""
    present = [r for r in rows if r.seat not in fairness.absent]
    last = len(present) + 1
    for row in rows:
        row.absent = row.seat in fairness.absent
        row.stand_in_turns = int(fairness.stand_in_turns.get(row.seat, 0))
        row.aborted = fairness.aborted
    if len(present) < len(rows):
        places = {r.seat: 1 + sum(o.place < r.place for o in present) for r in present}
        for row in rows:
            row.place = places.get(row.seat, last)


def repeated_pair(game: Game, rows: Sequence[GameResult], ended: datetime) -> bool:
    """Whether two accounts present at this table (``rows``, absent seats marked) had already
    finished ``PAIR_COUNTED`` counted games together in the ``PAIR_COUNT_WINDOW`` before
    ``ended`` (a game that ended at the same moment counts as before when its id is lower).
    Counted: not aborted, neither seat absent, not itself a repeat, so a pair at its limit
    counts again once the oldest of those games is a window old. Two accounts farming wins,
    one resigning after a move, got a win and its trophies every game; now 3 a day."""
    users = sorted(
        {r.user_id for r in rows if r.user_id and r.kind == SeatKind.HUMAN and not r.absent}
    )
    if len(users) < 2:
        return False
    earlier = (
        GameResult.objects.filter(
            user_id__in=users,
            kind=SeatKind.HUMAN,
            finished__gt=ended - PAIR_COUNT_WINDOW,
            aborted=False,
            absent=False,
            repeat_pair=False,
        )
        .filter(Q(finished__lt=ended) | Q(finished=ended, game_id__lt=game.pk))
        .exclude(game_id=game.pk)
        .values_list("game_id", "user_id")
    )
    seated: dict[int, set[int]] = {}
    for game_id, user_id in earlier:
        seated.setdefault(game_id, set()).add(user_id)
    together = Counter(
        pair for people in seated.values() for pair in combinations(sorted(people), 2)
    )
    return any(n >= PAIR_COUNTED for n in together.values())


def mark_repeat(game: Game, rows: Sequence[GameResult], ended: datetime) -> None:
    """Mark every row of the game (not saved) with ``repeated_pair``."""
    repeat = repeated_pair(game, rows, ended)
    for row in rows:
        row.repeat_pair = repeat


def refresh(game: Game) -> bool:
    """Rewrite a finished game's fair-play marks from its log (games finished before they
    were written); True if any row changed."""
    if game.status != Status.FINISHED:
        return False
    rows = list(GameResult.objects.filter(game=game).order_by("seat"))
    if not rows:
        return False
    payloads = list(game.events.order_by("seq").values_list("payload", flat=True))
    ended = game.finished or rows[0].finished
    marks = ["absent", "stand_in_turns", "aborted", "place", "repeat_pair"]
    before = [tuple(getattr(r, mark) for mark in marks) for r in rows]
    apply(rows, judge(game, family_named(game.family), payloads, ended))
    mark_repeat(game, rows, ended)
    after = [tuple(getattr(r, mark) for mark in marks) for r in rows]
    if before == after:
        return False
    GameResult.objects.bulk_update(rows, marks)
    return True


def refresh_all() -> int:
    """:func:`refresh` every finished game; how many changed."""
    games = Game.objects.filter(status=Status.FINISHED).order_by("finished", "pk")
    return sum(refresh(game) for game in games.iterator())
