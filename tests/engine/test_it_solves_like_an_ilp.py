"""The solver agrees with an integer programme on hundreds of seeded positions.

The integer programme (after den Hertog and Hulshof, "Solving Rummikub problems by integer
linear programming", 2006) is independent of the solver's method: one variable per possible
meld (runs of three to five, longer runs being splittable, and groups, each with up to two
jokers), one per rack tile kind, tile counts as equalities. scipy's ``milp`` solves it. Tables
here hold no jokers (the programme does not model docs/rules.md rule 5; the exhaustive test does);
racks may.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from benchmarks.bench_solver import Position, random_position
from games.engine.rules import RULES
from games.engine.solver import solve_ids
from games.engine.tiles import COLOURS, JOKER, Tile
from games.engine.turn import check_turn

BIG = 10_000
MAX_JOKERS_PER_MELD = 2

Meld = tuple[tuple[Tile, ...], int, int]  # real tiles, jokers, value


def possible_melds(numbers: int) -> list[Meld]:
    """Every run (3-5 long) and group, with up to two jokers and at least one real tile."""
    melds: set[Meld] = set()
    for colour in COLOURS:
        for length in (3, 4, 5):
            for start in range(1, numbers - length + 2):
                places = range(start, start + length)
                value = sum(places)
                for jokers in range(MAX_JOKERS_PER_MELD + 1):
                    for spots in combinations(places, jokers):
                        real = tuple(Tile(colour, n) for n in places if n not in spots)
                        if real:
                            melds.add((real, jokers, value))
    for number in range(1, numbers + 1):
        for size in (3, 4):
            for jokers in range(MAX_JOKERS_PER_MELD + 1):
                for colours in combinations(COLOURS, size - jokers):
                    if colours:
                        real = tuple(Tile(c, number) for c in colours)
                        melds.add((real, jokers, number * size))
    return sorted(melds, key=str)


def ilp_best(position: Position, opened: bool) -> tuple[int, int]:
    """(tiles played, points played) of the best play, by integer programming."""
    kinds, rules = position.kinds, position.rules
    table = Counter(kinds[i] for meld in position.table for i in meld)
    rack = Counter(kinds[i] for i in position.rack)
    if not opened:
        table = Counter()
    assert table[JOKER] == 0, "the programme does not model table jokers"
    real_kinds = sorted({t for t in [*table, *rack] if not t.is_joker}, key=str)
    have = table + rack
    melds = [
        m
        for m in possible_melds(rules.max_number)
        if all(have[t] >= c for t, c in Counter(m[0]).items()) and have[JOKER] >= m[1]
    ]
    if not melds:
        return 0, 0
    index = {t: n for n, t in enumerate(real_kinds)}
    n_melds, n_kinds = len(melds), len(real_kinds)
    size = n_melds + n_kinds + 1  # melds, rack tiles used per kind, rack jokers used
    rows = np.zeros((n_kinds + 1, size))
    for m, (real, jokers, _) in enumerate(melds):
        for tile in real:
            rows[index[tile], m] += 1
        rows[n_kinds, m] = jokers
    for k in range(n_kinds + 1):
        rows[k, n_melds + k] = -1
    must = [table[t] for t in real_kinds] + [table[JOKER]]
    constraints = [LinearConstraint(rows, must, must)]
    if not opened:
        values = np.zeros(size)
        values[:n_melds] = [value for _, _, value in melds]
        constraints.append(LinearConstraint(values, rules.opening, np.inf))
    upper = [2.0] * n_melds + [float(rack[t]) for t in real_kinds] + [float(rack[JOKER])]
    gain = np.zeros(size)
    gain[n_melds:] = [BIG + t.number for t in real_kinds] + [BIG + JOKER.rack_value]
    result = milp(
        -gain,
        constraints=constraints,
        integrality=np.ones(size),
        bounds=Bounds(np.zeros(size), np.array(upper)),
    )
    if result.status != 0:
        return 0, 0  # before the initial meld: nothing reaches the threshold
    best = round(-result.fun)
    return best // BIG, best % BIG


def solver_best(position: Position, opened: bool) -> tuple[int, int]:
    rules, kinds, table, rack = position.rules, position.kinds, position.table, position.rack
    after = solve_ids(rules, kinds, table, rack, opened)
    if after is None:
        return 0, 0
    played = check_turn(rules, kinds, table, rack, after, opened).played
    return len(played), sum(kinds[i].rack_value for i in played)


def test_the_programme_sees_the_rules_examples() -> None:
    classic = RULES["classic"]
    kinds = classic.tile_set.tiles
    ids = {str(t): i for i, t in reversed(list(enumerate(kinds)))}
    position = Position(classic, kinds, ((ids["R4"], ids["R5"], ids["R6"]),), (ids["R7"],))
    assert ilp_best(position, True) == (1, 7) == solver_best(position, True)


@pytest.mark.parametrize("seed", range(6))
def test_it_matches_the_programme_after_the_initial_meld(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for n in range(50):
        position = random_position(
            rng, rng.randint(0, 80), rng.randint(1, 20), RULES["classic"], joker_rate=0.0
        )
        assert solver_best(position, True) == ilp_best(position, True), (seed, n, position)


@pytest.mark.parametrize("seed", range(2))
def test_it_matches_the_programme_before_the_initial_meld(seed: int) -> None:
    rng = random.Random(2000 + seed)
    for n in range(50):
        position = random_position(rng, rng.randint(0, 40), rng.randint(6, 18), RULES["classic"])
        assert solver_best(position, False) == ilp_best(position, False), (seed, n, position)
