"""Running tournaments (docs/design.md "Tournaments"): every change to one goes through a
function here, by an organiser (the admin), a player (the pages) or the site itself (beat, the
game-finished signal), and each organiser's or the site's change is kept as an :class:`Action`.

Pairing and scoring are the pure ``tournaments.pairing`` package's; this module turns the stored
rows into its inputs, stores its answers and makes each table's game through the games
services. A round is paired once: the tournament row is locked while it is, and a round's
number is unique.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from games import services as games
from games import signals as game_signals
from games.engine.errors import InvalidInput
from games.engine.families import modes
from games.engine.state import commitment
from games.errors import Conflict, Forbidden, Invalid, NotFound
from games.models import Game, GameResult
from games.modes import BOT_STRENGTHS, CORRESPONDENCE_DAYS, LIVE_CLOCKS, mode_info, setup_from
from games.names import shown_name
from ratings import services as ratings
from rummi_site import push

from . import pairing, signals
from .models import (
    Action,
    Bye,
    Entry,
    Format,
    Round,
    RoundState,
    State,
    Table,
    TableSeat,
    Tournament,
)

log = logging.getLogger(__name__)

# A correspondence round's tables still playing this long after the round was paired are
# adjudicated (docs/design.md "Tournaments"): each game's own clock is days a move.
CORRESPONDENCE_ROUND_MOVES = 10
DEADLINE_NOTE = "round deadline: scored as if blocked, the lowest rack first"
MOST_POINTS = 1000  # a place's points at most (docs/tournaments.md "Points")
# What the organiser's form allows at most (docs/tournaments.md "Settings the form refuses").
MOST_ROUNDS = 100
LONGEST_ARENA = 24 * 60
BYE_SHARE = 0.5  # a bye is worth half the most points a table gives (docs/tournaments.md)


def record(
    tournament: Tournament, actor: Any, verb: str, detail: str = "", public: bool = False
) -> Action:
    return Action.objects.create(
        tournament=tournament,
        actor=actor if getattr(actor, "pk", None) else None,
        verb=verb,
        detail=detail[:500],
        public=public,
    )


def get(tournament_id: int, lock: bool = False) -> Tournament:
    query = Tournament.objects.select_for_update() if lock else Tournament.objects
    found = query.filter(pk=tournament_id).first()
    if found is None:
        raise NotFound("no_such_tournament", "There is no such tournament.")
    return found


# Checking a new tournament


def check(t: Tournament) -> None:
    """Refuse a tournament that cannot be run, with a sentence an organiser understands."""
    if t.mode not in modes():
        raise Invalid("bad_tournament", f"The mode is one of {', '.join(modes())}.")
    info = mode_info(t.mode)
    if not info.rated:
        raise Invalid("bad_tournament", f"{info.label} games are not played in tournaments.")
    if info.live_only and t.correspondence_days is not None:
        # A correspondence round's deadline ends its tables by an operator's end, which such
        # a game has not (games.services.can_end).
        raise Invalid(
            "bad_tournament",
            f"{info.label} tournaments are live: a {info.label} table cannot be ended at a "
            "round's deadline, so give it a clock, not days a move.",
        )
    if t.table_size not in info.players:
        counts = ", ".join(map(str, info.players))
        if len(info.players) == 1:
            only = info.players[0]
            words = {2: "two", 3: "three", 4: "four"}
            raise Invalid(
                "bad_tournament",
                f"{info.label} is for {words.get(only, only)}: use {only} per table.",
            )
        raise Invalid(
            "bad_tournament", f"{info.label} is played by {counts} a table: use one of those."
        )
    if t.correspondence_days is not None:
        if t.correspondence_days not in CORRESPONDENCE_DAYS:
            raise Invalid("bad_tournament", "Days a move are 1, 3 or 7.")
        if t.format == Format.ARENA:
            raise Invalid("bad_tournament", "An arena is live: give it a clock, not days a move.")
    elif t.clock_seconds not in LIVE_CLOCKS:
        raise Invalid("bad_tournament", "A live clock is 30, 60 or 120 seconds a turn.")
    _check_the_tables_play_what_the_page_says(t)
    if t.format == Format.ARENA:
        if not t.duration_minutes:
            raise Invalid("bad_tournament", "An arena needs a duration in minutes.")
    elif t.format in (Format.SWISS, Format.DUPLICATE) and not t.rounds:
        raise Invalid("bad_tournament", "A Swiss or duplicate tournament needs a number of rounds.")
    if t.rounds is not None and not 1 <= t.rounds <= MOST_ROUNDS:
        raise Invalid("bad_tournament", f"A tournament plays 1 to {MOST_ROUNDS} rounds.")
    if t.duration_minutes is not None and not 1 <= t.duration_minutes <= LONGEST_ARENA:
        raise Invalid(
            "bad_tournament", f"An arena lasts 1 to {LONGEST_ARENA} minutes (a whole day)."
        )
    if (
        t.registration_opens
        and t.registration_closes
        and t.registration_closes <= t.registration_opens
    ):
        raise Invalid("bad_tournament", "Registration closes before it opens: swap the times.")
    if t.min_rating and t.max_rating and t.min_rating > t.max_rating:
        raise Invalid("bad_tournament", "The lowest rating allowed is above the highest.")
    if t.points_scheme is not None:
        scheme = t.points_scheme
        if (
            not isinstance(scheme, list)
            or len(scheme) != t.table_size
            or not all(_whole_points(p) for p in scheme)
            or sorted(scheme, reverse=True) != scheme
        ):
            raise Invalid(
                "bad_tournament",
                f"Points per place are {t.table_size} whole numbers from 0 to {MOST_POINTS}, "
                "first place first, none rising, for example "
                f"{[int(p) for p in pairing.DEFAULT_POINTS[t.table_size]]}.",
            )


def _whole_points(value: Any) -> bool:
    """A place's points: a whole number within reason (docs/tournaments.md "Points"); not
    Infinity (the database refuses it) nor 1e308 (the pairing's sums overflow)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, float) and not value.is_integer():
        return False
    return 0 <= value <= MOST_POINTS


def _check_the_tables_play_what_the_page_says(t: Tournament) -> None:
    """A setting the mode fixes is refused, never silently replaced: each table is made by
    games.modes.setup_from, so what it would play is compared with what the tournament states
    (docs/fair-play.md "Tournament settings")."""
    label = mode_info(t.mode).label
    try:
        setup = setup_from({**t.game_options(), "players": t.table_size})
    except InvalidInput as error:
        raise Invalid("bad_tournament", f"A {label} table cannot be made: {error}.") from None
    if t.correspondence_days is None and setup.clock_seconds != t.clock_seconds:
        raise Invalid(
            "bad_tournament",
            f"{label} is always played at {setup.clock_seconds} s a turn: set the clock to "
            f"{setup.clock_seconds} s, or choose another mode.",
        )
    match = setup.config.get("match") or {"kind": "single"}
    if t.target_score and (match["kind"] != "target" or match.get("target") != t.target_score):
        plays = f"{match.get('rounds')} rounds" if match["kind"] == "rounds" else "one game"
        raise Invalid(
            "bad_tournament",
            f"{label} has no target score (a table plays {plays}): leave the target score "
            "empty, or choose Parlor League or Blitz.",
        )


# Entering


def pool_of(t: Tournament) -> str | None:
    """The pool the tournament's games are rated in, by the ratings app's one rule
    (ratings/services.py ``pool_for``); None for a mode never rated."""
    return ratings.pool_for(t.mode, t.table_size, t.correspondence_days)


def rating_of(user_id: int, t: Tournament) -> int:
    """The entrant's shown rating in the tournament's pool: its seeding number."""
    pool = pool_of(t)
    return ratings.rating_of(user_id, pool) if pool else ratings.FRESH


def _late_join_open(t: Tournament) -> bool:
    if t.state == State.SCHEDULED:
        return True
    if t.state not in (State.RUNNING, State.PAUSED):
        return False
    if t.format == Format.ARENA:
        return bool(t.started and timezone.now() < arena_end(t) - timedelta(minutes=1))
    played = t.rounds_set.filter(state=RoundState.DONE).count()
    return played < planned_rounds(t) / 2


def registration_state(t: Tournament, now: datetime | None = None) -> tuple[bool, str]:
    """Whether players may join now, and if not, why (shown on the page)."""
    now = now or timezone.now()
    if t.state in (State.FINISHED, State.CANCELLED):
        return False, f"The tournament is {t.get_state_display().lower()}."
    if not t.registration_open:
        return False, "Registration is closed."
    if t.registration_opens and now < t.registration_opens:
        return False, f"Registration opens {t.registration_opens:%Y-%m-%d %H:%M} UTC."
    if t.registration_closes and now > t.registration_closes and t.state == State.SCHEDULED:
        return False, "Registration has closed."
    if not _late_join_open(t):
        return False, "Late joining closed once half the rounds were played."
    if t.max_players and t.entries.filter(withdrawn=False).count() >= t.max_players:
        return False, "The tournament is full."
    return True, ""


def join(user: Any, tournament_id: int) -> Entry:
    """A signed-in player enters (or comes back after withdrawing themselves)."""
    if not getattr(user, "is_authenticated", False):
        raise Forbidden("sign_in", "Sign in to enter a tournament.")
    with transaction.atomic():
        t = get(tournament_id, lock=True)
        entry = t.entries.filter(user=user).first()
        if entry is not None and not entry.withdrawn:
            return entry
        allowed, why = registration_state(t)
        if not allowed:
            raise Conflict("registration_closed", why)
        _check_conditions(t, user)
        late = 0 if t.state == State.SCHEDULED else current_round_number(t)
        if entry is None:
            entry = Entry.objects.create(
                tournament=t,
                user=user,
                name=shown_name(user),
                rating=rating_of(user.pk, t),
                joined_round=late,
            )
        else:
            entry.withdrawn = False
            entry.save(update_fields=["withdrawn"])
        if late:
            record(t, user, "late join", entry.name, public=True)
    _after_entry_change(t)
    return entry


def _check_conditions(t: Tournament, user: Any) -> None:
    played = GameResult.objects.filter(user=user, aborted=False, absent=False).count()
    if played < t.min_games:
        raise Forbidden(
            "conditions", f"This tournament needs {t.min_games} finished games; you have {played}."
        )
    rating = rating_of(user.pk, t)
    if t.min_rating and rating < t.min_rating:
        raise Forbidden("conditions", f"This tournament is for ratings from {t.min_rating}.")
    if t.max_rating and rating > t.max_rating:
        raise Forbidden("conditions", f"This tournament is for ratings up to {t.max_rating}.")


def withdraw_self(user: Any, tournament_id: int) -> Entry:
    if not getattr(user, "is_authenticated", False):
        raise Forbidden("sign_in", "Sign in first.")
    t = get(tournament_id)
    entry = t.entries.filter(user=user).first()
    if entry is None:
        raise NotFound("not_entered", "You are not in this tournament.")
    return _withdraw(t, entry, user, "withdrew")


def _withdraw(t: Tournament, entry: Entry, actor: Any, verb: str) -> Entry:
    if t.state in (State.FINISHED, State.CANCELLED):
        raise Conflict("over", "The tournament is over.")
    if not entry.withdrawn:
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
        record(t, actor, verb, entry.name, public=True)
    _after_entry_change(t)
    return entry


def _after_entry_change(t: Tournament) -> None:
    """An arena seats whoever is waiting as soon as a table can be made."""
    if t.format == Format.ARENA and t.state == State.RUNNING:
        transaction.on_commit(lambda: seat_arena(t.pk))


# The organiser's console (tournaments/admin.py calls these)


def add_player(actor: Any, t: Tournament, username: str = "", bot: str = "") -> Entry:
    """Add a person by username, or a bot of a strength, as the organiser."""
    if bool(username) == bool(bot):
        raise Invalid("bad_player", "Give a username or a bot strength, not both.")
    if t.state in (State.FINISHED, State.CANCELLED):
        raise Conflict("over", "The tournament is over.")
    late = 0 if t.state == State.SCHEDULED else current_round_number(t)
    if bot:
        if bot not in BOT_STRENGTHS:
            raise Invalid("bad_player", f"A bot is {', '.join(BOT_STRENGTHS)}.")
        count = t.entries.filter(bot_strength=bot).count() + 1
        entry = Entry.objects.create(
            tournament=t,
            bot_strength=bot,
            name=f"{bot.title()} bot {count}",
            rating=ratings.bot_rating(bot),
            joined_round=late,
        )
    else:
        user = get_user_model().objects.filter(username__iexact=username.strip()).first()
        if user is None:
            raise NotFound("no_such_player", f"No player is called {username!r}.")
        entry = t.entries.filter(user=user).first()
        if entry is not None:
            if entry.withdrawn:
                return reinstate(actor, entry)
            return entry
        entry = Entry.objects.create(
            tournament=t,
            user=user,
            name=shown_name(user),
            rating=rating_of(user.pk, t),
            joined_round=late,
        )
    record(t, actor, "added", entry.name, public=bool(late))
    _after_entry_change(t)
    return entry


def withdraw(actor: Any, entry: Entry) -> Entry:
    return _withdraw(entry.tournament, entry, actor, "withdrawn by the organiser")


def reinstate(actor: Any, entry: Entry) -> Entry:
    t = entry.tournament
    if t.state in (State.FINISHED, State.CANCELLED):
        raise Conflict("over", "The tournament is over.")
    if entry.withdrawn or entry.absent:
        entry.withdrawn = entry.absent = False
        entry.save(update_fields=["withdrawn", "absent"])
        record(t, actor, "reinstated", entry.name, public=True)
    _after_entry_change(t)
    return entry


def set_registration(actor: Any, t: Tournament, open_: bool) -> None:
    if t.registration_open != open_:
        t.registration_open = open_
        t.save(update_fields=["registration_open"])
        record(t, actor, "opened registration" if open_ else "closed registration")


def start(actor: Any, tournament_id: int) -> Tournament:
    """Start now: round 1 is paired (an arena seats its first tables)."""
    with transaction.atomic():
        t = get(tournament_id, lock=True)
        if t.state != State.SCHEDULED:
            raise Conflict("not_scheduled", f"The tournament is {t.get_state_display().lower()}.")
        check(t)
        needed = t.table_size if t.table_size > 2 else 2
        playing = t.entries.filter(withdrawn=False).count()
        if playing < needed:
            raise Conflict("too_few", f"It takes at least {needed} players to start.")
        t.state = State.RUNNING
        t.started = timezone.now()
        t.save(update_fields=["state", "started"])
        record(t, actor, "started", f"{playing} players", public=True)
    advance(t.pk)
    return get(t.pk)


def pause(actor: Any, t: Tournament) -> None:
    """No new round or table is made while paused; tables in play go on."""
    if t.state != State.RUNNING:
        raise Conflict("not_running", "Only a running tournament can be paused.")
    Tournament.objects.filter(pk=t.pk).update(state=State.PAUSED)
    record(t, actor, "paused", public=True)
    transaction.on_commit(lambda: _standings_changed(t.pk))


def resume(actor: Any, t: Tournament) -> None:
    if t.state != State.PAUSED:
        raise Conflict("not_paused", "The tournament is not paused.")
    Tournament.objects.filter(pk=t.pk).update(state=State.RUNNING)
    record(t, actor, "resumed", public=True)
    transaction.on_commit(lambda: _standings_changed(t.pk))
    advance(t.pk)


def cancel(actor: Any, t: Tournament, reason: str = "") -> None:
    """Cancel: tables still playing are ended with the reason; nothing more is paired."""
    if t.state in (State.FINISHED, State.CANCELLED):
        raise Conflict("over", "The tournament is over.")
    Tournament.objects.filter(pk=t.pk).update(state=State.CANCELLED, finished=timezone.now())
    record(t, actor, "cancelled", reason, public=True)
    transaction.on_commit(lambda: _standings_changed(t.pk))
    # Tables of a family an operator cannot end (Rummy 45) play on to their end, and count
    # for nothing more.
    stopped = Table.objects.filter(round__tournament=t, done=False, game__isnull=False)
    for table in stopped.select_related("game"):
        if games.can_end(table.game):
            games.end_game(table.game.public_id, f"tournament cancelled {reason}".strip())


def adjudicate(actor: Any, table: Table, reason: str) -> None:
    """End a stuck table now: its round is scored as if blocked (the lowest rack first), with
    the organiser's reason kept in the game's record and shown on the tournament's page."""
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise Invalid("reason_required", "Say why the table is adjudicated.")
    if table.done or table.game is None:
        raise Conflict("table_done", "That table has finished.")
    if not games.can_end(table.game):
        label = mode_info(table.game.mode).label
        raise Conflict(
            "not_adjudicated",
            f"A {label} table cannot be adjudicated: it plays on until someone goes out (a "
            "player gone for a minute has their turns played by a bot).",
        )
    Table.objects.filter(pk=table.pk).update(adjudicated=reason[:300])
    record(
        table.round.tournament,
        actor,
        "adjudicated",
        f"round {table.round.number} table {table.number}: {reason}",
        public=True,
    )
    if not games.end_game(table.game.public_id, f"adjudicated: {reason}"):
        table_finished(table.game.public_id)


def repair_round(actor: Any, rnd: Round) -> Round:
    """Pair a round again, while none of its tables has had a move made."""
    t = rnd.tournament
    with transaction.atomic():
        get(t.pk, lock=True)
        rnd = Round.objects.get(pk=rnd.pk)
        if rnd.state == RoundState.DONE or rnd.number != current_round_number(t):
            raise Conflict("round_started", "Only the current round can be paired again.")
        gids = [tb.game_id for tb in rnd.tables.all() if tb.game_id]
        if games.play_started(gids):
            raise Conflict("round_started", "A table of this round has started to play.")
        games.delete_unstarted(gids)
        for bye in rnd.byes.select_related("entry"):
            Entry.objects.filter(pk=bye.entry_id).update(byes=bye.entry.byes - 1)
        number = rnd.number
        rnd.delete()
        record(t, actor, "re-paired", f"round {number}", public=True)
        made = _pair(get(t.pk), number)
    return made


# Rounds


def planned_rounds(t: Tournament) -> int:
    if t.format == Format.ROUND_ROBIN:
        return len(_schedule(t))
    if t.format == Format.ARENA:
        return 1
    return t.rounds or 0


def current_round_number(t: Tournament) -> int:
    return t.rounds_set.count()


def _schedule(t: Tournament) -> list[pairing.Round]:
    keys = list(
        t.entries.filter(joined_round=0).order_by("-rating", "pk").values_list("pk", flat=True)
    )
    return pairing.round_robin(keys, t.table_size)


def _round_seed(t: Tournament, number: int, size: int) -> bytes:
    """A round's deal for its tables of ``size`` players: derived from the tournament's secret
    seed, so a duplicate round's tables of one size share one deal."""
    key = bytes.fromhex(t.seed)
    return hmac.new(key, f"round {number} size {size}".encode(), hashlib.sha256).digest()


def advance(tournament_id: int) -> Round | None:
    """Whatever the tournament needs next: pair its next round when the last is done (or
    finish it), seat an arena's waiting players, end an arena whose time is up."""
    t = get(tournament_id)
    if t.state != State.RUNNING:
        return None
    if t.format == Format.ARENA:
        if timezone.now() >= arena_end(t):
            _finish_arena(t)
        else:
            seat_arena(t.pk)
        return None
    last = t.rounds_set.order_by("-number").first()
    if last is not None and last.state != RoundState.DONE:
        return None
    number = (last.number if last else 0) + 1
    if number > planned_rounds(t):
        finish(t)
        return None
    try:
        with transaction.atomic():
            locked = get(t.pk, lock=True)
            if locked.state != State.RUNNING:
                return None
            if Round.objects.filter(tournament=locked, number=number).exists():
                return None  # another worker paired it first
            return _pair(locked, number)
    except IntegrityError:
        return None  # the same, where the lock is not enough (SQLite)


def _entrants(t: Tournament, entries: Iterable[Entry]) -> list[pairing.Entrant]:
    met: dict[int, set[int]] = defaultdict(set)
    firsts: dict[int, list[bool]] = defaultdict(list)
    seats = TableSeat.objects.filter(table__round__tournament=t).values_list(
        "table_id", "entry_id", "seat"
    )
    by_table: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for table_id, entry_id, seat in seats.order_by("table__round__number", "table_id", "seat"):
        by_table[table_id].append((entry_id, seat))
    for rows in by_table.values():
        keys = [k for k, _ in rows]
        for key, seat in rows:
            met[key].update(k for k in keys if k != key)
            firsts[key].append(seat == 0)
    return [
        pairing.Entrant(
            key=e.pk,
            rating=float(e.rating),
            points=e.points,
            met=frozenset(met[e.pk]),
            firsts=tuple(firsts[e.pk]),
            byes=e.byes,
        )
        for e in entries
    ]


def _pair(t: Tournament, number: int) -> Round:
    """Pair round ``number`` (the tournament row is locked) and make its tables' games."""
    entries = list(t.entries.filter(withdrawn=False, absent=False).order_by("-rating", "pk"))
    if t.format == Format.ROUND_ROBIN:
        planned = _schedule(t)[number - 1]
        playing = {e.pk for e in entries}
        # A withdrawn player's seat in the schedule is a bye for the rest of that table.
        tables = [tuple(k for k in tb if k in playing) for tb in planned.tables]
        byes = [k for tb in tables if len(tb) < 2 for k in tb] + [
            k for k in planned.byes if k in playing
        ]
        tables = [tb for tb in tables if len(tb) >= 2]
        paired = pairing.Round(tables=tuple(tables), byes=tuple(byes))
    else:
        paired = pairing.swiss(
            _entrants(t, entries), t.table_size, number, _round_seed(t, number, 0)
        )
    Entry.objects.filter(tournament=t, absent=True).update(absent=False)
    rnd = Round.objects.create(tournament=t, number=number)
    if t.correspondence_days:
        rnd.deadline = timezone.now() + timedelta(
            days=t.correspondence_days * CORRESPONDENCE_ROUND_MOVES
        )
        rnd.save(update_fields=["deadline"])
    if t.format == Format.DUPLICATE:
        sizes = sorted({len(tb) for tb in paired.tables})
        rnd.seed = ",".join(_round_seed(t, number, s).hex() for s in sizes)
        rnd.commitment = ",".join(commitment(_round_seed(t, number, s)) for s in sizes)
        rnd.save(update_fields=["seed", "commitment"])
    by_key = {e.pk: e for e in entries}
    for index, keys in enumerate(paired.tables, start=1):
        _make_table(t, rnd, index, [by_key[k] for k in keys])
    most = max(_points_scheme(t))
    for key in paired.byes:
        Bye.objects.create(round=rnd, entry_id=key, points=most * BYE_SHARE)
        Entry.objects.filter(pk=key).update(byes=by_key[key].byes + 1)
    record(t, None, "paired", f"round {number}: {len(paired.tables)} tables")
    # Its page hears of the new round on its socket (tournaments/live.py), not by polling.
    transaction.on_commit(lambda: _standings_changed(t.pk))
    if not paired.tables:
        transaction.on_commit(lambda: close_round(rnd.pk))
    return rnd


def _game_options(t: Tournament) -> dict[str, Any]:
    return t.game_options()


def _make_table(t: Tournament, rnd: Round, number: int, entries: list[Entry]) -> Table:
    seats: list[dict[str, Any]] = [
        {"bot": e.bot_strength, "name": e.name}
        if e.is_bot
        else {"user_id": e.user_id, "name": e.name}
        for e in entries
    ]
    seed = _round_seed(t, rnd.number, len(entries)) if t.format == Format.DUPLICATE else None
    game = games.create_seated_game(
        _game_options(t),
        seats,
        rated=t.rated,
        seed=seed,
        sealed=t.format == Format.DUPLICATE,
        stand_in=not t.correspondence_days,
        occasion_url=t.get_absolute_url(),
        occasion=f"{t.name}, table {number}"
        if t.format == Format.ARENA
        else f"{t.name}, round {rnd.number}, table {number}",
    )
    table = Table.objects.create(round=rnd, number=number, game=game)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, entry=e, seat=i) for i, e in enumerate(entries)
    )
    # Each player hears the call on every page they have open (rummi_site/me.py).
    call = {
        "kind": "table",
        "tournament": t.name,
        "tournament_url": t.get_absolute_url(),
        "round": rnd.number,
        "table": number,
        "game": game.public_id,
        "url": game.get_absolute_url(),
    }
    people = [e.user_id for e in entries if not e.is_bot and e.user_id]
    transaction.on_commit(lambda: [push.notify(user_id, call) for user_id in people])
    return table


