"""The solver's group step sees every way one number's tiles can form groups.

``_group_options`` enumerates partitions by shape (size, real tile, joker-rule marks per group)
rather than one by one. Checked here against brute force: every partition of the tiles into
groups (one tile of a colour per group), each scored the same way. The outcomes must be the same
set, and each partition the solver hands back must be a real partition with that outcome.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from games.engine.solver import options as forming

Partition = tuple[tuple[tuple[int, bool], ...], ...]


def every_partition(group: tuple[tuple[int, int], ...]) -> set[Partition]:
    """Every way to spread (real, held) tiles per colour over groups, by brute force."""
    layer: set[Partition] = {()}
    for colour, (real, held) in enumerate(group):
        count = real + held
        if count == 0:
            continue
        following: set[Partition] = set()
        for groups in layer:
            for new in range(count + 1):
                for targets in combinations(range(len(groups)), count - new):
                    slots = list(targets) + list(range(len(groups), len(groups) + new))
                    for reals in combinations(range(count), real):
                        grown: list[list[tuple[int, bool]]] = [list(g) for g in groups]
                        grown += [[] for _ in range(new)]
                        for n, slot in enumerate(slots):
                            grown[slot].append((colour, n in reals))
                        following.add(tuple(sorted(tuple(g) for g in grown)))
        layer = following
    return layer


def outcome(
    partition: Partition, spec: tuple[tuple[int, int, int], ...], surplus_at_end: bool
) -> tuple[range, int, int] | None:
    """The free jokers a partition may take, the jokers it frees, its room; None if invalid."""
    if any(not any(real for _, real in members) for members in partition):
        return None
    need = sum(max(0, 3 - len(members)) for members in partition)
    most = need if surplus_at_end else sum(4 - len(members) for members in partition)
    room = sum(1 for members in partition if len(members) <= 3) if surplus_at_end else 0
    freed = 0
    for j, roles, mates in spec:
        for members in partition:
            colours = [c for c, real in members if real]
            if any(roles >> c & 1 for c in colours) and any(mates >> c & 1 for c in colours):
                freed |= 1 << j
    return range(need, most + 1), freed, room


@pytest.mark.heavy_solver
@pytest.mark.parametrize("seed", range(3))
def test_group_options_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(120):
        group = tuple((rng.randint(0, 2), rng.choice((0, 0, 0, 1, 1, 2))) for _c in range(4))
        spec = tuple(
            (j, rng.randint(1, 15), rng.randint(1, 15)) for j in range(rng.choice((0, 0, 1, 2)))
        )
        surplus_at_end = rng.random() < 0.7
        expected: set[tuple[int, int, int]] = set()
        for partition in every_partition(group):
            found = outcome(partition, spec, surplus_at_end)
            if found is not None:
                frees, freed, room = found
                expected |= {(free, freed, room) for free in frees}
        if not any(real or held for real, held in group):
            expected = {(0, 0, 0)}
        options = forming._group_options(group, spec, surplus_at_end)
        check(options, expected, group, spec, surplus_at_end)
        if not spec:
            # Where no table joker can be freed the solver works on the tiles sorted by count
            # and names the colours again.
            options = forming._any_colour_group_options(group, surplus_at_end)
            check(options, expected, group, spec, surplus_at_end)


def check(
    options: tuple[tuple[int, int, int, forming.Partition], ...],
    expected: set[tuple[int, int, int]],
    group: tuple[tuple[int, int], ...],
    spec: tuple[tuple[int, int, int], ...],
    surplus_at_end: bool,
) -> None:
    assert {(free, freed, room) for free, freed, room, _ in options} == expected, group
    assert len(options) == len(expected)
    for free, freed, room, with_jokers in options:
        partition = tuple(sorted(members for members, _ in with_jokers))
        tiles = Counter(member for members in partition for member in members)
        assert tiles == Counter(
            {(c, True): real for c, (real, _) in enumerate(group) if real}
            | {(c, False): held for c, (_, held) in enumerate(group) if held}
        )
        assert all(len({c for c, _ in members}) == len(members) for members in partition)
        found = outcome(partition, spec, surplus_at_end)
        assert found is not None and free in found[0] and found[1:] == (freed, room)
        assert sum(jokers for _, jokers in with_jokers) == free
        assert all(len(members) + jokers <= 4 for members, jokers in with_jokers)
