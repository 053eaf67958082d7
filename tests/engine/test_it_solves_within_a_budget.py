"""A solve with a ``budget`` gives up proving and answers with its best guess, still legal.

The master bot weighs side candidates (its best play without one tile, the play taking the most
points) that need not be proven best; on crowded large-set tables a proof could take seconds.
``solve_ids(..., budget=n)`` stops any exact pass that would hold more than ``n`` states at
once and returns the best play the beams found. The answer must still pass ``check_turn``, can
never beat the proven best, and with a budget no pass reaches it is the proven best.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import games.engine.bots as bots
import games.engine.solver as solver
from benchmarks.bench_solver import Position, random_position
from games.engine.errors import InvalidInput
from games.engine.projection import view_for
from games.engine.rules import RULES, rules_named

from .test_it_plays_bots_with_strategy import position as game_at
from .test_it_solves_with_one_exact_pass import solved_score


def positions(seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    return [
        random_position(
            rng, rng.randint(20, 60), rng.randint(4, 18), RULES[rng.choice(["classic", "large"])]
        )
        for _ in range(count)
    ]


@pytest.mark.parametrize("points_first", [False, True], ids=["tiles first", "points first"])
def test_a_small_budget_answers_legally_and_never_beats_the_best(points_first: bool) -> None:
    cut_short = 0
    for n, position in enumerate(positions(7100 + points_first, 30)):
        best = solved_score(position, True, points_first)
        guessed = solved_score(position, True, points_first, budget=16)
        assert guessed <= best, (n, position)
        cut_short += guessed < best
    assert cut_short, "a budget of 16 states should cut some proof short"


def test_a_budget_no_pass_reaches_gives_the_proven_best() -> None:
    for n, position in enumerate(positions(7200, 20)):
        for points_first in (False, True):
            best = solved_score(position, True, points_first)
            assert solved_score(position, True, points_first, budget=1 << 30) == best, (n, position)


def test_a_budget_settles_for_a_guess_on_a_captured_slow_position() -> None:
    """A master's points-first call: proven, 14 tiles worth 106; within 1,024 states, 16 worth
    91 (about a second against a tenth of one)."""
    captured: list[dict[str, Any]] = json.loads(
        Path(__file__).with_name("slow_positions.json").read_text()
    )
    call = next(c for c in captured if c["name"] == "large-3-master-s1-t61-call5")
    rules = rules_named(call["tiles"])
    table = tuple(tuple(meld) for meld in call["table"])
    position = Position(rules, rules.tile_set.tiles, table, tuple(call["rack"]))
    best = solved_score(position, True, points_first=True)
    guessed = solved_score(position, True, points_first=True, budget=1024)
    assert 0 < guessed < best


@pytest.mark.parametrize("budget", [0, -5, True, 2.5, "100"])
def test_a_budget_must_be_a_positive_number_of_states(budget: Any) -> None:
    where = positions(7300, 1)[0]
    with pytest.raises(InvalidInput, match="budget must be a positive number of states"):
        solver.solve_ids(where.rules, where.kinds, where.table, where.rack, True, budget=budget)


def test_only_the_masters_side_candidates_are_budgeted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The best play (what the strong bot plays, and the master's first choice) stays proven."""
    calls: list[tuple[int, str, int | None]] = []
    real = solver.solve_ids

    def recording(*args: Any, prefer: solver.Prefer = "tiles", budget: int | None = None) -> Any:
        calls.append((len(args[3]), prefer, budget))
        return real(*args, prefer=prefer, budget=budget)

    monkeypatch.setattr(bots, "solve_ids", recording)
    state = game_at(["R4 R5 R6", "K9 B9 Y9"], "R7 R9 K1", opponent=1)
    bots.choose_action(view_for(state, 0), random.Random(1), "master")
    assert calls[0][2] is None, "the best play is proven"
    sides = [call for call in calls[1:] if call[2] is not None]
    assert sides and all(budget == bots.SIDE_BUDGET for _, _, budget in sides)
    assert any(prefer == "points" for _, prefer, _ in sides)
