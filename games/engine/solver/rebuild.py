"""Rebuilding the table: from the best final state back to melds, then to tile ids.

:func:`_rebuild` follows the back pointers from the best final state to the first cell, then
replays each cell's choice, writing the runs and groups it makes as labelled melds
(:class:`_Built`: real tiles, free jokers, held table jokers); :func:`_add_surplus` puts the
surplus jokers where there is room. :func:`_assign_ids` gives each place a physical tile, and
:func:`_seat_mates` swaps copies of a kind so that each freed table joker's old meld-mate sits
beside the real tile that freed it (what ``check_turn`` asks).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from ..rules import Rules
from ..tiles import COLOURS, Tile
from .cells import _NOTHING, _BackPointers
from .jokers import _SETTLED_MARKS, _settled
from .options import (
    END,
    WITH_HELD,
    WITH_REAL,
    CellChoice,
    GroupChoice,
    _CellOption,
    _next_code,
    _start_code,
)
from .packing import _GROUPS, _RUNS, GROUP_MASK, GROUP_SHIFT, LENGTH, RUN_MASK, RUN_SHIFTS
from .problem import _Cell, _live_bits, _meld_jokers, _Problem

# A label says what fills a place in a meld: a real tile, a free joker, or table joker ``j``
# (an int >= 0) held as a tile it stood for.
Label = Tile | int
FREE_JOKER: Final = -1


@dataclass(slots=True)
class _Built:
    """A meld as the replay writes it: runs know their first number."""

    labels: list[Label]
    run: bool
    start: int = 0


@dataclass(slots=True)
class _LiveRun:
    code: int
    built: _Built


@cache
def _tile(colour: int, number: int) -> Tile:
    """The kind in colour ``colour`` (an index into COLOURS) and ``number``, made once."""
    return Tile(COLOURS[colour], number)


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


def _replay_groups(
    problem: _Problem,
    cell: _Cell,
    before: int,
    choice: CellChoice | GroupChoice,
    pending: list[list[Label]],
) -> Iterator[_Built]:
    """The groups of one number. Where colours did not matter the programme saw them sorted
    (see :func:`.packing._grouped`): its partition names places in that order, so name the
    colours."""
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


def _drop_settled_marks(problem: _Problem, after: int, live: list[list[_LiveRun]]) -> None:
    """Take the marks of table jokers settled in ``after`` off the live runs, as the programme
    does (nothing to do while none is settled)."""
    if _settled(after):
        keep = ~_SETTLED_MARKS[_settled(after)]
        for runs_of_colour in live:
            for run in runs_of_colour:
                run.code &= keep


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
