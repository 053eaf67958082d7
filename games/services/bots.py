"""Bots at the table, for every family: a bot seat's turn, a stand-in for a person gone from
a live tournament table, and a seat left away by its player.

A bot sees only its own seat's view (the family's ``view_for``) and thinks with the game
unlocked (a hard Rummikub position can take the solver seconds); its choice is applied under
the lock only if the game is still where it saw it. Within one turn a bot's run of actions goes
on by itself; when the turn passes to another bot, that bot is told by ``turn_started`` and
plays after its pause.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.family import GameFamily

from .. import signals
from ..errors import Conflict, Forbidden, Illegal, Invalid
from ..identity import Identity
from ..models import Game, Seat, SeatKind, StandIn, Status
from .fairness import STAND_IN_AFTER
from .lobby import seat_of
from .reading import get_game
from .record import apply_action, family_of, load_state, turn_signals

# A bot turn still waiting this long after its pause has lost its task (a worker died).
BOT_TURN_GRACE = timedelta(seconds=3)
MAX_BOT_ACTIONS = 400  # a bot's run of actions in one call, far above any real turn


def due_bot_turns(now: datetime | None = None) -> list[tuple[str, int]]:
    """Running games where a bot may act and nothing has happened past its pause plus
    :data:`BOT_TURN_GRACE`: ``(gid, turn_number)``, in one query whatever the number of games
    (the event writer keeps ``Game.acting`` and ``Game.moved``). A bot's task that was lost
    (its worker killed) is queued again from this; :func:`play_bot_turn` is keyed on the turn
    number, so a turn queued twice is played once."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.RUMMI_BOT_PAUSE) - BOT_TURN_GRACE
    due = (
        Seat.objects.filter(kind=SeatKind.BOT, game__status=Status.PLAYING, game__moved__lte=since)
        .annotate(may_act=F("game__acting").bitrightshift(F("index")).bitand(1))
        .filter(may_act=1)
        .values_list("game__public_id", "game__turn_number")
        .distinct()
    )
    return list(due)


def _think(family: GameFamily, game: Game, state: Any, seat: int, strength: str, salt: str) -> Any:
    """The bot's choice from its own view, or the family's fallback if it cannot choose."""
    rng = random.Random(f"{game.seed}:{salt}")
    try:
        return family.bot_action(
            family.view_for(state, seat), rng, family.engine_strength(strength)
        )
    except (IllegalMove, InvalidInput):
        return family.fallback_action(state, seat)


def _apply_or_fallback(game: Game, family: GameFamily, state: Any, seat: int, action: Any) -> Any:
    """Apply a bot's action; if it is refused, its fallback: a bot never stalls a game."""
    try:
        return apply_action(game, action, by_bot=True)[0]
    except (Illegal, Invalid):
        return apply_action(game, family.fallback_action(state, seat), by_bot=True)[0]


def play_bot_turn(gid: str, turn_number: int, think: bool = True) -> bool:
    """Let the bots due in turn ``turn_number`` act, through the same path as people, one
    committed action at a time until a person is to act, the turn passes or the game ends.
    True if any action was played. With ``think`` False (its task ran out of time) a bot plays
    its family's fallback (Rummikub: it draws)."""
    played = False
    for _ in range(MAX_BOT_ACTIONS):
        game = Game.objects.filter(public_id=gid).first()
        if game is None or game.status != Status.PLAYING or game.turn_number != turn_number:
            return played
        family = family_of(game)
        state = load_state(game)
        turn = family.turn(state)
        strengths = {s.index: s.bot_strength for s in game.seats.all() if s.kind == SeatKind.BOT}
        due = [s for s in turn.to_act if s in strengths]
        if not due:
            return played
        seat, seen = due[0], game.seq
        salt = f"{turn_number}:{game.seq}" if played else str(turn_number)
        if think:
            action = _think(family, game, state, seat, strengths[seat], salt)
        else:
            action = family.fallback_action(state, seat)
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(public_id=gid).first()
            if game is None or game.status != Status.PLAYING or game.turn_number != turn_number:
                return played
            if game.seq != seen:
                # The game changed under the bot (another seat acted): if it is still due, it
                # thinks again, this time locked.
                state = load_state(game)
                if seat not in family.turn(state).to_act:
                    return played
                if think:
                    salt = f"{turn_number}:{game.seq}"
                    action = _think(family, game, state, seat, strengths[seat], salt)
                else:
                    action = family.fallback_action(state, seat)
            after = _apply_or_fallback(game, family, state, seat, action)
        played = True
        if family.turn(after).clock != turn.clock:
            return played  # a new turn: its bot, if any, was told (turn_started)
    # So long a run is a table of bots only: a fresh task plays on, rather than the game
    # waiting for the sweeper (due_bot_turns) to find it.
    _wake_bots(gid)
    return played


def _wake_bots(gid: str) -> None:
    game = Game.objects.filter(public_id=gid, status=Status.PLAYING).first()
    state = load_state(game) if game is not None else None
    if game is None or state is None:
        return
    for started in turn_signals(game, family_of(game).turn(state), False, False):
        signals.turn_started.send(Game, gid=gid, **started)


# Stand-ins: a bot plays for a person gone from a live tournament table


STAND_IN_STRENGTH = "casual"


def seen(game_id: int, seat_index: int, now: datetime | None = None) -> None:
    """The seat's socket was heard from (connect, ping, disconnect): a stand-in game only. The
    first time is kept too (``first_seen``): a seat not seen in the game's first minute is
    absent (games/services/fairness.py)."""
    now = now or timezone.now()
    Seat.objects.filter(game_id=game_id, index=seat_index).update(
        last_seen=now, first_seen=Coalesce(F("first_seen"), Value(now))
    )


