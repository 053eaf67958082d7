"""The one place that writes games: create, join, start, act. Every change appends events.

An action runs in one transaction: the game row is locked (``FOR UPDATE`` on PostgreSQL, the
statement run from games/rows.py; SQLite's IMMEDIATE transactions serialise writers), the
expected seq is checked, the engine decides, the events are appended with consecutive seqs
under a unique ``(game, seq)`` constraint and the cached state is updated.
When a game finishes, its result rows (one per seat) are written in that same transaction.
After commit, the lifecycle signals of games/signals.py are sent: every viewer's frames, the
bot, clock and notice work and the post-game review subscribe to them (games/receivers.py).

Services take an :class:`~games.identity.Identity` and raise domain errors
(games/errors.py); they import no task module, no adapter and no other app
(docs/design.md "Layers and the import rule").
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.engine import bots
from games.engine.errors import IllegalMove, InvalidInput
from games.engine.events import Event, GameStarted, RoundEnded, RoundStarted, event_from_dict
from games.engine.projection import event_for, view_for
from games.engine.results import seat_results
from games.engine.rules import Rules
from games.engine.scoring import MatchFormat
from games.engine.state import (
    Action,
    Draw,
    GameConfig,
    GameState,
    Pass,
    PlayTurn,
    Resign,
    TimeOut,
    adjudicate,
    apply,
    new_game,
    state_from_record,
    state_to_record,
)

from . import r45_services, rows, signals
from .errors import Conflict, Forbidden, Illegal, Invalid, NotFound
from .identity import Identity, clean_name
from .models import (
    ActionReceipt,
    Game,
    GameEvent,
    GameResult,
    Mode,
    Seat,
    SeatKind,
    StandIn,
    Status,
)
from .modes import BOT_STRENGTHS, setup_from

# A timeout fires this long after the deadline, so a move sent at the last moment, still
# waiting for the game's lock, lands instead of being timed out.
TIMEOUT_GRACE = timedelta(milliseconds=250)


# Creating and joining


def create_game(viewer: Identity, options: dict[str, Any]) -> Game:
    """A new game; the creator takes seat 0. Other seats are open (invite links) or bots."""
    if not viewer.known:
        raise Forbidden("sign_in", "Sign in or choose a guest name to create a game.")
    try:
        setup = setup_from(options)
        # The engine's own check (a set too small for the players) before any seat is made.
        GameConfig(setup.rules, setup.players, setup.match)
    except InvalidInput as error:
        raise Invalid("bad_options", str(error)) from None
    seats = _seat_plan(options.get("seats"), setup.players)
    rated = _rated(options.get("rated", False), viewer, setup.mode)
    with transaction.atomic():
        game = Game.objects.create(
            mode=setup.mode,
            rules=setup.rules.to_dict(),
            match=setup.match.to_dict(),
            players=setup.players,
            clock_seconds=setup.clock_seconds,
            correspondence_days=setup.correspondence_days,
            listed=bool(options.get("listed", True)),
            rated=rated,
            seed=secrets.token_bytes(32).hex(),
            created_by_id=viewer.user_id,
        )
        for index, plan in enumerate(seats):
            Seat.objects.create(
                game=game,
                index=index,
                kind=plan["kind"],
                bot_strength=plan.get("strength", ""),
                name=_bot_name(plan["strength"]) if plan["kind"] == SeatKind.BOT else "",
                joined=timezone.now() if plan["kind"] == SeatKind.BOT else None,
            )
        _take_seat(game.seats.get(index=0), viewer)
        _start_if_full(game)
    return game


def create_seated_game(
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    *,
    rated: bool = False,
    seed: bytes | None = None,
    sealed: bool = False,
    stand_in: bool = False,
    occasion: str = "",
) -> Game:
    """A game whose every seat is already taken, dealt at once: a tournament table or a
    matched seek. ``seats`` in seat order, each ``{"user_id": id, "name": name}`` for a
    person or ``{"bot": strength}``; ``options`` as for :func:`create_game` (mode, clock,
    days, target). ``seed`` deals a given deal (a duplicate round's tables share one);
    ``sealed`` withholds its replay, record and seed until :func:`unseal`; with ``stand_in``
    a bot plays the turns of a person gone for a minute (docs/design.md "Tournaments");
    ``occasion`` says in words what it is played for (shown on its page and in digests)."""
    try:
        setup = setup_from({**options, "players": len(seats)})
        GameConfig(setup.rules, setup.players, setup.match)
    except InvalidInput as error:
        raise Invalid("bad_options", str(error)) from None
    if rated and setup.mode == Mode.SANDBOX:
        raise Invalid("bad_options", "Sandbox games are never rated.")
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            mode=setup.mode,
            rules=setup.rules.to_dict(),
            match=setup.match.to_dict(),
            players=setup.players,
            clock_seconds=setup.clock_seconds,
            correspondence_days=setup.correspondence_days,
            listed=False,
            rated=rated,
            sealed=sealed,
            stand_in=stand_in and setup.clock_seconds is not None,
            occasion=occasion[:120],
            seed=(seed or secrets.token_bytes(32)).hex(),
        )
        for index, plan in enumerate(seats):
            strength = plan.get("bot")
            if strength is not None and strength not in BOT_STRENGTHS:
                raise Invalid("bad_options", f"a bot is {'|'.join(BOT_STRENGTHS)}")
            Seat.objects.create(
                game=game,
                index=index,
                kind=SeatKind.BOT if strength else SeatKind.HUMAN,
                bot_strength=strength or "",
                user_id=None if strength else plan["user_id"],
                name=clean_name(plan.get("name") or _bot_name(strength or "casual")),
                joined=now,
            )
        _start_if_full(game)
    return game


def unseal(game_ids: list[int]) -> int:
    """Show the replays, records and seeds of sealed games (their duplicate round is over)."""
    return Game.objects.filter(pk__in=game_ids, sealed=True).update(sealed=False)


def _rated(raw: object, viewer: Identity, mode: str) -> bool:
    """A rated game (docs/design.md "Ratings"): asked for by a signed-in creator, never in
    Sandbox (its rules are the creator's own). Rated games give no hints."""
    if raw in (False, None, "", 0):
        return False
    if raw is not True and raw not in (1, "true", "on", "1"):
        raise Invalid("bad_options", "rated is true or false")
    if viewer.user_id is None:
        raise Forbidden("sign_in_to_rate", "Sign in to play a rated game.")
    if mode == Mode.SANDBOX:
        raise Invalid("bad_options", "Sandbox games are never rated.")
    return True


def _seat_plan(raw: object, players: int) -> list[dict[str, str]]:
    """Seats 1..n-1 from ``["human", "bot:strong", ...]``; missing ones are open human seats."""
    plan = [{"kind": SeatKind.HUMAN}]
    given = list(raw) if isinstance(raw, list | tuple) else []
    if len(given) > players - 1:
        raise Invalid("bad_options", f"{players} players means {players - 1} other seats")
    for item in given + ["human"] * (players - 1 - len(given)):
        if item == "human":
            plan.append({"kind": SeatKind.HUMAN})
            continue
        kind, _, strength = str(item).partition(":")
        if kind != "bot" or strength not in BOT_STRENGTHS:
            raise Invalid("bad_options", f"a seat is human or bot:{'|'.join(BOT_STRENGTHS)}")
        plan.append({"kind": SeatKind.BOT, "strength": strength})
    return plan


def _bot_name(strength: str) -> str:
    return f"{strength.title()} bot"


def _take_seat(seat: Seat, viewer: Identity) -> None:
    seat.user_id = viewer.user_id
    seat.guest_key = "" if viewer.user_id else (viewer.guest_key or "")
    seat.name = clean_name(viewer.name)
    seat.joined = timezone.now()
    seat.save()


def seat_of(game: Game, viewer: Identity) -> Seat | None:
    """The viewer's seat in the game, from their session alone."""
    if viewer.user_id is not None:
        found = [s for s in game.seats.all() if s.user_id == viewer.user_id]
    elif viewer.guest_key:
        found = [s for s in game.seats.all() if s.guest_key == viewer.guest_key and not s.user_id]
    else:
        found = []
    return found[0] if found else None


def join_game(viewer: Identity, token: str) -> Game:
    """Join through a seat's invite link; joining twice is harmless."""
    if not viewer.known:
        raise Forbidden("sign_in", "Sign in or choose a guest name to join.")
    with transaction.atomic():
        seat = Seat.objects.select_related("game").filter(invite_token=token).first()
        if seat is None:
            raise NotFound("no_such_invite", "That invite link is not valid.")
        game = Game.objects.select_for_update().get(pk=seat.game_id)
        seat = Seat.objects.get(pk=seat.pk)
        mine = seat_of(game, viewer)
        if mine is not None:
            return game
        # A seat kept for a rematch's player is theirs alone (offer_rematch).
        if not seat.is_open or seat.reserved:
            seat = next(  # type: ignore[assignment]
                (s for s in game.seats.all() if s.is_open and not s.reserved), None
            )
            if seat is None:
                raise Conflict("game_full", "This game has no open seat left.")
        _take_seat(seat, viewer)
        _start_if_full(game)
    return game


def _start_if_full(game: Game) -> None:
    if game.status != Status.WAITING or any(s.is_open for s in game.seats.all()):
        return
    if r45_services.is_r45(game):
        r45_services.start(game)
        return
    config = GameConfig(
        Rules.from_dict(game.rules), game.players, MatchFormat.from_dict(game.match)
    )
    state, events = new_game(config, bytes.fromhex(game.seed))
    game.status = Status.PLAYING
    game.started = timezone.now()
    game.commitment = state.commitment
    _record(game, state, events)
    game.save()


# Acting

ACTIONS: dict[str, Callable[[int, dict[str, Any]], Action]] = {
    "play": lambda seat, body: PlayTurn(seat, _table(body.get("table"))),
    "draw": lambda seat, body: Draw(seat),
    "pass": lambda seat, body: Pass(seat),
    "resign": lambda seat, body: Resign(seat),
}


def _table(raw: object) -> tuple[tuple[int, ...], ...]:
    if not isinstance(raw, list) or not all(
        isinstance(m, list) and all(isinstance(t, int) and not isinstance(t, bool) for t in m)
        for m in raw
    ):
        raise Invalid("bad_table", "The table must be a list of melds of tile ids.")
    return tuple(tuple(m) for m in raw)


def act(gid: str, viewer: Identity, name: str, body: dict[str, Any]) -> dict[str, Any]:
    """Apply a player's action; return the answer body or raise a domain error."""
    if name == r45_services.ACTION:
        return r45_services.act(gid, viewer, body)
    if name not in ACTIONS:
        raise NotFound("no_such_action", f"Unknown action {name!r}.")
    key = body.get("key")
    if not isinstance(key, str) or not 8 <= len(key) <= 80:
        raise Invalid("bad_key", "Each action needs an idempotency key (8-80 chars).")
    expected = body.get("expected_seq")
    if not isinstance(expected, int) or isinstance(expected, bool):
        raise Invalid("bad_seq", "Each action needs expected_seq, an integer.")
    try:
        # The pipeline inside the transaction: psycopg sends the BEGIN with the first
        # statement anyway, and a failed statement's pipeline is synced when the block leaves
        # it, before Django rolls back (in a pipeline aborted by an error, the rollback of a
        # savepoint would be skipped with the rest).
        with transaction.atomic(), rows.pipelined():
            return _act_locked(gid, viewer, name, body, key, expected)
    except IntegrityError:
        # A racing writer took this seq (or key) between our check and our insert.
        game = Game.objects.get(public_id=gid)
        seat = seat_of(game, viewer)
        index = seat.index if seat else None
        raise Conflict(
            "stale", "The game moved on; here is where it stands.", **_answer(game, index)
        ) from None


def _act_locked(
    gid: str, viewer: Identity, name: str, body: dict[str, Any], key: str, expected: int
) -> dict[str, Any]:
    # The seats come in one query and are reused (seat_of, _turn_work): no query per check.
    game = rows.lock_game(gid)
    if game is None:
        raise NotFound("no_such_game", "There is no such game.")
    try:
        return _act_on(game, viewer, name, body, key, expected)
    finally:
        rows.release(game)


def _act_on(
    game: Game, viewer: Identity, name: str, body: dict[str, Any], key: str, expected: int
) -> dict[str, Any]:
    seat = seat_of(game, viewer)
    if seat is None:
        raise Forbidden("not_a_player", "You are not playing in this game.")
    # A retry of an applied action comes with an older seq (every action appends events), so
    # only then can there be a receipt to answer with. A key reused at the current seq fails
    # the receipt's unique constraint below and gets the 409 of a racing writer.
    if expected != game.seq:
        receipt = ActionReceipt.objects.filter(game=game, seat=seat.index, key=key).first()
        if receipt is not None:
            return dict(receipt.body)
    # Stale first: a racer that lost to the move which ended the game learns the game moved on.
    if expected != game.seq:
        raise Conflict(
            "stale", "The game moved on; here is where it stands.", **_answer(game, seat.index)
        )
    if game.status != Status.PLAYING:
        raise Conflict("not_playing", "This game is not being played now.")
    if r45_services.is_r45(game):
        raise Invalid("wrong_game", f"A Rummy 45 game's actions go to {r45_services.ACTION}.")
    action = ACTIONS[name](seat.index, body)
    state, _ = apply_action(game, action)
    answer = _answer(game, seat.index, state)
    ActionReceipt.objects.create(
        game=game, seat=seat.index, key=key, status=200, body=answer, created=timezone.now()
    )
    rows.flush()  # the writes' errors (a racer's IntegrityError) surface here, in the transaction
    return answer


def apply_action(game: Game, action: Action) -> tuple[GameState, list[Event]]:
    """Run an action through the engine on a locked game and append what happened; return
    the new state (the one now cached on the game) and the events."""
    state = state_from_record(game.state or {})
    try:
        state, events = apply(state, action, bytes.fromhex(game.seed))
    except IllegalMove as error:
        raise Illegal(error.code, error.message) from None
    except InvalidInput as error:
        raise Invalid("bad_action", str(error)) from None
    _record(game, state, events)
    # update(), not save(update_fields=...): inside a psycopg pipeline the row count that
    # save() checks is not known until the pipeline syncs.
    Game.objects.filter(pk=game.pk).update(
        **{name: getattr(game, name) for name in RECORDED_FIELDS}
    )
    return state, events


# What _record changes on the game row.
RECORDED_FIELDS = ("seq", "state", "turn_number", "status", "finished", "deadline")


def _record(game: Game, state: GameState, events: list[Event]) -> None:
    """Append events after ``game.seq``, update the cache, write the results of a game that
    ends here, and send the lifecycle signals after commit."""
    first = game.seq + 1
    finished = state.finished and game.status != Status.FINISHED
    if finished:
        earlier = list(
            GameEvent.objects.filter(game=game, seq__lt=first)
            .order_by("seq")
            .values_list("payload", "created")
        )
    now = timezone.now()
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=first + n, kind=e.kind, payload=e.to_dict(), created=now)
        for n, e in enumerate(events)
    )
    game.seq += len(events)
    game.state = state_to_record(state)
    turn_changed = game.turn_number != state.turn_number or game.deadline is None
    turn_changed = turn_changed or any(isinstance(e, RoundStarted) for e in events)
    game.turn_number = state.turn_number
    results: list[GameResult] = []
    if state.finished:
        game.status = Status.FINISHED
        game.finished = now
        game.deadline = None
    elif turn_changed:
        game.deadline = _deadline(game)
    if finished:
        logged = [(payload, created) for payload, created in earlier]
        logged += [(e.to_dict(), now) for e in events]
        results = write_results(game, logged)
    numbered = list(enumerate(events, start=first))
    extra = {"deadline": game.deadline.isoformat() if game.deadline else None}
    extra["status"] = game.status
    turn = _turn_signal(game, state) if turn_changed and not state.finished else None
    gid, seq = game.public_id, game.seq
    transaction.on_commit(lambda: _announce(gid, seq, state, numbered, extra, turn, results))