def _points_scheme(t: Tournament, size: int | None = None) -> list[float]:
    size = size or t.table_size
    if t.points_scheme and len(t.points_scheme) == size:
        return [float(p) for p in t.points_scheme]
    return list(pairing.DEFAULT_POINTS[size])


# A table's game ended


def table_finished(gid: str) -> Table | None:
    """Store a finished table's places and totals (from the game's result rows), then score
    its round when every table is in, and go on."""
    table = Table.objects.select_related("round__tournament").filter(game__public_id=gid).first()
    if table is None:
        return None
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.done:
            return locked  # a signal delivered twice
        results = {r.seat: r for r in GameResult.objects.filter(game_id=locked.game_id)}
        seats = list(locked.seats.all())
        if len(results) < len(seats):
            return None
        t = table.round.tournament
        places = [results[s.seat].place for s in seats]
        idle = _idle_seats(locked.game, results)
        if idle:
            places = _idle_last(places, [s.seat in idle for s in seats])
        scheme = _points_scheme(t, len(seats))
        points = (
            [None] * len(seats)
            if t.format == Format.DUPLICATE
            else pairing.placement_points(places, len(seats), scheme)
        )
        if t.format == Format.ARENA:
            points = [_arena_points(s.entry, p) for s, p in zip(seats, points, strict=True)]
        aborted = any(r.aborted for r in results.values())
        # An absent person (never at the table in its first minute) is the table's last place
        # with no points (docs/fair-play.md).
        absent = [s for s in seats if results[s.seat].absent]
        for seat, place, earned in zip(seats, places, points, strict=True):
            seat.place = place
            seat.total = results[seat.seat].total
            if earned is not None and (seat in absent or seat.seat in idle):
                earned = 0.0
            elif earned is not None and aborted:
                earned = _aborted_points(t, earned, scheme)
            seat.points = earned
            seat.save(update_fields=["place", "total", "points"])
        locked.done = True
        locked.save(update_fields=["done"])
        if t.format in (Format.SWISS, Format.ARENA):
            for seat in absent:
                _withdraw_missed(t, seat.entry, table.round.number)
            if aborted and _pairs_again(t, table.round.number):
                # Present, but ended the game without a move of their own (resigned, or let
                # the clock end their turn): they did not play it either, and are not paired
                # again (after the last round there is nothing to withhold: their place stands).
                quit_at_once = games.aborters(locked.game)
                for seat in seats:
                    if seat.seat in quit_at_once and seat not in absent:
                        _withdraw_missed(t, seat.entry, table.round.number, played=True)
    if t.format == Format.ARENA:
        advance(t.pk)  # the table's players are seated again first, then the standings
        recompute_standings(t)
        return locked
    if not Table.objects.filter(round_id=table.round_id, done=False).exists():
        close_round(table.round_id)
    else:
        recompute_standings(t)
    return locked


