"""Dominance: drop states that another state of the layer beats.

After every cell, states equal but in the colour just done, their free jokers, room and which
settled table jokers were held or freed are compared (:func:`_undominated`); after every number,
states equal but in every colour's runs, free jokers and room (:func:`_undominated_across`,
against the strongest few of each bucket). A state is beaten when the other's runs cover its
runs (:func:`_covers`: each of its runs has its own run at least as long, as real, as free of
a pending gap and with all its joker-rule marks, and every other run can end), it scores at
least as much without counting jokers, and either it used as many free jokers and has at least
as much room, or its melds have room for every free joker and it used no more of them (with
the settled table jokers compared as each function says). Dropping a beaten state never loses
the best play.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Final

from .packing import (
    _RUNS,
    COMPLETE,
    FREE_SHIFT,
    FREED_SHIFT,
    GAP,
    HELD_SHIFT,
    LENGTH,
    LOW_MASK,
    NIBBLE,
    ROOM_MASK,
    RUN_MASK,
    RUN_SHIFTS,
    STATUS,
    _split,
)
from .problem import _Problem

ACROSS_RIVALS: Final = 64

# What _undominated buckets states by, per colour (before the settled table jokers).
_UNDOMINATED_LOOSE: Final = tuple(
    ~(RUN_MASK << shift)
    & ~(NIBBLE << FREE_SHIFT)
    & ~ROOM_MASK
    & ~(NIBBLE << HELD_SHIFT | NIBBLE << FREED_SHIFT)
    for shift in RUN_SHIFTS
)

# What _undominated_across buckets states by: all but every colour's runs, free jokers, room.
_ACROSS_LOOSE: Final = (
    ~(NIBBLE << FREE_SHIFT) & ~ROOM_MASK & ~sum(RUN_MASK << shift for shift in RUN_SHIFTS)
)


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


def _fewer_held(strong: int, weak: int) -> bool:
    """Whether ``strong`` (held and freed table jokers, a nibble each) holds no joker ``weak``
    does not and frees every joker ``weak`` frees. (A joker can be held and freed at once.)"""
    return strong & ~weak & NIBBLE == 0 and weak >> 4 & ~(strong >> 4) == 0


class _Covers(dict[int, bool]):
    """``strong << 20 | weak`` (interned runs) -> whether ``strong`` covers ``weak``."""

    def __missing__(self, pair: int) -> bool:
        value = self[pair] = _covers_ids(pair >> 20, pair & RUN_MASK)
        return value


_COVERS: Final = _Covers()


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
