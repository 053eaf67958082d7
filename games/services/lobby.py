"""Making games and taking seats, for every family: create, join, start when full, rematches,
and a guest's seats becoming an account's."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.families import family_named, family_of_mode
from games.engine.family import BOT_STRENGTHS, Setup

from .. import signals
from ..errors import Conflict, DomainError, Forbidden, Invalid, NotFound
from ..identity import Identity, clean_name
from ..models import Game, GameResult, GoneTable, Seat, SeatKind, Status
from ..names import confusable
from .record import deal, setup_of


def setup_from(options: Mapping[str, Any]) -> Setup:
    """Validate a new game's options through its mode's family (``mode``, default parlor)."""
    mode = options.get("mode", "parlor")
    try:
        family = family_of_mode(mode)
        return family.setup(str(mode), options)
    except InvalidInput as error:
        raise Invalid("bad_options", str(error)) from None


def live_game_of(viewer: Identity) -> Game | None:
    """The live clocked game (seconds a turn, not days a move) the viewer is seated in and
    that is being played, or else a live table they sit at that waits for players, if any
    (docs/fair-play.md "One live game at a time"); a game they resigned is no longer theirs to
    play, though the others may play on."""
    if viewer.user_id is not None:
        mine = Seat.objects.filter(user_id=viewer.user_id)
    elif viewer.guest_key:
        mine = Seat.objects.filter(guest_key=viewer.guest_key, user__isnull=True)
    else:
        return None
    found = _at_live_tables(mine).select_related("game")
    # A game being played comes first: it is the one to finish.
    seat = found.order_by("game__status").first()  # "playing" sorts before "waiting"
    return seat.game if seat is not None else None


def _at_live_tables(seats: Any) -> Any:
    """Of ``seats``, those of a person at a live clocked table, being played or waiting for
    players, that they have not resigned."""
    return seats.filter(
        kind=SeatKind.HUMAN,
        joined__isnull=False,
        resigned__isnull=True,
        game__status__in=(Status.PLAYING, Status.WAITING),
        game__clock_seconds__isnull=False,
        game__correspondence_days__isnull=True,
    )


def live_players(user_ids: Sequence[int]) -> set[int]:
    """Which of these accounts sit at a live table, being played or waiting for players (one
    query): matchmaking seats none of them in another (docs/fair-play.md)."""
    seats = _at_live_tables(Seat.objects.filter(user_id__in=user_ids))
    return set(seats.values_list("user_id", flat=True))


def refuse_a_second_live_game(viewer: Identity) -> None:
    """A person plays one live clocked game at a time: seeking, joining or creating another
    while one is being played, or while they wait at a live table for players (both could fill
    and start at once), is refused with a sentence (a tournament's pairing never is). Called in
    the transaction that seats them, it first waits for any other such transaction of theirs
    (``hold_the_person``), so that two sent at once cannot both pass."""
    hold_the_person(viewer)
    playing = live_game_of(viewer)
    if playing is None:
        return
    if playing.status == Status.WAITING:
        raise Conflict(
            "live_game_running",
            "You are waiting at a live table already: play it when it fills, or leave it first. "
            "Correspondence games are not limited.",
            url=playing.get_absolute_url(),
        )
    # Resigning is offered only where the game's family has it.
    how = "finish it (or resign it) first" if can_resign(playing) else "finish it first"
    raise Conflict(
        "live_game_running",
        f"You are playing a live game already: {how}. Correspondence games are not limited.",
        url=playing.get_absolute_url(),
    )


def hold_the_person(viewer: Identity) -> None:
    """Until the transaction ends, hold the lock that seats ``viewer`` at a live table, so a
    second request of theirs reads their seats only once the first has committed. On
    PostgreSQL a transaction-scoped advisory lock on the person; SQLite's transactions take the
    write lock as they begin (``transaction_mode`` IMMEDIATE), so they already run one at a
    time. Taken after any game row a transaction locks, never before, so no two wait on each
    other."""
    if connection.vendor != "postgresql":
        return
    who = f"user:{viewer.user_id}" if viewer.user_id is not None else f"guest:{viewer.guest_key}"
    with connection.cursor() as cursor:
        lock = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"
        cursor.execute(lock, [f"rummi.seat.{who}"])


def can_resign(game: Game) -> bool:
    """Whether a player of this game may resign it (its family has a resignation)."""
    try:
        family_named(game.family).resign(0)
    except IllegalMove:
        return False
    return True


def _live(setup: Setup) -> bool:
    return setup.clock_seconds is not None and setup.correspondence_days is None


def _new_game(setup: Setup, **fields: Any) -> Game:
    return Game.objects.create(
        family=setup.family,
        mode=setup.mode,
        config=dict(setup.config),
        players=setup.players,
        clock_seconds=setup.clock_seconds,
        correspondence_days=setup.correspondence_days,
        **fields,
    )


def create_game(viewer: Identity, options: dict[str, Any]) -> Game:
    """A new game; the creator takes seat 0. Other seats are open (invite links) or bots.
    With ``watch`` (a bot strength) every seat is a bot of that strength and the creator, a
    signed-in player, watches (:func:`watch_bots`)."""
    if not viewer.known:
        raise Forbidden("sign_in", "Sign in or choose a guest name to create a game.")
    if options.get("watch") not in (None, "", False):
        return watch_bots(viewer, options)
    setup = setup_from(options)
    seats = _seat_plan(options.get("seats"), setup.players)
    rated = _rated(options.get("rated", False), viewer, setup)
    with transaction.atomic():
        if _live(setup):
            refuse_a_second_live_game(viewer)
        game = _new_game(
            setup,
            listed=bool(options.get("listed", True)),
            rated=rated,
            seed=secrets.token_bytes(32).hex(),
            created_by_id=viewer.user_id,
        )
        names = _bot_names([plan.get("strength") for plan in seats])
        for index, plan in enumerate(seats):
            Seat.objects.create(
                game=game,
                index=index,
                kind=plan["kind"],
                bot_strength=plan.get("strength", ""),
                name=names[index],
                joined=timezone.now() if plan["kind"] == SeatKind.BOT else None,
            )
        _take_seat(game.seats.get(index=0), viewer)
        start_if_full(game)
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
    occasion_url: str = "",
) -> Game:
    """A game whose every seat is already taken, dealt at once: a tournament table or a
    matched seek. ``seats`` in seat order, each ``{"user_id": id, "name": name}`` for a
    person or ``{"bot": strength}``; ``options`` as for :func:`create_game` (mode, clock,
    days, target). ``seed`` deals a given deal (a duplicate round's tables share one);
    ``sealed`` withholds its replay, record and seed until :func:`unseal`; with ``stand_in``
    a bot plays the turns of a person gone for a minute (docs/design.md "Tournaments");
    ``occasion`` says in words what it is played for (shown on its page and in digests), and
    ``occasion_url`` is where its end leads back to (the tournament's page)."""
    setup = setup_from({**options, "players": len(seats)})
    if rated and not family_of_mode(setup.mode).modes[setup.mode].rated:
        raise Invalid(
            "bad_options",
            f"{family_of_mode(setup.mode).modes[setup.mode].label} games are never rated.",
        )
    now = timezone.now()
    with transaction.atomic():
        game = _new_game(
            setup,
            listed=False,
            rated=rated,
            sealed=sealed,
            stand_in=stand_in and setup.clock_seconds is not None,
            occasion=occasion[:120],
            occasion_url=occasion_url[:200],
            seed=(seed or secrets.token_bytes(32)).hex(),
        )
        names = _bot_names([plan.get("bot") for plan in seats])
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
                name=clean_name(plan.get("name") or names[index] or _bot_name("casual")),
                joined=now,
            )
        start_if_full(game)
    return game


def unseal(game_ids: list[int]) -> int:
    """Show the replays, records and seeds of sealed games (their duplicate round is over)."""
    return Game.objects.filter(pk__in=game_ids, sealed=True).update(sealed=False)


def play_started(game_ids: list[int]) -> bool:
    """Whether any of these games has had an action beyond its deal, or is over (a
    tournament round that may no longer be paired again)."""
    for game in Game.objects.filter(pk__in=game_ids).exclude(status=Status.WAITING):
        if game.status == Status.FINISHED:
            return True
        family = family_named(game.family)
        _, dealt = family.new_game(setup_of(game), bytes.fromhex(game.seed))
        if game.seq > len(dealt):
            return True
    return False


def delete_unstarted(game_ids: list[int]) -> int:
    """Delete the games of a round paired again before anyone moved; the number deleted."""
    deleted, _ = Game.objects.filter(pk__in=game_ids).delete()
    return deleted


def _rated(raw: object, viewer: Identity, setup: Setup) -> bool:
    """A rated game (docs/design.md "Ratings"): asked for by a signed-in creator, never in a
    mode whose rules are the creator's own (Sandbox). Rated games give no hints."""
    if raw in (False, None, "", 0):
        return False
    if raw is not True and raw not in (1, "true", "on", "1"):
        raise Invalid("bad_options", "rated is true or false")
    if viewer.user_id is None:
        raise Forbidden("sign_in_to_rate", "Sign in to play a rated game.")
    mode = family_of_mode(setup.mode).modes[setup.mode]
    if not mode.rated:
        raise Invalid("bad_options", f"{mode.label} games are never rated.")
    return True


def watch_bots(viewer: Identity, options: dict[str, Any]) -> Game:
    """A table of bots only, every seat of the strength ``options["watch"]``, dealt at once
    for a signed-in player to watch (docs/api.md): unrated, unlisted, nobody's seat; the
    one-live-game rule does not apply, as the watcher plays no turn."""
    if viewer.user_id is None:
        raise Forbidden("sign_in_to_watch", "Sign in to open a table of bots to watch.")
    strength = options.get("watch")
    if strength not in BOT_STRENGTHS:
        raise Invalid("bad_options", f"watch is a bot strength: {'|'.join(BOT_STRENGTHS)}")
    if options.get("rated") not in (None, False, "", 0):
        raise Invalid("bad_options", "A table of bots is never rated.")
    if options.get("seats"):
        raise Invalid("bad_options", "A table to watch has only bots: leave seats out.")
    setup = setup_from({k: v for k, v in options.items() if k not in ("watch", "listed")})
    if setup.correspondence_days is not None:
        raise Invalid("bad_options", "A table of bots plays live: leave days out.")
    with transaction.atomic():
        game = _new_game(
            setup,
            listed=False,
            rated=False,
            seed=secrets.token_bytes(32).hex(),
            created_by_id=viewer.user_id,
        )
        now = timezone.now()
        names = _bot_names([strength] * setup.players)
        for index in range(setup.players):
            Seat.objects.create(
                game=game,
                index=index,
                kind=SeatKind.BOT,
                bot_strength=strength,
                name=names[index],
                joined=now,
            )
        start_if_full(game)
    return game


def _seat_plan(raw: object, players: int) -> list[dict[str, str]]:
    """Seats 1..n-1 from ``["human", "bot:strong", ...]``; missing ones are open human seats."""
    plan = [{"kind": SeatKind.HUMAN}]
    given = list(raw) if isinstance(raw, list | tuple) else []
    if len(given) > players - 1:
        others = players - 1
        raise Invalid(
            "bad_options",
            f"seats lists the seats other than yours: {players} players means {others} other "
            f"seat{'' if others == 1 else 's'}, and {len(given)} came.",
        )
    for item in given + ["human"] * (players - 1 - len(given)):
        if item == "human":
            plan.append({"kind": SeatKind.HUMAN})
            continue
        kind, _, strength = str(item).partition(":")
        if kind != "bot" or strength not in BOT_STRENGTHS:
            strengths = ", ".join(BOT_STRENGTHS[:-1]) + f" or {BOT_STRENGTHS[-1]}"
            raise Invalid(
                "bad_options",
                f'seats takes "human" or "bot:<strength>" for each seat, the strength {strengths};'
                f" {str(item)[:40]!r} came.",
            )
        plan.append({"kind": SeatKind.BOT, "strength": strength})
    return plan


def _bot_name(strength: str) -> str:
    return f"{strength.title()} bot"


def _bot_names(strengths: list[str | None]) -> list[str]:
    """The names of a table's seats by their bot strengths (``None`` or empty: not a bot): two
    bots of one strength are told apart by a number, so that the move list and the end's
    standings say which of them played ("Strong bot 1", "Strong bot 2"); a bot alone of its
    strength keeps the plain name.

    >>> _bot_names([None, "strong", "casual", "strong"])
    ['', 'Strong bot 1', 'Casual bot', 'Strong bot 2']
    """
    names, seen = [], Counter(s for s in strengths if s)
    nth: Counter[str] = Counter()
    for strength in strengths:
        if not strength:
            names.append("")
            continue
        nth[strength] += 1
        suffix = f" {nth[strength]}" if seen[strength] > 1 else ""
        names.append(_bot_name(strength) + suffix)
    return names


def _take_seat(seat: Seat, viewer: Identity) -> None:
    seat.user_id = viewer.user_id
    seat.guest_key = "" if viewer.user_id else (viewer.guest_key or "")
    seat.name = clean_name(viewer.name)
    seat.joined = timezone.now()
    seat.save()


def seat_of(game: Game, viewer: Identity) -> Seat | None:
    """The viewer's seat in the game, from their session alone. A seat a bot took over for its
    away player (services.settle_away_seat) is the bot's: its player watches from then on, and
    neither sees its rack nor moves for it."""
    if viewer.user_id is not None:
        found = [s for s in game.seats.all() if s.user_id == viewer.user_id]
    elif viewer.guest_key:
        found = [s for s in game.seats.all() if s.guest_key == viewer.guest_key and not s.user_id]
    else:
        found = []
    return found[0] if found and found[0].kind == SeatKind.HUMAN else None


def refuse_a_name_at_the_table(game: Game, name: str) -> None:
    """A guest may not sit down under a name a reader could take for one already at the table
    (the same letters in another case, a look-alike: ``names.confusable``), where the players
    could not tell each other apart on the board or the scorecard (docs/fair-play.md "Names").
    An account's name is its own, unique among accounts, and is not refused here."""
    name = clean_name(name)
    for other in game.seats.all():
        if other.joined is not None and other.name and confusable(name, other.name):
            raise Conflict(
                "name_at_table",
                f"Someone at this table is already called {other.name}: choose another name.",
            )


def game_seating(viewer: Identity, token: str) -> Game | None:
    """The game of invite ``token`` if ``viewer`` already has a seat at it, else None."""
    if not viewer.known:
        return None
    seat = Seat.objects.select_related("game").filter(invite_token=token).first()
    if seat is None or seat_of(seat.game, viewer) is None:
        return None
    return seat.game


def join_game(viewer: Identity, token: str) -> Game:
    """Join through a seat's invite link; joining twice is harmless."""
    if not viewer.known:
        raise Forbidden("sign_in", "Sign in or choose a guest name to join.")
    with transaction.atomic():
        seat = Seat.objects.select_related("game").filter(invite_token=token).first()
        if seat is None:
            raise NotFound("no_such_invite", "That invite link is not valid.")
        game = Game.objects.select_for_update().filter(pk=seat.game_id).first()
        if game is None:  # closed as this request read its seat
            raise closed_or_gone(seat.game.public_id)
        seat = Seat.objects.get(pk=seat.pk)
        mine = seat_of(game, viewer)
        if mine is not None:
            return game
        if game.clock_seconds is not None and game.correspondence_days is None:
            refuse_a_second_live_game(viewer)
        # A seat kept for a rematch's player is theirs alone (offer_rematch). A listed table's
        # seats are anyone's, so a link whose seat was taken seats its holder in another; an
        # unlisted table's links were handed out one to a person, and a used one must not take
        # the seat another invitee's link holds.
        if not seat.is_open or seat.reserved:
            if not game.listed and not seat.reserved:
                raise Conflict(
                    "seat_taken",
                    "Someone has taken this invite's seat already: "
                    "ask the player who made the table for another link.",
                )
            seat = next(  # type: ignore[assignment]
                (s for s in game.seats.all() if s.is_open and not s.reserved), None
            )
            if seat is None:
                raise Conflict("game_full", "This game has no open seat left.")
        if viewer.user_id is None:
            refuse_a_name_at_the_table(game, viewer.name)
        _take_seat(seat, viewer)
        start_if_full(game)
        _tell_seats_changed(game.public_id, game.status == Status.WAITING)
    return game


def _tell_seats_changed(gid: str, waiting: bool = True) -> None:
    """After the commit, the sockets open on game ``gid`` look up their viewers' seats again,
    and the pages open on a waiting table are told its seats changed (a game that starts tells
    them with its first frame instead)."""
    transaction.on_commit(lambda: signals.seats_changed.send(Game, gid=gid, waiting=waiting))


# What may keep a game asked for rated from being rated, each check given by the app that
# keeps its rule (ratings' limit on rated games between the same players, registered in its
# AppConfig.ready): the games core imports no app above it. A check reads the game as it
# starts, every seat taken, and answers why it is to be played unrated, or None.
RatedCheck = Callable[[Game], str | None]
_RATED_CHECKS: list[RatedCheck] = []


def rated_check(check: RatedCheck) -> RatedCheck:
    """Register ``check(game)``: run when a rated game starts, whatever made it (a created
    game whose seats filled, a matched seek, a tournament table) and whatever its family."""
    if check not in _RATED_CHECKS:
        _RATED_CHECKS.append(check)
    return check


def start_if_full(game: Game) -> None:
    """Deal the game once every seat is taken; a rated game that a rated check refuses is
    played unrated (``Game.rated`` turned off before its first event)."""
    if game.status != Status.WAITING or any(s.is_open for s in game.seats.all()):
        return
    if game.rated and any(check(game) is not None for check in _RATED_CHECKS):
        game.rated = False
        game.save(update_fields=["rated"])
    deal(game)


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


def live_tables_of(user_id: int) -> set[int]:
    """The pks of the live games the account is seated at, being played or waiting for
    players (``live_game_of``'s, every one)."""
    return set(
        _at_live_tables(Seat.objects.filter(user_id=user_id)).values_list("game_id", flat=True)
    )


def keep_one_live_table(user_id: int, name: str, had: set[int]) -> list[Game]:
    """After a guest signed in (``adopt_guest_seats``): a person waits at one live table at a
    time (docs/fair-play.md "One live game at a time"), and the account may now sit at the
    guest's as well as its own. Each live table waiting for players beyond one is left, as the
    waiting page's button leaves it (the creator's closes): every one if a live game of theirs is
    being played, else all but the one the account sat at before (``had``, from
    ``live_tables_of``), or its earliest. A game being played is never left (it is resigned, not
    left), so two being played stay two. The tables left."""
    seats = list(
        _at_live_tables(Seat.objects.filter(user_id=user_id))
        .select_related("game")
        .order_by("joined", "pk")
    )
    waiting = [s for s in seats if s.game.status == Status.WAITING]
    if len(seats) < 2 or not waiting:
        return []
    if len(waiting) == len(seats):  # none being played: one may wait
        kept = next((s for s in waiting if s.game_id in had), waiting[0])
        waiting = [s for s in waiting if s is not kept]
    left = []
    for seat in waiting:
        try:
            leave_table(seat.game.public_id, Identity(user_id=user_id, name=name))
        except DomainError:
            continue  # it started, or closed, meanwhile
        left.append(seat.game)
    return left


def forget_player(user_id: int, name: str) -> int:
    """An account is being deleted: its seats and result rows stay, under ``name``, linked to
    no account (its games still replay, and the others' results still count). The number of
    seats forgotten."""
    with transaction.atomic():
        GameResult.objects.filter(user_id=user_id).update(name=name, user=None)
        return Seat.objects.filter(user_id=user_id).update(name=name, user=None)


def rename_player(user_id: int, name: str) -> int:
    """An account's name changed: its seats and result rows, past ones too, show the new one
    (a name is shown the same way everywhere). The number of seats renamed."""
    with transaction.atomic():
        GameResult.objects.filter(user_id=user_id).update(name=name)
        return Seat.objects.filter(user_id=user_id).update(name=name)


def results_of(user_id: int) -> Any:
    """The account's result rows with their games, oldest first (its data download)."""
    return GameResult.objects.filter(user_id=user_id).select_related("game").order_by("finished")


# A rematch

# How long a rematch offer stays open for the others to accept (docs/design.md "Rematches"):
# a live table's players are still at the table or gone, a correspondence game's may answer
# over days. An offer not accepted by every person by then lapses (expire_rematches).
REMATCH_OPEN_LIVE = timedelta(minutes=10)
REMATCH_OPEN_CORRESPONDENCE = timedelta(days=3)
# How long the address of a lapsed offer or a closed table still says so, rather than "no such
# game" (GoneTable rows older than this are pruned by expire_waiting_tables).
GONE_REMEMBERED = timedelta(days=7)


def rematch_open_for(game: Game) -> timedelta:
    """How long a rematch offer of (or for) ``game`` stays open."""
    return REMATCH_OPEN_CORRESPONDENCE if game.is_correspondence else REMATCH_OPEN_LIVE


def rematch_expires(new: Game) -> datetime:
    """When the waiting rematch ``new`` lapses unless every person has accepted."""
    return new.created + rematch_open_for(new)


def rematch_state(game: Game, viewer: Identity) -> dict[str, Any]:
    """Whether the viewer may ask for a rematch of ``game``, and how far one has got: who has
    accepted, who is still to, the new game's address and, while it waits, when it lapses.
    An offer past its time is no offer (the sweep deletes it soon after)."""
    mine = seat_of(game, viewer)
    can = game.status == Status.FINISHED and mine is not None and mine.kind == SeatKind.HUMAN
    # A game played for an occasion (a tournament's table) has none: its maker seats the next;
    # nor one whose player deleted their account (their seat has nobody to keep it for).
    can = can and not game.occasion and not _player_gone(game)
    new = Game.objects.filter(rematch_of=game).first()
    expires = rematch_expires(new) if new is not None else None
    waiting = new is not None and new.status == Status.WAITING
    if new is None or (waiting and expires is not None and expires <= timezone.now()):
        return {
            "offered": False,
            "can_offer": can,
            "open_minutes": int(rematch_open_for(game).total_seconds() // 60),
        }
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
        "expires": expires.isoformat() if waiting and expires is not None else None,
    }


def _player_gone(game: Game) -> bool:
    """Whether a person who sat at ``game`` has deleted their account (forget_player): their
    seat belongs to nobody, so a rematch would open it to whoever holds its link."""
    return any(
        s.kind == SeatKind.HUMAN and s.user_id is None and not s.guest_key for s in game.seats.all()
    )


def _lapse(new: Game, old: Game) -> None:
    """Delete the waiting rematch ``new`` of ``old`` (both locked by the caller): its address
    says the offer lapsed for a week (lapsed_rematch), and after the commit the pages open on
    it are told (``rematch_lapsed``)."""
    gid, back = new.public_id, old.public_id
    new.delete()
    _remember_gone(gid, GoneTable.Reason.LAPSED, back)
    transaction.on_commit(lambda: signals.rematch_lapsed.send(Game, gid=gid, rematch_of=back))


def lapsed_rematch(gid: str) -> Game | None:
    """The finished game whose rematch ``gid`` was, if ``gid`` was a rematch offer that lapsed
    (in the last week), else None."""
    gone = _gone(gid)
    if gone is None or gone.reason != GoneTable.Reason.LAPSED:
        return None
    return Game.objects.filter(public_id=gone.back).first()


def _remember_gone(gid: str, reason: str, back: str = "") -> None:
    """Record, in the deleting transaction, that the table ``gid`` is gone and why: its address
    says so for ``GONE_REMEMBERED``, to every process (the sweep's deletions are made by the
    worker, and a cache of the worker's own was never read by the web process)."""
    GoneTable.objects.update_or_create(
        public_id=gid, defaults={"reason": reason, "back": back, "gone": timezone.now()}
    )


def _gone(gid: str) -> GoneTable | None:
    """The record of the table ``gid``, gone in the last ``GONE_REMEMBERED``, else None."""
    since = timezone.now() - GONE_REMEMBERED
    return GoneTable.objects.filter(public_id=gid, gone__gt=since).first()


def forget_gone_tables(now: datetime | None = None) -> int:
    """Delete the records of tables gone over ``GONE_REMEMBERED`` ago (their addresses now
    answer 404); how many."""
    since = (now or timezone.now()) - GONE_REMEMBERED
    return GoneTable.objects.filter(gone__lte=since).delete()[0]


def expire_rematches(now: datetime | None = None) -> list[str]:
    """Delete every rematch offer still waiting past its time, those left from before offers
    lapsed too: the finished game offers a rematch again. A rematch that has started is never
    touched. The gids deleted."""
    now = now or timezone.now()
    due = Game.objects.filter(status=Status.WAITING, rematch_of__isnull=False).filter(
        Q(correspondence_days__isnull=True, created__lte=now - REMATCH_OPEN_LIVE)
        | Q(correspondence_days__isnull=False, created__lte=now - REMATCH_OPEN_CORRESPONDENCE)
    )
    lapsed = []
    for pk, old_pk in due.values_list("pk", "rematch_of_id"):
        # The same lock order as offer_rematch (the finished game, then the rematch): an
        # acceptance either starts the game first, or finds no offer and makes a new one.
        with transaction.atomic():
            old = Game.objects.select_for_update().filter(pk=old_pk).first()
            new = Game.objects.select_for_update().filter(pk=pk).first()
            if old is None or new is None or new.rematch_of_id != old.pk:
                continue
            if new.status != Status.WAITING or rematch_expires(new) > now:
                continue
            _lapse(new, old)
            lapsed.append(new.public_id)
    return lapsed


def offer_rematch(gid: str, viewer: Identity) -> Game:
    """Ask for, or accept, a rematch of finished game ``gid``: a new game with the same seats
    and options. The first player to ask makes it; each person's seat is kept for them until
    they accept (their own call of this); bots sit down at once; the game starts when every
    person has accepted, or lapses unaccepted after ``rematch_open_for`` (then asking makes a
    new one). Asking twice is harmless."""
    with transaction.atomic():
        old = Game.objects.select_for_update().filter(public_id=gid).first()
        if old is None:
            raise NotFound("no_such_game", "There is no such game.")
        if old.status != Status.FINISHED:
            raise Conflict("not_finished", "A rematch can be asked for once the game is over.")
        mine = seat_of(old, viewer)
        if mine is None or mine.kind != SeatKind.HUMAN:
            raise Forbidden("not_seated", "Only the game's players can ask for a rematch.")
        if old.occasion:
            raise Conflict(
                "no_rematch",
                f"A game played for {old.occasion} has no rematch: its organiser seats the next.",
            )
        if _player_gone(old):
            raise Conflict(
                "no_rematch", "A player of this game has deleted their account: it has no rematch."
            )
        new = Game.objects.select_for_update().filter(rematch_of=old).first()
        if (
            new is not None
            and new.status == Status.WAITING
            and rematch_expires(new) <= timezone.now()
        ):
            _lapse(new, old)
            new = None
        if new is None:
            new = Game.objects.create(
                family=old.family,
                mode=old.mode,
                config=old.config,
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
            if new.clock_seconds is not None and new.correspondence_days is None:
                # As for any live table: not while at another (an offer made here is undone).
                refuse_a_second_live_game(viewer)
            _take_seat(seat, viewer)
            start_if_full(new)
    return new


# A table waiting for players (docs/design.md "Waiting tables"): its creator may close it, a
# person seated there may leave it, and one whose seats nobody filled in time closes by itself,
# so no table waits for ever in the lobby, nor holds its players' one live table.
WAITING_OPEN_LIVE = timedelta(hours=1)
WAITING_OPEN_CORRESPONDENCE = timedelta(days=7)
# Why a table closed, as its address says for a week after (closed_table).
CLOSED_BY_CREATOR, CLOSED_UNFILLED = "cancelled", "unfilled"  # GoneTable.Reason


def waiting_open_for(game: Game) -> timedelta:
    """How long ``game`` may wait for players before it closes by itself."""
    return WAITING_OPEN_CORRESPONDENCE if game.is_correspondence else WAITING_OPEN_LIVE


def _close(game: Game, reason: str) -> None:
    """Delete the waiting table ``game`` (locked by the caller); its address says why for a
    week (closed_table), and after the commit the pages open on it are told (table_closed)."""
    gid = game.public_id
    game.delete()
    _remember_gone(gid, reason)
    transaction.on_commit(lambda: signals.table_closed.send(Game, gid=gid, reason=reason))


def closed_or_gone(gid: str) -> NotFound:
    """The refusal (404 ``no_such_invite``) of an invite to the table ``gid``, which is no more:
    saying so when it was closed (``closed_table``)."""
    if closed_table(gid) is not None:
        return NotFound(
            "no_such_invite",
            "The table was closed before the game started: its invite links are no longer valid.",
        )
    return NotFound("no_such_invite", "That invite link is not valid.")


def closed_table(gid: str) -> str | None:
    """Why the table ``gid`` closed before it started (in the last week), else None:
    ``cancelled`` (its creator closed it) or ``unfilled`` (nobody took its seats in time)."""
    gone = _gone(gid)
    return gone.reason if gone is not None and gone.reason != GoneTable.Reason.LAPSED else None


def leave_table(gid: str, viewer: Identity) -> bool:
    """``viewer`` leaves the table ``gid`` that waits for players: the creator (seat 0) closes
    it, anyone else's seat opens again for its invite link, and leaving a rematch offer calls
    the rematch off. Whether the table closed. A game that has started is resigned instead."""
    found = Game.objects.filter(public_id=gid).values_list("rematch_of_id", flat=True).first()
    with transaction.atomic():
        # The lock order of offer_rematch: the finished game first, then its rematch.
        old = None
        if found is not None:
            old = Game.objects.select_for_update().filter(pk=found).first()
        game = Game.objects.select_for_update().filter(public_id=gid).first()
        if game is None:
            raise NotFound("no_such_game", "There is no such game.")
        if game.status != Status.WAITING:
            raise Conflict(
                "not_waiting",
                "This game is under way or over: a game in play is resigned, not left.",
            )
        seat = seat_of(game, viewer)
        if seat is None or seat.joined is None:
            raise Forbidden("not_seated", "You have no seat at this table.")
        if old is not None and game.rematch_of_id == old.pk:
            _lapse(game, old)
            return True
        if seat.index == 0:
            _close(game, CLOSED_BY_CREATOR)
            return True
        Seat.objects.filter(pk=seat.pk).update(user=None, guest_key="", name="", joined=None)
        _tell_seats_changed(game.public_id)
        return False


def expire_waiting_tables(now: datetime | None = None) -> list[str]:
    """Close every table still waiting for players past ``waiting_open_for`` (rematch offers
    lapse on their own clock: expire_rematches). The gids closed."""
    now = now or timezone.now()
    due = Game.objects.filter(status=Status.WAITING, rematch_of__isnull=True).filter(
        Q(correspondence_days__isnull=True, created__lte=now - WAITING_OPEN_LIVE)
        | Q(correspondence_days__isnull=False, created__lte=now - WAITING_OPEN_CORRESPONDENCE)
    )
    closed = []
    for pk in due.values_list("pk", flat=True):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=pk, status=Status.WAITING).first()
            if game is None or game.created + waiting_open_for(game) > now:
                continue  # filled (or closed) since
            _close(game, CLOSED_UNFILLED)
            closed.append(game.public_id)
    return closed
