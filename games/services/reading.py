"""Reading a game, for every family: a viewer's view and events, the summary the board starts
from, the end of a game (scorecard, links, rematch), the replay's steps and the seed check.
A seat's tiles reach only that seat: every view and event goes through the family's
``view_for`` and ``event_for``."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from ..errors import Conflict, Forbidden, NotFound
from ..identity import Identity
from ..models import Game, Seat, SeatKind, Status
from .lobby import rematch_state, seat_of
from .record import family_of, load_state, setup_of


def answer(game: Game, seat: int | None, state: Any = None) -> dict[str, Any]:
    """The seq and the seat's view; ``state`` when the caller holds the game's state already."""
    family = family_of(game)
    if state is None and game.state:
        state = family.state_from_record(game.state)
    view = family.view_for(state, seat) if state is not None else None
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


# What a sealed game shows anyone not seated at it (docs/design.md "Tournaments").
SEALED_TO_OTHERS = (
    "This table shares its deal with tables of its round that are still playing: only its "
    "own players see it until that round ends."
)


def seat_at_sealed(game: Game, viewer: Identity) -> Seat | None:
    """The viewer's seat; a sealed game (a duplicate round's table) refuses anyone else, 403
    ``sealed``: every table of the round holds the same racks and pool, so watching one, or
    the racks its end shows, would tell a player at another what they and the others hold."""
    seat = seat_of(game, viewer)
    if seat is None and game.sealed:
        raise Forbidden("sealed", SEALED_TO_OTHERS)
    return seat


def game_summary(game: Game, viewer: Identity) -> dict[str, Any]:
    """What ``GET /api/games/<gid>/`` answers: the viewer's view and the table's company."""
    seat = seat_at_sealed(game, viewer)
    index = seat.index if seat else None
    return {
        **answer(game, index),
        "gid": game.public_id,
        "me": index,
        "status": game.status,
        "family": game.family,
        "mode": game.mode,
        "seats": [s.as_dict() for s in game.seats.select_related("user")],
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "clock_seconds": game.clock_seconds,
        "correspondence_days": game.correspondence_days,
    }


def events_after(game: Game, viewer: Identity, after: int) -> dict[str, Any]:
    """The events after seq ``after``, each projected for the viewer."""
    seat = seat_at_sealed(game, viewer)
    index = seat.index if seat else None
    family = family_of(game)
    rows = game.events.filter(seq__gt=after).order_by("seq")
    sealed = without_seed if game.sealed else (lambda shown: shown)
    return {
        "seq": game.seq,
        "events": [
            {
                "seq": row.seq,
                "event": sealed(family.event_for(family.event_from_dict(row.payload), index)),
            }
            for row in rows
        ],
    }


def my_turn(game: Game, seat: int) -> bool:
    """Whether ``seat`` may act now (the lists' "your move")."""
    state = load_state(game) if game.status == Status.PLAYING else None
    if state is None:
        return False
    return seat in family_of(game).turn(state).to_act


def tile_codes(game: Game) -> list[str]:
    """Every tile id's code in the game's set, for its board to draw the tiles it is shown."""
    return family_of(game).tile_codes(setup_of(game))


# The end of a game: its scorecard and the way on


def scorecard(game: Game) -> list[dict[str, Any]]:
    """Each seat's line of a finished game, from its result rows (GameResult) and the rounds'
    scores, sorted by place: place, total, round scores, average turn, and the account's
    username for the profile link (``None`` for a guest, a bot or a deleted player); beside
    them, flat, the family's own counts (its result row's ``details``: Rummikub's and Rummy
    45's melds laid, tiles and jokers played...); ``resigned``, ``timed_out`` for a seat that
    did not win nor resign and whose clock ran out on its last turn (timed_out_seats), and the
    fair-play marks (docs/fair-play.md)."""
    state = load_state(game)
    rounds = family_of(game).round_scores(state) if state is not None else []
    timed_out = timed_out_seats(game)
    lines = []
    for row in game.results.select_related("user").order_by("place", "seat"):
        seconds = row.average_turn_seconds
        lines.append(
            {
                **row.details,
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
                "average_turn_seconds": None if seconds is None else round(seconds, 1),
                "went_out": row.went_out,
                "resigned": row.resigned,
                # Not first, not resigned, and its clock ran out on its last turn.
                "timed_out": row.seat in timed_out and not row.resigned and row.place != 1,
                # docs/fair-play.md: "absent", "aborted", "played by a stand-in for N turns"
                "absent": row.absent,
                "stand_in_turns": row.stand_in_turns,
                "fair_play": row.fair_play,
            }
        )
    return lines


def timed_out_seats(game: Game) -> set[int]:
    """The seats whose last turn of the game ended in a timeout rather than a move, read from
    the event log through the family (``activity``: "missed")."""
    family = family_of(game)
    last: dict[int, str] = {}
    for payload in game.events.order_by("seq").values_list("payload", flat=True):
        found = family.activity(payload)
        if found is not None:
            last[found[0]] = found[1]
    return {seat for seat, what in last.items() if what == "missed"}


def way_back(game: Game) -> dict[str, str]:
    """Where a game's end leads: the tournament (or other occasion) it was played for, else the
    parlor."""
    if game.occasion_url:
        return {"url": game.occasion_url, "label": "Back to the tournament"}
    return {"url": reverse("home"), "label": "Back to the parlor"}


def end_of_game(game: Game, viewer: Identity) -> dict[str, Any]:
    """What the board's end dialog shows: the scorecard, the links to the replay, the record,
    the verify page and the way back, and the rematch (``GET /api/games/<gid>/end``)."""
    seat_at_sealed(game, viewer)
    if game.status != Status.FINISHED:
        raise Conflict("not_finished", "The game is not over yet.")
    gid = game.public_id
    return {
        "scorecard": scorecard(game),
        # An aborted game (docs/fair-play.md): unrated, no trophies, not in the win counts.
        "aborted": bool(game.results.filter(aborted=True).exists()),
        "links": {
            "replay": reverse("replay", args=[gid]),
            "record": reverse("record", args=[gid]),
            "verify": reverse("verify", args=[gid]),
            "back": way_back(game),
        },
        "rematch": rematch_state(game, viewer),
    }


# The replay and the seed check


def replay_steps(game: Game) -> list[dict[str, Any]]:
    """One step per event after the first: its line, and the table, racks (tiles only once the
    game is over; counts before), pool and totals after it."""
    family = family_of(game)
    names = [s.name or f"Seat {s.index + 1}" for s in game.seats.all()]
    rows = list(game.events.order_by("seq"))
    show_racks = game.status == Status.FINISHED
    state = family.replay([rows[0].payload])
    steps = []
    for row in rows[1:]:
        state = family.evolve(state, family.event_from_dict(row.payload))
        step = family.replay_step(state, show_racks)
        note = step.pop("note", "")
        for seat, rack in enumerate(step["racks"]):
            rack["name"] = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        steps.append({"seq": row.seq, "text": family.describe(row.payload, names) + note, **step})
    return steps


def seed_check(game: Game) -> dict[str, Any] | None:
    """The verify page's check of a finished game: the seed against the commitment, and every
    deal against the seed (the family's audit)."""
    if game.status != Status.FINISHED:
        return None
    events = [e.payload for e in game.events.order_by("seq")]
    return family_of(game).audit({"events": events, "seed": game.seed})[1]
