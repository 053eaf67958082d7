"""The exact best play: the most rack tiles onto the table, then the most points (RULES.md 3-5).

``solve`` works on tile kinds, ``solve_ids`` on physical tile ids (its answer passes
:func:`~games.engine.turn.check_turn`). Both are exact: the answer is provably the best play.

The algorithm is a dynamic programme over the *cells* ``(number, colour)``, numbers ascending
and colours in a fixed order (after van Rijn, Takes and Vis, "The complexity of Rummikub
problems", 2015). Its state is what the cells so far leave open for the ones to come:

* per colour, the runs that reach the current number: each its length capped at three, whether
  it holds a real tile yet, and whether it ends in a joker that still needs a tile after it;
* how many free jokers are on the table, and the tiles of the current number set aside for groups
  (groups are formed when the number's last colour is done);
* for the joker rule (RULES.md rule 5), which table jokers were placed as a tile they stood for
  ("held") and which were replaced ("freed"); on runs, whether a run holds a real tile of a kind
  a joker stood for and a real tile of one of its old meld-mates' kinds (such a run frees it);
* after the initial meld, how many more jokers the melds so far could take ("room": a run from
  ``a`` to ``b`` takes ``numbers - (b - a + 1)``, a group of three takes one);
* before it, the value of the new melds so far (capped at the threshold).

Table tiles must be placed, rack tiles may be; each placed rack tile scores ``BIG + number``
(a joker ``BIG + 30``), so the best score is the most tiles and then the most points (or, to
take the most points off the rack first, ``1 + 128 * number``).

Jokers are placed in one canonical way, so that every table has exactly one description and
the programme branches on jokers only where they matter. A free joker never starts a run: a run
is anchored on its first real or held tile. After the initial meld the programme places only the
jokers a meld *needs* (gaps inside runs, and enough to bring a short run or group to three);
every other free joker is a surplus joker, added at the end wherever there is room, which
changes neither the tiles played nor the validity of any meld. Before the initial meld jokers
also add value, so there they may lead or trail runs and fill groups freely.

Dominance prunes safely. A complete run never ends bare where a new run of its colour starts
(continuing it is as good), and never ends bare while a real tile of its next cell is left
unused (continuing it with that tile scores more and leaves a state at least as open). Between
states, after every cell in the colour just done (:func:`_undominated`) and after every number in
all colours at once (:func:`_undominated_across`), a state is dropped when another covers its
runs, scores as much without counting jokers, and has at least its room with as many free
jokers, or room for every free joker with no more of them (having freed a table joker the other
held counts for it). A table joker that can no longer be held or freed once its numbers are done
ends every state that left it unsettled (:func:`_expired`).

Passes (:func:`_best_melds`) are branch and bound, cheapest first: beams (only the best states
kept) that look for a play reaching the upper bound, then exact passes whose floor drops every
state that cannot reach it, one tile (one point) below the bound at a time; after a few, a beam
guesses and one exact pass looks above the guess. The first exact pass that finds a play has
found the best. What a cell works out for one pass (compiled moves, the states a move leads to)
it keeps for the next (:class:`_CellMemo`).

One approximation: a table joker can also be freed by a real tile landing beside *another joker*
of its old meld (two jokers in one meld at the start of the turn). The programme does not track
joker identities, so it never uses that way of freeing a joker; its answers stay legal, and they
are optimal whenever no meld at the start of the turn holds two jokers. (Tracking it would need
each free joker's identity in the state, multiplying the states of exactly the slowest
positions; it is left until a real game shows the missing tile.)
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import combinations, permutations
from typing import Final, Literal

from .errors import IllegalMove, InvalidInput
from .melds import readings
from .rules import Rules
from .tiles import COLOURS, JOKER_PENALTY, Tile
from .turn import check_turn

__all__ = ["Solution", "solve", "solve_ids"]

BIG: Final = 10_000  # a tile outweighs any points a turn can take off a rack
POINTS_FIRST_WEIGHT: Final = 128  # a point outweighs any number of tiles a turn can play
Prefer = Literal["tiles", "points"]
COLOUR_COUNT: Final = len(COLOURS)

# A run is an int: bits 0-1 its length (1, 2, 3 meaning "three or more"), bit 2 "holds a real
# tile", bit 3 "ends in a free joker that needs a real or held tile after it", then two bits per
# table joker j: the run holds a real tile of a kind j stood for (ROLE) / a real tile of a kind
# of one of j's old meld-mates (MATE).
LENGTH: Final = 3
REAL: Final = 4
GAP: Final = 8
STATUS: Final = LENGTH | REAL | GAP
COMPLETE: Final = LENGTH | REAL

# What a cell does with a run reaching it; END + k ends it with k free jokers to complete it.
WITH_REAL, WITH_HELD, WITH_GAP, END = 1, 2, 3, 4

# A label says what fills a place in a meld: a real tile, a free joker, or table joker ``j``
# (an int >= 0) held as a tile it stood for.
Label = Tile | int
FREE_JOKER: Final = -1


def _role_bit(joker: int) -> int:
    return 16 << (2 * joker)


def _mate_bit(joker: int) -> int:
    return 32 << (2 * joker)


@dataclass(frozen=True, slots=True)
class Solution:
    """A best play: how many rack tiles and points it puts down, which tiles, the whole table."""

    tiles_played: int
    value_played: int
    played: tuple[Tile, ...]
    melds: tuple[tuple[Tile, ...], ...]


@dataclass(frozen=True, slots=True)
class _TableJoker:
    """A joker on the table at the start of the turn: what it stood for, who stood beside it."""

    roles: frozenset[Tile]
    mates: frozenset[Tile]  # kinds of its real meld-mates


@dataclass(frozen=True, slots=True)
class _Problem:
    numbers: int
    must: tuple[tuple[int, ...], ...]  # [colour][number]: real tiles that must be placed
    may: tuple[tuple[int, ...], ...]  # [colour][number]: real tiles that may be placed
    table_jokers: tuple[_TableJoker, ...] = ()
    rack_jokers: int = 0
    threshold: int = 0  # value the new melds must reach (opening); 0 for none
    freeable: int = 0  # bit j: some real tile could free table joker j
    supply: tuple[tuple[int, ...], ...] = ()  # see _supply
    needed_cap: int = 99  # at most this many free jokers placed where needed (see _best_melds)
    tile_weight: int = BIG  # a rack tile played scores tile_weight + point_weight * its value
    point_weight: int = 1

    def gain(self, number: int) -> int:
        return self.tile_weight + self.point_weight * number

    @property
    def joker_score(self) -> int:
        return self.gain(JOKER_PENALTY)

    @property
    def surplus_at_end(self) -> bool:
        """Whether jokers beyond need are added at the end (always, but in the opening)."""
        return self.threshold == 0

    @property
    def all_table_jokers(self) -> int:
        return (1 << len(self.table_jokers)) - 1

    @property
    def most_free(self) -> int:
        return self.rack_jokers + self.freeable.bit_count()

    @property
    def room_cap(self) -> int:
        """Room is counted up to here: enough for every free joker, even after runs that reach
        the last number take the jokers they need from the room before them."""
        return 2 * self.most_free

    def free_left(self, free: int, held: int) -> int:
        """Free jokers still to place: rack jokers and freeable table jokers not held."""
        return self.rack_jokers + (self.freeable & ~held).bit_count() - free

    def needed_left(self, free: int, held: int) -> int:
        """Free jokers that may still be placed where a meld needs them."""
        if not self.surplus_at_end:
            return self.free_left(free, held)
        return min(self.free_left(free, held), self.needed_cap - free)


@dataclass(slots=True, eq=False)  # immutable by convention: frozen inits cost twice as much
class _CellOption:
    """What one cell does with its tiles: continue, end or start runs, feed groups."""

    runs: tuple[int, ...]  # the colour's runs afterwards, sorted
    actions: tuple[int, ...]  # per old run (sorted): WITH_REAL, WITH_HELD, WITH_GAP or END + k
    starts: tuple[tuple[bool, int], ...]  # new runs: (on a real tile?, free jokers before it)
    real: int  # real tiles used
    held: int  # table jokers placed here as held
    held_in_group: int
    group_real: int
    free: int  # free jokers placed in runs
    value: int  # value placed in runs (opening)
    room: int  # room for surplus jokers gained (after the opening)


@dataclass(slots=True)  # not frozen: made by the thousand, and frozen inits cost twice as much
class _State:
    runs: tuple[tuple[int, ...], ...]
    free: int = 0  # free jokers on the table so far
    held: int = 0  # bit j: table joker j placed as a tile it stood for
    freed: int = 0  # bit j: table joker j replaced
    group: tuple[tuple[int, int], ...] = ()  # (real, held) tiles set aside for groups
    value: int = 0  # value of the new melds so far, capped at the threshold (opening)
    room: int = 0  # surplus jokers the melds could take, capped (after the opening)


@dataclass(slots=True)
class _Built:
    """A meld as the replay writes it: runs know their first number."""

    labels: list[Label]
    run: bool
    start: int = 0


# ---------------------------------------------------------------------------------------------
# Public entry points


def solve(
    rules: Rules,
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    initial_meld_done: bool,
    *,
    prefer: object = "tiles",
) -> Solution:
    """The play that puts the most rack tiles on the table, then the most points.

    ``melds`` is the whole table after the play (runs lowest first, jokers in place). With
    nothing playable the table comes back unchanged and ``tiles_played`` is 0. With
    ``prefer="points"`` the play takes the most points off the rack, then the most tiles.

    >>> from games.engine.rules import RULES
    >>> from games.engine.tiles import parse_tiles
    >>> best = solve(RULES["classic"], [parse_tiles("R4 R5 R6".split())],
    ...              parse_tiles("R7 K7 B7 Y7 K1".split()), True)
    >>> best.tiles_played, best.value_played
    (4, 28)
    """
    kinds = [tile for meld in table for tile in meld] + list(rack)
    table_ids: list[list[int]] = []
    for meld in table:
        start = sum(len(m) for m in table_ids)
        table_ids.append(list(range(start, start + len(meld))))
    rack_ids = list(range(len(kinds) - len(rack), len(kinds)))
    after = solve_ids(rules, kinds, table_ids, rack_ids, initial_meld_done, prefer=prefer)
    if after is None:
        return Solution(0, 0, (), tuple(tuple(meld) for meld in table))
    rack_set = set(rack_ids)
    played = tuple(kinds[i] for meld in after for i in meld if i in rack_set)
    return Solution(
        tiles_played=len(played),
        value_played=sum(tile.rack_value for tile in played),
        played=played,
        melds=tuple(tuple(kinds[i] for i in meld) for meld in after),
    )


def solve_ids(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    rack: Sequence[int],
    initial_meld_done: bool,
    *,
    prefer: object = "tiles",
    budget: object = None,
) -> tuple[tuple[int, ...], ...] | None:
    """The best play as the whole table after it, in tile ids; ``None`` when nothing is playable.

    ``prefer`` is a ``Prefer`` and ``budget`` a positive int or None; both are typed ``object``
    because they are checked here, so that a wrong one gets InvalidInput from the compiled
    solver too (compiled code would raise TypeError at the call).

    With a ``budget`` (states; bots' side candidates), a proof that would need more states at
    once gives way to the best play found so far: legal, usually the best, not proven so.

    ``kinds[i]`` is the kind of physical tile ``i``. The answer keeps every table tile on the
    table and passes ``check_turn``: table jokers keep their ids, a held joker stands where its
    old tile would, and a freed joker's old meld-mate sits beside the real tile that freed it.

    The cyclic garbage collector is paused while it runs: the programme allocates hundreds of
    thousands of short-lived acyclic objects (reference counting frees them), and every
    collection they set off would also walk the solver's caches, up to a tenth of a second each.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _solve_ids(rules, kinds, table, rack, initial_meld_done, prefer, budget)
    finally:
        if enabled:
            gc.enable()


def _solve_ids(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    rack: Sequence[int],
    initial_meld_done: bool,
    prefer: object,
    budget: object = None,
) -> tuple[tuple[int, ...], ...] | None:
    limit: int | None = None
    if budget is not None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise InvalidInput(f"budget must be a positive number of states, not {budget!r}")
        limit = budget
    if prefer not in ("tiles", "points"):
        raise InvalidInput(f"prefer must be 'tiles' or 'points', not {prefer!r}")
    _trim_caches()
    if not initial_meld_done:
        problem = _opening_problem(rules, kinds, rack)
    else:
        problem = _turn_problem(rules, kinds, table, rack)
    if prefer == "points":
        problem = replace(problem, tile_weight=1, point_weight=POINTS_FIRST_WEIGHT)
    if initial_meld_done and sum(len(meld) for meld in table) >= TRY_MIN_TABLE:
        around = _play_around_idle_melds(rules, kinds, table, rack, problem)
        if around is not None:
            return around
    found = _best_melds(problem, limit)
    if found is None:
        return None
    after = _assign_ids(rules, kinds, table, rack, found, initial_meld_done)
    if not initial_meld_done:
        return tuple(tuple(meld) for meld in table) + after
    if not problem.freeable:
        return after  # no table joker is freed: nothing can go wrong in seating mates
    try:
        check_turn(rules, kinds, table, rack, after, True)
    except IllegalMove:
        # A freed joker's mate could not be seated beside its freer (two freed jokers wanting
        # the same tile). Never seen in testing; holding every table joker needs no mates.
        found = _best_melds(replace(problem, freeable=0), limit)
        if found is None:
            return None
        after = _assign_ids(rules, kinds, table, rack, found, True)
    return after


def _play_around_idle_melds(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    rack: Sequence[int],
    problem: _Problem,
) -> tuple[tuple[int, ...], ...] | None:
    """A best play that leaves some table melds as they are, if there is one; else ``None``.

    Table jokers and big tables are what make the programme slow. Leaving a meld alone is always
    legal (a joker in it stays beside its old mates, RULES.md rule 5), so a play of the rest of
    the table is a play of the whole position, and when it reaches the whole position's upper
    bound it is a best play. Two tries, each one beam: first leave alone the melds holding a
    joker and the melds with no tile a rack tile could meld with (same number, or same colour
    and at most two apart), then only the melds holding a joker.
    """
    most = _upper_bound(problem, _cells(problem))
    if most <= 0:
        return None
    jokered = [any(kinds[i].is_joker for i in meld) for meld in table]
    near = {(kinds[i].colour, kinds[i].number) for i in rack if not kinds[i].is_joker}
    idle = [
        held or not any(_could_join(kinds[i], near) for i in meld)
        for held, meld in zip(jokered, table, strict=True)
    ]
    tries = [frozen for frozen in (idle, jokered) if _worth_leaving(table, frozen, jokered)]
    if tries[1:] and tries[1] == tries[0]:
        del tries[1]
    for frozen in tries:
        found = _play_leaving(rules, kinds, table, rack, problem, frozen, most)
        if found is not None:
            return found
    return None


def _worth_leaving(
    table: Sequence[Sequence[int]], frozen: Sequence[bool], jokered: Sequence[bool]
) -> bool:
    """Whether leaving ``frozen`` alone makes a problem much smaller than the whole table: a
    try that fails costs about what the whole table's first beam does."""
    if any(left and held for left, held in zip(frozen, jokered, strict=True)):
        return True
    left_alone = sum(len(meld) for meld, left in zip(table, frozen, strict=True) if left)
    return 4 * left_alone >= sum(len(meld) for meld in table) > 0


def _could_join(tile: Tile, near: set[tuple[str | None, int]]) -> bool:
    return any(
        tile.number == number or (tile.colour == colour and abs(tile.number - number) <= 2)
        for colour, number in near
    )


def _play_leaving(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    rack: Sequence[int],
    problem: _Problem,
    frozen: Sequence[bool],
    most: int,
) -> tuple[tuple[int, ...], ...] | None:
    """A play scoring ``most`` that leaves the ``frozen`` table melds alone, found by a beam."""
    kept = [meld for meld, left in zip(table, frozen, strict=True) if not left]
    reduced = replace(
        _turn_problem(rules, kinds, kept, rack),
        tile_weight=problem.tile_weight,
        point_weight=problem.point_weight,
    )
    cells = _cells(reduced)
    future = _future_gains(reduced, cells)
    if _upper_bound(reduced, cells, future) < most:
        return None
    found = _search(reduced, cells, future, floor=most, width=TRY_WIDTH)
    if found is None:
        return None
    after = _assign_ids(rules, kinds, kept, rack, _melds_of(reduced, cells, found), True)
    return after + tuple(tuple(meld) for meld, left in zip(table, frozen, strict=True) if left)


# ---------------------------------------------------------------------------------------------
# Building the problem


@cache
def _tile(colour: int, number: int) -> Tile:
    """The kind in colour ``colour`` (an index into COLOURS) and ``number``, made once."""
    return Tile(COLOURS[colour], number)


def _counts(kinds: Sequence[Tile], ids: Sequence[int], numbers: int) -> tuple[tuple[int, ...], ...]:
    counts = [[0] * (numbers + 1) for _ in COLOURS]
    index = _COLOUR_INDEX
    for i in ids:
        tile = kinds[i]
        if tile.colour is not None:
            counts[index[tile.colour]][tile.number] += 1
    return tuple(tuple(row) for row in counts)


_COLOUR_INDEX: Final = {code: colour for colour, code in enumerate(COLOURS)}


def _with_supply(problem: _Problem) -> _Problem:
    return replace(problem, supply=_supply(problem))


def _supply(problem: _Problem) -> tuple[tuple[int, ...], ...]:
    """[colour][number]: tiles that could fill a cell (real, or a table joker held there);
    zero past the last number."""
    rows = []
    for colour in range(COLOUR_COUNT):
        must, may = problem.must[colour], problem.may[colour]
        rows.append([must[n] + may[n] for n in range(problem.numbers + 1)] + [0, 0])
    for joker in problem.table_jokers:
        for role in joker.roles:
            assert role.colour is not None
            rows[_COLOUR_INDEX[role.colour]][role.number] += 1
    return tuple(tuple(row) for row in rows)


def _opening_problem(rules: Rules, kinds: Sequence[Tile], rack: Sequence[int]) -> _Problem:
    numbers = rules.max_number
    problem = _Problem(
        numbers=numbers,
        must=_counts(kinds, [], numbers),
        may=_counts(kinds, rack, numbers),
        table_jokers=(),
        rack_jokers=sum(1 for i in rack if kinds[i].is_joker),
        threshold=rules.opening,
    )
    return _with_supply(problem)


def _turn_problem(
    rules: Rules, kinds: Sequence[Tile], table: Sequence[Sequence[int]], rack: Sequence[int]
) -> _Problem:
    numbers = rules.max_number
    must = _counts(kinds, [i for meld in table for i in meld], numbers)
    may = _counts(kinds, rack, numbers)
    table_jokers = tuple(_table_jokers(rules, kinds, table))
    freeable = 0
    for j, joker in enumerate(table_jokers):
        for role in joker.roles:
            assert role.colour is not None
            colour = COLOURS.index(role.colour)
            present = must[colour][role.number] + may[colour][role.number]
            beside = any(m.colour == role.colour or m.number == role.number for m in joker.mates)
            if present and beside:
                freeable |= 1 << j
    problem = _Problem(
        numbers=numbers,
        must=must,
        may=may,
        table_jokers=table_jokers,
        rack_jokers=sum(1 for i in rack if kinds[i].is_joker),
        threshold=0,
        freeable=freeable,
    )
    return _with_supply(problem)


def _table_jokers(
    rules: Rules, kinds: Sequence[Tile], table: Sequence[Sequence[int]]
) -> Iterator[_TableJoker]:
    """Each table joker's old tiles (union over its meld's readings) and old mates' kinds."""
    for meld in table:
        tiles = tuple(kinds[i] for i in meld)
        if any(tile.is_joker for tile in tiles):
            yield from _meld_jokers(tiles, rules.max_number)


@lru_cache(maxsize=1 << 12)
def _meld_jokers(tiles: tuple[Tile, ...], numbers: int) -> tuple[_TableJoker, ...]:
    found = readings(list(tiles), numbers)
    mates = frozenset(t for t in tiles if not t.is_joker)
    return tuple(
        _TableJoker(frozenset().union(*(r.roles[pos] for r in found)), mates)
        for pos, tile in enumerate(tiles)
        if tile.is_joker
    )


# ---------------------------------------------------------------------------------------------
# The dynamic programme


class _Cell:
    """One (number, colour) of the programme: its tiles and what table jokers make of it.

    A plain slotted class (cells are made by the thousand, frozen inits cost twice as much);
    treat it as immutable: problems share their cells."""

    __slots__ = (
        "number",
        "colour",
        "must",
        "may",
        "heldable",
        "real_bits",
        "last_colour",
        "group_witness",
        "counted",
        "idle",
        "expired",
    )

    def __init__(
        self,
        number: int,
        colour: int,
        must: int,
        may: int,
        heldable: int = 0,
        real_bits: int = 0,
        group_witness: bool = False,
        counted: bool = False,
        expired: int = 0,
    ) -> None:
        self.number = number
        self.colour = colour
        self.must = must  # real tiles that must be placed
        self.may = may  # real tiles that may be placed
        self.heldable = heldable  # bit j: table joker j stood for this cell's tile
        self.real_bits = real_bits  # ROLE/MATE bits a real tile of this cell adds to its run
        self.last_colour = colour == COLOUR_COUNT - 1
        self.group_witness = group_witness  # a group at this number could free a table joker
        self.counted = counted  # its rack tiles could meld, so the bound counts them
        # No tile, held joker or group mark here: a state with no run of the colour passes.
        self.idle = not (must or may or heldable or group_witness)
        # Last colour only: table jokers that can no longer be held or freed after it.
        self.expired = expired

    def __repr__(self) -> str:
        return f"_Cell({self.number}, {self.colour}, must={self.must}, may={self.may})"


@lru_cache(maxsize=16)
def _cells(problem: _Problem) -> tuple[_Cell, ...]:
    """The problem's cells, numbers ascending, colours in order (kept for the few problems a
    solve builds: the bound, the tries and the passes all ask for them)."""
    freeable_bits = _live_bits(problem, ~problem.freeable)
    # Per cell (colour * 16 + number): table jokers it may be held as, and run marks.
    heldable_at: dict[int, int] = {}
    marks_at: dict[int, int] = {}
    for j, joker in enumerate(problem.table_jokers):
        mate_colours = {mate.colour for mate in joker.mates}
        role_colours = {role.colour for role in joker.roles}
        for role in joker.roles:
            assert role.colour is not None
            at = _COLOUR_INDEX[role.colour] << 4 | role.number
            heldable_at[at] = heldable_at.get(at, 0) | 1 << j
            if role.colour in mate_colours:
                marks_at[at] = marks_at.get(at, 0) | _role_bit(j)
        for mate in joker.mates:
            if mate.colour in role_colours:
                assert mate.colour is not None
                at = _COLOUR_INDEX[mate.colour] << 4 | mate.number
                marks_at[at] = marks_at.get(at, 0) | _mate_bit(j)
    # A table joker that cannot be replaced stands for one of its old tiles (in the supply);
    # only rack jokers and table jokers that may be freed can stand for anything.
    jokers = problem.most_free
    must = problem.must
    may = problem.may
    cells = []
    for number in range(1, problem.numbers + 1):
        witness = bool(problem.freeable) and bool(_group_spec(problem, number, problem.freeable))
        for colour in range(COLOUR_COUNT):
            rack_tiles = may[colour][number]
            at = colour << 4 | number
            cells.append(
                _Cell(
                    number,
                    colour,
                    must[colour][number],
                    rack_tiles,
                    heldable_at.get(at, 0),
                    marks_at.get(at, 0) & freeable_bits,
                    witness,
                    bool(rack_tiles) and _could_meld(problem, colour, number, jokers),
                    _expired(problem, number) if colour == COLOUR_COUNT - 1 else 0,
                )
            )
    return tuple(cells)


def _group_spec(problem: _Problem, number: int, live: int) -> tuple[tuple[int, int, int], ...]:
    """For each live table joker a group at ``number`` could free: (joker, role and mate colours).

    Colours are bitmasks. A group frees the joker when it holds a real tile of a role colour and
    a real tile of a mate colour.
    """
    spec = []
    for j, joker in enumerate(problem.table_jokers):
        if not live >> j & 1:
            continue
        roles = _colour_mask(t for t in joker.roles if t.number == number)
        mates = _colour_mask(t for t in joker.mates if t.number == number)
        if roles and mates:
            spec.append((j, roles, mates))
    return tuple(spec)


def _colour_mask(tiles: Iterable[Tile]) -> int:
    mask = 0
    for tile in tiles:
        if tile.colour is not None:
            mask |= 1 << COLOURS.index(tile.colour)
    return mask


def _live_bits(problem: _Problem, settled: int) -> int:
    """The ROLE/MATE bits of table jokers not in ``settled``."""
    bits = 0
    for j in range(len(problem.table_jokers)):
        if not settled >> j & 1:
            bits |= _role_bit(j) | _mate_bit(j)
    return bits


CellChoice = tuple["_CellOption", int]  # the option and the table jokers it holds
GroupChoice = tuple[int, "Partition"]  # free jokers added and the groups formed
Back = tuple[int, CellChoice | GroupChoice]  # the packed state before, and the choice


ALL_OR_NOTHING_WIDTHS: Final = (5, 16, 64)
TRY_WIDTH: Final = 8  # the beam of a try that leaves melds alone
TRY_MIN_TABLE: Final = 20  # smaller tables solve whole about as fast as a try fails: no tries
GUESS_WIDTHS: Final = (32, 128, 512, 2048)
WIDEN_BELOW: Final = (
    16  # a beam widens while 16 times its width stays within the exact passes' states
)
TOP_DOWN_PASSES: Final = 3  # exact passes from the top before a beam guesses


def _best_melds(problem: _Problem, budget: int | None = None) -> list[_Built] | None:
    """The best final table as labelled melds, or ``None`` when no play beats playing nothing.

    Branch and bound. ``most``, every rack tile that could be in a meld at all and every rack
    joker, bounds any play from above, so a play reaching it is optimal; beams (the same steps,
    only the best states kept) look for one first (a beam that never had to drop a state is
    exact: when it finds nothing, nothing reaches ``most``), then an exact pass placing free
    jokers only as surplus (jokers placed where a meld needs them multiply the states). Failing
    that, exact passes step down from the bound one tile at a time (see :func:`_floors`): each
    drops every state that, even playing every rack tile still to come, could not reach its
    floor, so the first that finds a play has found the best. High floors prune nearly every
    state, so the passes that fail are cheap. After ``TOP_DOWN_PASSES`` of them a beam guesses,
    and one exact pass looks for anything better than the guess. That pass costs more the
    lower the guess, when the floor is what prunes: when the exact passes grew as their floors
    fell, the beam widens (``GUESS_WIDTHS``) while it stays well below their largest layer. (A
    master's points-first solve on a large table: the 32-wide guess was 22 points short and
    its exact pass took 13 s; the 512-wide one is 4 points short and the pass takes 3.)

    With a ``budget``, an exact pass that would hold more states than that stops, and the best
    play the beams found is the answer: good, quick, but not proven best.
    """
    cells = _cells(problem)
    future = _future_gains(problem, cells)
    most = _upper_bound(problem, cells, future)
    if most <= 0:
        return None
    memo = _Memos(problem, cells)
    cut: list[bool] = []
    for width in ALL_OR_NOTHING_WIDTHS:
        found = _search(problem, cells, future, floor=most, width=width, cut=cut, memo=memo)
        if found is not None:
            return _melds_of(problem, cells, found)
        if not cut[-1]:
            break  # an exact pass: no play reaches ``most``
    if (not cut or cut[-1]) and problem.surplus_at_end and problem.most_free:
        capped = replace(problem, needed_cap=0)
        found = _search(capped, cells, future, floor=most, width=None, give_up=budget)
        if found is not None:
            return _melds_of(capped, cells, found)
    floors = _floors(problem, most)
    peak: list[int] = []
    stopped: list[bool] = []
    below = most + 1  # every play scores below this
    for floor in floors[:TOP_DOWN_PASSES]:
        found = _search(problem, cells, future, floor, None, None, memo, peak, budget, stopped)
        if found is not None:
            return _melds_of(problem, cells, found)
        if stopped:
            break  # over budget: guess
        below = floor
        if floor <= problem.gain(1):
            return None  # every play scores less than one tile does: nothing is playable
    guess = None
    for width in GUESS_WIDTHS:
        if budget is not None and width > budget:
            break
        found = _search(problem, cells, future, floor=1, width=width, memo=memo)
        if found is not None and (guess is None or found.score > guess.score or found.exact):
            guess = found
        if guess is not None and (
            guess.exact or peak[-1] < 2 * peak[0] or WIDEN_BELOW * width > peak[-1]
        ):
            break
    if guess is not None and guess.exact:
        return _melds_of(problem, cells, guess)
    floor = guess.score + 1 if guess is not None else 1
    if floor < below:
        found = _search(problem, cells, future, floor, None, None, memo, None, budget)
        if found is not None:
            return _melds_of(problem, cells, found)
    return _melds_of(problem, cells, guess) if guess is not None else None


def _floors(problem: _Problem, most: int) -> list[int]:
    """Floors for the exact passes from the top: as many tiles as ``most``, then one less at a
    time down to 1 (with ``prefer="points"``, points, the step doubling each time).

    A pass finding nothing proves every play scores below its floor; the first pass finding a
    play has found the best.
    """
    unit = max(problem.tile_weight, problem.point_weight)
    floor = most // unit * unit
    step = unit
    floors = []
    while floor > 1:
        floors.append(floor)
        floor -= step
        if problem.point_weight > problem.tile_weight:
            step *= 2  # points come by the dozen: do not try them one at a time
    floors.append(1)
    return floors


def _melds_of(problem: _Problem, cells: Sequence[_Cell], found: _Found) -> list[_Built]:
    melds = _rebuild(problem, cells, found.history, found.state)
    _add_surplus(problem.numbers, melds, found.ending.surplus)
    return melds


@dataclass(frozen=True, slots=True)
class _Found:
    """The best play a pass found: its score, how it ends, its final packed state, the back
    pointers to rebuild it, and whether the pass was exact (no beam ever cut a layer)."""

    score: int
    ending: _Ending
    state: int
    history: list[_BackPointers]
    exact: bool


def _search(
    problem: _Problem,
    cells: Sequence[_Cell],
    future: Sequence[int],
    floor: int,
    width: int | None,
    cut: list[bool] | None = None,
    memo: _Memos | None = None,
    peak: list[int] | None = None,
    give_up: int | None = None,
    stopped: list[bool] | None = None,
) -> _Found | None:
    """Run the programme; keep states whose bound reaches ``floor`` (the best ``width`` only).

    ``cut``, if given, learns whether the beam ever dropped a state: if not, the pass was exact
    even when it found nothing. ``memo`` (a :class:`_Memos`) carries what the cells learn
    from one pass to the next of the same problem. ``peak`` learns the most states a layer
    held. A layer over ``give_up`` states stops the pass, which then finds nothing and says
    so in ``stopped``.
    """
    if memo is None:
        memo = _Memos(problem, cells)
    layer: dict[int, int] = {_pack(_State(((),) * COLOUR_COUNT)): 0}
    history: list[_BackPointers] = []
    exact = True
    most_states = 1
    jokers = problem.rack_jokers * problem.joker_score
    for index, cell in enumerate(cells):
        bound = _Bound(
            floor, future[index + 1] + jokers, future[index] + jokers, problem.joker_score
        )
        shift = RUN_SHIFTS[cell.colour]
        if cell.idle and not any(key >> shift & RUN_MASK for key in layer):
            # Nothing to place and no run to end: every state stays as it is.
            history.append(_UNCHANGED_CELL)
        else:
            cell_memo = memo[index]
            layer, back = _cell_step(problem, cell, layer, bound, cell_memo)
            if width is None or len(layer) > width:
                layer = _undominated(problem, layer, cell.colour)
            history.append(back)
        if cell.last_colour:
            if any(key >> GROUP_SHIFT & GROUP_MASK for key in layer):
                layer, back = _group_step(problem, cell, layer, bound, memo[index])
                history.append(back)
            else:
                history.append(_UNCHANGED_GROUPS)
            expired = cell.expired
            if expired:
                layer = _alive(layer, expired)
            layer = _undominated_across(problem, layer)
        size = len(layer)
        if not size:
            break  # every state was dropped: the pass finds nothing
        if size > most_states:
            most_states = size
            if give_up is not None and size > give_up:
                if peak is not None:
                    peak.append(most_states)
                if stopped is not None:
                    stopped.append(True)
                return None
        if width is not None and size > width:
            layer = _beam(layer, width, problem)
            exact = False
    if cut is not None:
        cut.append(not exact)
    if peak is not None:
        peak.append(most_states)
    best: tuple[int, _Ending, int] | None = None
    for key, score in layer.items():
        state = _unpack(key)
        ending = _ending(problem, state)
        if ending is None:
            continue
        unheld = len(problem.table_jokers) - state.held.bit_count()
        total = score + (ending.needed + ending.surplus - unheld) * problem.joker_score
        if total >= floor and (best is None or total > best[0]):
            best = (total, ending, key)
    if best is None:
        return None
    return _Found(*best, history, exact)


class _Unchanged:
    """Back pointers of a step that left every state as it was, by one choice."""

    __slots__ = ("choice",)

    def __init__(self, choice: CellChoice | GroupChoice) -> None:
        self.choice = choice

    def __getitem__(self, key: int) -> Back:
        return key, self.choice


_NOTHING: Final = _CellOption(
    runs=(),
    actions=(),
    starts=(),
    real=0,
    held=0,
    held_in_group=0,
    group_real=0,
    free=0,
    value=0,
    room=0,
)
_UNCHANGED_CELL: Final = _Unchanged((_NOTHING, 0))
_UNCHANGED_GROUPS: Final = _Unchanged((0, ()))
_BackPointers = dict[int, Back] | _Unchanged


def _expired(problem: _Problem, number: int) -> int:
    """Table jokers that can no longer be held or freed once ``number`` is done: every tile they
    stood for and every old meld-mate's kind is at ``number`` or below."""
    expired = 0
    for j, joker in enumerate(problem.table_jokers):
        if _last_number(joker) <= number:
            expired |= 1 << j
    return expired


@lru_cache(maxsize=1 << 12)
def _last_number(joker: _TableJoker) -> int:
    return max(tile.number for tile in joker.roles | joker.mates)


def _alive(layer: dict[int, int], expired: int) -> dict[int, int]:
    """Drop states that left an expired table joker neither held nor freed: they cannot end."""
    return {
        key: score
        for key, score in layer.items()
        if not expired & ~((key >> HELD_SHIFT | key >> FREED_SHIFT) & NIBBLE)
    }


def _beam(layer: dict[int, int], width: int, problem: _Problem) -> dict[int, int]:
    """The ``width`` best states: most points without counting jokers, then fewest jokers on
    credit (placed before a table joker was freed to pay for them), then fewest runs still
    short of three (they are what kills a state), then most jokers kept."""
    short = _SHORT
    joker_score = problem.joker_score
    rack_jokers = problem.rack_jokers
    free_shift, freed_shift = FREE_SHIFT, FREED_SHIFT

    ranks: dict[int, int] = {}
    for key, score in layer.items():
        low, r0, r1, r2, r3 = _split(key)
        free = low >> free_shift & 15
        credit = max(0, free - rack_jokers - (low >> freed_shift & 15).bit_count())
        runs = short[r0] + short[r1] + short[r2] + short[r3]
        rank = (score - free * joker_score) << 16 | (15 - credit) << 12
        ranks[key] = rank | (255 - runs) << 4 | (15 - free)
    # What heapq.nlargest(width, layer, key=rank) gives (ties in layer order), without its
    # Python-level loop.
    best = sorted(ranks, key=ranks.__getitem__, reverse=True)
    return {key: layer[key] for key in best[:width]}


class _ShortRuns(dict[int, int]):
    """Interned runs -> how many of them are short of three or end in a gap."""

    def __missing__(self, rid: int) -> int:
        value = self[rid] = sum(1 for run in _RUNS[rid] if run & STATUS != COMPLETE)
        return value


_SHORT: Final = _ShortRuns()


class _Strength(dict[int, int]):
    """Interned runs -> a measure that grows with each thing :func:`_covers` asks of a run: a
    run more, a longer run, no pending gap, a real tile, a joker-rule mark. Runs that cover
    other runs are stronger than them."""

    def __missing__(self, rid: int) -> int:
        value = 0
        for run in _RUNS[rid]:
            value += 2 + (run & LENGTH) + (run & ~(LENGTH | GAP)).bit_count() - bool(run & GAP)
        self[rid] = value
        return value


_STRENGTH: Final = _Strength()


@dataclass(slots=True)  # not frozen: one per cell and pass, and frozen inits cost twice as much
class _Bound:
    """Keep a state only if ``score - free jokers' score + rest >= floor``.

    ``rest`` is what the cells still to come could add at most: every rack tile there that could
    be in some meld, and every rack joker (table jokers add nothing in the end: held ones score
    nothing, freed ones are table tiles).
    """

    floor: int
    rest: int
    rest_before: int  # ``rest`` with this cell's rack tiles too
    joker_score: int

    def keeps(self, score: int, free: int) -> bool:
        return score - free * self.joker_score + self.rest >= self.floor

    def slack(self, score: int, free: int) -> int:
        """How much a state may still give up at this cell and stay kept."""
        return score - free * self.joker_score + self.rest_before - self.floor


def _future_gains(problem: _Problem, cells: Sequence[_Cell]) -> list[int]:
    """``future[i]``: the most the rack's real tiles in cells ``i`` onwards could score."""
    future = [0] * (len(cells) + 1)
    for index in range(len(cells) - 1, -1, -1):
        cell = cells[index]
        gain = cell.may * problem.gain(cell.number) if cell.counted else 0
        future[index] = future[index + 1] + gain
    return future


def _upper_bound(
    problem: _Problem, cells: Sequence[_Cell], future: Sequence[int] | None = None
) -> int:
    """What any play scores at most: every rack tile that could be in a meld, every rack joker."""
    if future is None:
        future = _future_gains(problem, cells)
    return future[0] + problem.rack_jokers * problem.joker_score


def _could_meld(problem: _Problem, colour: int, number: int, jokers: int) -> bool:
    """Whether a tile could be in some meld with the tiles and jokers there are."""
    row = problem.supply[colour]
    for start in range(max(1, number - 2), min(number, problem.numbers - 2) + 1):
        missing = sum(1 for n in range(start, start + 3) if n != number and not row[n])
        if missing <= jokers:
            return True
    others = sum(1 for c in range(COLOUR_COUNT) if c != colour and problem.supply[c][number])
    return others + jokers >= 2


@dataclass(slots=True, eq=False)  # immutable by convention: frozen inits cost twice as much
class _Ending:
    """How a finished state ends: jokers completing runs that reach the last number (placed
    before them), and surplus jokers."""

    needed: int
    surplus: int


def _ending(problem: _Problem, state: _State) -> _Ending | None:
    """How a state after the last cell ends; ``None`` if it cannot."""
    if (state.held | state.freed) != problem.all_table_jokers or state.value < problem.threshold:
        return None
    needed = 0
    for runs in state.runs:
        for run in runs:
            if run & (REAL | GAP) != REAL:
                return None
            needed += LENGTH - (run & LENGTH)
    if needed and (
        not problem.surplus_at_end or needed > problem.needed_left(state.free, state.held)
    ):
        return None
    free = state.free + needed
    surplus = min(problem.free_left(free, state.held), state.room - needed)
    unheld = len(problem.table_jokers) - state.held.bit_count()
    if free + surplus < unheld:
        return None
    return _Ending(needed, surplus)


def _cell_step(
    problem: _Problem,
    cell: _Cell,
    layer: dict[int, int],
    bound: _Bound,
    memo: _CellMemo,
) -> tuple[dict[int, int], dict[int, Back]]:
    """One cell for every state. Cells where a table joker could be held or freed take the
    general path; every other cell works on packed states directly."""
    after: dict[int, int] = {}
    back: dict[int, Back] = {}
    shift = memo.shift
    colour = memo.colour
    t0, t1, t2, t3 = memo.other_shortfalls
    needed = memo.needed_by_jokers
    spare = memo.spare
    joker = memo.joker
    room_cap = memo.room_cap
    floor = bound.floor - bound.rest_before
    steps_of = memo.steps_of
    settled_of = memo.settled_of
    groups = memo.group_shortfall
    others = ~(RUN_MASK << shift)
    group_shift, group_mask = GROUP_SHIFT, GROUP_MASK
    plain, roomy, touches = _PLAIN, _ROOM, _TOUCHES
    free_shift, held_shift, freed_shift, nibble = FREE_SHIFT, HELD_SHIFT, FREED_SHIFT, NIBBLE
    for key, score in layer.items():
        low, r0, r1, r2, r3 = _split(key)
        jokers = low >> free_shift & 0xFF  # free jokers, then held table jokers
        free = jokers & nibble
        settled = (low >> held_shift | low >> freed_shift) & nibble
        rid = (r0 if colour == 0 else r1) if colour < 2 else (r2 if colour == 2 else r3)
        needed_left = needed[jokers]
        room = needed_left - (t0[r0] + t1[r1] + t2[r2] + t3[r3])
        if room < 0:
            continue
        # What the tiles set aside for groups need too, unless a move adds to them.
        plain_room = room - groups[low >> group_shift & group_mask]
        slack = score - free * joker - floor
        steps = steps_of.get(rid << 9 | needed_left << 4 | settled)
        if steps is None:
            steps = steps_of[rid << 9 | needed_left << 4 | settled] = _steps(
                problem, cell, memo, rid, needed_left, settled
            )
        rest = key & others
        for skip, kind, need, gain, delta, aux, move, moved in steps:
            if skip > slack:
                break
            if need > room:
                continue
            total = score + gain
            if kind == plain:
                if need > plain_room:
                    continue
                new = rest + delta
            elif kind == roomy:
                if need > plain_room:
                    continue
                had = low & ROOM_MASK
                new = rest + delta + min(room_cap, had + aux) - had
            elif kind == touches:
                part = key & aux
                new = moved.get(part, -1)
                if new < 0:
                    new = _moved(problem, cell, part, move, shift, rid)
                    if len(moved) < MOVED_LIMIT:  # steps outlive the solve: keep them small
                        moved[part] = new
                new |= key & ~aux
                if need + groups[new >> group_shift & group_mask] > room:
                    continue
            else:
                if delta <= spare[free][jokers >> 4]:
                    _settle(problem, cell, key, score, bound, move.option, after, back, settled_of)
                continue
            if after.get(new, -1) < total:
                after[new] = total
                back[new] = (key, move.choice)
    return after, back


class _CellMemo:
    """What a cell's steps learn that holds for every pass over the same problem: the tables
    it looks things up in, compiled steps per (runs, free jokers left, settled table jokers),
    and the states compiled moves lead to."""

    __slots__ = (
        "shift",
        "own_shortfall",
        "other_shortfalls",
        "colour",
        "needed_by_jokers",
        "spare",
        "general",
        "steps_of",
        "settled_of",
        "group_options",
        "signature",
        "joker",
        "room_cap",
        "group_shortfall",
    )

    def __init__(self, memos: _Memos, cell: _Cell) -> None:
        colour = self.colour = cell.colour
        self.shift = RUN_SHIFTS[colour]
        # Per colour, after this cell: the colours done at this number look at the next one.
        number = cell.number
        following = memos.shortfalls_at(number + 1)
        same = memos.shortfalls_at(number)
        own = self.own_shortfall = following[colour]
        # In colour order, with 0 for this cell's own colour (its runs are what it changes).
        self.other_shortfalls = [
            _NoShortfall(0, 0) if c == colour else following[c] if c < colour else same[c]
            for c in range(COLOUR_COUNT)
        ]
        self.needed_by_jokers = memos.needed_by_jokers
        self.spare = memos.spare
        self.general: dict[int, tuple[int, int, int]] = {}
        self.settled_of: dict[tuple[int, int], list[tuple[int, int]]] = {}
        # Interned group << 4 | table jokers it may free -> its options.
        self.group_options: dict[int, tuple[tuple[int, int, int, Partition], ...]] = {}
        self.joker = memos.joker
        self.room_cap = memos.room_cap
        self.group_shortfall = memos.group_shortfall(cell)
        # Everything but the states' runs and jokers that the cell's steps depend on: steps
        # are shared by every problem with the same signature (see _steps).
        self.signature = (
            cell.must,
            cell.may,
            number,
            colour,
            int(cell.counted),
            int(cell.group_witness),
            *memos.signature,
            own.following,
            own.then,
        )
        # Steps by (runs, free jokers left, settled table jokers) are shared by every problem
        # whose cell has this signature and the same table jokers that may be held or freed.
        shared = (*self.signature, cell.heldable, cell.real_bits, memos.freeable)
        steps_of = _STEPS_OF.get(shared)
        if steps_of is None:
            steps_of = _STEPS_OF[shared] = {}
        self.steps_of = steps_of


class _Memos:
    """The cells' memos of one problem, each made when a pass first steps its cell, and what
    they share."""

    __slots__ = (
        "problem",
        "cells",
        "needed_by_jokers",
        "spare",
        "joker",
        "room_cap",
        "freeable",
        "signature",
        "shortfalls",
        "made",
    )

    def __init__(self, problem: _Problem, cells: Sequence[_Cell]) -> None:
        self.problem = problem
        self.cells = cells
        self.needed_by_jokers = _needed_by_jokers(problem)
        self.spare = _spare_table(problem)
        self.joker = problem.joker_score
        self.room_cap = problem.room_cap
        self.freeable = problem.freeable
        self.signature = (
            problem.numbers,
            problem.threshold,
            problem.tile_weight,
            problem.point_weight,
            self.room_cap,
        )
        self.shortfalls: dict[int, list[_ShortfallTable]] = {}
        self.made: list[_CellMemo | None] = [None] * len(cells)

    def __getitem__(self, index: int) -> _CellMemo:
        memo = self.made[index]
        if memo is None:
            memo = self.made[index] = _CellMemo(self, self.cells[index])
        return memo

    def group_shortfall(self, cell: _Cell) -> _GroupShortfall:
        """The group shortfall table after ``cell`` (see :class:`_GroupShortfall`)."""
        later = tuple(row[cell.number] for row in self.problem.supply[cell.colour + 1 :])
        table = _GROUP_SHORTFALLS.get(later)
        if table is None:
            table = _GROUP_SHORTFALLS[later] = _GroupShortfall(later)
        return table

    def shortfalls_at(self, number: int) -> list[_ShortfallTable]:
        """Per colour: the shortfall table of runs whose next cell is at ``number``."""
        found = self.shortfalls.get(number)
        if found is None:
            found = self.shortfalls[number] = []
            for row in self.problem.supply:
                pair = (row[number], row[number + 1])
                table = _SHORTFALL_TABLES.get(pair)
                if table is None:
                    table = _SHORTFALL_TABLES[pair] = _ShortfallTable(*pair)
                found.append(table)
        return found


def _steps(
    problem: _Problem, cell: _Cell, memo: _CellMemo, rid: int, needed_left: int, settled: int
) -> list[_Step]:
    """The cell's moves for states with these runs in its colour, free jokers left and settled
    table jokers, as tuples for :func:`_cell_step`'s loop (each with its own cache of the states
    a move leads to from the packed fields it reads). Kept across solves, by the memo's
    signature and what the settled table jokers leave: how many may be held here, the run marks
    of the cell's real tiles, and how many of them cannot be freed."""
    jokers = memo.general.get(settled)
    if jokers is None:
        live = _live_bits(problem, settled)
        jokers = memo.general[settled] = (
            (cell.heldable & ~settled).bit_count(),
            cell.real_bits & live,
            (cell.heldable & ~settled & ~problem.freeable).bit_count(),
        )
    key = (memo.signature, rid, needed_left, jokers)
    found = _STEPS.get(key)
    if found is not None:
        return found
    heldable, real_bits, unfreeable = jokers
    moves = _compiled_moves(problem, cell, rid, needed_left, heldable, real_bits)
    # A settling move's "delta" is the free jokers it leaves fewest: its own, and the
    # freeable jokers it must hold when too few others can be held here.
    shift = memo.shift
    own_shortfall = memo.own_shortfall
    steps: list[_Step] = []
    for move in moves:
        kind = _SETTLES if move.settles else _PLAIN if move.plain else _TOUCHES
        aux = move.touched | RUN_MASK << shift
        if kind == _TOUCHES and aux & ~_RUNS_FREE_ROOM[shift] == 0:
            # Only the room changes besides the runs and free jokers: look it up.
            kind = _ROOM
            aux = move.option.room
        steps.append(
            (
                move.skip,
                kind,
                own_shortfall[move.rid] + move.free,
                move.gain,
                move.free + max(0, move.option.held - unfreeable)
                if move.settles
                else (move.rid << shift) + (move.free << FREE_SHIFT),
                aux,
                move,
                {},
            )
        )
    _STEPS[key] = steps
    return steps


MOVED_LIMIT: Final = 256
_STEPS: Final[dict[tuple[tuple[int, ...], int, int, tuple[int, int, int]], list[_Step]]] = {}
_STEPS_OF: Final[dict[tuple[int, ...], dict[int, list[_Step]]]] = {}


# How a compiled move changes a packed state: only the colour's runs and the free jokers, more
# packed fields (groups, value, room), or it holds or frees a table joker (unpacked).
_PLAIN, _ROOM, _TOUCHES, _SETTLES = 0, 1, 2, 3
# skip, kind, need, gain, delta, aux, move, moved: ``aux`` is the room the move adds (_ROOM)
# or the packed fields it reads and changes (_TOUCHES), whose ``moved`` caches the state after
# by those fields.
_Step = tuple[int, int, int, int, int, int, "_Move", dict[int, int]]


def _needed_table(problem: _Problem) -> list[list[int]]:
    """[free][held]: free jokers that may still be placed where a meld needs them."""
    key = (problem.rack_jokers, problem.freeable, problem.needed_cap, problem.threshold)
    found = _NEEDED.get(key)
    if found is None:
        found = [[problem.needed_left(free, held) for held in range(16)] for free in range(16)]
        _NEEDED[key] = found
    return found


_NEEDED: Final[dict[tuple[int, int, int, int], list[list[int]]]] = {}
_NEEDED_BY_JOKERS: Final[dict[tuple[int, int, int, int], list[int]]] = {}


def _needed_by_jokers(problem: _Problem) -> list[int]:
    """:func:`_needed_table` by free jokers | held table jokers << 4, as packed states keep
    them side by side."""
    key = (problem.rack_jokers, problem.freeable, problem.needed_cap, problem.threshold)
    found = _NEEDED_BY_JOKERS.get(key)
    if found is None:
        table = _needed_table(problem)
        found = _NEEDED_BY_JOKERS[key] = [table[j & NIBBLE][j >> 4] for j in range(256)]
    return found


def _spare_table(problem: _Problem) -> list[list[int]]:
    """[free][held]: free jokers still to place (rack jokers and freeable table jokers)."""
    key = (problem.rack_jokers, problem.freeable, -1, -1)
    found = _NEEDED.get(key)
    if found is None:
        found = [[problem.free_left(free, held) for held in range(16)] for free in range(16)]
        _NEEDED[key] = found
    return found


@dataclass(slots=True, eq=False)  # immutable by convention: frozen inits cost twice as much
class _Move:
    """A cell option compiled for packed states."""

    option: _CellOption
    rid: int  # the colour's runs afterwards, interned
    free: int
    gain: int  # score it adds
    skip: int  # how far it lowers the bound: the rack tiles it leaves that could meld
    member: tuple[int, int]  # (real, held) tiles it sets aside for groups
    choice: CellChoice  # the back pointer's choice
    plain: bool  # it changes only the colour's runs and the free jokers
    touched: int  # the packed fields it reads and changes, but the colour's runs
    settles: bool  # it holds or frees a table joker (see _settle)


def _compiled_moves(
    problem: _Problem, cell: _Cell, rid: int, needed_left: int, heldable: int, real_bits: int
) -> tuple[_Move, ...]:
    """The cell's options for a colour's runs, with ``heldable`` table jokers that may be held
    here and run marks ``real_bits`` for its real tiles, sorted by how far they lower the bound."""
    key: tuple[int, ...] = (rid, cell.must, cell.may, needed_left, cell.number, problem.numbers)
    key += (problem.threshold, int(cell.counted), problem.tile_weight, problem.point_weight)
    key += (int(cell.group_witness), heldable, real_bits, int(problem.room_cap > 0))
    found = _MOVES.get(key)
    if found is None:
        options = _cell_options(
            _RUNS[rid],
            cell.must,
            cell.may,
            heldable,
            needed_left,
            real_bits,
            cell.number,
            problem.numbers - cell.number + 1,
            problem.surplus_at_end,
        )
        gain = problem.gain(cell.number)
        moves = []
        for option in options:
            member = (option.group_real, option.held_in_group)
            grouped = member != (0, 0) or cell.group_witness
            # Room counts only when there are jokers to put in it.
            roomy = bool(option.room) and problem.room_cap > 0
            valued = bool(problem.threshold) or roomy
            touched = NIBBLE << FREE_SHIFT
            if grouped:
                touched |= GROUP_MASK << GROUP_SHIFT
            if problem.threshold:
                touched |= VALUE_MASK << VALUE_SHIFT
            elif roomy:
                touched |= ROOM_MASK
            moves.append(
                _Move(
                    option,
                    _run_id(option.runs),
                    option.free,
                    (option.real - cell.must) * gain + option.free * problem.joker_score,
                    (cell.must + cell.may - option.real) * gain if cell.counted else 0,
                    member,
                    (option, 0),
                    not grouped and not valued,
                    touched,
                    option.held > 0 or _frees(option.runs),
                )
            )
        moves.sort(key=lambda move: move.skip)
        found = _MOVES[key] = tuple(moves)
    return found


def _frees(runs: tuple[int, ...]) -> bool:
    """Whether a run holds both marks of a table joker (marks of settled jokers are gone)."""
    return any(run >> 4 & run >> 5 & _MARK_PAIRS for run in runs)


_MARK_PAIRS: Final = sum(1 << (2 * j) for j in range(4))  # one pair per table joker (a nibble)
# Pairs of marks held (bit 2j for table joker j) -> the table jokers they free.
_PAIRED_JOKERS: Final = [
    sum(1 << j for j in range(4) if pairs >> (2 * j) & 1) for pairs in range(256)
]
# Settled table jokers -> their run marks (which runs drop once they are held or freed).
_SETTLED_MARKS: Final = [
    sum(_role_bit(j) | _mate_bit(j) for j in range(4) if settled >> j & 1) for settled in range(16)
]


def _moved(problem: _Problem, cell: _Cell, key: int, move: _Move, shift: int, rid: int) -> int:
    """The packed state after a compiled move (no table joker involved)."""
    new = key ^ ((rid ^ move.rid) << shift)
    new += move.free << FREE_SHIFT
    if move.member != (0, 0) or cell.group_witness:
        gid = key >> GROUP_SHIFT & GROUP_MASK
        grown = _grouped_id(gid, move.member, cell.colour, cell.group_witness)
        new ^= (gid ^ grown) << GROUP_SHIFT
    if problem.threshold:
        value = key >> VALUE_SHIFT & VALUE_MASK
        grown = min(problem.threshold, value + move.option.value)
        new ^= (value ^ grown) << VALUE_SHIFT
    elif move.option.room:
        room = key & ROOM_MASK
        grown = min(problem.room_cap, room + move.option.room)
        new ^= room ^ grown
    return new


def _settle(
    problem: _Problem,
    cell: _Cell,
    key: int,
    score: int,
    bound: _Bound,
    option: _CellOption,
    after: dict[int, int],
    back: dict[int, Back],
    settled_of: dict[tuple[int, int], list[tuple[int, int]]] | None = None,
) -> None:
    """One option that holds or frees a table joker, for one state (on unpacked states).

    ``settled_of`` keeps the states each (state, option) leads to, one per choice of table
    jokers to hold, for the next pass over the cell."""
    found = settled_of.get((key, id(option))) if settled_of is not None else None
    if found is None:
        found = []
        old_held = key >> HELD_SHIFT & NIBBLE
        heldable = cell.heldable & ~(old_held | key >> FREED_SHIFT & NIBBLE)
        free = (key >> FREE_SHIFT & NIBBLE) + option.free
        choices = [
            held
            for held in _held_choices(heldable, option.held)
            if problem.free_left(free, old_held | held) >= 0
        ]
        if choices:
            state = _unpack(key)
            for held in choices:
                new_state = _after_cell(problem, cell, state, option, held)
                if new_state is not None:
                    found.append((held, _pack(new_state)))
        if settled_of is not None:
            settled_of[key, id(option)] = found
    if not found:
        return
    total = score + (option.real - cell.must) * problem.gain(cell.number)
    total += option.free * problem.joker_score
    # Every choice places the option's free jokers, and no more.
    if not bound.keeps(total, (key >> FREE_SHIFT & NIBBLE) + option.free):
        return
    for held, new in found:
        if after.get(new, -1) < total:
            after[new] = total
            back[new] = (key, (option, held))


class _ShortfallTable(dict[int, int]):
    """Interned runs -> the free jokers they need at least with these tiles in the next cells."""

    __slots__ = ("following", "then")

    def __init__(self, following: int, then: int) -> None:
        super().__init__()
        self.following = following
        self.then = then

    def __missing__(self, rid: int) -> int:
        value = _run_shortfall(_RUNS[rid], self.following, self.then)
        self[rid] = value
        return value


class _NoShortfall(_ShortfallTable):
    """Stands in a cell's own colour among the other colours' shortfall tables: always 0."""

    __slots__ = ()

    def __missing__(self, rid: int) -> int:
        self[rid] = 0
        return 0


class _GroupShortfall(dict[int, int]):
    """Interned groups -> free jokers they need at least, with ``later`` tiles (real or held)
    in the number's colours still to come.

    Tiles set aside at one number form groups of one tile per colour, three tiles or more (a
    free joker filling in). ``k`` groups are needed for the most tiles of one colour, and the
    fewest jokers fill them when the other colours spread evenly over them: ``3k`` places, less
    the tiles set aside and the most the later colours can give (one per group each). More
    groups never need fewer jokers: a group more asks three places and the (at most three)
    later colours give one each."""

    __slots__ = ("later",)

    def __init__(self, later: tuple[int, ...]) -> None:
        super().__init__()
        self.later = later

    def __missing__(self, gid: int) -> int:
        counts = [real + held for real, held in _GROUPS[gid]]
        groups = max(counts, default=0)
        placed = sum(counts) + sum(min(tiles, groups) for tiles in self.later)
        value = self[gid] = max(0, 3 * groups - placed)
        return value


_GROUP_SHORTFALLS: Final[dict[tuple[int, ...], _GroupShortfall]] = {}


def _undominated(problem: _Problem, layer: dict[int, int], colour: int) -> dict[int, int]:
    """Drop states another state beats in ``colour``'s runs, free jokers and room alone.

    States are compared when all but that colour's runs, their free jokers, their room and
    which settled table jokers are held and which freed is equal. State A beats state B when
    A's runs cover B's (see :func:`_covers`), A scores at least as much without counting
    jokers, and either both used as many free jokers, freed the same table jokers and A has at
    least as much room (room only ever lets more surplus jokers in), or A's melds already have
    room for every free joker and A used no more free jokers, held no table joker B did not
    and freed every one B freed (a freed joker can do all a held one does, given room).
    """
    if len(layer) < 2:
        return layer
    shift = RUN_SHIFTS[colour]
    loose = _UNDOMINATED_LOOSE[colour]
    shared = _shared_buckets(layer, loose, True)
    if not shared:
        return layer
    roomy = problem.room_cap
    joker = problem.joker_score
    kept = dict(layer)
    strength = _STRENGTH
    covers = _COVERS
    for keys in shared:
        # A state comes before every state it beats: a stronger colour breaks the last ties.
        members: list[tuple[int, int, int, int, int, int, int, int]] = []
        for key in keys:
            low = key & LOW_MASK
            free = low >> FREE_SHIFT & NIBBLE
            mine = key >> shift & RUN_MASK
            jokers = low >> HELD_SHIFT & 0xFF  # held, then freed
            members.append(
                (
                    joker * free - layer[key],
                    free,
                    -(low & ROOM_MASK),
                    -(jokers >> 4).bit_count(),
                    -strength[mine],
                    key,
                    mine,
                    jokers,
                )
            )
        members.sort()
        best: list[tuple[int, int, int, int]] = []
        for _, free, room, _, _, key, mine, jokers in members:
            for f, r, j, other in best:
                if (
                    (f == free and r <= room and j == jokers)
                    or (f <= free and -r >= roomy and _fewer_held(j, jokers))
                ) and (other == mine or covers[other << 20 | mine]):
                    del kept[key]
                    break
            else:
                best.append((free, room, jokers, mine))
    return kept


def _shared_buckets(layer: dict[int, int], loose: int, by_settled: bool) -> list[list[int]]:
    """The states grouped by the bits ``loose`` keeps (and, if ``by_settled``, by which table
    jokers are settled, held or freed alike): only groups of two or more."""
    first: dict[int, int] = {}
    shared: dict[int, list[int]] = {}
    if by_settled:
        held_shift, freed_shift = HELD_SHIFT, FREED_SHIFT
        for key in layer:
            low = key & LOW_MASK
            bucket = key & loose | ((low >> held_shift | low >> freed_shift) & 15) << held_shift
            other = first.setdefault(bucket, key)
            if other != key:
                found = shared.get(bucket)
                if found is None:
                    shared[bucket] = [other, key]
                else:
                    found.append(key)
    else:
        for key in layer:
            bucket = key & loose
            other = first.setdefault(bucket, key)
            if other != key:
                found = shared.get(bucket)
                if found is None:
                    shared[bucket] = [other, key]
                else:
                    found.append(key)
    return list(shared.values())


class _Covers(dict[int, bool]):
    """``strong << 20 | weak`` (interned runs) -> whether ``strong`` covers ``weak``."""

    def __missing__(self, pair: int) -> bool:
        value = self[pair] = _covers_ids(pair >> 20, pair & RUN_MASK)
        return value


_COVERS: Final = _Covers()


ACROSS_RIVALS: Final = 64


def _undominated_across(problem: _Problem, layer: dict[int, int]) -> dict[int, int]:
    """Drop states another state beats in every colour's runs at once, once a number is done.

    The rule is :func:`_undominated`'s with every colour's runs covered (held and freed table
    jokers equal). Each state is checked against the first ``ACROSS_RIVALS`` states kept in its
    bucket, the strongest, which keeps the cost linear; a state dropped is always beaten.
    """
    if len(layer) < 2:
        return layer
    shared = _shared_buckets(layer, _ACROSS_LOOSE, False)
    if not shared:
        return layer
    roomy = problem.room_cap
    joker = problem.joker_score
    kept = dict(layer)
    strength = _STRENGTH
    covers = _COVERS
    for keys in shared:
        members: list[tuple[int, int, int, int, int, int, int, int, int]] = []
        for key in keys:
            low, r0, r1, r2, r3 = _split(key)
            free = low >> FREE_SHIFT & NIBBLE
            runs = strength[r0] + strength[r1] + strength[r2] + strength[r3]
            members.append(
                (joker * free - layer[key], free, -(low & ROOM_MASK), -runs, key, r0, r1, r2, r3)
            )
        members.sort()
        best: list[tuple[int, int, int, int, int, int]] = []
        for _, free, room, _, key, r0, r1, r2, r3 in members:
            for f, r, o0, o1, o2, o3 in best:
                if (
                    (f == free and r <= room or f < free and -r >= roomy)
                    and (o0 == r0 or covers[o0 << 20 | r0])  # equal runs cover: no lookup
                    and (o1 == r1 or covers[o1 << 20 | r1])
                    and (o2 == r2 or covers[o2 << 20 | r2])
                    and (o3 == r3 or covers[o3 << 20 | r3])
                ):
                    del kept[key]
                    break
            else:
                if len(best) < ACROSS_RIVALS:
                    best.append((free, room, r0, r1, r2, r3))
    return kept


def _fewer_held(strong: int, weak: int) -> bool:
    """Whether ``strong`` (held and freed table jokers, a nibble each) holds no joker ``weak``
    does not and frees every joker ``weak`` frees. (A joker can be held and freed at once.)"""
    return strong & ~weak & NIBBLE == 0 and weak >> 4 & ~(strong >> 4) == 0


@lru_cache(maxsize=1 << 16)
def _covers_ids(strong: int, weak: int) -> bool:
    return strong == weak or _covers(_RUNS[strong], _RUNS[weak])


@lru_cache(maxsize=1 << 16)
def _covers(strong: tuple[int, ...], weak: tuple[int, ...]) -> bool:
    """Whether the runs ``strong`` can do all that the runs ``weak`` can (same colour and cell).

    Each weak run needs its own strong run at least as long, as real, as free of a pending gap
    and with all its joker-rule marks; a strong run left over must be complete (it can end).
    """
    if len(strong) < len(weak):
        return False
    for chosen in permutations(range(len(strong)), len(weak)):
        if all(_run_covers(strong[i], run) for i, run in zip(chosen, weak, strict=True)) and all(
            strong[i] & STATUS == COMPLETE for i in range(len(strong)) if i not in chosen
        ):
            return True
    return False


def _run_covers(strong: int, weak: int) -> bool:
    if (strong & LENGTH) < (weak & LENGTH) or strong & GAP > weak & GAP:
        return False
    marks = ~(LENGTH | GAP)
    return weak & marks & ~strong == 0


def _held_choices(heldable: int, count: int) -> Iterator[int]:
    if count == 0:
        yield 0
        return
    bits = [1 << j for j in range(heldable.bit_length()) if heldable >> j & 1]
    for chosen in combinations(bits, count):
        yield sum(chosen)


def _after_cell(
    problem: _Problem, cell: _Cell, state: _State, option: _CellOption, held: int
) -> _State | None:
    new_held = state.held | held
    free = state.free + option.free
    if problem.free_left(free, new_held) < 0:
        return None
    free_left = problem.needed_left(free, new_held)
    colour_runs = option.runs
    runs = state.runs
    freed = state.freed
    if cell.real_bits:
        pairs = 0  # bit 2j: a run holds both marks of table joker j
        for run in colour_runs:
            pairs |= run >> 4 & run >> 5 & _MARK_PAIRS
        freed |= _PAIRED_JOKERS[pairs]
    if freed != state.freed or held:
        drop = _SETTLED_MARKS[new_held | freed]
        runs = tuple([_masked(rs, drop) if rs else rs for rs in runs])
        colour_runs = _masked(colour_runs, drop)
    runs = (*runs[: cell.colour], colour_runs, *runs[cell.colour + 1 :])
    if _shortfall(problem, runs, cell) > free_left:
        return None
    value = state.value
    room = state.room
    if problem.threshold:
        value = min(problem.threshold, value + option.value)
    else:
        room = min(problem.room_cap, room + option.room)
    group = state.group
    if option.group_real or option.held_in_group:
        member = (option.group_real, option.held_in_group)
        group = _grouped(group, member, cell.colour, cell.group_witness)
    elif cell.group_witness:
        group = (*group, (0, 0))
    return _State(runs, free, new_held, freed, group, value, room)


def _shortfall(problem: _Problem, runs: tuple[tuple[int, ...], ...], cell: _Cell) -> int:
    """Free jokers the runs will need at least: a run short of three needs its next one or two
    cells filled, a run ending in a gap its next one, and each tile there fills one run."""
    total = 0
    supply = problem.supply
    for colour, colour_runs in enumerate(runs):
        if colour_runs:
            following = cell.number + (1 if colour <= cell.colour else 0)
            row = supply[colour]
            total += _run_shortfall(colour_runs, row[following], row[following + 1])
    return total


@lru_cache(maxsize=1 << 12)
def _run_shortfall(runs: tuple[int, ...], next_tiles: int, then_tiles: int) -> int:
    first = sum(1 for run in runs if run & GAP or run & LENGTH < LENGTH)
    second = sum(1 for run in runs if run & LENGTH == 1)
    return max(0, first - next_tiles) + max(0, second - then_tiles)


def _grouped(
    group: tuple[tuple[int, int], ...], member: tuple[int, int], colour: int, witness: bool
) -> tuple[tuple[int, int], ...]:
    """Add a colour's tiles for groups. Groups do not care which colour is which, unless a group
    could free a table joker; then the tuple stays indexed by colour."""
    if witness:
        return (*group, member)
    return tuple(sorted((*group, member)))


def _group_step(
    problem: _Problem,
    cell: _Cell,
    layer: dict[int, int],
    bound: _Bound,
    memo: _CellMemo,
) -> tuple[dict[int, int], dict[int, Back]]:
    after: dict[int, int] = {}
    back: dict[int, Back] = {}
    surplus_at_end = problem.surplus_at_end
    needed = memo.needed_by_jokers
    joker = problem.joker_score
    floor = bound.floor - bound.rest
    options_of = memo.group_options
    threshold = problem.threshold
    room_cap = problem.room_cap
    witness = cell.group_witness
    for key, score in layer.items():
        gid = key >> GROUP_SHIFT & GROUP_MASK
        if gid == 0:
            if after.get(key, -1) < score:
                after[key] = score
                back[key] = (key, (0, ()))
            continue
        free = key >> FREE_SHIFT & NIBBLE
        slack = score - free * joker - floor
        if slack < 0:
            continue  # jokers the groups take score only what they cost: nothing to gain
        held = key >> HELD_SHIFT & NIBBLE
        freed = key >> FREED_SHIFT & NIBBLE
        live = problem.freeable & ~(held | freed) if witness else 0
        options = options_of.get(gid << 4 | live)
        if options is None:
            spec: tuple[tuple[int, int, int], ...] = ()
            if witness:
                spec = _group_spec(problem, cell.number, live)
            if spec:
                options = _group_options(_GROUPS[gid], spec, surplus_at_end)
            else:
                options = _ANY_COLOUR_OPTIONS.get(gid << 1 | surplus_at_end)
                if options is None:
                    options = _any_colour_group_options(_GROUPS[gid], surplus_at_end)
                    _ANY_COLOUR_OPTIONS[gid << 1 | surplus_at_end] = options
            options_of[gid << 4 | live] = options
        needed_left = needed[key >> FREE_SHIFT & 0xFF]
        base = key ^ (gid << GROUP_SHIFT)
        for added, freed_mask, room, partition in options:
            if added > needed_left:
                break  # options come by jokers added, fewest first
            total = score + added * joker
            new = base + (added << FREE_SHIFT) | freed_mask << FREED_SHIFT
            if freed_mask & ~freed:
                new = _without_marks(problem, new)
            if threshold:
                value = key >> VALUE_SHIFT & VALUE_MASK
                tiles = sum(real + held for real, held in _GROUPS[gid]) + added
                grown = min(threshold, value + tiles * cell.number)
                new ^= (value ^ grown) << VALUE_SHIFT
            elif room:
                old_room = key & ROOM_MASK
                new ^= old_room ^ min(room_cap, old_room + room)
            if after.get(new, -1) < total:
                after[new] = total
                back[new] = (key, (added, partition))
    return after, back


def _without_marks(problem: _Problem, key: int) -> int:
    """The state with run marks of jokers now held or freed taken off (as ``_after_cell``)."""
    drop = _SETTLED_MARKS[(key >> HELD_SHIFT | key >> FREED_SHIFT) & NIBBLE]
    new = key
    for shift in RUN_SHIFTS:
        rid = key >> shift & RUN_MASK
        if rid:
            new ^= (rid ^ _masked_id(rid, drop)) << shift
    return new


def _masked_id(rid: int, drop: int) -> int:
    """Interned runs with the run marks ``drop`` taken off."""
    found = _MASKED.get(rid << 16 | drop)
    if found is None:
        found = _MASKED[rid << 16 | drop] = _run_id(_masked(_RUNS[rid], drop))
    return found


@lru_cache(maxsize=1 << 14)
def _masked(runs: tuple[int, ...], drop: int) -> tuple[int, ...]:
    """Runs with the run marks ``drop`` taken off, sorted again."""
    return tuple(sorted(run & ~drop for run in runs))


_MASKED: Final[dict[int, int]] = {}  # interned runs << 16 | marks dropped -> interned runs


# ---------------------------------------------------------------------------------------------
# Packed states: a state is one int, runs and group tuples interned (shared by all solves)

NIBBLE: Final = 15
ROOM_MASK: Final = 31
VALUE_SHIFT: Final = 5
VALUE_MASK: Final = 2047
FREE_SHIFT: Final = 16
HELD_SHIFT: Final = 20
FREED_SHIFT: Final = 24
GROUP_SHIFT: Final = 28
GROUP_MASK: Final = (1 << 20) - 1
LOW_MASK: Final = (1 << 48) - 1  # all but the runs: fits a machine word
RUN_MASK: Final = (1 << 20) - 1
RUNS_SHIFT: Final = 48
RUN_SHIFTS: Final = tuple(RUNS_SHIFT + 20 * colour for colour in range(COLOUR_COUNT))
TWO_RUNS_SHIFT: Final = 40
TWO_RUNS: Final = (1 << TWO_RUNS_SHIFT) - 1

_RUNS: Final[list[tuple[int, ...]]] = [()]
_RUN_IDS: Final[dict[tuple[int, ...], int]] = {(): 0}
_GROUPS: Final[list[tuple[tuple[int, int], ...]]] = [()]
_GROUP_IDS: Final[dict[tuple[tuple[int, int], ...], int]] = {(): 0}
_GROUPED: Final[dict[tuple[int, tuple[int, int], int, bool], int]] = {}
_MOVES: Final[dict[tuple[int, ...], tuple[_Move, ...]]] = {}
# Per run shift: the packed fields of that colour's runs, the free jokers and the room.
_RUNS_FREE_ROOM: Final = {
    shift: RUN_MASK << shift | NIBBLE << FREE_SHIFT | ROOM_MASK for shift in RUN_SHIFTS
}
_SHORTFALL_TABLES: Final[dict[tuple[int, int], _ShortfallTable]] = {}
# Interned group << 1 | surplus at end -> its options when no table joker can be freed there.
_ANY_COLOUR_OPTIONS: Final[dict[int, tuple[tuple[int, int, int, Partition], ...]]] = {}
# What _undominated_across buckets states by: all but every colour's runs, free jokers, room.
_ACROSS_LOOSE: Final = (
    ~(NIBBLE << FREE_SHIFT) & ~ROOM_MASK & ~sum(RUN_MASK << shift for shift in RUN_SHIFTS)
)
# What _undominated buckets states by, per colour (before the settled table jokers).
_UNDOMINATED_LOOSE: Final = tuple(
    ~(RUN_MASK << shift)
    & ~(NIBBLE << FREE_SHIFT)
    & ~ROOM_MASK
    & ~(NIBBLE << HELD_SHIFT | NIBBLE << FREED_SHIFT)
    for shift in RUN_SHIFTS
)


CACHE_LIMIT = 400_000


def _trim_caches() -> None:
    """Between solves, forget interned states and compiled moves once they grow large."""
    if len(_MOVES) + 2 * len(_STEPS) + len(_RUNS) + len(_GROUPED) + len(_MASKED) < CACHE_LIMIT:
        return
    _MOVES.clear()
    _STEPS.clear()
    _STEPS_OF.clear()
    _SHORTFALL_TABLES.clear()
    _GROUP_SHORTFALLS.clear()
    _GROUPED.clear()
    _MASKED.clear()
    del _RUNS[1:]
    _RUN_IDS.clear()
    _RUN_IDS[()] = 0
    del _GROUPS[1:]
    _GROUP_IDS.clear()
    _GROUP_IDS[()] = 0
    _ANY_COLOUR_OPTIONS.clear()
    _covers_ids.cache_clear()
    _COVERS.clear()
    _SHORT.clear()
    _STRENGTH.clear()


def _run_id(runs: tuple[int, ...]) -> int:
    found = _RUN_IDS.get(runs)
    if found is None:
        found = _RUN_IDS[runs] = len(_RUNS)
        _RUNS.append(runs)
    return found


def _group_id(group: tuple[tuple[int, int], ...]) -> int:
    found = _GROUP_IDS.get(group)
    if found is None:
        found = _GROUP_IDS[group] = len(_GROUPS)
        _GROUPS.append(group)
    return found


def _grouped_id(gid: int, member: tuple[int, int], colour: int, witness: bool) -> int:
    key = (gid, member, colour, witness)
    found = _GROUPED.get(key)
    if found is None:
        group = _GROUPS[gid]
        if member != (0, 0):
            group = _grouped(group, member, colour, witness)
        elif witness:
            group = (*group, (0, 0))
        found = _GROUPED[key] = _group_id(group)
    return found


def _split(key: int) -> tuple[int, int, int, int, int]:
    """A packed state's machine-word parts: all but the runs, then each colour's interned runs.

    The key is wider than a machine word, so each shift or mask of it is a big-int operation
    (an allocation, compiled or not); the hot loops read every field from these parts instead.
    """
    low = key & LOW_MASK
    high = key >> RUNS_SHIFT
    first = high & TWO_RUNS  # colours 0 and 1
    second = high >> TWO_RUNS_SHIFT  # colours 2 and 3
    return low, first & RUN_MASK, first >> 20, second & RUN_MASK, second >> 20


def _pack(state: _State) -> int:
    key = state.room | state.value << VALUE_SHIFT
    key |= state.free << FREE_SHIFT | state.held << HELD_SHIFT | state.freed << FREED_SHIFT
    key |= _group_id(state.group) << GROUP_SHIFT
    for colour, runs in enumerate(state.runs):
        key |= _run_id(runs) << RUN_SHIFTS[colour]
    return key


def _unpack(key: int) -> _State:
    return _State(
        runs=tuple(_RUNS[key >> shift & RUN_MASK] for shift in RUN_SHIFTS),
        free=key >> FREE_SHIFT & NIBBLE,
        held=key >> HELD_SHIFT & NIBBLE,
        freed=key >> FREED_SHIFT & NIBBLE,
        group=_GROUPS[key >> GROUP_SHIFT & GROUP_MASK],
        value=key >> VALUE_SHIFT & VALUE_MASK,
        room=key & ROOM_MASK,
    )


# ---------------------------------------------------------------------------------------------
# What a cell may do: cached, since cells and positions share it


def _next_code(run: int, action: int, real_bits: int) -> int:
    """A run's code after a cell continues it (``action`` < END)."""
    run = (run & ~(LENGTH | GAP)) | min((run & LENGTH) + 1, LENGTH)
    if action == WITH_REAL:
        return run | REAL | real_bits
    if action == WITH_GAP:
        return run | GAP
    return run


def _start_code(real: bool, before: int, real_bits: int) -> int:
    """A new run's code: its first tile with ``before`` free jokers ahead of it."""
    length = min(1 + before, LENGTH)
    return length | REAL | real_bits if real else length


def _run_choices(run: int, free_left: int, ahead: int, surplus_at_end: bool) -> list[int]:
    choices = [WITH_REAL, WITH_HELD]
    if free_left:
        choices.append(WITH_GAP)
    if run & (REAL | GAP) == REAL:
        needed = max(0, 3 - (run & LENGTH))
        most = needed if surplus_at_end else min(free_left, ahead)
        choices.extend(END + k for k in range(needed, min(most, free_left) + 1))
    return choices


def _jokers_of(action: int) -> int:
    if action == WITH_GAP:
        return 1
    return action - END if action >= END else 0


def _run_actions(
    runs: tuple[int, ...], free_left: int, ahead: int, surplus_at_end: bool
) -> Iterator[tuple[int, ...]]:
    """Every choice of actions for the runs reaching a cell, spending at most ``free_left``.

    Runs with the same code are interchangeable, so their actions are taken in order.
    """
    if not runs:
        yield ()
        return
    first, rest = runs[0], runs[1:]
    for action in _run_choices(first, free_left, ahead, surplus_at_end):
        spent = _jokers_of(action)
        for tail in _run_actions(rest, free_left - spent, ahead, surplus_at_end):
            if rest and rest[0] == first and tail[0] < action:
                continue
            yield (action, *tail)


def _run_starts(
    real: int, held: int, free: int, before: int
) -> Iterator[tuple[tuple[bool, int], ...]]:
    """New runs: up to ``real`` on real tiles and ``held`` on held jokers, each with free jokers
    before it (at most ``before`` each, ``free`` in all), as tuples of (real?, jokers)."""
    for real_count in range(real + 1):
        for held_count in range(held + 1):
            for real_before in _spreads(real_count, free, before):
                for held_before in _spreads(held_count, free - sum(real_before), before):
                    yield tuple((True, k) for k in real_before) + tuple(
                        (False, k) for k in held_before
                    )


def _spreads(count: int, budget: int, most: int) -> Iterator[tuple[int, ...]]:
    """Non-increasing tuples of ``count`` ints in 0..``most`` summing to at most ``budget``."""
    if count == 0:
        yield ()
        return
    for first in range(min(budget, most), -1, -1):
        for rest in _spreads(count - 1, budget - first, first):
            yield (first, *rest)


@lru_cache(maxsize=1 << 18)
def _cell_options(
    runs: tuple[int, ...],
    must: int,
    may: int,
    heldable: int,
    free_left: int,
    real_bits: int,
    number: int,
    ahead: int,
    surplus_at_end: bool,
) -> tuple[_CellOption, ...]:
    """Every way a cell can place its tiles, given the runs of its colour reaching it.

    ``heldable`` table jokers may be placed here as the tile they stood for; ``free_left`` free
    jokers may still be placed; ``ahead`` cells of this colour remain, this one included.
    """
    options = []
    most = must + may
    before_room = 0 if surplus_at_end else number - 1
    for actions in _run_actions(runs, free_left, ahead, surplus_at_end):
        cont_real = actions.count(WITH_REAL)
        cont_held = actions.count(WITH_HELD)
        if cont_real > most or cont_held > heldable:
            continue
        ended_bare = END in actions
        spent = sum(_jokers_of(a) for a in actions)
        continued = [
            _next_code(run, action, real_bits)
            for run, action in zip(runs, actions, strict=True)
            if action < END
        ]
        ends = [action - END for action in actions if action >= END]
        value = number * len(continued) + sum(_trailing_value(number, k) for k in ends)
        room = sum(ahead - k for k in ends)
        real_room = 0 if ended_bare else most - cont_real
        held_room = 0 if ended_bare else heldable - cont_held
        for starts in _run_starts(real_room, held_room, free_left - spent, before_room):
            new_runs = tuple(
                sorted(continued + [_start_code(real, k, real_bits) for real, k in starts])
            )
            start_value = sum(number + _leading_value(number, k) for _, k in starts)
            real_starts = sum(1 for real, _ in starts if real)
            held_used = cont_held + len(starts) - real_starts
            for group_real in range(most - cont_real - real_starts + 1):
                real = cont_real + real_starts + group_real
                if real < must or (ended_bare and real != most):
                    continue
                for held_in_group in range(heldable - held_used + 1):
                    options.append(
                        _CellOption(
                            runs=new_runs,
                            actions=actions,
                            starts=starts,
                            real=real,
                            held=held_used + held_in_group,
                            held_in_group=held_in_group,
                            group_real=group_real,
                            free=spent + sum(k for _, k in starts),
                            value=value + start_value,
                            room=room + (number - 1) * len(starts),
                        )
                    )
    return tuple(options)


def _trailing_value(number: int, jokers: int) -> int:
    """The value of ``jokers`` free jokers ending a run at cells ``number`` and up."""
    return sum(range(number, number + jokers))


def _leading_value(number: int, jokers: int) -> int:
    """The value of ``jokers`` free jokers just below ``number``."""
    return sum(range(number - jokers, number))


# ---------------------------------------------------------------------------------------------
# How groups form: cached too
Member = tuple[int, bool]  # (colour, real?) of a tile in a group
Group = tuple[tuple[Member, ...], int]  # members and free jokers
Partition = tuple[Group, ...]


@lru_cache(maxsize=1 << 14)
def _group_options(
    group: tuple[tuple[int, int], ...],
    spec: tuple[tuple[int, int, int], ...],
    surplus_at_end: bool,
) -> tuple[tuple[int, int, int, Partition], ...]:
    """Ways to form groups from one number's tiles set aside for groups.

    ``group`` holds (real tiles, held jokers) per colour; ``spec`` lists the table jokers a group
    may free (see :func:`_group_spec`). Returns (free jokers added, jokers freed, room for
    surplus jokers, a partition), one per distinct outcome. After the opening a group gets only
    the jokers it needs; before it, any number up to four tiles.
    """
    if not any(real or held for real, held in group):
        return ((0, 0, 0, ()),)
    found: dict[tuple[int, int, int], Partition] = {}
    for partition in _partition_shapes(group, spec):
        if any(not any(real for _, real in members) for members in partition):
            continue
        need = sum(max(0, 3 - len(members)) for members in partition)
        most = need if surplus_at_end else sum(4 - len(members) for members in partition)
        room = _room_of((members, 0) for members in partition) if surplus_at_end else 0
        freed = _freed_by(partition, spec)
        for free in range(need, most + 1):
            found.setdefault((free, freed, room), _with_jokers(partition, free))
    return tuple((free, freed, room, p) for (free, freed, room), p in sorted(found.items()))


def _any_colour_group_options(
    group: tuple[tuple[int, int], ...], surplus_at_end: bool
) -> tuple[tuple[int, int, int, Partition], ...]:
    """:func:`_group_options` with no table joker to free, where colours do not matter: worked
    out once for the tiles sorted, its partitions naming the colours of ``group``."""
    order = sorted((pair, colour) for colour, pair in enumerate(group) if pair != (0, 0))
    sorted_group = tuple(pair for pair, _ in order)
    options = _group_options(sorted_group, (), surplus_at_end)
    if sorted_group == group:
        return options
    return tuple(
        (
            free,
            freed,
            room,
            tuple(
                (tuple(sorted((order[place][1], real) for place, real in members)), jokers)
                for members, jokers in partition
            ),
        )
        for free, freed, room, partition in options
    )


def _room_of(groups: Iterable[tuple[tuple[Member, ...], int]]) -> int:
    """Groups of three or fewer tiles (before jokers) end as threes: each takes one joker more."""
    return sum(1 for members, _ in groups if len(members) <= 3)


def _freed_by(
    partition: Iterable[tuple[Member, ...]], spec: tuple[tuple[int, int, int], ...]
) -> int:
    freed = 0
    for j, roles, mates in spec:
        for members in partition:
            colours = [colour for colour, real in members if real]
            if any(roles >> c & 1 for c in colours) and any(mates >> c & 1 for c in colours):
                freed |= 1 << j
                break
    return freed


def _partition_shapes(
    group: tuple[tuple[int, int], ...], spec: tuple[tuple[int, int, int], ...]
) -> list[tuple[tuple[Member, ...], ...]]:
    """One way to spread the tiles over groups (one tile of a colour per group at most) for
    each distinct shape: what the groups are as far as :func:`_group_options` can tell, each
    group's size, whether it holds a real tile and which role and mate colours of the table
    jokers in ``spec`` its real tiles have. (Every partition has the shape of one returned.)

    Colours are placed one at a time; partial partitions of the same shape have the same
    futures, so one of each is kept, and groups of the same shape are interchangeable, so only
    how many of them take a real tile and how many a held joker is chosen.
    """
    marks_of = []
    for colour in range(len(group)):
        marks = 0
        for k, (_, roles, mates) in enumerate(spec):
            marks |= (roles >> colour & 1) << (2 * k) | (mates >> colour & 1) << (2 * k + 1)
        marks_of.append(marks)

    # A shape is an int: the group's size, then whether it holds a real tile, then its marks.
    layer: dict[tuple[int, ...], tuple[list[int], list[list[Member]]]] = {(): ([], [])}
    for colour, (real, held) in enumerate(group):
        if real + held == 0:
            continue
        real_marks = 8 | marks_of[colour] << 4
        following: dict[tuple[int, ...], tuple[list[int], list[list[Member]]]] = {}
        for shapes, groups in layer.values():
            classes: dict[int, list[int]] = {}
            for n, shape in enumerate(shapes):
                classes.setdefault(shape, []).append(n)
            for takes in _class_takes(list(classes.values()), real, held):
                grown_shapes = list(shapes)
                grown = [list(members) for members in groups]
                real_left, held_left = real, held
                for indexes, (reals, helds) in takes:
                    for n in indexes[:reals]:
                        grown[n].append((colour, True))
                        grown_shapes[n] = (grown_shapes[n] + 1) | real_marks
                    for n in indexes[reals : reals + helds]:
                        grown[n].append((colour, False))
                        grown_shapes[n] += 1
                    real_left -= reals
                    held_left -= helds
                grown += [[(colour, True)] for _ in range(real_left)]
                grown_shapes += [1 | real_marks] * real_left
                grown += [[(colour, False)] for _ in range(held_left)]
                grown_shapes += [1] * held_left
                key = tuple(sorted(grown_shapes))
                if key not in following:
                    following[key] = (grown_shapes, grown)
        layer = following
    return sorted(tuple(sorted(tuple(g) for g in groups)) for _, groups in layer.values())


def _class_takes(
    classes: list[list[int]], real: int, held: int
) -> Iterator[list[tuple[list[int], tuple[int, int]]]]:
    """For each class of same-shape groups, how many take a real tile and how many a held
    joker (each group one tile at most), using at most ``real`` and ``held`` in all."""
    if not classes:
        yield []
        return
    first, rest = classes[0], classes[1:]
    for reals in range(min(real, len(first)) + 1):
        for helds in range(min(held, len(first) - reals) + 1):
            for tail in _class_takes(rest, real - reals, held - helds):
                yield [(first, (reals, helds)), *tail]


def _with_jokers(partition: tuple[tuple[Member, ...], ...], free: int) -> Partition:
    """Hand ``free`` jokers to the groups: first to groups short of three, then to any."""
    extra = [max(0, 3 - len(members)) for members in partition]
    left = free - sum(extra)
    for n, members in enumerate(partition):
        add = min(left, 4 - len(members) - extra[n])
        extra[n] += add
        left -= add
    return tuple((members, extra[n]) for n, members in enumerate(partition))


# ---------------------------------------------------------------------------------------------
# From the best final state back to melds


@dataclass(slots=True)
class _LiveRun:
    code: int
    built: _Built


def _rebuild(
    problem: _Problem, cells: Sequence[_Cell], history: Sequence[_BackPointers], last: int
) -> list[_Built]:
    """Replay the choices that led to ``last`` and write down the melds they make."""
    steps: list[tuple[int, CellChoice | GroupChoice, int]] = []
    key = last
    for back in reversed(history):
        previous, choice = back[key]
        steps.append((previous, choice, key))
        key = previous
    steps.reverse()
    melds: list[_Built] = []
    live: list[list[_LiveRun]] = [[] for _ in COLOURS]
    pending: list[list[Label]] = [[] for _ in COLOURS]
    step_iter = iter(steps)
    for cell in cells:
        before, choice, after = next(step_iter)
        option, held = choice
        if not (isinstance(option, _CellOption) and isinstance(held, int)):
            raise AssertionError("a cell step without a cell choice")
        if option is not _NOTHING or live[cell.colour]:
            # (A cell doing nothing with no run to end changes no meld and settles no joker.)
            _replay_cell(problem, cell, before, after, option, held, live, pending, melds)
        if cell.last_colour:
            before, group_choice, _ = next(step_iter)
            melds.extend(_replay_groups(problem, cell, before, group_choice, pending))
            pending = [[] for _ in COLOURS]
    for runs in live:
        for run in runs:
            jokers = LENGTH - (run.code & LENGTH)
            melds.append(_completed(run.built, jokers, problem.numbers, problem.numbers))
    return melds


def _replay_groups(
    problem: _Problem,
    cell: _Cell,
    before: int,
    choice: CellChoice | GroupChoice,
    pending: list[list[Label]],
) -> Iterator[_Built]:
    """The groups of one number. Where colours did not matter the programme saw them sorted
    (see :func:`_grouped`): its partition names places in that order, so name the colours."""
    free, partition = choice
    if isinstance(partition, int) or isinstance(free, _CellOption):
        raise AssertionError("a group step without a partition")
    if not cell.group_witness:
        order = sorted(
            (
                (
                    sum(isinstance(x, Tile) for x in labels),
                    sum(not isinstance(x, Tile) for x in labels),
                ),
                colour,
            )
            for colour, labels in enumerate(pending)
            if labels
        )
        assert tuple(pair for pair, _ in order) == _GROUPS[before >> GROUP_SHIFT & GROUP_MASK]
        partition = tuple(
            (tuple((order[place][1], real) for place, real in members), jokers)
            for members, jokers in partition
        )
    for members, jokers in partition:
        labels = [_take(pending[colour], real) for colour, real in members]
        yield _Built(labels + [FREE_JOKER] * jokers, run=False)


def _take(labels: list[Label], real: bool) -> Label:
    for n, label in enumerate(labels):
        if isinstance(label, Tile) == real:
            return labels.pop(n)
    raise AssertionError("a group member has no tile")


def _replay_cell(
    problem: _Problem,
    cell: _Cell,
    before: int,
    after: int,
    option: _CellOption,
    held: int,
    live: list[list[_LiveRun]],
    pending: list[list[Label]],
    melds: list[_Built],
) -> None:
    tile = _tile(cell.colour, cell.number)
    real_bits = cell.real_bits and cell.real_bits & _live_bits(problem, _settled(before))
    held_jokers: list[Label] = [j for j in range(held.bit_length()) if held >> j & 1]
    group_tiles: list[Label] = [tile] * option.group_real
    pending[cell.colour] = group_tiles + held_jokers[: option.held_in_group]
    in_runs = iter(held_jokers[option.held_in_group :])
    runs = sorted(live[cell.colour], key=lambda run: run.code)
    kept: list[_LiveRun] = []
    for run, action in zip(runs, option.actions, strict=True):
        if action >= END:
            melds.append(_completed(run.built, action - END, cell.number - 1, problem.numbers))
            continue
        if action == WITH_REAL:
            run.built.labels.append(tile)
        elif action == WITH_HELD:
            run.built.labels.append(next(in_runs))
        else:
            run.built.labels.append(FREE_JOKER)
        run.code = _next_code(run.code, action, real_bits)
        kept.append(run)
    for real, before_it in option.starts:
        first: Label = tile if real else next(in_runs)
        labels: list[Label] = [FREE_JOKER] * before_it
        built = _Built([*labels, first], run=True, start=cell.number - before_it)
        kept.append(_LiveRun(_start_code(real, before_it, real_bits), built))
    live[cell.colour] = kept
    _drop_settled_marks(problem, after, live)
    assert (
        tuple(sorted(run.code for run in kept))
        == _RUNS[after >> RUN_SHIFTS[cell.colour] & RUN_MASK]
    )


def _drop_settled_marks(problem: _Problem, after: int, live: list[list[_LiveRun]]) -> None:
    """Take the marks of table jokers settled in ``after`` off the live runs, as the programme
    does (nothing to do while none is settled)."""
    if _settled(after):
        keep = ~_SETTLED_MARKS[_settled(after)]
        for runs_of_colour in live:
            for run in runs_of_colour:
                run.code &= keep


def _settled(key: int) -> int:
    """The table jokers a packed state holds or freed."""
    return (key >> HELD_SHIFT | key >> FREED_SHIFT) & NIBBLE


def _completed(built: _Built, jokers: int, last: int, numbers: int) -> _Built:
    """A run ending at ``last`` with ``jokers`` more: after it while they fit, else before it."""
    after = min(jokers, numbers - last)
    built.labels.extend([FREE_JOKER] * after)
    before = jokers - after
    built.labels[:0] = [FREE_JOKER] * before
    built.start -= before
    return built


def _add_surplus(numbers: int, melds: list[_Built], surplus: int) -> None:
    """Put surplus jokers where there is room: run ends first, then groups of three."""
    for built in melds:
        if surplus == 0:
            return
        if built.run:
            fit_after = numbers - (built.start + len(built.labels) - 1)
            add = min(surplus, fit_after)
            built.labels.extend([FREE_JOKER] * add)
            surplus -= add
            add = min(surplus, built.start - 1)
            built.labels[:0] = [FREE_JOKER] * add
            built.start -= add
            surplus -= add
        elif len(built.labels) == 3:
            built.labels.append(FREE_JOKER)
            surplus -= 1
    assert surplus == 0, "the programme counted room that is not there"


# ---------------------------------------------------------------------------------------------
# From labels to tile ids
def _assign_ids(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    rack: Sequence[int],
    melds: Sequence[_Built],
    initial_meld_done: bool,
) -> tuple[tuple[int, ...], ...]:
    """Give each labelled place a physical tile; a freed joker's mate goes beside its freer."""
    sources = [i for meld in table for i in meld] if initial_meld_done else []
    sources += list(rack)
    pools: dict[Tile, list[int]] = {}
    for i in sources:
        pools.setdefault(kinds[i], []).append(i)
    rack_set = set(rack)
    table_jokers = [i for i in sources if kinds[i].is_joker and i not in rack_set]
    held = {x for meld in melds for x in meld.labels if isinstance(x, int) and x >= 0}
    free = [i for j, i in enumerate(table_jokers) if j not in held]
    free += [i for i in rack if kinds[i].is_joker]
    result: list[list[int]] = []
    for meld in melds:
        ids = []
        for label in _written(meld):
            if isinstance(label, Tile):
                ids.append(pools[label].pop(0))
            elif label == FREE_JOKER:
                ids.append(free.pop(0))
            else:
                ids.append(table_jokers[label])
        result.append(ids)
    if initial_meld_done:
        _seat_mates(rules, kinds, table, result, held)
    return tuple(tuple(meld) for meld in result)


def _written(built: _Built) -> list[Label]:
    """A run stays in number order; a group is written real tiles first, then jokers."""
    if built.run:
        return built.labels
    return sorted(built.labels, key=lambda label: not isinstance(label, Tile))


def _seat_mates(
    rules: Rules,
    kinds: Sequence[Tile],
    table: Sequence[Sequence[int]],
    after: list[list[int]],
    held: set[int],
) -> None:
    """Swap copies of a kind so each freed table joker has an old meld-mate beside its freer.

    The programme frees a joker when some meld holds a real tile the joker stood for and a real
    tile of the kind of one of its old mates; that tile may be another copy, so put the mate
    itself there (same kind, so every meld stays as valid).
    """
    j = -1
    for meld in table:
        tiles = tuple(kinds[i] for i in meld)
        if not any(tile.is_joker for tile in tiles):
            continue
        jokers = iter(_meld_jokers(tiles, rules.max_number))
        for tile_id in meld:
            if not kinds[tile_id].is_joker:
                continue
            j += 1
            roles = next(jokers).roles
            if j in held:
                continue
            mates = [i for i in meld if i != tile_id]
            if _is_replaced(kinds, after, roles, mates):
                continue
            _move_mate_beside(kinds, after, roles, [i for i in mates if not kinds[i].is_joker])


def _is_replaced(
    kinds: Sequence[Tile], after: Sequence[Sequence[int]], roles: frozenset[Tile], mates: list[int]
) -> bool:
    mate_set = set(mates)
    return any(
        mate_set.intersection(meld) and any(kinds[i] in roles for i in meld) for meld in after
    )


def _move_mate_beside(
    kinds: Sequence[Tile], after: list[list[int]], roles: frozenset[Tile], mates: list[int]
) -> None:
    where = {tile_id: (m, p) for m, meld in enumerate(after) for p, tile_id in enumerate(meld)}
    for meld_index, meld in enumerate(after):
        if not any(kinds[i] in roles for i in meld):
            continue
        for pos, tile_id in enumerate(meld):
            for mate in mates:
                if kinds[mate] == kinds[tile_id]:
                    other_meld, other_pos = where[mate]
                    after[other_meld][other_pos] = tile_id
                    after[meld_index][pos] = mate
                    return