def write_results(game: Game, logged: list[tuple[dict[str, Any], datetime]]) -> list[GameResult]:
    """Write (or rewrite) the game's result rows from its whole log of ``(payload, created)``:
    one per seat. Called in the transaction that appends the final event, and by the
    migration that backfilled the games finished before results were rows."""
    epoch = logged[0][1]
    times = [(created - epoch).total_seconds() for _, created in logged]
    seats = {s.index: s for s in game.seats.all()}
    made = []
    for row in seat_results([payload for payload, _ in logged], times):
        seat = seats.get(row.seat)
        fields = row.to_dict()
        fields.pop("seat")
        made.append(
            GameResult(
                game=game,
                seat=row.seat,
                user_id=seat.user_id if seat else None,
                kind=seat.kind if seat else SeatKind.HUMAN,
                bot_strength=seat.bot_strength if seat else "",
                name=seat.name if seat else "",
                finished=game.finished or logged[-1][1],
                **fields,
            )
        )
    GameResult.objects.filter(game=game).delete()
    return GameResult.objects.bulk_create(made)


def _turn_signal(game: Game, state: GameState) -> dict[str, Any]:
    """What ``turn_started`` says of the turn that begins, from what this transaction knows."""
    bot = any(s.index == state.turn and s.kind == SeatKind.BOT for s in game.seats.all())
    return {
        "seat": state.turn,
        "turn_number": state.turn_number,
        "bot": bot,
        "deadline": game.deadline,
        "live": bool(game.clock_seconds) and not game.is_correspondence,
        "correspondence": game.is_correspondence,
    }


