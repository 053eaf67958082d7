"""The one writer of game events, for every family (docs/design.md "The move path").

A change runs in one transaction on a locked game row: the family's engine decides, the events
are appended with consecutive seqs under a unique ``(game, seq)`` constraint, the cached state
and the clock are updated, and a game that ends here gets its result rows. After commit the
lifecycle signals of games/signals.py are sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.families import family_named
from games.engine.family import GameFamily, Setup, Turn

from .. import rows, signals
from ..errors import Conflict, Illegal, Invalid
from ..models import Game, GameEvent, GameResult, SeatKind, Status
from . import fairness

# What a change writes on the game row (and ``review`` when it ends the game).
RECORDED_FIELDS = (
    "seq",
    "state",
    "turn_number",
    "status",
    "finished",
    "deadline",
    "acting",
    "stand_in_seat",
    "moved",
)
# What an event row is written with (games/rows.py: insert).
EVENT_FIELDS = ("game", "seq", "kind", "payload", "created")


def acting_bits(turn: Turn) -> int:
    """The seats that may act as one number, bit n for seat n (Game.acting).

    >>> acting_bits(Turn(to_act=(0, 2), clock=(), finished=False, turn_number=1))
    5
    """
    return sum(1 << seat for seat in set(turn.to_act))


def family_of(game: Game) -> GameFamily:
    return family_named(game.family)


def setup_of(game: Game) -> Setup:
    """The game's setup as its family made it (for dealing it, and for its board's tiles)."""
    return Setup(
        game.family,
        game.mode,
        game.players,
        game.config or {},
        game.clock_seconds,
        game.correspondence_days,
    )


def load_state(game: Game) -> Any:
    """The game's cached engine state (its family's), or None before the deal."""
    return family_of(game).state_from_record(game.state) if game.state else None


def deal(game: Game) -> None:
    """Deal a game whose every seat is taken: commit to the seed, deal, start the clock."""
    family = family_of(game)
    try:
        state, events = family.new_game(setup_of(game), bytes.fromhex(game.seed))
    except InvalidInput as error:
        raise Invalid("bad_options", str(error)) from None
    game.status = Status.PLAYING
    game.started = timezone.now()
    game.commitment = family.commitment(state)
    record(game, family, None, state, events)
    game.save()


def apply_action(game: Game, action: Any, by_bot: bool = False) -> tuple[Any, list[Any]]:
    """Run an action through the family's engine on a locked game and append what happened;
    return the new state (the one now cached on the game) and the events."""
    family = family_of(game)
    before = load_state(game)
    if before is None:
        raise Conflict("not_playing", "This game is not being played now.")
    try:
        state, events = family.apply(before, action, bytes.fromhex(game.seed))
    except IllegalMove as error:
        raise Illegal(error.code, error.message) from None
    except InvalidInput as error:
        raise Invalid("bad_action", str(error)) from None
    commit(game, family, before, state, events, by_bot)
    return state, events


def commit(
    game: Game, family: GameFamily, before: Any, state: Any, events: list[Any], by_bot: bool
) -> None:
    """Record ``events`` on a locked game and write its row."""
    record(game, family, before, state, events, by_bot)
    # An update, not save(update_fields=...): inside a psycopg pipeline the row count that
    # save() checks is not known until the pipeline syncs.
    fields = RECORDED_FIELDS + (("review",) if game.status == Status.FINISHED else ())
    rows.update(game, fields)


def record(
    game: Game,
    family: GameFamily,
    before: Any,
    state: Any,
    events: list[Any],
    by_bot: bool = False,
) -> None:
    """Append events after ``game.seq``, update the cache and the clock, write the results of
    a game that ends here, and send the lifecycle signals after commit.

    A new deadline starts when the family's clock key moves (a new turn, the start of play).
    ``by_bot``: the change is a bot's own run (or a timeout's), which goes on by itself within
    a turn; the bots due are told only when a new clock starts.
    """
    first = game.seq + 1
    turn = family.turn(state)
    finished = turn.finished and game.status != Status.FINISHED
    if finished:
        earlier = list(
            GameEvent.objects.filter(game=game, seq__lt=first)
            .order_by("seq")
            .values_list("payload", "created")
        )
    now = timezone.now()
    payloads = [family.event_to_dict(e) for e in events]
    rows.insert(
        GameEvent,
        EVENT_FIELDS,
        [(game.pk, first + n, p["kind"], p, now) for n, p in enumerate(payloads)],
    )
    _mark_resigned(game, family, payloads, now)
    game.seq += len(events)
    game.state = family.state_to_record(state)
    clock_moved = before is None or game.deadline is None or family.turn(before).clock != turn.clock
    game.turn_number = turn.turn_number
    game.acting = acting_bits(turn)
    game.stand_in_seat = turn.stand_in_seat
    game.moved = now
    results: list[GameResult] = []
    if turn.finished:
        game.status = Status.FINISHED
        game.finished = now
        game.deadline = None
        if not family.reviewed:
            game.review = []  # nothing to review: the review sweep leaves it alone
    elif clock_moved:
        game.deadline = deadline_from(game, now)
    if finished:
        logged = [(payload, created) for payload, created in earlier]
        logged += [(p, now) for p in payloads]
        results = write_results(game, family, state, logged)
    numbered = list(enumerate(events, start=first))
    extra = {"deadline": game.deadline.isoformat() if game.deadline else None}
    extra["status"] = game.status
    turns = turn_signals(game, turn, by_bot, clock_moved)
    rounds = [r for r in (family.round_end(e) for e in events) if r is not None]
    gid, seq, name = game.public_id, game.seq, family.name

    def announce() -> None:
        signals.events_committed.send(
            Game, gid=gid, seq=seq, state=state, events=numbered, extra=extra, family=name
        )
        if before is None:  # the deal
            signals.game_started.send(Game, gid=gid)
        for ended in rounds:
            signals.round_ended.send(Game, gid=gid, **ended)
        for started in turns:
            signals.turn_started.send(Game, gid=gid, **started)
        if turn.finished:
            signals.game_finished.send(Game, gid=gid, results=results)

    transaction.on_commit(announce)


def _mark_resigned(
    game: Game, family: GameFamily, payloads: Sequence[dict[str, Any]], now: datetime
) -> None:
    """Note on their seats the players who resign in these events (``Seat.resigned``, from the
    family's ``activity``): a player who resigned no longer plays the game, though the others
    may play on (docs/fair-play.md "One live game at a time")."""
    found = [family.activity(p) for p in payloads]
    resigned = {a[0] for a in found if a is not None and a[1] == "resigned"}
    if not resigned:
        return
    for seat in game.seats.all():
        if seat.index in resigned and seat.resigned is None:
            seat.resigned = now
            rows.update(seat, ("resigned",))


def deadline_from(game: Game, now: datetime | None = None) -> datetime | None:
    now = now or timezone.now()
    if game.correspondence_days:
        return now + timedelta(days=game.correspondence_days)
    if game.clock_seconds:
        return now + timedelta(seconds=game.clock_seconds)
    return None


def turn_signals(game: Game, turn: Turn, by_bot: bool, clock_moved: bool) -> list[dict[str, Any]]:
    """``turn_started`` for the first bot now due (unless a bot's own run goes on within its
    turn) and, when a new clock started, for each person due (their clock, their notice)."""
    if turn.finished:
        return []
    kinds = {s.index: s.kind for s in game.seats.all()}
    common = {
        "turn_number": turn.turn_number,
        "deadline": game.deadline,
        "live": bool(game.clock_seconds) and not game.is_correspondence,
        "correspondence": game.is_correspondence,
    }
    found = []
    robots = [s for s in turn.to_act if kinds.get(s) == SeatKind.BOT]
    if robots and (clock_moved or not by_bot):
        found.append({"seat": robots[0], "bot": True, **common})
    if clock_moved:
        people = [s for s in turn.to_act if kinds.get(s) == SeatKind.HUMAN]
        found += [{"seat": s, "bot": False, **common} for s in people]
    return found


def write_results(
    game: Game,
    family: GameFamily,
    final: Any,
    logged: Sequence[tuple[dict[str, Any], datetime]],
) -> list[GameResult]:
    """Write (or rewrite) the game's result rows from its whole log of ``(payload, created)``:
    one per seat, as its family counts them: the common fields as columns, the family's own
    counts in ``details`` (docs/design.md "Results"). Called in the transaction that appends
    the final event."""
    epoch = logged[0][1]
    times = [(created - epoch).total_seconds() for _, created in logged]
    seats = {s.index: s for s in game.seats.all()}
    made = []
    for row in family.results([payload for payload, _ in logged], times, final):
        fields = dict(row)
        index = fields.pop("seat")
        details = dict(fields.pop("details", {}))
        seat = seats.get(index)
        made.append(
            GameResult(
                game=game,
                seat=index,
                user_id=seat.user_id if seat else None,
                kind=seat.kind if seat else SeatKind.HUMAN,
                bot_strength=seat.bot_strength if seat else "",
                name=seat.name if seat else "",
                finished=game.finished or logged[-1][1],
                details=details,
                **fields,
            )
        )
    # Absent seats, stand-in turns and an abort (docs/fair-play.md), from the log and the
    # StandIn rows.
    payloads = [payload for payload, _ in logged]
    ended = game.finished or logged[-1][1]
    fairness.apply(made, fairness.judge(game, family, payloads, ended))
    # A game past the 3 a day two of its accounts count together counts for nobody.
    fairness.mark_repeat(game, made, ended)
    GameResult.objects.filter(game=game).delete()
    return GameResult.objects.bulk_create(made)