def due_stand_ins(now: datetime | None = None) -> list[tuple[str, int]]:
    """Running stand-in games whose turn is a person's who has been gone longer than
    :data:`STAND_IN_AFTER` (no socket heard from; never heard from: since the start):
    ``(gid, turn_number)``, in one query whatever the number of games. Only turns its family
    lets a stand-in play (``Game.stand_in_seat``, kept by the event writer; Rummy 45: turns of
    play, not the setup, which its clock settles)."""
    limit = (now or timezone.now()) - STAND_IN_AFTER
    due = (
        Seat.objects.filter(
            kind=SeatKind.HUMAN,
            game__status=Status.PLAYING,
            game__stand_in=True,
            index=F("game__stand_in_seat"),
        )
        .annotate(heard=Coalesce("last_seen", "game__started"))
        .filter(heard__lte=limit)
        .values_list("game__public_id", "game__turn_number")
    )
    return list(due)


def play_stand_in_turn(gid: str, turn_number: int, now: datetime | None = None) -> bool:
    """A casual bot plays the whole turn ``turn_number`` for the gone person whose turn it is,
    kept as a :class:`StandIn` row: a turn is stood in for once. False if they came back or
    the turn moved on."""
    if (gid, turn_number) not in due_stand_ins(now):
        return False
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=gid).first()
        if game is None or game.status != Status.PLAYING or game.turn_number != turn_number:
            return False
        family = family_of(game)
        state = load_state(game)
        start = family.turn(state)
        seat = start.stand_in_seat
        if seat is None:
            return False
        try:
            with transaction.atomic():
                StandIn.objects.create(game=game, seat=seat, turn_number=turn_number)
        except IntegrityError:
            return False
        for n in range(MAX_BOT_ACTIONS):
            turn = family.turn(state)
            if turn.finished or turn.clock != start.clock or seat not in turn.to_act:
                break
            action = _think(
                family,
                game,
                state,
                seat,
                STAND_IN_STRENGTH,
                f"{turn_number}:stand-in" + (f":{n}" if n else ""),
            )
            state = _apply_or_fallback(game, family, state, seat, action)
    return True


# Abandoned seats: a player who timed out turn after turn


AWAY_AFTER = 3  # timeouts in a row that mark a seat away


def away_seats(game: Game) -> list[int]:
    """The seats of a game in play that timed out their last :data:`AWAY_AFTER` turns in a
    row (any move of their own starts the count again), and have not resigned. The others
    may then go on against a bot in that seat, or end the game (:func:`settle_away_seat`)."""
    if game.status != Status.PLAYING:
        return []
    family = family_of(game)
    missed: dict[int, int] = {}
    for payload in game.events.order_by("seq").values_list("payload", flat=True):
        found = family.activity(payload)
        if found is None:
            continue
        seat, what = found
        if what == "missed":
            missed[seat] = missed.get(seat, 0) + 1
        else:
            missed[seat] = -1 if what == "resigned" else 0
    people = {s.index for s in game.seats.all() if s.kind == SeatKind.HUMAN}
    return sorted(s for s, n in missed.items() if n >= AWAY_AFTER and s in people)


def settle_away_seat(gid: str, viewer: Identity, seat: int, choice: str) -> dict[str, Any]:
    """What a player still at the table decides for an away seat: ``"bot"`` puts a casual
    bot in it for the rest of the game (it plays at once if it is that seat's turn);
    ``"end"`` resigns it for its player, so the game is scored as their resignation."""
    if choice not in ("bot", "end"):
        raise Invalid("bad_choice", "Choose bot (play on against a bot) or end (end the game).")
    game = get_game(gid)
    if not 0 <= seat < game.players:
        raise Invalid(
            "bad_seat",
            f"There is no seat {seat} at this table: its seats are 0 to {game.players - 1}.",
        )
    mine = seat_of(game, viewer)
    if mine is None or mine.kind != SeatKind.HUMAN or mine.index == seat:
        raise Forbidden("not_seated", "Only the other players at the table can decide this.")
    not_away = Conflict("not_away", "That player has not missed enough turns to be replaced.")
    if seat not in away_seats(game):
        raise not_away
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        # Again under the lock: the player may have moved, or another player decided, since.
        if seat not in away_seats(game):
            raise not_away
        away = game.seats.get(index=seat)
        if choice == "end":
            # As that player would resign themselves: through the one writer.
            family = family_of(game)
            try:
                apply_action(game, family.resign(seat))
            except IllegalMove as error:
                raise Illegal(error.code, error.message) from None
        else:
            Seat.objects.filter(pk=away.pk).update(
                kind=SeatKind.BOT, bot_strength="casual", name=f"{away.name} (casual bot)"[:40]
            )
            # The player's open boards watch from now on, as anyone else (seat_of).
            transaction.on_commit(lambda: signals.seats_changed.send(Game, gid=gid, waiting=False))
            state = load_state(game)
            turn = family_of(game).turn(state) if state is not None else None
            if turn is not None and not turn.finished and seat in turn.to_act:
                game = Game.objects.get(pk=game.pk)  # its seats as they now are
                for started in turn_signals(game, turn, False, False):
                    transaction.on_commit(
                        lambda started=started: signals.turn_started.send(Game, gid=gid, **started)
                    )
    return {"seat": seat, "choice": choice, "status": get_game(gid).status}