def _idle_seats(game: Game | None, results: dict[int, GameResult]) -> set[int]:
    """The seats of an aborted game with no real move of their own (docs/tournaments.md
    "Aborted games"); none for a game that counts."""
    if game is None or not any(r.aborted for r in results.values()):
        return set()
    return set(results) - set(games.own_movers(game))


def _idle_last(places: list[int], idle: list[bool]) -> list[int]:
    """The seats that moved keep their order; the idle ones share the last place."""
    present = [p for p, gone in zip(places, idle, strict=True) if not gone]
    last = len(present) + 1
    return [
        last if gone else 1 + sum(o < p for o in present)
        for p, gone in zip(places, idle, strict=True)
    ]


def _aborted_points(t: Tournament, earned: float, scheme: list[float]) -> float:
    """What a seat that moved earns from an aborted game: nothing in an arena; elsewhere its
    places' points, but never more than a bye (docs/tournaments.md "Aborted games")."""
    if t.format == Format.ARENA:
        return 0.0
    return min(earned, max(scheme) * BYE_SHARE)


def _pairs_again(t: Tournament, number: int) -> bool:
    """Whether the tournament will seat its entrants again after round ``number``: a Swiss
    before its last round, an arena before its time is up."""
    if t.format == Format.ARENA:
        return t.started is not None and timezone.now() < arena_end(t)
    return number < (t.rounds or 0)


