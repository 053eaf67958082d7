"""What a cell may do with its tiles, and how one number's tiles form groups.

:func:`_cell_options` lists every way a cell can place its tiles given the runs of its colour
that reach it: continue each run (with a real tile, a held table joker or a free joker in a
gap), end it (with the free jokers it still needs), start new runs, set tiles aside for the
number's groups. :func:`_group_options` lists the ways the tiles set aside at a number form
groups, one partition per distinct outcome. Both depend only on small tuples, not on a problem,
so they are cached: cells and positions share them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from .packing import GAP, LENGTH, REAL

# What a cell does with a run reaching it; END + k ends it with k free jokers to complete it.
WITH_REAL, WITH_HELD, WITH_GAP, END = 1, 2, 3, 4


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


CellChoice = tuple["_CellOption", int]  # the option and the table jokers it holds
GroupChoice = tuple[int, "Partition"]  # free jokers added and the groups formed
Back = tuple[int, CellChoice | GroupChoice]  # the packed state before, and the choice


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


def _trailing_value(number: int, jokers: int) -> int:
    """The value of ``jokers`` free jokers ending a run at cells ``number`` and up."""
    return sum(range(number, number + jokers))


def _leading_value(number: int, jokers: int) -> int:
    """The value of ``jokers`` free jokers just below ``number``."""
    return sum(range(number - jokers, number))


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
    may free (see :func:`.problem._group_spec`). Returns (free jokers added, jokers freed, room for
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
