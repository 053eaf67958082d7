"""The solver's play is the best there is: checked against an exhaustive search.

The exhaustive search knows nothing of the solver's method: it tries every subset of the rack
(most tiles first, then most points), every way to split the tiles into melds, every order of
jokers in a meld, and asks ``check_turn`` whether the turn is legal. Positions are small (up to
nine table tiles, five rack tiles), seeded, and rich in jokers on the table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations, permutations

import pytest

from benchmarks.bench_solver import Position, random_position
from games.engine.errors import IllegalMove
from games.engine.melds import readings
from games.engine.rules import RULES, Rules
from games.engine.solver import solve_ids
from games.engine.tiles import Tile
from games.engine.turn import check_turn


def meld_orders(kinds: Sequence[Tile], ids: Sequence[int], numbers: int) -> Iterator[list[int]]:
    """Every valid order of ``ids`` as a meld: real tiles by number, each joker anywhere."""
    real = sorted((i for i in ids if not kinds[i].is_joker), key=lambda i: kinds[i].number)
    jokers = [i for i in ids if kinds[i].is_joker]
    for spots in combinations(range(len(ids)), len(jokers)):
        if not readings([kinds[i] for i in _placed(real, jokers, spots, len(ids))], numbers):
            continue
        for joker_order in permutations(jokers):
            yield _placed(real, list(joker_order), spots, len(ids))


def _placed(real: list[int], jokers: list[int], spots: tuple[int, ...], size: int) -> list[int]:
    real_iter, joker_iter = iter(real), iter(jokers)
    return [next(joker_iter) if place in spots else next(real_iter) for place in range(size)]


def partitions(kinds: Sequence[Tile], ids: list[int], numbers: int) -> Iterator[list[list[int]]]:
    """Every way to arrange ``ids`` into valid melds (each meld in each valid order)."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for size in range(2, len(rest) + 1):
        for others in combinations(rest, size):
            members = [first, *others]
            if not _could_be_meld(kinds, members):
                continue
            left = [i for i in rest if i not in others]
            for order in meld_orders(kinds, members, numbers):
                for tail in partitions(kinds, left, numbers):
                    yield [order, *tail]


def _could_be_meld(kinds: Sequence[Tile], ids: Sequence[int]) -> bool:
    real = [kinds[i] for i in ids if not kinds[i].is_joker]
    if not real or len(ids) > 13:
        return False
    same_number = len({t.number for t in real}) == 1
    same_colour = len({t.colour for t in real}) == 1
    return same_number or same_colour


def best_by_exhaustion(
    position: Position, opened: bool, points_first: bool = False
) -> tuple[int, int]:
    """(tiles played, points played) of the best legal turn, by trying everything."""
    rules, kinds = position.rules, position.kinds
    table = [list(meld) for meld in position.table]
    table_ids = [i for meld in table for i in meld]
    subsets = [
        list(subset)
        for size in range(len(position.rack), 0, -1)
        for subset in combinations(position.rack, size)
    ]
    subsets.sort(key=lambda s: (-len(s), -sum(kinds[i].rack_value for i in s)))
    if points_first:
        subsets.sort(key=lambda s: (-sum(kinds[i].rack_value for i in s), -len(s)))
    for subset in subsets:
        pool = subset if not opened else table_ids + subset
        for arrangement in partitions(kinds, sorted(pool), rules.max_number):
            after = arrangement if opened else [*table, *arrangement]
            try:
                check_turn(rules, kinds, table, position.rack, after, opened)
            except IllegalMove:
                continue
            return len(subset), sum(kinds[i].rack_value for i in subset)
    return 0, 0


def solver_score(position: Position, opened: bool, points_first: bool = False) -> tuple[int, int]:
    rules, kinds, table, rack = position.rules, position.kinds, position.table, position.rack
    after = solve_ids(
        rules, kinds, table, rack, opened, prefer="points" if points_first else "tiles"
    )
    if after is None:
        return 0, 0
    result = check_turn(rules, kinds, table, rack, after, opened)
    return len(result.played), sum(kinds[i].rack_value for i in result.played)


def small_positions(seed: int, count: int, rules: Rules) -> list[Position]:
    rng = random.Random(seed)
    return [
        random_position(rng, rng.randint(0, 9), rng.randint(1, 5), rules, joker_rate=0.45)
        for _ in range(count)
    ]


@pytest.mark.heavy_solver
@pytest.mark.parametrize("rules_name", ["classic", "rush", "large"])
def test_it_finds_the_best_play_after_the_initial_meld(rules_name: str) -> None:
    for n, position in enumerate(small_positions(7, 110, RULES[rules_name])):
        expected = best_by_exhaustion(position, True)
        assert solver_score(position, True) == expected, (n, position)


@pytest.mark.parametrize("rules_name", ["classic", "rush"])
def test_it_finds_the_best_initial_meld(rules_name: str) -> None:
    rng = random.Random(11)
    for n in range(120):
        position = random_position(
            rng, rng.randint(0, 6), rng.randint(3, 7), RULES[rules_name], joker_rate=0.3
        )
        expected = best_by_exhaustion(position, False)
        assert solver_score(position, False) == expected, (n, position)


def test_it_finds_the_play_taking_most_points_when_asked() -> None:
    for n, position in enumerate(small_positions(13, 100, RULES["classic"])):
        expected = best_by_exhaustion(position, True, points_first=True)
        assert solver_score(position, True, points_first=True) == expected, (n, position)