def _withdraw_missed(t: Tournament, entry: Entry, number: int, played: bool = False) -> None:
    """A Swiss's or an arena's entrant absent from their game missed the round: they are
    withdrawn, paired no more, and may come back by joining again (docs/fair-play.md). So is
    one who came and ended their game without a move of their own (``played``: it was
    aborted by their resignation or their clock)."""
    if not entry.withdrawn:
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
        what = "table" if t.format == Format.ARENA else f"round {number}"
        if played:
            game = "table's game" if t.format == Format.ARENA else f"game of round {number}"
            said = f"{entry.name} ended their {game} without a move of their own"
            record(t, None, "withdrawn: no move", said, public=True)
        else:
            record(t, None, "withdrawn: absent", f"{entry.name} missed {what}", public=True)


def close_round(round_id: int) -> None:
    """Every table of a round is in: score a duplicate round, show its seed, go on."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
        if rnd.state == RoundState.DONE:
            return
        t = rnd.tournament
        if t.format == Format.DUPLICATE:
            _score_duplicate(t, rnd)
            games.unseal([tb.game_id for tb in rnd.tables.all() if tb.game_id])
        rnd.state = RoundState.DONE
        rnd.ended = timezone.now()
        rnd.save(update_fields=["state", "ended"])
    recompute_standings(t)
    advance(t.pk)


def _score_duplicate(t: Tournament, rnd: Round) -> None:
    """Each seat is scored against everyone who held the same tiles: seat k of every table of
    the same size (docs/design.md "Tournaments")."""
    groups: dict[tuple[int, int], list[TableSeat]] = defaultdict(list)
    for seat in TableSeat.objects.filter(table__round=rnd).select_related("table"):
        size = seat.table.seats.count()
        groups[(size, seat.seat)].append(seat)
    sizes = {size for size, _ in groups}
    # An absent person scores nothing (docs/fair-play.md).
    absent = {
        seat.pk
        for group in groups.values()
        for seat in group
        if GameResult.objects.filter(
            game_id=seat.table.game_id, seat=seat.seat, absent=True
        ).exists()
    }
    # An aborted game gives nothing to a seat without a real move of its own, and no more
    # than a bye to the others (docs/tournaments.md "Aborted games").
    aborted: dict[int, set[int]] = {}
    for table in Table.objects.filter(round=rnd).select_related("game"):
        results = {r.seat: r for r in GameResult.objects.filter(game_id=table.game_id)}
        if any(r.aborted for r in results.values()):
            aborted[table.pk] = _idle_seats(table.game, results)
    for size in sizes:
        rows = [groups[(size, k)] for k in range(size)]
        earned = pairing.duplicate_points(
            [[(s.entry_id, s.total or 0) for s in group] for group in rows], size
        )
        scheme = list(pairing.DEFAULT_POINTS[size])
        for group in rows:
            for seat in group:
                points = earned[seat.entry_id]
                if seat.pk in absent or seat.seat in aborted.get(seat.table_id, ()):
                    points = 0.0
                elif seat.table_id in aborted:
                    points = _aborted_points(t, points, scheme)
                seat.points = points
                seat.save(update_fields=["points"])


# Arena


def arena_end(t: Tournament) -> datetime:
    assert t.started is not None
    return t.started + timedelta(minutes=t.duration_minutes or 0)


def _arena_round(t: Tournament) -> Round:
    rnd, _ = Round.objects.get_or_create(tournament=t, number=1)
    return rnd


def _arena_history(entry: Entry) -> list[int]:
    """The places of the entry's arena games, an aborted one left out: it makes no streak
    and breaks none (docs/tournaments.md "Aborted games")."""
    return list(
        TableSeat.objects.filter(entry=entry, place__isnull=False)
        .exclude(table__game__results__aborted=True)
        .order_by("table__number")
        .values_list("place", flat=True)
    )


def _arena_points(entry: Entry, base: float) -> float:
    """Placement points, doubled while on a streak (docs/tournaments.md)."""
    return pairing.arena_points(_arena_history(entry), base)


def seat_arena(tournament_id: int) -> list[Table]:
    """Seat every waiting arena player that can be seated now, by score and rating, not
    against their last table's players when it can be helped."""
    made: list[Table] = []
    with transaction.atomic():
        t = get(tournament_id, lock=True)
        if t.state != State.RUNNING or t.format != Format.ARENA or timezone.now() >= arena_end(t):
            return made
        rnd = _arena_round(t)
        start = t.started.timestamp() if t.started else 0.0
        busy = set(
            TableSeat.objects.filter(table__round=rnd, table__done=False).values_list(
                "entry_id", flat=True
            )
        )
        entries = [e for e in t.entries.filter(withdrawn=False, absent=False) if e.pk not in busy]
        if len(entries) < max(2, min(t.table_size, 3)):
            return made
        last, since = _arena_last_tables(t, rnd)
        waiting = [
            pairing.ArenaWaiter(
                key=e.pk,
                points=e.points,
                rating=float(e.rating),
                last_opponents=last.get(e.pk, frozenset()),
                waiting_since=since.get(e.pk, start),
            )
            for e in entries
        ]
        tables, _ = pairing.arena_tables(waiting, t.table_size)
        by_key = {e.pk: e for e in entries}
        number = rnd.tables.count()
        for keys in tables:
            number += 1
            made.append(_make_table(t, rnd, number, [by_key[k] for k in keys]))
    return made


