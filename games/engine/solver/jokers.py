"""Joker bookkeeping: table jokers held or freed, and the free jokers states still need.

A table joker is settled once it is held (placed as a tile it stood for) or freed (a meld
holds a real tile it stood for and a real tile of one of its old meld-mates' kinds; it is then
a free joker). A run frees a
joker when it holds both of the joker's marks (:func:`_frees`); once a joker is settled its
marks come off every run (:func:`_masked`, :func:`_without_marks`), and a joker that can no
longer be settled ends the states that left it unsettled (:func:`_alive`). The cell options
that hold or free a joker go through :func:`_settle`, on unpacked states (:func:`_after_cell`).

The tables here count free jokers, by the packed fields states keep them in: how many a state
may still place where a meld needs them and how many it has left (:func:`_needed_by_jokers`,
:func:`_spare_table`), and the fewest its runs (:class:`_ShortfallTable`) and the tiles it set
aside for groups (:class:`_GroupShortfall`) will need.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations
from typing import Final

from .options import Back, _CellOption
from .packing import (
    _GROUPS,
    _RUNS,
    FREE_SHIFT,
    FREED_SHIFT,
    GAP,
    HELD_SHIFT,
    LENGTH,
    NIBBLE,
    RUN_MASK,
    RUN_SHIFTS,
    _grouped,
    _mate_bit,
    _pack,
    _role_bit,
    _run_id,
    _State,
    _unpack,
)
from .problem import _Bound, _Cell, _Problem

_MARK_PAIRS: Final = sum(1 << (2 * j) for j in range(4))  # one pair per table joker (a nibble)
# Pairs of marks held (bit 2j for table joker j) -> the table jokers they free.
_PAIRED_JOKERS: Final = [
    sum(1 << j for j in range(4) if pairs >> (2 * j) & 1) for pairs in range(256)
]
# Settled table jokers -> their run marks (which runs drop once they are held or freed).
_SETTLED_MARKS: Final = [
    sum(_role_bit(j) | _mate_bit(j) for j in range(4) if settled >> j & 1) for settled in range(16)
]


def _settled(key: int) -> int:
    """The table jokers a packed state holds or freed."""
    return (key >> HELD_SHIFT | key >> FREED_SHIFT) & NIBBLE


def _frees(runs: tuple[int, ...]) -> bool:
    """Whether a run holds both marks of a table joker (marks of settled jokers are gone)."""
    return any(run >> 4 & run >> 5 & _MARK_PAIRS for run in runs)


def _held_choices(heldable: int, count: int) -> Iterator[int]:
    if count == 0:
        yield 0
        return
    bits = [1 << j for j in range(heldable.bit_length()) if heldable >> j & 1]
    for chosen in combinations(bits, count):
        yield sum(chosen)


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


@lru_cache(maxsize=1 << 14)
def _masked(runs: tuple[int, ...], drop: int) -> tuple[int, ...]:
    """Runs with the run marks ``drop`` taken off, sorted again."""
    return tuple(sorted(run & ~drop for run in runs))


_MASKED: Final[dict[int, int]] = {}  # interned runs << 16 | marks dropped -> interned runs


def _masked_id(rid: int, drop: int) -> int:
    """Interned runs with the run marks ``drop`` taken off."""
    found = _MASKED.get(rid << 16 | drop)
    if found is None:
        found = _MASKED[rid << 16 | drop] = _run_id(_masked(_RUNS[rid], drop))
    return found


def _without_marks(problem: _Problem, key: int) -> int:
    """The state with run marks of jokers now held or freed taken off (as ``_after_cell``)."""
    drop = _SETTLED_MARKS[(key >> HELD_SHIFT | key >> FREED_SHIFT) & NIBBLE]
    new = key
    for shift in RUN_SHIFTS:
        rid = key >> shift & RUN_MASK
        if rid:
            new ^= (rid ^ _masked_id(rid, drop)) << shift
    return new


def _alive(layer: dict[int, int], expired: int) -> dict[int, int]:
    """Drop states that left an expired table joker neither held nor freed: they cannot end."""
    return {
        key: score
        for key, score in layer.items()
        if not expired & ~((key >> HELD_SHIFT | key >> FREED_SHIFT) & NIBBLE)
    }


_NEEDED: Final[dict[tuple[int, int, int, int], list[list[int]]]] = {}
_NEEDED_BY_JOKERS: Final[dict[tuple[int, int, int, int], list[int]]] = {}


def _needed_table(problem: _Problem) -> list[list[int]]:
    """[free][held]: free jokers that may still be placed where a meld needs them."""
    key = (problem.rack_jokers, problem.freeable, problem.needed_cap, problem.threshold)
    found = _NEEDED.get(key)
    if found is None:
        found = [[problem.needed_left(free, held) for held in range(16)] for free in range(16)]
        _NEEDED[key] = found
    return found


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


_SHORTFALL_TABLES: Final[dict[tuple[int, int], _ShortfallTable]] = {}


@lru_cache(maxsize=1 << 12)
def _run_shortfall(runs: tuple[int, ...], next_tiles: int, then_tiles: int) -> int:
    first = sum(1 for run in runs if run & GAP or run & LENGTH < LENGTH)
    second = sum(1 for run in runs if run & LENGTH == 1)
    return max(0, first - next_tiles) + max(0, second - then_tiles)


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
