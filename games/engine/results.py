"""What each seat did in a finished game, from its log: the rows profiles and standings read.

``seat_results(events, times)`` replays a log and returns one :class:`SeatResult` per seat
(docs/design.md "Results"). ``times`` are the events' timestamps in seconds (any epoch), one
per event, for the turn times; without them turn times are ``None``. :meth:`SeatResult.row` is
the row the site stores: the fields every family has (``games.engine.family.RESULT_FIELDS``)
and, in ``details``, Rummikub's own counts (:data:`DETAILS`).

Definitions (the common fields: ``place``, ``total``, ``went_out``, ``tiles_left``,
``resigned``, ``turns``, ``average_turn_seconds``; the rest are details):

* ``place``: 1 + the number of seats placed strictly better. Seats that did not resign come
  before seats that did; then the higher match total. Equal seats share the better place.
* ``rounds_won``: rounds the seat won or shared; ``rounds_won_out`` of them by going out,
  ``rounds_won_blocked`` by the lowest rack of a blocked (or adjudicated) round.
* ``went_out``: the seat ended the match's last round by laying its last tile.
* ``tiles_left``: tiles on the seat's rack when the last round ended.
* ``melds_laid``: over all the seat's plays, the melds of the table after the play that hold
  a tile it laid that turn. ``tiles_played``, ``jokers_played``: rack tiles it laid.
* ``jokers_held``: jokers that reached its rack (dealt, drawn or as a penalty).
* ``openings``: rounds in which it made its initial meld; ``opening_points``: their values
  summed (the melds laid from the rack alone on that turn).
* ``turns``: turns it took (play, draw, pass, timeout); ``biggest_turn``: the most tiles laid
  in one turn; ``average_turn_seconds``: from the start of each of its turns (the previous
  event) to its move.

>>> from games.engine.state import GameConfig, new_game, Resign, apply
>>> from games.engine.rules import rules_named
>>> state, log = new_game(GameConfig(rules_named("classic"), 2), bytes(16))
>>> state, more = apply(state, Resign(1), bytes(16))
>>> [(r.seat, r.place, r.resigned, r.rounds_won) for r in seat_results(log + more)]
[(0, 1, False, 1), (1, 2, True, 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .errors import InvalidInput
from .events import (
    Event,
    Passed,
    RoundEnded,
    RoundStarted,
    TileDrawn,
    TilesPlayed,
    TurnTimedOut,
    event_from_dict,
)
from .melds import meld_value
from .state import GameState, evolve, replay

TURN_EVENTS = (TilesPlayed, TileDrawn, Passed, TurnTimedOut)
# Rummikub's own counts, the ``details`` of its result rows (the other fields are common).
DETAILS: tuple[str, ...] = (
    "rounds_won",
    "rounds_won_out",
    "rounds_won_blocked",
    "melds_laid",
    "tiles_played",
    "jokers_played",
    "jokers_held",
    "openings",
    "opening_points",
    "biggest_turn",
)


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    place: int
    total: int
    rounds_won: int
    rounds_won_out: int
    rounds_won_blocked: int
    went_out: bool
    tiles_left: int
    resigned: bool
    melds_laid: int
    tiles_played: int
    jokers_played: int
    jokers_held: int
    openings: int
    opening_points: int
    turns: int
    biggest_turn: int
    average_turn_seconds: float | None

    def to_dict(self) -> dict[str, Any]:
        """Every field flat (as the results were stored before ``details``; migration 0006
        reads it)."""
        return asdict(self)

    def row(self) -> dict[str, Any]:
        """The stored row: the common fields, and Rummikub's own counts in ``details``.

        >>> row = SeatResult(0, 1, 5, 1, 1, 0, True, 0, False, 2, 6, 0, 0, 1, 30, 4, 6, None).row()
        >>> row["total"], row["details"]["melds_laid"], "melds_laid" in row
        (5, 2, False)
        """
        flat = asdict(self)
        details = {key: flat.pop(key) for key in DETAILS}
        return {**flat, "details": details}


@dataclass(slots=True)
class _Tally:
    rounds_won: int = 0
    rounds_won_out: int = 0
    rounds_won_blocked: int = 0
    melds_laid: int = 0
    tiles_played: int = 0
    jokers_played: int = 0
    jokers_held: int = 0
    openings: int = 0
    opening_points: int = 0
    turns: int = 0
    biggest_turn: int = 0
    turn_seconds: float = 0.0


def seat_results(
    events: Sequence[Event | dict[str, Any]], times: Sequence[float] | None = None
) -> list[SeatResult]:
    """One result per seat of a finished game's log; raise :class:`InvalidInput` otherwise."""
    parsed = [e if isinstance(e, Event) else event_from_dict(e) for e in events]
    if times is not None and len(times) != len(parsed):
        raise InvalidInput("one time per event is needed")
    state = replay(parsed[:1])
    players = state.config.players
    tally = [_Tally() for _ in range(players)]
    last_round: RoundEnded | None = None
    went_out_last = -1
    for n, event in enumerate(parsed[1:], start=1):
        _count(state, event, tally)
        if times is not None and isinstance(event, TURN_EVENTS):
            tally[event.seat].turn_seconds += max(0.0, times[n] - times[n - 1])
        if isinstance(event, RoundEnded):
            last_round = event
            went_out_last = event.winners[0] if event.reason == "going_out" else -1
        state = evolve(state, event)
    if not state.finished or last_round is None:
        raise InvalidInput("results are read from a finished game's log")
    return _rows(state, tally, last_round, went_out_last, times is not None)