def _arena_last_tables(
    t: Tournament, rnd: Round
) -> tuple[dict[int, frozenset[int]], dict[int, float]]:
    """Each arena player's last table's other players, and when that table was made: in two
    queries, however many players (a 500-player arena re-seats within its budget)."""
    tables: dict[int, list[int]] = defaultdict(list)
    latest: dict[int, int] = {}
    for table_id, entry_id in TableSeat.objects.filter(table__round=rnd).values_list(
        "table_id", "entry_id"
    ):
        tables[table_id].append(entry_id)
        latest[entry_id] = max(latest.get(entry_id, 0), table_id)
    made = dict(Table.objects.filter(round=rnd).values_list("pk", "game__finished"))
    last = {e: frozenset(k for k in tables[tb] if k != e) for e, tb in latest.items()}
    since = {e: made[tb].timestamp() for e, tb in latest.items() if made.get(tb)}
    return last, since


def _finish_arena(t: Tournament) -> None:
    """Time is up: no new table; tables in play count when they end, then it finishes."""
    if Table.objects.filter(round__tournament=t, done=False).exists():
        return
    finish(t)


def finish(t: Tournament) -> None:
    updated = Tournament.objects.filter(pk=t.pk, state=State.RUNNING).update(
        state=State.FINISHED, finished=timezone.now()
    )
    if updated:
        recompute_standings(t)
        record(t, None, "finished", public=True)
        places = list(
            t.entries.filter(user__isnull=False, withdrawn=False).values_list("user_id", "rank")
        )
        transaction.on_commit(
            lambda: game_signals.tournament_finished.send(
                Game, tournament_id=t.pk, name=t.name, places=places
            )
        )


