"""Tiles set aside for groups are dropped early when they need more jokers than are left.

``_GroupShortfall`` says how many free jokers the tiles set aside at one number need at
least, given what the colours still to come at that number could add. The solver drops every
state asking more than it has left, so the count must never be above the true need: checked
here against brute force, which tries every way the later colours could join and every way to
spread all the tiles over groups (one tile of a colour per group, a joker filling each place
up to three). The count is also the least need, not just a bound below it.
"""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from games.engine.solver import jokers, packing


def least_jokers(counts: list[int]) -> int:
    """Fewest jokers that bring groups of these tiles (``counts[c]`` of colour ``c``) to three
    each: every number of groups, every way to spread each colour over them (the groups'
    sizes kept as a sorted tuple, since groups of one size are interchangeable)."""
    if not any(counts):
        return 0
    best: int | None = None
    for groups in range(max(counts), sum(counts) + 1):
        layer = {(0,) * groups}
        for count in counts:
            layer = {
                tuple(sorted(size + (g in chosen) for g, size in enumerate(sizes)))
                for sizes in layer
                for chosen in combinations(range(groups), count)
            }
        for sizes in layer:
            if 0 not in sizes:  # an empty group is no group
                need = sum(max(0, 3 - size) for size in sizes)
                best = need if best is None else min(best, need)
    assert best is not None
    return best


def brute_shortfall(done: list[int], later: tuple[int, ...]) -> int:
    """Fewest jokers over every way the later colours could add tiles (up to their supply)."""
    return min(
        least_jokers(done + list(extra))
        for extra in product(*(range(supply + 1) for supply in later))
    )


def shortfall(group: tuple[tuple[int, int], ...], later: tuple[int, ...]) -> int:
    return jokers._GroupShortfall(later)[packing._group_id(group)]


def test_no_tiles_set_aside_need_nothing() -> None:
    assert shortfall((), (2, 1)) == 0
    assert shortfall((), ()) == 0


def test_two_reds_with_one_colour_to_come_need_jokers() -> None:
    # Two reds need two groups: six places, the reds and at most two yellows fill four.
    assert shortfall(((2, 0),), (3,)) == 2
    assert shortfall(((2, 0),), (1,)) == 3
    # With two colours still to come the groups can fill up.
    assert shortfall(((2, 0),), (2, 2)) == 0


def test_held_jokers_count_as_tiles() -> None:
    assert shortfall(((1, 0), (0, 1)), ()) == 1
    assert shortfall(((1, 0), (0, 1)), (1,)) == 0


@pytest.mark.parametrize("seed", range(6))
def test_it_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        done_colours = rng.randint(1, 4)
        done = [rng.randint(0, 3) for _ in range(done_colours)]
        later = tuple(rng.randint(0, 3) for _ in range(4 - done_colours))
        # As the solver keeps them: (real tiles, held table jokers) per colour, sorted.
        held = [rng.randint(0, count) for count in done]
        group = tuple(sorted((c - h, h) for c, h in zip(done, held, strict=True) if c))
        assert shortfall(group, later) == brute_shortfall(done, later), (done, later)
