"""The solver's shortcuts (beams, floors, pruning) never change its answer.

``solve_ids`` runs cheap passes first: beams that keep only the best states, an exact pass that
places jokers only as surplus, exact passes whose floor drops every state that cannot beat a
guess. The slow reference is one exact pass of the same programme with the lowest floor, which
keeps every state: the answers must score the same on every position, tables with jokers
included (the integer programme does not model those). A slower reference still drops no state
as dominated, to check the dominance rules (most of them are about table jokers) on tables
larger than the exhaustive search can take. Positions with two jokers on the table are also
checked against the exhaustive search, which knows nothing of the programme.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import games.engine.solver as solver
from benchmarks.bench_solver import Position, random_position
from games.engine.rules import RULES
from games.engine.solver import problem as set_up
from games.engine.solver import search
from games.engine.turn import check_turn

from .test_it_solves_optimally import best_by_exhaustion, solver_score


def one_exact_pass(position: Position, opened: bool, points_first: bool = False) -> int:
    """The best score by a single exact pass over every state (0 when nothing is playable)."""
    rules, kinds = position.rules, position.kinds
    if opened:
        problem = set_up._turn_problem(rules, kinds, position.table, position.rack)
    else:
        problem = set_up._opening_problem(rules, kinds, position.rack)
    if points_first:
        problem = replace(problem, tile_weight=1, point_weight=solver.POINTS_FIRST_WEIGHT)
    cells = set_up._cells(problem)
    future = set_up._future_gains(problem, cells)
    found = search._search(problem, cells, future, floor=1, width=None)
    return found.score if found is not None else 0


def solved_score(
    position: Position, opened: bool, points_first: bool = False, budget: int | None = None
) -> int:
    """The score of ``solve_ids``'s answer (checked legal), weighed as the programme weighs it."""
    rules, kinds, table, rack = position.rules, position.kinds, position.table, position.rack
    prefer: solver.Prefer = "points" if points_first else "tiles"
    after = solver.solve_ids(rules, kinds, table, rack, opened, prefer=prefer, budget=budget)
    if after is None:
        return 0
    played = check_turn(rules, kinds, table, rack, after, opened).played
    if points_first:
        return sum(1 + solver.POINTS_FIRST_WEIGHT * kinds[i].rack_value for i in played)
    return sum(solver.BIG + kinds[i].rack_value for i in played)


@pytest.mark.parametrize("seed", range(4))
def test_it_scores_what_one_exact_pass_scores_after_the_initial_meld(seed: int) -> None:
    rng = random.Random(3000 + seed)
    for n in range(25):
        position = random_position(
            rng, rng.randint(6, 36), rng.randint(1, 14), RULES["classic"], joker_rate=0.35
        )
        assert solved_score(position, True) == one_exact_pass(position, True), (seed, n, position)


def test_it_scores_what_one_exact_pass_scores_before_the_initial_meld() -> None:
    rng = random.Random(4000)
    for n in range(40):
        position = random_position(rng, rng.randint(0, 40), rng.randint(4, 16), RULES["classic"])
        assert solved_score(position, False) == one_exact_pass(position, False), (n, position)


def test_it_scores_what_one_exact_pass_scores_taking_points_first() -> None:
    rng = random.Random(5000)
    for n in range(30):
        position = random_position(
            rng, rng.randint(6, 36), rng.randint(1, 14), RULES["classic"], joker_rate=0.35
        )
        expected = one_exact_pass(position, True, points_first=True)
        assert solved_score(position, True, points_first=True) == expected, (n, position)


@pytest.mark.pure_python
def test_dominance_never_drops_the_best_play(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(6000)
    positions = [
        random_position(
            rng, rng.randint(8, 44), rng.randint(1, 12), RULES["classic"], joker_rate=0.6
        )
        for _ in range(80)
    ]
    expected = [solved_score(position, True) for position in positions]
    monkeypatch.setattr(search, "_undominated", lambda problem, layer, colour: layer)
    monkeypatch.setattr(search, "_undominated_across", lambda problem, layer: layer)
    for n, position in enumerate(positions):
        assert one_exact_pass(position, True) == expected[n], (n, position)


def two_joker_positions(seed: int, count: int) -> list[Position]:
    """Small positions with at least two jokers on the table."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = random_position(
            rng, rng.randint(6, 9), rng.randint(1, 5), RULES["classic"], joker_rate=0.8
        )
        jokers = sum(1 for meld in position.table for i in meld if position.kinds[i].is_joker)
        if jokers >= 2:
            found.append(position)
    return found


@pytest.mark.heavy_solver
def test_it_finds_the_best_play_with_two_jokers_on_the_table() -> None:
    for n, position in enumerate(two_joker_positions(17, 60)):
        assert solver_score(position, True) == best_by_exhaustion(position, True), (n, position)
