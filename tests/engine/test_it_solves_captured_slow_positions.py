"""Positions captured from bot games where a move took longest still get a legal, best answer.

``benchmarks/hunt_slow_moves.py`` plays seeded bot games and saves every move over a CPU
second (``/work/slow-positions/``). The slowest were master moves on big tables of the large
set with two to four table jokers and long racks; ``slow_positions.json`` keeps the solver
calls of a few (the table, the rack and the preference, in tile ids of their set). Solver
changes that speed these up must keep their answers: each answer must pass ``check_turn`` and
score what one exact pass over every state scores. Nothing here is timed; the two calls of
the slowest move (a few seconds each, with the exact pass) are marked slow.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.bench_solver import Position
from games.engine.rules import rules_named

from .test_it_solves_with_one_exact_pass import one_exact_pass, solved_score

CAPTURED: list[dict[str, Any]] = json.loads(
    (Path(__file__).with_name("slow_positions.json")).read_text()
)


def position(captured: dict[str, Any]) -> Position:
    rules = rules_named(captured["tiles"])
    table = tuple(tuple(meld) for meld in captured["table"])
    return Position(rules, rules.tile_set.tiles, table, tuple(captured["rack"]))


@pytest.mark.parametrize(
    "captured",
    [
        pytest.param(c, id=c["name"], marks=[pytest.mark.slow] if c["slow"] else [])
        for c in CAPTURED
    ],
)
def test_a_captured_position_gets_the_best_legal_play(captured: dict[str, Any]) -> None:
    found = position(captured)
    points = captured["prefer"] == "points"
    opened = captured["initial_meld_done"]
    assert solved_score(found, opened, points) == one_exact_pass(found, opened, points)
