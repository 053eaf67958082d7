"""What happened at a table that trophies look for, read by replaying a finished game's log
(docs/design.md "Trophies"): per seat, the event (seq) of each notable play.

* ``full_rack``: a play that laid every tile of the rack in one turn, before the seat had
  opened in that round (the whole hand at once);
* ``big_turn``: the first play that laid 10 or more tiles;
* ``joker_freed``: a play after which a joker that was on the table sits in another meld,
  and a tile the seat laid that turn sits in a meld with two or more of the joker's old
  meld-mates (the tile took the joker's place, and the joker was laid again);
* ``opening_50``: an opening (the initial meld) worth 50 or more;
* ``rounds``: how many rounds the match had.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from dataclasses import dataclass, field
from typing import Any

from games.engine.events import RoundEnded, TilesPlayed, event_from_dict
from games.engine.melds import meld_value
from games.engine.state import evolve, replay

BIG_TURN = 10
BIG_OPENING = 50


@dataclass
class SeatMoments:
    full_rack: int | None = None
    big_turn: int | None = None
    joker_freed: int | None = None
    opening_50: int | None = None
    best_opening: int = 0


@dataclass
class GameMoments:
    seats: dict[int, SeatMoments] = field(default_factory=dict)
    rounds: int = 0


def moments(logged: list[tuple[int, dict[str, Any]]], skip: Set[int] = frozenset()) -> GameMoments:
    """The moments of a finished game's log of ``(seq, payload)``; the plays at the seqs in
    ``skip`` (a stand-in's, docs/fair-play.md) are nobody's moment."""
    if not logged:
        return GameMoments()
    parsed = [(seq, event_from_dict(p)) for seq, p in logged]
    state = replay([parsed[0][1]])
    found = GameMoments({s: SeatMoments() for s in range(state.config.players)})
    for seq, event in parsed[1:]:
        if isinstance(event, RoundEnded):
            found.rounds += 1
        if isinstance(event, TilesPlayed) and seq not in skip:
            _look(state, seq, event, found.seats[event.seat])
        state = evolve(state, event)
    return found


def _look(state: Any, seq: int, event: TilesPlayed, mine: SeatMoments) -> None:
    kinds = state.kinds
    played = set(event.played)
    rack = state.racks[event.seat]
    if not state.opened[event.seat] and played == set(rack) and mine.full_rack is None:
        mine.full_rack = seq
    if len(played) >= BIG_TURN and mine.big_turn is None:
        mine.big_turn = seq
    if not state.opened[event.seat]:
        value = sum(
            meld_value([kinds[t] for t in meld], state.rules.max_number)
            for meld in event.table
            if meld and played.issuperset(meld)
        )
        mine.best_opening = max(mine.best_opening, value)
        if value >= BIG_OPENING and mine.opening_50 is None:
            mine.opening_50 = seq
    if mine.joker_freed is None and _freed_a_joker(state.table, event.table, played, kinds):
        mine.joker_freed = seq


def _freed_a_joker(before: Any, after: Any, played: set[int], kinds: Any) -> bool:
    where_after = {t: frozenset(m) for m in after for t in m}
    for meld in before:
        mates = {t for t in meld if not kinds[t].is_joker}
        for joker in (t for t in meld if kinds[t].is_joker):
            if where_after.get(joker) in (None, frozenset(meld)):
                continue
            for new in after:
                if played.intersection(new) and len(mates.intersection(new)) >= 2:
                    return True
    return False


# Each family's reader of the moments in its log, by family name (games.engine.families).
MOMENTS: dict[str, Callable[[list[tuple[int, dict[str, Any]]], Set[int]], GameMoments]] = {
    "rummikub": moments,
}