# Standings


def game_records(t: Tournament) -> tuple[list[pairing.GameRecord], dict[int, float]]:
    """Every scored table and bye of the tournament, as the pairing package's inputs."""
    tables: dict[int, list[TableSeat]] = defaultdict(list)
    rows = TableSeat.objects.filter(table__round__tournament=t, points__isnull=False)
    for seat in rows.order_by("table_id", "seat"):
        tables[seat.table_id].append(seat)
    # An aborted game's table counts in the points only (docs/tournaments.md "Aborted games").
    aborted = set(
        Table.objects.filter(round__tournament=t, game__results__aborted=True).values_list(
            "pk", flat=True
        )
    )
    # A seat whose person never came meets nobody in the tiebreaks, nor is met (a forfeit).
    absent = set(
        GameResult.objects.filter(
            game__tournament_table__round__tournament=t, absent=True
        ).values_list("game__tournament_table", "seat")
    )
    records = [
        pairing.GameRecord(
            keys=tuple(s.entry_id for s in seats),
            places=tuple(s.place or 0 for s in seats),
            totals=tuple(s.total or 0 for s in seats),
            points=tuple(s.points or 0.0 for s in seats),
            played=table_id not in aborted,
            absent=frozenset(s.entry_id for s in seats if (table_id, s.seat) in absent),
        )
        for table_id, seats in tables.items()
    ]
    byes: dict[int, float] = defaultdict(float)
    for entry_id, points in Bye.objects.filter(round__tournament=t).values_list(
        "entry_id", "points"
    ):
        byes[entry_id] += points
    return records, dict(byes)