def _deadline(game: Game) -> Any:
    if game.correspondence_days:
        return timezone.now() + timedelta(days=game.correspondence_days)
    if game.clock_seconds:
        return timezone.now() + timedelta(seconds=game.clock_seconds)
    return None


def _announce(
    gid: str,
    seq: int,
    state: GameState,
    numbered: list[tuple[int, Event]],
    extra: dict[str, Any],
    turn: dict[str, Any] | None,
    results: list[GameResult],
) -> None:
    """After commit: the lifecycle signals of what the transaction recorded, in order."""
    signals.events_committed.send(Game, gid=gid, seq=seq, state=state, events=numbered, extra=extra)
    for _, event in numbered:
        if isinstance(event, GameStarted):
            signals.game_started.send(Game, gid=gid)
        elif isinstance(event, RoundEnded):
            signals.round_ended.send(
                Game,
                gid=gid,
                round=event.round,
                reason=event.reason,
                winners=event.winners,
                scores=event.scores,
            )
    if turn is not None:
        signals.turn_started.send(Game, gid=gid, **turn)
    if state.finished:
        signals.game_finished.send(Game, gid=gid, results=results)


def timeout(gid: str, turn_number: int, now: datetime | None = None) -> bool:
    """Time out turn ``turn_number`` if it is still running and its clock has run out.

    Idempotent, keyed on the turn number: a stale, early or repeated call changes nothing and
    returns False. A game another worker is handling right now is skipped (``skip_locked``):
    that worker times it out, or the next sweep does.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(public_id=gid, status=Status.PLAYING, turn_number=turn_number)
            .first()
        )
        if game is None or game.deadline is None or game.deadline + TIMEOUT_GRACE > now:
            return False
        if r45_services.is_r45(game):
            r45_services.time_out(game)
            return True
        state = state_from_record(game.state or {})
        apply_action(game, TimeOut(state.turn, turn_number))
    return True


def due_timeouts(now: datetime | None = None) -> list[tuple[str, int]]:
    """Running turns whose clock (plus the grace) has run out: ``(gid, turn_number)``."""
    limit = (now or timezone.now()) - TIMEOUT_GRACE
    due = Game.objects.filter(status=Status.PLAYING, deadline__lte=limit)
    return list(due.values_list("public_id", "turn_number"))


def upcoming_timeouts(
    within: timedelta, now: datetime | None = None
) -> list[tuple[str, int, datetime]]:
    """Live turns whose clock runs out within ``within`` and is not yet due (the due ones
    are :func:`due_timeouts`): ``(gid, turn_number, deadline)``."""
    now = now or timezone.now()
    soon = _live_clocks().filter(deadline__gt=now - TIMEOUT_GRACE, deadline__lte=now + within)
    return list(soon.values_list("public_id", "turn_number", "deadline"))


def _live_clocks() -> Any:
    """Games being played on a live clock (seconds a move, not correspondence days)."""
    return Game.objects.filter(
        status=Status.PLAYING, clock_seconds__isnull=False, correspondence_days__isnull=True
    )


def moved_deadline(
    gid: str, turn_number: int, queued_for: datetime | None, now: datetime | None = None
) -> datetime | None:
    """The live turn's deadline if it is still ahead and later than ``queued_for``, else None.

    A timeout task queued for ``queued_for`` uses this to follow a deadline that moved (a
    restart's grace) rather than leave the turn to the sweeper.
    """
    now = now or timezone.now()
    game = _live_clocks().filter(public_id=gid, turn_number=turn_number).only("deadline").first()
    if game is None or game.deadline is None or game.deadline + TIMEOUT_GRACE <= now:
        return None
    if queued_for is not None and game.deadline <= queued_for:
        return None
    return game.deadline


# A bot turn still waiting this long after its pause has lost its task (a worker died).
BOT_TURN_GRACE = timedelta(seconds=3)
# A review asked for this long ago and still not made was lost too.
REVIEW_RETRY_AFTER = timedelta(minutes=10)


def due_bot_turns(now: datetime | None = None) -> list[tuple[str, int]]:
    """Running games whose turn is a bot's and has waited past its pause plus
    :data:`BOT_TURN_GRACE`: ``(gid, turn_number)``. A bot's task that was lost (its worker
    killed) is queued again from this; :func:`play_bot_turn` is keyed on the turn number, so a
    turn queued twice is played once."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.RUMMI_BOT_PAUSE) - BOT_TURN_GRACE
    running = Game.objects.filter(status=Status.PLAYING, seats__kind=SeatKind.BOT).distinct()
    due = []
    for gid, turn_number, seq, turn in running.values_list(
        "public_id", "turn_number", "seq", "state__turn"
    ):
        bots = Seat.objects.filter(game__public_id=gid, kind=SeatKind.BOT, index=turn)
        if not bots.exists():
            continue
        last = GameEvent.objects.filter(game__public_id=gid, seq=seq).values_list("created")
        if last and last[0][0] <= since:
            due.append((gid, turn_number))
    return due


