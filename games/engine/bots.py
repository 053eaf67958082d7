"""Bots: an action for one seat, chosen from what that seat may see (RULES.md "A round").

``choose_action(view, rng, strength)`` reads only a per-seat view (``projection.view_for``): the
table, its own rack, everyone's rack *counts* and the pool *size*. It never sees another rack or
the pool's order, so it cannot cheat; with the same view and the same ``rng`` state it always
chooses the same action.

Strengths, weakest first (``BOT_STRENGTHS``):

* ``beginner`` lays down only whole melds from its own rack, and sometimes overlooks one;
* ``casual`` also adds single rack tiles to the ends of table melds, never rearranging;
* ``strong`` plays the solver's best play every turn (most tiles, then most points);
* ``master`` plays the solver's best play, with a strategy: it goes out whenever it can; while
  every opponent still holds many tiles it keeps its jokers and holds back tiles it could lay
  down later, unless its rack grows large; once an opponent is close to going out (three tiles
  or fewer) it plays so as to leave the fewest points on its rack.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import IllegalMove, InvalidInput
from .melds import check_meld, readings
from .rules import Rules
from .solver import solve_ids
from .state import Draw, Pass, PlayTurn
from .tiles import Tile
from .turn import check_turn

__all__ = ["BOT_STRENGTHS", "BotAction", "choose_action"]

BOT_STRENGTHS: tuple[str, ...] = ("beginner", "casual", "strong", "master")

BotAction = PlayTurn | Draw | Pass
Melds = tuple[tuple[int, ...], ...]

BEGINNER_MISSES = 0.3  # chance to overlook each meld it could lay down
CASUAL_MISSES = 0.1
DANGER = 3  # an opponent with this many tiles or fewer may go out soon
CROWDED_RACK = 12  # past this many tiles the master stops holding back


class _Seat:
    """What a view tells a bot about its own position."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        seat = view.get("seat")
        if not isinstance(seat, int):
            raise InvalidInput("a bot needs the view of a seat, not a spectator's")
        self.seat = seat
        self.rules = Rules.from_dict(view["rules"])
        self.kinds: Sequence[Tile] = self.rules.tile_set.tiles
        self.table: Melds = tuple(tuple(meld) for meld in view["table"])
        self.rack: tuple[int, ...] = tuple(view["rack"])
        self.opened: bool = bool(view["initial_meld_done"][seat])
        self.pool: int = int(view["pool"])
        resigned = view.get("resigned") or [False] * len(view["rack_counts"])
        self.opponents = [
            count
            for other, count in enumerate(view["rack_counts"])
            if other != seat and not resigned[other]
        ]

    def draw(self) -> BotAction:
        return Draw(self.seat) if self.pool else Pass(self.seat)

    def play(self, table: Melds | None) -> BotAction:
        return PlayTurn(self.seat, table) if table is not None else self.draw()

    def played(self, table: Melds) -> list[int]:
        on_table = {i for meld in table for i in meld}
        return [i for i in self.rack if i in on_table]


def choose_action(view: Mapping[str, Any], rng: random.Random, strength: str) -> BotAction:
    """The action a bot of ``strength`` takes, seeing only ``view`` (its own seat's view)."""
    if strength not in BOT_STRENGTHS:
        raise InvalidInput(f"unknown bot strength {strength!r}: one of {', '.join(BOT_STRENGTHS)}")
    me = _Seat(view)
    if strength == "beginner":
        return me.play(_own_melds(me, rng, BEGINNER_MISSES))
    if strength == "casual":
        return me.play(_own_melds_and_extensions(me, rng))
    if strength == "strong":
        return me.play(solve_ids(me.rules, me.kinds, me.table, me.rack, me.opened))
    return me.play(_master_play(me))


# ---------------------------------------------------------------------------------------------
# Beginner and casual: melds from the rack alone, single tiles on the ends of table melds


def _own_melds(me: _Seat, rng: random.Random, misses: float) -> Melds | None:
    """New melds from the rack alone (some overlooked); the table stays as it is."""
    new = _rack_melds(me)
    seen = [meld for meld in new if rng.random() >= misses]
    if not seen:
        return None
    if not me.opened:
        value = sum(check_meld(_tiles(me, meld), me.rules.max_number).value for meld in seen)
        if value < me.rules.opening:
            return None
    return me.table + tuple(seen)


def _rack_melds(me: _Seat) -> Melds:
    if me.opened:
        found = solve_ids(me.rules, me.kinds, (), me.rack, True)
        return found or ()
    found = solve_ids(me.rules, me.kinds, me.table, me.rack, False)
    return found[len(me.table) :] if found else ()


def _own_melds_and_extensions(me: _Seat, rng: random.Random) -> Melds | None:
    played = _own_melds(me, rng, CASUAL_MISSES)
    if not me.opened:
        return played
    table = [list(meld) for meld in (played or me.table)]
    left = [i for i in me.rack if i not in {t for meld in table for t in meld}]
    extended = _extend(me, table, left)
    return extended if extended != me.table else None


def _extend(me: _Seat, table: list[list[int]], left: list[int]) -> Melds:
    """Add single rack tiles to either end of melds while any fits (jokers last)."""
    left = sorted(left, key=lambda i: me.kinds[i].is_joker)
    changed = True
    while changed:
        changed = False
        for tile_id in list(left):
            for meld in table:
                for candidate in ([*meld, tile_id], [tile_id, *meld]):
                    if readings(_tiles(me, candidate), me.rules.max_number):
                        meld[:] = candidate
                        left.remove(tile_id)
                        changed = True
                        break
                if tile_id not in left:
                    break
    result = tuple(tuple(meld) for meld in table)
    return result if _is_legal(me, result) else me.table


def _is_legal(me: _Seat, table: Melds) -> bool:
    try:
        check_turn(me.rules, me.kinds, me.table, me.rack, table, me.opened)
    except IllegalMove:
        return False
    return True


def _tiles(me: _Seat, meld: Sequence[int]) -> list[Tile]:
    return [me.kinds[i] for i in meld]


# ---------------------------------------------------------------------------------------------
# Master: the solver with a strategy


def _master_play(me: _Seat) -> Melds | None:
    """The solver's best play, holding back what can safely wait.

    Melds made of rack tiles alone can be laid down on any later turn (the going-out turn
    included), so while it is safe the master keeps them, and its jokers, off the table where
    the opponent could use them, as long as it still plays something this turn (holding back
    everything would cost a draw). Once an opponent may go out soon it takes the most points
    off its rack instead, since the rack's points are what it would lose.
    """
    best = solve_ids(me.rules, me.kinds, me.table, me.rack, me.opened)
    if best is None or len(me.played(best)) == len(me.rack):
        return best  # nothing to play, or going out
    if not me.opened or len(me.rack) >= CROWDED_RACK:
        return best
    if min(me.opponents, default=99) <= DANGER:
        return solve_ids(me.rules, me.kinds, me.table, me.rack, True, prefer="points")
    kept = [i for i in me.rack if not me.kinds[i].is_joker]
    if len(kept) < len(me.rack):
        without_jokers = solve_ids(me.rules, me.kinds, me.table, kept, True)
        if without_jokers is not None:
            best = without_jokers
    return _without_own_melds(me, best)


def _without_own_melds(me: _Seat, table: Melds) -> Melds:
    """``table`` without the melds made only of rack tiles, if it still plays a tile."""
    rack = set(me.rack)
    shared = tuple(meld for meld in table if not rack.issuperset(meld))
    if shared != table and me.played(shared) and _is_legal(me, shared):
        return shared
    return table