def standings(t: Tournament) -> list[pairing.Standing]:
    records, byes = game_records(t)
    seeds = dict(t.entries.values_list("pk", "rating"))
    return pairing.standings(list(seeds), records, byes, {k: float(r) for k, r in seeds.items()})


def recompute_standings(t: Tournament) -> list[pairing.Standing]:
    """Rebuild every entry's points, tiebreaks and rank from the table and bye rows; only
    the entries that changed are written (a table's end changes a few, and the ranks between
    their old and new places)."""
    table = standings(t)
    entries = {e.pk: e for e in t.entries.all()}
    changed = []
    for row in table:
        entry = entries.get(row.key)
        if entry is None:
            continue
        values = {
            "points": row.points,
            "score": int(row.tiebreaks.get("score", 0)),
            "buchholz": row.tiebreaks.get("buchholz", 0.0),
            "sonneborn_berger": row.tiebreaks.get("sonneborn_berger", 0.0),
            "rank": row.rank,
        }
        if any(getattr(entry, k) != v for k, v in values.items()):
            changed.append((entry.pk, values))
    # One UPDATE a changed row: Django's bulk_update builds a CASE per field and row, which
    # costs more to compile than these cost to run.
    with transaction.atomic():
        for pk, values in changed:
            Entry.objects.filter(pk=pk).update(**values)
    transaction.on_commit(lambda: _standings_changed(t.pk))
    return table


def _standings_changed(tournament_id: int) -> None:
    signals.standings_changed.send(Tournament, tournament_id=tournament_id)


# Beat