def request_review(gid: str, now: datetime | None = None) -> bool:
    """Claim the right to queue a finished game's review (compare-and-set): True for exactly
    one caller while no review exists and none was asked for within
    :data:`REVIEW_RETRY_AFTER`.

    The claim locks the row and reads it rather than trusting an UPDATE's row count: a
    caller may run inside a psycopg pipeline (games/rows.py), where that count is
    not reported.
    """
    now = now or timezone.now()
    with transaction.atomic():
        claimable = (
            Game.objects.select_for_update()
            .filter(public_id=gid, status=Status.FINISHED, review__isnull=True)
            .filter(
                Q(review_requested__isnull=True) | Q(review_requested__lte=now - REVIEW_RETRY_AFTER)
            )
            .values_list("pk", flat=True)
            .first()
        )
        if claimable is None:
            return False
        Game.objects.filter(pk=claimable).update(review_requested=now)
    return True


def lost_reviews(now: datetime | None = None) -> list[str]:
    """Finished games whose review was asked for long ago and never made."""
    now = now or timezone.now()
    lost = Game.objects.filter(status=Status.FINISHED, review__isnull=True).filter(
        Q(review_requested__isnull=True) | Q(review_requested__lte=now - REVIEW_RETRY_AFTER)
    )
    return list(lost.values_list("public_id", flat=True)[:100])


