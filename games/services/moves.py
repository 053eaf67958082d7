"""A player's action, for every family: ``POST /api/games/<gid>/<action>`` and the socket's
``act``, under one idempotency key and expected-seq contract (docs/api.md), and an operator's
end of a stuck game."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.families import family_of_action

from .. import rows
from ..errors import Conflict, Forbidden, Illegal, Invalid, NotFound, refuse_other_fields
from ..identity import Identity
from ..models import ActionReceipt, Game, Seat, SeatKind, Status
from .lobby import seat_of
from .reading import answer
from .record import RECORDED_FIELDS, commit, family_of, load_state

# The fields every action's body carries (docs/api.md "Endpoints"); its family names the rest.
ACTION_FIELDS = ("key", "expected_seq")
# What a receipt row is written with (games/rows.py: insert).
RECEIPT_FIELDS = ("game", "seat", "key", "status", "body", "created")


def act(gid: str, viewer: Identity, name: str, body: dict[str, Any]) -> dict[str, Any]:
    """Apply a player's action; return the answer body or raise a domain error."""
    family = family_of_action(name)
    if family is None:
        raise NotFound("no_such_action", f"Unknown action {name!r}.")
    # A misspelt field (``tabel``) would otherwise be ignored: a play with no table.
    takes = ACTION_FIELDS + family.action_fields[name]
    refuse_other_fields(body, takes, "bad_field", f"the {name} action")
    key = body.get("key")
    if not isinstance(key, str) or not 8 <= len(key) <= 80:
        raise Invalid("bad_key", "Each action needs an idempotency key (8-80 chars).")
    if not (key.isascii() and key.isprintable()):
        raise Invalid(
            "bad_key", "An idempotency key is printable ASCII: letters, digits and punctuation."
        )
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
            "stale", "The game moved on; here is where it stands.", **answer(game, index)
        ) from None


def _act_locked(
    gid: str, viewer: Identity, name: str, body: dict[str, Any], key: str, expected: int
) -> dict[str, Any]:
    # The seats come in one query and are reused (seat_of, the turn signals): no query per check.
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
            "stale", "The game moved on; here is where it stands.", **answer(game, seat.index)
        )
    if game.status != Status.PLAYING:
        raise Conflict("not_playing", "This game is not being played now.")
    family = family_of(game)
    if name not in family.action_fields:
        names = ", ".join(sorted(family.action_fields))
        raise Invalid("wrong_game", f"This is a {family.label} game: its actions are {names}.")
    before = load_state(game)
    try:
        action = family.parse_action(name, body, seat.index)
        state, events = family.apply(before, action, bytes.fromhex(game.seed))
    except IllegalMove as error:
        raise Illegal(error.code, error.message) from None
    except InvalidInput as error:
        raise Invalid(error.code, str(error)) from None
    commit(game, family, before, state, events, by_bot=False)
    reply = answer(game, seat.index, state)
    rows.insert(
        ActionReceipt,
        RECEIPT_FIELDS,
        [(game.pk, seat.index, key, 200, reply, timezone.now())],
    )
    rows.flush()  # the writes' errors (a racer's IntegrityError) surface here, in the transaction
    return reply


def can_end(game: Game) -> bool:
    """Whether an operator (or a tournament's deadline) may end this game while it runs."""
    return family_of(game).adjudicable


def end_game(gid: str, note: str) -> bool:
    """End a running game now, by an operator's decision (the admin's "end stuck games"):
    its family scores it as adjudicated, with ``note`` kept in the log.

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
        family = family_of(game)
        before = load_state(game)
        try:
            state, events = family.adjudicate(before, note[:200], bytes.fromhex(game.seed))
        except IllegalMove as error:
            raise Illegal(error.code, error.message) from None
        commit(game, family, before, state, events, by_bot=True)
    return True


def leave_all_games(viewer: Identity) -> dict[str, list[str]]:
    """The account ``viewer`` is being deleted (players/account.py): it resigns every game it
    is playing, whose seat would otherwise wait out its clock turn after turn (days a move by
    correspondence), and leaves the tables still waiting for players: its seat there opens
    again for its invite link, and a table left with no person seated is deleted. The public
    ids of the games resigned and left."""
    resigned: list[str] = []
    playing = Game.objects.filter(status=Status.PLAYING, seats__user_id=viewer.user_id)
    for game in playing.distinct():
        body = {"key": f"leaves-{game.public_id}-{viewer.user_id}", "expected_seq": game.seq}
        try:
            act(game.public_id, viewer, "resign", body)
        except (Conflict, Forbidden, Illegal, Invalid, NotFound):
            continue  # resigned already (a table of three plays on), or no resignation here
        resigned.append(game.public_id)
    left: list[str] = []
    waiting = Seat.objects.filter(user_id=viewer.user_id, game__status=Status.WAITING)
    for seat in waiting.select_related("game"):
        game = seat.game
        others = game.seats.exclude(pk=seat.pk).filter(kind=SeatKind.HUMAN, joined__isnull=False)
        if others.exists():
            Seat.objects.filter(pk=seat.pk).update(user=None, guest_key="", name="", joined=None)
        else:
            game.delete()
        left.append(game.public_id)
    return {"resigned": resigned, "left": left}


__all__ = ["RECORDED_FIELDS", "act", "can_end", "end_game", "leave_all_games"]