def _count(state: GameState, event: Event, tally: list[_Tally]) -> None:
    kinds = state.kinds
    if isinstance(event, RoundStarted):
        for seat, rack in enumerate(event.racks):
            tally[seat].jokers_held += sum(1 for t in rack if kinds[t].is_joker)
    elif isinstance(event, TileDrawn | TurnTimedOut):
        drawn = (event.tile,) if isinstance(event, TileDrawn) else event.drawn
        tally[event.seat].jokers_held += sum(1 for t in drawn if kinds[t].is_joker)
    elif isinstance(event, RoundEnded):
        for seat in event.winners:
            tally[seat].rounds_won += 1
            tally[seat].rounds_won_out += event.reason == "going_out"
            tally[seat].rounds_won_blocked += event.reason in ("blocked", "adjudicated")
    if isinstance(event, TURN_EVENTS):
        tally[event.seat].turns += 1
    if not isinstance(event, TilesPlayed):
        return
    mine = tally[event.seat]
    played = set(event.played)
    mine.tiles_played += len(played)
    mine.jokers_played += sum(1 for t in played if kinds[t].is_joker)
    mine.biggest_turn = max(mine.biggest_turn, len(played))
    mine.melds_laid += sum(1 for meld in event.table if played.intersection(meld))
    if not state.opened[event.seat]:
        mine.openings += 1
        max_number = state.rules.max_number
        mine.opening_points += sum(
            meld_value([kinds[t] for t in meld], max_number)
            for meld in event.table
            if meld and played.issuperset(meld)
        )


def _rows(
    state: GameState, tally: list[_Tally], last: RoundEnded, went_out: int, timed: bool
) -> list[SeatResult]:
    players = state.config.players
    keys = [(not state.resigned[s], state.totals[s]) for s in range(players)]
    rows = []
    for seat in range(players):
        t = tally[seat]
        rows.append(
            SeatResult(
                seat=seat,
                place=1 + sum(1 for other in keys if other > keys[seat]),
                total=state.totals[seat],
                rounds_won=t.rounds_won,
                rounds_won_out=t.rounds_won_out,
                rounds_won_blocked=t.rounds_won_blocked,
                went_out=seat == went_out,
                tiles_left=len(last.racks[seat]),
                resigned=state.resigned[seat],
                melds_laid=t.melds_laid,
                tiles_played=t.tiles_played,
                jokers_played=t.jokers_played,
                jokers_held=t.jokers_held,
                openings=t.openings,
                opening_points=t.opening_points,
                turns=t.turns,
                biggest_turn=t.biggest_turn,
                average_turn_seconds=(
                    round(t.turn_seconds / t.turns, 3) if timed and t.turns else None
                ),
            )
        )
    return rows