def grant_restart_grace(now: datetime | None = None) -> list[tuple[str, int, datetime]]:
    """After a restart, give live turns that ran out (or nearly) while nothing ran a grace.

    Correspondence clocks (days) are left alone. Returns the turns that got the grace as
    ``(gid, turn_number, new deadline)``, for the caller to queue their timeouts.
    """
    now = now or timezone.now()
    until = now + timedelta(seconds=settings.RUMMI_RESTART_GRACE)
    with transaction.atomic():
        running = _live_clocks().select_for_update(skip_locked=True).filter(deadline__lt=until)
        moved = list(running.values_list("pk", "public_id", "turn_number"))
        Game.objects.filter(pk__in=[pk for pk, _, _ in moved]).update(deadline=until)
    return [(gid, turn, until) for _, gid, turn in moved]


# Reading


def _answer(game: Game, seat: int | None, state: GameState | None = None) -> dict[str, Any]:
    """The seq and the seat's view; ``state`` when the caller holds the game's state already."""
    if r45_services.is_r45(game):
        return r45_services.answer(game, seat)
    if state is None and game.state:
        state = state_from_record(game.state)
    view = view_for(state, seat) if state else None
    if view is not None and game.sealed:
        view["seed"] = None
    return {"seq": game.seq, "view": view}


def without_seed(shown: dict[str, Any]) -> dict[str, Any]:
    """An event or view of a sealed game (docs/design.md "Tournaments"): its deal is shared
    with tables still playing, so the seed that the game's end shows is left out."""
    if "seed" in shown:
        shown = {**shown, "seed": None}
    return shown


