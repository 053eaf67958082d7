"""Setting a problem up: the cells, their tiles, the table jokers, and the bounds.

A problem (:class:`_Problem`) is what the programme needs of a position: per colour and
number, the real tiles that must be placed (the table's) and may be (the rack's); the table
jokers (:class:`_TableJoker`: the tiles each stood for, its old meld-mates' kinds) and which
of them some real tile could free; the rack jokers; the opening threshold, and how a rack tile
played scores. Its cells (:func:`_cells`) come numbers ascending, colours in order, each with
what table jokers make of it: which may be held there, which run marks its real tiles add, and,
on a number's last colour, which table jokers can no longer be held or freed after it.

The bounds: every rack tile that could be in some meld and every rack joker bound what a play
scores (:func:`_upper_bound`); per cell, what the cells still to come could add
(:func:`_future_gains`) is what a step's :class:`_Bound` keeps states by.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from ..melds import readings
from ..rules import Rules
from ..tiles import COLOURS, JOKER_PENALTY, Tile
from .packing import COLOUR_COUNT, _mate_bit, _role_bit

BIG: Final = 10_000  # a tile outweighs any points a turn can take off a rack


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


_COLOUR_INDEX: Final = {code: colour for colour, code in enumerate(COLOURS)}


def _counts(kinds: Sequence[Tile], ids: Sequence[int], numbers: int) -> tuple[tuple[int, ...], ...]:
    counts = [[0] * (numbers + 1) for _ in COLOURS]
    index = _COLOUR_INDEX
    for i in ids:
        tile = kinds[i]
        if tile.colour is not None:
            counts[index[tile.colour]][tile.number] += 1
    return tuple(tuple(row) for row in counts)


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


def _could_meld(problem: _Problem, colour: int, number: int, jokers: int) -> bool:
    """Whether a tile could be in some meld with the tiles and jokers there are."""
    row = problem.supply[colour]
    for start in range(max(1, number - 2), min(number, problem.numbers - 2) + 1):
        missing = sum(1 for n in range(start, start + 3) if n != number and not row[n])
        if missing <= jokers:
            return True
    others = sum(1 for c in range(COLOUR_COUNT) if c != colour and problem.supply[c][number])
    return others + jokers >= 2


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
