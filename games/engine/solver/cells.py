"""Cell steps: what one cell, and then one number's groups, do to every state of a layer.

:func:`_cell_step` is the programme's hot loop. A cell's options are compiled for packed states
(:class:`_Move`, :func:`_compiled_moves`), then into steps per the colour's runs, free jokers
left and settled table jokers (:func:`_steps`), sorted by how far they lower the bound so the
loop stops at the first a state cannot afford. Most steps add to the packed state directly;
those that hold or free a table joker go through jokers.py's ``_settle``. What a cell learns
is kept: per pass over the same problem in its memo (:class:`_CellMemo`, :class:`_Memos`), and
across problems and solves by signature. After a number's last colour :func:`_group_step`
forms the groups. Each step returns the layer after it and back pointers for rebuild.py
(:class:`_Unchanged` when it left every state as it was).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .jokers import (
    _GROUP_SHORTFALLS,
    _SHORTFALL_TABLES,
    _frees,
    _GroupShortfall,
    _needed_by_jokers,
    _NoShortfall,
    _settle,
    _ShortfallTable,
    _spare_table,
    _without_marks,
)
from .options import (
    Back,
    CellChoice,
    GroupChoice,
    Partition,
    _any_colour_group_options,
    _cell_options,
    _CellOption,
    _group_options,
)
from .packing import (
    _GROUPS,
    _RUNS,
    COLOUR_COUNT,
    FREE_SHIFT,
    FREED_SHIFT,
    GROUP_MASK,
    GROUP_SHIFT,
    HELD_SHIFT,
    NIBBLE,
    ROOM_MASK,
    RUN_MASK,
    RUN_SHIFTS,
    VALUE_MASK,
    VALUE_SHIFT,
    _grouped_id,
    _run_id,
    _split,
)
from .problem import _Bound, _Cell, _group_spec, _live_bits, _Problem

# How a compiled move changes a packed state: only the colour's runs and the free jokers, more
# packed fields (groups, value, room), or it holds or frees a table joker (unpacked).
_PLAIN, _ROOM, _TOUCHES, _SETTLES = 0, 1, 2, 3
# skip, kind, need, gain, delta, aux, move, moved: ``aux`` is the room the move adds (_ROOM)
# or the packed fields it reads and changes (_TOUCHES), whose ``moved`` caches the state after
# by those fields.
_Step = tuple[int, int, int, int, int, int, "_Move", dict[int, int]]

MOVED_LIMIT: Final = 256
_STEPS: Final[dict[tuple[tuple[int, ...], int, int, tuple[int, int, int]], list[_Step]]] = {}
_STEPS_OF: Final[dict[tuple[int, ...], dict[int, list[_Step]]]] = {}

_MOVES: Final[dict[tuple[int, ...], tuple[_Move, ...]]] = {}
# Per run shift: the packed fields of that colour's runs, the free jokers and the room.
_RUNS_FREE_ROOM: Final = {
    shift: RUN_MASK << shift | NIBBLE << FREE_SHIFT | ROOM_MASK for shift in RUN_SHIFTS
}

# Interned group << 1 | surplus at end -> its options when no table joker can be freed there.
_ANY_COLOUR_OPTIONS: Final[dict[int, tuple[tuple[int, int, int, Partition], ...]]] = {}


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