def get_game(gid: str) -> Game:
    game = Game.objects.filter(public_id=gid).first()
    if game is None:
        raise NotFound("no_such_game", "There is no such game.")
    return game


def game_summary(game: Game, viewer: Identity) -> dict[str, Any]:
    """What ``GET /api/games/<gid>/`` answers: the viewer's view and the table's company."""
    seat = seat_of(game, viewer)
    index = seat.index if seat else None
    return {
        **_answer(game, index),
        "gid": game.public_id,
        "me": index,
        "status": game.status,
        "mode": game.mode,
        "seats": [s.as_dict() for s in game.seats.select_related("user")],
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "clock_seconds": game.clock_seconds,
        "correspondence_days": game.correspondence_days,
    }


def events_after(game: Game, viewer: Identity, after: int) -> dict[str, Any]:
    """The events after seq ``after``, each projected for the viewer."""
    seat = seat_of(game, viewer)
    index = seat.index if seat else None
    if r45_services.is_r45(game):
        return r45_services.events_after(game, index, after)
    rows = game.events.filter(seq__gt=after).order_by("seq")
    sealed = without_seed if game.sealed else (lambda shown: shown)
    return {
        "seq": game.seq,
        "events": [
            {"seq": row.seq, "event": sealed(event_for(event_from_dict(row.payload), index))}
            for row in rows
        ],
    }


def load_state(game: Game) -> GameState | None:
    """The Rummikub state of a game (None before the deal, and for a Rummy 45 game, whose
    state is ``r45_services.load``)."""
    if r45_services.is_r45(game):
        return None
    return state_from_record(game.state) if game.state else None


def play_bot_turn(gid: str, turn_number: int, think: bool = True) -> bool:
    """Let the bot whose turn ``turn_number`` is move, through the same path as people.

    The bot thinks with the game unlocked (a hard position can take the solver seconds, and
    a locked row would hold every other action on the game, and the socket threads waiting
    on it, that long). Its choice is then applied under the lock only if the game is still
    where the bot saw it; otherwise whatever moved it on (a timeout, a resignation) stands.
    With ``think`` False (its task ran out of time) the bot draws.
    """
    game = Game.objects.filter(public_id=gid).first()
    if game is not None and r45_services.is_r45(game):
        return r45_services.play_bot_turn(gid)  # keyed on the game as it stands
    if game is None or game.status != Status.PLAYING or game.turn_number != turn_number:
        return False
    seen = game.seq
    state = state_from_record(game.state or {})
    seat = game.seats.get(index=state.turn)
    if seat.kind != SeatKind.BOT:
        return False
    rng = random.Random(f"{game.seed}:{turn_number}")
    if think:
        action: Action = bots.choose_action(view_for(state, seat.index), rng, seat.bot_strength)
    else:
        action = Draw(seat.index)  # out of time to think (the task's soft limit): it draws
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=gid).first()
        if game is None or game.status != Status.PLAYING or game.turn_number != turn_number:
            return False
        if game.seq != seen:
            # Still this bot's turn, but the game changed under it (another seat resigned):
            # nothing else will ask the bot again, so it thinks again, this time locked.
            state = state_from_record(game.state or {})
            if state.turn != seat.index:
                return False
            rng = random.Random(f"{game.seed}:{turn_number}:{game.seq}")
            if think:
                action = bots.choose_action(view_for(state, seat.index), rng, seat.bot_strength)
        try:
            apply_action(game, action)
        except (Illegal, Invalid):
            # A bot must never stall a game: if its choice is refused, it draws.
            apply_action(game, Draw(seat.index))
    return True


# Stand-ins: a bot plays for a person gone from a live tournament table


STAND_IN_AFTER = timedelta(seconds=60)
STAND_IN_STRENGTH = "casual"


def seen(game_id: int, seat_index: int, now: datetime | None = None) -> None:
    """The seat's socket was heard from (connect, ping, disconnect): a stand-in game only."""
    Seat.objects.filter(game_id=game_id, index=seat_index).update(last_seen=now or timezone.now())


def due_stand_ins(now: datetime | None = None) -> list[tuple[str, int]]:
    """Running stand-in games whose turn is a person's who has been gone longer than
    :data:`STAND_IN_AFTER` (no socket heard from): ``(gid, turn_number)``. A Rummy 45 game's
    setup is not stood in for (its clock readies a gone seat), only its turns of play."""
    limit = (now or timezone.now()) - STAND_IN_AFTER
    due = []
    running = Game.objects.filter(status=Status.PLAYING, stand_in=True)
    for gid, game_id, turn_number, turn, started, mode, phase in running.values_list(
        "public_id", "pk", "turn_number", "state__turn", "started", "mode", "state__phase"
    ):
        if mode == Mode.R45 and phase != "play":
            continue
        seat = Seat.objects.filter(game_id=game_id, index=turn, kind=SeatKind.HUMAN).first()
        if seat is None:
            continue
        last = seat.last_seen or started
        if last is not None and last <= limit:
            due.append((gid, turn_number))
    return due