def tick(now: datetime | None = None) -> list[str]:
    """What beat does every few seconds: start tournaments whose time has come, adjudicate
    correspondence tables past their round's deadline, keep arenas seated and ended, and pair
    any round whose pairing was lost."""
    now = now or timezone.now()
    done: list[str] = []
    for t in Tournament.objects.filter(state=State.SCHEDULED, starts_at__lte=now):
        try:
            start(None, t.pk)
            done.append(f"started {t.pk}")
        except (Conflict, Invalid) as error:
            # Too few players, or settings saved before a rule that refuses them.
            record(t, None, "not started", error.message, public=True)
            Tournament.objects.filter(pk=t.pk).update(state=State.CANCELLED, finished=now)
            done.append(f"cancelled {t.pk}")
        except Exception:
            log.exception("tournaments: tournament %s could not start", t.pk)
            done.append(f"failed {t.pk}")
    late = Table.objects.filter(
        done=False, round__deadline__lte=now, round__tournament__state=State.RUNNING
    ).select_related("game", "round__tournament")
    for table in late:
        # A family an operator cannot end is never in a correspondence round (check refuses it).
        if table.game is None or not games.can_end(table.game):
            continue
        if games.end_game(table.game.public_id, DEADLINE_NOTE):
            record(
                table.round.tournament,
                None,
                "deadline",
                f"round {table.round.number} table {table.number} {DEADLINE_NOTE}",
                public=True,
            )
            done.append(f"deadline {table.pk}")
    for pk in _with_a_next_step():
        # One tournament that cannot go on (a bug, bad data) must not stop the others.
        try:
            advance(pk)
        except Exception:
            log.exception("tournaments: tournament %s could not advance", pk)
            done.append(f"failed {pk}")
    return done


def _with_a_next_step() -> list[int]:
    """Running tournaments with something for :func:`advance` to do, in one query whatever
    their number: every arena (it seats its waiting players and ends on time), and the others
    whose rounds are all done (a round is paired only once the one before it is done)."""
    unfinished = Round.objects.filter(tournament=OuterRef("pk")).exclude(state=RoundState.DONE)
    return list(
        Tournament.objects.filter(state=State.RUNNING)
        .filter(Q(format=Format.ARENA) | ~Exists(unfinished))
        .values_list("pk", flat=True)
    )


# What a player sees


def my_tables(user: Any) -> list[dict[str, Any]]:
    """The signed-in player's tables in play, in running tournaments: the toast's source."""
    if not getattr(user, "is_authenticated", False):
        return []
    seats = (
        TableSeat.objects.filter(
            entry__user=user,
            table__done=False,
            table__round__tournament__state__in=[State.RUNNING, State.PAUSED],
        )
        .select_related("table__game", "table__round__tournament")
        .order_by("-table__pk")
    )
    return [
        {
            "tournament": s.table.round.tournament.name,
            "tournament_url": s.table.round.tournament.get_absolute_url(),
            "round": s.table.round.number,
            "table": s.table.number,
            "game": s.table.game.public_id if s.table.game else None,
            "url": s.table.game.get_absolute_url() if s.table.game else None,
        }
        for s in seats
    ]


def in_running_tournament(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return Entry.objects.filter(
        Q(tournament__state=State.RUNNING) | Q(tournament__state=State.PAUSED),
        user=user,
        withdrawn=False,
    ).exists()


# What the apps above read and change of a player's tournaments (players: trophies, account
# deletion; docs/design.md "Layers and the import rule")


@dataclass(frozen=True)
class FinalPlaces:
    """A finished tournament's final standings: when it ended, its field (entries not
    withdrawn, bots too) and each signed-in entrant's rank who played it to its end."""

    finished: datetime
    field: int
    places: list[tuple[int, int]]


def final_places(tournament_id: int) -> FinalPlaces | None:
    """The stored final standings of a finished tournament, or None if it is not finished."""
    t = Tournament.objects.filter(pk=tournament_id, state=State.FINISHED).first()
    if t is None or t.finished is None:
        return None
    field = Entry.objects.filter(tournament=t, withdrawn=False).count()
    ranked = Entry.objects.filter(
        tournament=t, user__isnull=False, withdrawn=False, rank__isnull=False
    )
    # An entrant absent from every game they were paired in, or whose every game was aborted,
    # played nothing that counts (docs/fair-play.md "Stand-ins, absence and aborts").
    sat = list(
        TableSeat.objects.filter(
            table__round__tournament=t, table__game__results__seat=F("seat")
        ).values_list("entry_id", "table__game__results__absent", "table__game__results__aborted")
    )
    present = {entry for entry, absent, aborted in sat if not absent and not aborted}
    gone = {entry for entry, _, _ in sat} - present
    ranked = ranked.exclude(pk__in=gone)
    places = list(ranked.values_list("user_id", "rank").order_by("rank", "pk"))
    return FinalPlaces(t.finished, field, places)


def finished_ids() -> list[int]:
    """Every finished tournament's id, in the order they finished."""
    done = Tournament.objects.filter(state=State.FINISHED, finished__isnull=False)
    return list(done.order_by("finished", "pk").values_list("pk", flat=True))


def rename_user(user_id: int, name: str) -> int:
    """An account's name changed: its entries, past ones too, show the new one."""
    return Entry.objects.filter(user_id=user_id).update(name=name)


def forget_user(user: Any, name: str) -> None:
    """An account is being deleted: its entries in tournaments still to come or running are
    withdrawn (nobody is behind them to be paired any more; their finished tables and points
    stay), and every entry of it is kept under ``name``, linked to no account."""
    entries = Entry.objects.filter(user=user)
    with transaction.atomic():
        entries.exclude(tournament__state__in=(State.FINISHED, State.CANCELLED)).update(
            withdrawn=True
        )
        entries.update(name=name, user=None)
