"""Two shortcuts keep the solver exact.

The upper bound lets only rack jokers and table jokers that may be freed stand for any tile (a
table joker that can never be replaced stands for one of its old tiles). First tries leave some
table melds alone (those holding a joker, those no rack tile could meld with) and are accepted
only when their play reaches that bound. Both are checked against one exact pass over every
state (which uses neither), on tables rich in jokers, and the tests make sure the positions
exercise them.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import games.engine.solver as solver
from benchmarks.bench_solver import Position, random_position
from games.engine.rules import RULES

from .test_it_solves_tricky_positions import best
from .test_it_solves_with_one_exact_pass import one_exact_pass, solved_score


def joker_positions(seed: int, count: int, joker_rate: float = 0.5) -> list[Position]:
    rng = random.Random(seed)
    return [
        random_position(rng, rng.randint(6, 40), rng.randint(1, 14), RULES["classic"], joker_rate)
        for _ in range(count)
    ]


def bound_with_every_table_joker_free(position: Position) -> int:
    """The upper bound as it was: every table joker may stand for any tile."""
    rules, kinds = position.rules, position.kinds
    problem = solver._turn_problem(rules, kinds, position.table, position.rack)
    jokers = problem.rack_jokers + len(problem.table_jokers)
    cells = solver._cells(problem)
    gains = sum(
        cell.may * problem.gain(cell.number)
        for cell in cells
        if cell.may and solver._could_meld(problem, cell.colour, cell.number, jokers)
    )
    return gains + problem.rack_jokers * problem.joker_score


def bound(position: Position) -> int:
    problem = solver._turn_problem(position.rules, position.kinds, position.table, position.rack)
    return solver._upper_bound(problem, solver._cells(problem))


@pytest.mark.parametrize("seed", range(3))
def test_the_upper_bound_holds_and_is_tighter_with_unfreeable_table_jokers(seed: int) -> None:
    tighter = 0
    for n, position in enumerate(joker_positions(6000 + seed, 40)):
        exact = one_exact_pass(position, True)
        assert bound(position) >= exact, (seed, n, position)
        assert solved_score(position, True) == exact, (seed, n, position)
        tighter += bound(position) < bound_with_every_table_joker_free(position)
    assert tighter >= 3  # the positions exercise the tighter bound


def test_a_table_joker_that_cannot_be_freed_still_helps_the_tiles_beside_it() -> None:
    # The joker can only stand for R7 (or R3): R8 R9 extend the run through it.
    solution = best(["R4 R5 R6 J"], "R8 R9 K1")
    assert solution.tiles_played == 2


def test_a_table_joker_that_may_be_freed_stands_for_anything() -> None:
    # docs/rules.md rule 5: R7 moves into the run, the freed joker makes K1 K2 a run.
    assert best(["R7 K7 Y7 B7", "R5 R6 J"], "K1 K2").tiles_played == 2


@pytest.mark.parametrize("points_first", [False, True])
def test_a_play_leaving_melds_alone_is_taken_only_when_it_is_a_best_play(
    points_first: bool,
) -> None:
    taken = []
    for n, position in enumerate(joker_positions(7000 + points_first, 80, 0.3)):
        score = solved_score(position, True, points_first)
        assert score == one_exact_pass(position, True, points_first), (n, position)
        taken.append(_tries(position, points_first))
    assert taken.count(True) >= 3 and taken.count(False) >= 3  # both ways are exercised


def _tries(position: Position, points_first: bool) -> bool | None:
    """Whether a play leaving melds alone is taken (``None``: none to leave alone, or a table
    too small for the solver to try)."""
    rules, kinds, table, rack = position.rules, position.kinds, position.table, position.rack
    problem = solver._turn_problem(rules, kinds, table, rack)
    if position.table_size < solver.TRY_MIN_TABLE:
        return None
    if points_first:
        problem = replace(problem, tile_weight=1, point_weight=solver.POINTS_FIRST_WEIGHT)
    return solver._play_around_idle_melds(rules, kinds, table, rack, problem) is not None