def play_stand_in_turn(gid: str, turn_number: int, now: datetime | None = None) -> bool:
    """A casual bot's move for the gone person whose turn ``turn_number`` is, kept as a
    :class:`StandIn` row; a turn is stood in for once. False if they came back or it moved."""
    if (gid, turn_number) not in due_stand_ins(now):
        return False
    game = Game.objects.get(public_id=gid)
    if r45_services.is_r45(game):
        return r45_services.play_stand_in_turn(gid, turn_number, STAND_IN_STRENGTH)
    seen_seq = game.seq
    state = state_from_record(game.state or {})
    rng = random.Random(f"{game.seed}:{turn_number}:stand-in")
    action: Action = bots.choose_action(view_for(state, state.turn), rng, STAND_IN_STRENGTH)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Status.PLAYING or game.turn_number != turn_number:
            return False
        if game.seq != seen_seq:  # the game changed while the bot thought: it draws
            state = state_from_record(game.state or {})
            action = Draw(state.turn)
        try:
            StandIn.objects.create(game=game, seat=state.turn, turn_number=turn_number)
        except IntegrityError:
            return False
        try:
            apply_action(game, action)
        except (Illegal, Invalid):
            apply_action(game, Draw(state.turn))
    return True


def end_game(gid: str, note: str) -> bool:
    """End a running game now, by an operator's decision (the admin's "end stuck games"):
    the round is scored as blocked and the match ends, with ``note`` kept in the log.

    Returns False if the game is not being played (already over, or still waiting).
    """
    note = " ".join(str(note or "").split())
    if not note:
        raise Invalid("note_required", "Say why the game is ended.")
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=gid).first()
        if game is None:
            raise NotFound("no_such_game", "There is no such game.")
        if game.status != Status.PLAYING:
            return False
        if r45_services.is_r45(game):
            raise Illegal("not_adjudicated", "A Rummy 45 game cannot be ended by an operator.")
        state = state_from_record(game.state or {})
        try:
            state, events = adjudicate(state, note[:200], bytes.fromhex(game.seed))
        except IllegalMove as error:
            raise Illegal(error.code, error.message) from None
        _record(game, state, events)
        game.save(update_fields=RECORDED_FIELDS)
    return True


def adopt_guest_seats(guest_key: str, user_id: int, name: str) -> int:
    """A guest signed in: their seats (and results) become the user's; the number moved.

    A game where the account already has a seat keeps the guest's seat apart.
    """
    moved = 0
    with transaction.atomic():
        seats = Seat.objects.filter(guest_key=guest_key, user__isnull=True)
        for seat in seats.select_related("game").select_for_update():
            if Seat.objects.filter(game_id=seat.game_id, user_id=user_id).exists():
                continue
            seat.user_id = user_id
            seat.name = clean_name(name)
            seat.save(update_fields=["user", "name"])
            GameResult.objects.filter(game_id=seat.game_id, seat=seat.index).update(
                user_id=user_id, name=seat.name
            )
            moved += 1
    return moved


# The end of a game: its scorecard and a rematch


def scorecard(game: Game) -> list[dict[str, Any]]:
    """Each seat's line of a finished game, from its result rows (GameResult) and the rounds'
    scores: place, total, round scores, melds laid, tiles and jokers played, average turn, and
    the account's username for the profile link (``None`` for a guest, a bot or a deleted
    player)."""
    state = load_state(game)
    rounds = list(state.round_scores) if state else []
    lines = []
    for row in game.results.select_related("user").order_by("seat"):
        seconds = row.average_turn_seconds
        lines.append(
            {
                "seat": row.seat,
                "name": row.name or f"Seat {row.seat + 1}",
                # An account's line links to its profile (as Seat.as_dict); a guest's, a bot's
                # and a deleted player's (its user gone) do not.
                "username": (
                    row.user.get_username() if row.user_id and row.kind == SeatKind.HUMAN else None
                ),
                "place": row.place,
                "total": row.total,
                "rounds": [scores[row.seat] for scores in rounds if row.seat < len(scores)],
                "melds_laid": row.melds_laid,
                "tiles_played": row.tiles_played,
                "jokers_played": row.jokers_played,
                "average_turn_seconds": None if seconds is None else round(seconds, 1),
                "went_out": row.went_out,
                "resigned": row.resigned,
            }
        )
    return lines


def rematch_state(game: Game, viewer: Identity) -> dict[str, Any]:
    """Whether the viewer may ask for a rematch of ``game``, and how far one has got: who has
    accepted, who is still to, and the new game's address."""
    mine = seat_of(game, viewer)
    can = game.status == Status.FINISHED and mine is not None and mine.kind == SeatKind.HUMAN
    new = Game.objects.filter(rematch_of=game).first()
    if new is None:
        return {"offered": False, "can_offer": can}
    seats = list(new.seats.all())
    people = [s for s in seats if s.kind == SeatKind.HUMAN]
    taken = next((s for s in seats if mine is not None and s.index == mine.index), None)
    return {
        "offered": True,
        "can_offer": can,
        "gid": new.public_id,
        "url": new.get_absolute_url(),
        "status": new.status,
        "accepted": [s.name for s in people if s.joined is not None],
        "waiting": [s.name for s in people if s.joined is None],
        "mine": bool(taken and taken.joined is not None),
    }


