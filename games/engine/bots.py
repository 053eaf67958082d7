"""Bots: an action for one seat, chosen from what that seat may see (docs/rules.md "A round").

``choose_action(view, rng, strength)`` reads only a per-seat view (``projection.view_for``): the
table, its own rack, everyone's rack *counts* and the pool *size*. It never sees another rack or
the pool's order, so it cannot cheat; with the same view and the same ``rng`` state it always
chooses the same action.

Strengths, weakest first (``BOT_STRENGTHS``):

* ``beginner`` lays down only whole melds from its own rack, and sometimes overlooks one;
* ``casual`` also adds single rack tiles to the ends of table melds, never rearranging;
* ``strong`` plays the solver's best play every turn (most tiles, then most points);
* ``master`` plays the solver's best play too, but it always goes out when it can, it keeps the
  jokers that would lay down no other tile, and, while an opponent is a few tiles from going
  out, it holds tiles back (or draws) rather than lay down what would likely let that opponent
  go out, taking the most points off its rack among equally safe plays (see ``_master_play``).
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
from .tiles import COLOURS, Tile
from .turn import check_turn

__all__ = ["BOT_STRENGTHS", "BotAction", "choose_action"]

BOT_STRENGTHS: tuple[str, ...] = ("beginner", "casual", "strong", "master")

BotAction = PlayTurn | Draw | Pass
Melds = tuple[tuple[int, ...], ...]

BEGINNER_MISSES = 0.3  # chance to overlook each meld it could lay down
CASUAL_MISSES = 0.1
RISK_RACK = 6  # an opponent with this many tiles or fewer may go out on the master's play
TILE_WORTH = 0.002  # a tile played, in chances of letting such an opponent go out
LEFT_OUT_TRIES = 4  # plays without one tile tried, at most (each is a solver run)
SOLVER_FITS = 12  # solver runs a turn, at most, to tell whether a tile fits after rearranging
# The most states at once the solver may hold for the master's side candidates (the plays
# without one tile, the play taking the most points): past it the solver's best guess will do.
# On crowded large-set tables a proof could take seconds each (a points-first one took 5 s).
# In 94 seeded large-set master games the worst move went from 9.0 CPU s (proofs) to 6.2
# (4,096 states) to 3.4 (1,024); against strong, bench_bots' master won 63.0% of 200 games
# each way.
SIDE_BUDGET = 1024


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
        opened = view["initial_meld_done"]
        self.rivals: list[tuple[int, bool]] = [
            (count, bool(opened[other]))
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
# Master: the solver, holding back what would let an opponent go out


def _master_play(me: _Seat) -> Melds | None:
    """The solver's best play, unless it would hand a nearly empty rack its way out.

    Two-player games between solver bots are races that end with a few tiles on the loser's
    rack, and in about four in ten the loser's last play is what let the winner go out: it
    opened a place for the winner's last tiles. So while an opponent who has made the initial
    meld holds ``RISK_RACK`` tiles or fewer, the master weighs each of its candidate turns (the
    best play, the best play without one of its riskiest tiles, the play taking the most
    points, drawing) by the chance it gives that opponent to go out next turn (:class:`_Risk`),
    against ``TILE_WORTH`` for each tile it plays: it holds back (Technique 1 of the strategy
    notes) or draws when playing is too dangerous, and among equally safe turns it takes the
    most points off its rack. It always goes out when it can, and otherwise plays without the
    jokers its best play would lay down spare (:func:`_keeping_spare_jokers`). The best play is
    proven best; the other candidates are the solver's within ``SIDE_BUDGET``.
    """
    best = solve_ids(me.rules, me.kinds, me.table, me.rack, me.opened)
    if best is None or len(me.played(best)) == len(me.rack) or not me.opened:
        return best  # nothing to play, going out, or the opening
    rack, best = _keeping_spare_jokers(me, best)
    close = [count for count, opened in me.rivals if opened and count <= RISK_RACK]
    if best is None or not close:
        return best
    risk = _Risk(me, min(close))
    choices: dict[frozenset[int], Melds | None] = {
        frozenset(): None,
        frozenset(me.played(best)): best,
    }
    for left_out in sorted(me.played(best), key=risk.danger, reverse=True)[:LEFT_OUT_TRIES]:
        rest = [i for i in rack if i != left_out]
        play = solve_ids(me.rules, me.kinds, me.table, rest, True, budget=SIDE_BUDGET)
        _add_choice(me, choices, play)
    points = solve_ids(
        me.rules, me.kinds, me.table, rack, True, prefer="points", budget=SIDE_BUDGET
    )
    _add_choice(me, choices, points)

    def worth(played: frozenset[int]) -> tuple[float, int]:
        table = choices[played]
        if table is None:
            return -TILE_WORTH, 0  # a draw: one tile more
        points = sum(me.kinds[i].rack_value for i in played)
        return TILE_WORTH * len(played) - risk.of(table, played), points

    return choices[max(sorted(choices, key=sorted), key=worth)]


def _keeping_spare_jokers(me: _Seat, best: Melds) -> tuple[tuple[int, ...], Melds | None]:
    """The rack to play from and its best play, holding back the jokers ``best`` lays down spare.

    The solver lays a joker down wherever there is room, though often it takes no other tile
    with it: then it is one tile off the rack, but a free joker on the table for an opponent
    to take (Technique 4 of the strategy notes) and one fewer in hand for a pair that a draw or
    a table change will not complete. Held, it stays playable on almost any table, so it never
    keeps the master from going out (``_master_play`` goes out whenever it can). So the master
    plays without as many of its jokers as it can while that lays down as many real tiles as
    ``best`` does; with nothing real left to lay down it draws.
    """
    jokers = [i for i in me.rack if me.kinds[i].is_joker]
    real = _real_tiles(me, best)
    for kept in range(len(jokers), 0, -1):
        rack = tuple(i for i in me.rack if i not in jokers[:kept])
        play = solve_ids(me.rules, me.kinds, me.table, rack, True)
        if _real_tiles(me, play) >= real:
            return rack, play
    return me.rack, best


def _real_tiles(me: _Seat, table: Melds | None) -> int:
    """Rack tiles other than jokers that ``table`` lays down."""
    return sum(not me.kinds[i].is_joker for i in me.played(table)) if table is not None else 0


def _add_choice(
    me: _Seat, choices: dict[frozenset[int], Melds | None], table: Melds | None
) -> None:
    if table is not None:
        choices.setdefault(frozenset(me.played(table)), table)


class _Risk:
    """The chance that an opponent holding ``tiles`` tiles goes out on a table the master leaves.

    The opponent's tiles are unknown, but not random: a solver bot plays every tile it can, so
    what it still holds could not be laid down on the table as it is ("stuck" tiles). The
    master counts the unseen tiles (the pool and the other racks) that are stuck now and would
    fit after its play: with one tile left, the chance is their share of the stuck tiles; with
    more, the share of stuck pairs that would both fit, or that would make a meld with a tile of
    its play that could be taken back off the table (with three to six tiles that is the
    chance of shedding two at once rather than of going out; counting it measured better than
    ignoring those opponents, up to six tiles). Only tiles near the ones played (same
    number, or same colour within two) are tried with the solver (after a quick test: at the
    end of a meld, into a group, splitting a run); the count of stuck tiles uses the quick
    test alone, and at most ``SOLVER_FITS`` solver runs are spent a turn, since on a crowded
    table one run can take a few tenths of a second.
    """

    def __init__(self, me: _Seat, tiles: int) -> None:
        self.me = me
        self.tiles = tiles
        seen = {i for meld in me.table for i in meld} | set(me.rack)
        self.unseen: dict[Tile, int] = {}
        self.some: dict[Tile, int] = {}  # an unseen tile of each kind
        for i, kind in enumerate(me.kinds):
            if i not in seen:
                self.unseen[kind] = self.unseen.get(kind, 0) + 1
                self.some[kind] = i
        self._stuck: dict[Tile, bool] = {}
        self.solver_calls = 0
        self.stuck_total = sum(
            n
            for kind, n in self.unseen.items()
            if not kind.is_joker and not _fits(me, kind, me.table)
        )

    def stuck(self, kind: Tile) -> bool:
        if kind not in self._stuck:
            self._stuck[kind] = not kind.is_joker and not self.fits(kind, self.me.table)
        return self._stuck[kind]

    def fits(self, kind: Tile, table: Melds) -> bool:
        """Whether a tile of ``kind`` fits on ``table``: the quick test, then the solver."""
        if _fits(self.me, kind, table):
            return True
        if self.solver_calls >= SOLVER_FITS:
            return False
        self.solver_calls += 1
        me = self.me
        return solve_ids(me.rules, me.kinds, table, (self.some[kind],), True) is not None

    def danger(self, tile_id: int) -> int:
        """How many unseen tiles a played tile is near (ordering which to try holding back)."""
        return sum(
            n for kind, n in self.unseen.items() if _near(kind, frozenset((tile_id,)), self.me)
        )

    def stuck_copies(self, colour: str | None, number: int) -> int:
        if colour is None or not 1 <= number <= self.me.rules.max_number:
            return 0
        kind = Tile(colour, number)
        copies = self.unseen.get(kind, 0)
        return copies if copies and self.stuck(kind) else 0

    def of(self, table: Melds, played: frozenset[int]) -> float:
        me = self.me
        opened = sum(
            n
            for kind, n in self.unseen.items()
            if _near(kind, played, me) and self.stuck(kind) and self.fits(kind, table)
        )
        total = max(1, self.stuck_total)
        if self.tiles <= 1:
            return opened / total
        pairs = opened * (opened - 1) / 2
        for meld in table:
            for pos, tile_id in enumerate(meld):
                if (
                    tile_id in played
                    and not me.kinds[tile_id].is_joker
                    and _takeable(me, meld, pos)
                ):
                    pairs += self._partners(me.kinds[tile_id])
        return min(1.0, pairs / max(1, total * (total - 1) / 2))

    def _partners(self, tile: Tile) -> int:
        """Stuck pairs that would make a meld with ``tile``."""
        n = tile.number
        same = [self.stuck_copies(c, n) for c in COLOURS if c != tile.colour]
        pairs = sum(a * b for i, a in enumerate(same) for b in same[i + 1 :])
        for low, high in ((-2, -1), (-1, 1), (1, 2)):
            pairs += self.stuck_copies(tile.colour, n + low) * self.stuck_copies(
                tile.colour, n + high
            )
        return pairs


def _near(kind: Tile, played: frozenset[int], me: _Seat) -> bool:
    """Whether ``kind`` could be helped by a played tile: same number, or its colour within two."""
    if kind.is_joker:
        return False
    for tile_id in played:
        tile = me.kinds[tile_id]
        if tile.is_joker or tile.number == kind.number:
            return True
        if tile.colour == kind.colour and abs(tile.number - kind.number) <= 2:
            return True
    return False


def _fits(me: _Seat, kind: Tile, table: Melds) -> bool:
    """Whether one tile of ``kind`` fits on ``table`` simply: at a meld's end or splitting a run."""
    top = me.rules.max_number
    for meld in table:
        tiles = _tiles(me, meld)
        if readings([*tiles, kind], top) or readings([kind, *tiles], top):
            return True
        for cut in range(2, len(tiles) - 2):
            if readings([*tiles[: cut + 1]], top) and readings([kind, *tiles[cut + 1 :]], top):
                return True
            if readings([*tiles[:cut], kind], top) and readings([*tiles[cut:]], top):
                return True
    return False


def _takeable(me: _Seat, meld: Sequence[int], pos: int) -> bool:
    """Whether the tile at ``pos`` could be taken out of ``meld``, the rest still valid melds."""
    top = me.rules.max_number
    parts = [part for part in (meld[:pos], meld[pos + 1 :]) if part]
    return all(readings(_tiles(me, part), top) for part in parts)