def end_of_game(game: Game, viewer: Identity) -> dict[str, Any]:
    """What the board's end dialog shows: the scorecard, the links to the replay, the record
    and the verify page, and the rematch (``GET /api/games/<gid>/end``)."""
    if game.status != Status.FINISHED:
        raise Conflict("not_finished", "The game is not over yet.")
    gid = game.public_id
    return {
        "scorecard": scorecard(game),
        "links": {
            "replay": reverse("replay", args=[gid]),
            "record": reverse("record", args=[gid]),
            "verify": reverse("verify", args=[gid]),
        },
        "rematch": rematch_state(game, viewer),
    }


def offer_rematch(gid: str, viewer: Identity) -> Game:
    """Ask for, or accept, a rematch of finished game ``gid``: a new game with the same seats
    and options. The first player to ask makes it; each person's seat is kept for them until
    they accept (their own call of this); bots sit down at once; the game starts when every
    person has accepted. Asking twice is harmless."""
    with transaction.atomic():
        old = Game.objects.select_for_update().filter(public_id=gid).first()
        if old is None:
            raise NotFound("no_such_game", "There is no such game.")
        if old.status != Status.FINISHED:
            raise Conflict("not_finished", "A rematch can be asked for once the game is over.")
        mine = seat_of(old, viewer)
        if mine is None or mine.kind != SeatKind.HUMAN:
            raise Forbidden("not_seated", "Only the game's players can ask for a rematch.")
        new = Game.objects.filter(rematch_of=old).first()
        if new is None:
            new = Game.objects.create(
                mode=old.mode,
                rules=old.rules,
                match=old.match,
                players=old.players,
                clock_seconds=old.clock_seconds,
                correspondence_days=old.correspondence_days,
                listed=False,
                seed=secrets.token_bytes(32).hex(),
                created_by_id=viewer.user_id,
                rematch_of=old,
            )
            now = timezone.now()
            for seat in old.seats.all():
                bot = seat.kind == SeatKind.BOT
                Seat.objects.create(
                    game=new,
                    index=seat.index,
                    kind=seat.kind,
                    bot_strength=seat.bot_strength,
                    name=seat.name,
                    user_id=seat.user_id,
                    guest_key="" if seat.user_id else seat.guest_key,
                    joined=now if bot else None,
                )
        new = Game.objects.select_for_update().get(pk=new.pk)
        seat = new.seats.get(index=mine.index)
        if seat.joined is None and new.status == Status.WAITING:
            _take_seat(seat, viewer)
            _start_if_full(new)
    return new


# Abandoned seats: a player who timed out turn after turn


AWAY_AFTER = 3  # timeouts in a row that mark a seat away


def away_seats(game: Game) -> list[int]:
    """The seats of a game in play that timed out their last :data:`AWAY_AFTER` turns in a
    row (any move of their own starts the count again), and have not resigned. The others
    may then go on against a bot in that seat, or end the game (:func:`settle_away_seat`)."""
    if game.status != Status.PLAYING:
        return []
    missed: dict[int, int] = {}
    for kind, payload in game.events.order_by("seq").values_list("kind", "payload"):
        seat = payload.get("seat")
        if kind == "TurnTimedOut":
            missed[seat] = missed.get(seat, 0) + 1
        elif kind in ("TilesPlayed", "TileDrawn", "Passed", "PlayerResigned"):
            missed[seat] = -1 if kind == "PlayerResigned" else 0
    people = {s.index for s in game.seats.all() if s.kind == SeatKind.HUMAN}
    return sorted(s for s, n in missed.items() if n >= AWAY_AFTER and s in people)


def settle_away_seat(gid: str, viewer: Identity, seat: int, choice: str) -> dict[str, Any]:
    """What a player still at the table decides for an away seat: ``"bot"`` puts a casual
    bot in it for the rest of the game (it plays at once if it is that seat's turn);
    ``"end"`` resigns it for its player, so the game is scored as their resignation."""
    if choice not in ("bot", "end"):
        raise Invalid("bad_choice", "Choose bot (play on against a bot) or end (end the game).")
    game = get_game(gid)
    mine = seat_of(game, viewer)
    if mine is None or mine.kind != SeatKind.HUMAN or mine.index == seat:
        raise Forbidden("not_seated", "Only the other players at the table can decide this.")
    if seat not in away_seats(game):
        raise Conflict("not_away", "That player has not missed enough turns to be replaced.")
    away = game.seats.get(index=seat)
    if choice == "end":
        # As that player would resign themselves: through the same path as any action.
        who = Identity(user_id=away.user_id, guest_key=away.guest_key, name=away.name)
        body = {"key": secrets.token_hex(12), "expected_seq": game.seq}
        act(gid, who, "resign", body)
        return {"seat": seat, "choice": choice, "status": get_game(gid).status}
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        Seat.objects.filter(pk=away.pk).update(
            kind=SeatKind.BOT, bot_strength="casual", name=f"{away.name} (casual bot)"[:40]
        )
        state = load_state(game)
        if state is not None and not state.finished and state.turn == seat:
            turn = _turn_signal(game, state)
            transaction.on_commit(lambda: signals.turn_started.send(Game, gid=gid, **turn))
    return {"seat": seat, "choice": choice, "status": game.status}
