"""The board's meld check (static/kit/rules.js) agrees with the engine's on every meld."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.melds import meld_error, readings
from games.engine.tiles import parse_tiles

pytestmark = pytest.mark.browser

COLOURS = "KBRY"


def random_melds(count: int, max_number: int, seed: int) -> list[list[str]]:
    """Runs, groups, near misses and noise, with jokers sprinkled in."""
    rng = random.Random(seed)
    melds = []
    for _ in range(count):
        shape = rng.random()
        length = rng.randint(1, 6)
        if shape < 0.35:
            colour = rng.choice(COLOURS)
            start = rng.randint(1, max_number)
            meld = [f"{colour}{min(max_number, start + i)}" for i in range(length)]
            if rng.random() < 0.3:
                rng.shuffle(meld)
        elif shape < 0.7:
            number = rng.randint(1, max_number)
            colours = rng.sample(COLOURS, min(length, 4)) + rng.choices(
                COLOURS, k=max(0, length - 4)
            )
            meld = [f"{c}{number}" for c in colours]
        else:
            meld = [f"{rng.choice(COLOURS)}{rng.randint(1, max_number)}" for _ in range(length)]
        for i in range(len(meld)):
            if rng.random() < 0.15:
                meld[i] = "J"
        melds.append(meld)
    return melds


def engine_answer(meld: list[str], max_number: int) -> list[Any]:
    tiles = parse_tiles(meld)
    found = readings(tiles, max_number)
    return [found[0].value if found else None, meld_error(tiles, max_number)]


@pytest.mark.parametrize("max_number", [13, 9])
def test_it_reads_every_meld_as_the_engine_does(
    new_page: Any, harness: str, max_number: int
) -> None:
    page = new_page()
    page.goto(harness)
    melds = random_melds(3000, max_number, seed=max_number)
    melds += [m.split() for m in ["R7 K7 Y7", "R7 R7 K7", "R12 R13 R1", "J R1 R2", "R12 R13 J"]]
    melds += [
        m.split() for m in ["R5 R6 J", "R10 R11 J", "J J J", "J J R5", "B4 B5 B6", "R3 B4 R5"]
    ]
    answers = page.evaluate(
        """async ([melds, max]) => {
            const rules = await import("/static/kit/rules.js");
            return melds.map((m) => {
                const best = rules.bestReading(m, max);
                return [best ? best.value : null, rules.meldError(m, max)];
            });
        }""",
        [melds, max_number],
    )
    for meld, answer in zip(melds, answers, strict=True):
        assert answer == engine_answer(meld, max_number), meld


def test_it_lays_dropped_tiles_in_an_order_the_engine_accepts(new_page: Any, harness: str) -> None:
    page = new_page()
    page.goto(harness)
    cases = [m.split() for m in ["R7 R5 R6", "B9 J B11", "Y13 Y12 J", "K3 J K1", "J R2 R4 R3"]]
    cases += [m.split() for m in ["R7 K7 Y7", "R5 R9 R6", "B1 R2 B3"]]
    orders = page.evaluate(
        """async (cases) => {
            const rules = await import("/static/kit/rules.js");
            return cases.map((m) => rules.arrangement(m, 13));
        }""",
        cases,
    )
    laid = {
        " ".join(m): None if o is None else [m[i] for i in o]
        for m, o in zip(cases, orders, strict=True)
    }
    assert laid["R7 R5 R6"] == ["R5", "R6", "R7"]
    assert laid["B9 J B11"] == ["B9", "J", "B11"]
    assert laid["Y13 Y12 J"] == ["J", "Y12", "Y13"]
    assert laid["K3 J K1"] == ["K1", "J", "K3"]
    assert laid["R7 K7 Y7"] == ["R7", "K7", "Y7"]
    assert laid["R5 R9 R6"] is None
    assert laid["B1 R2 B3"] is None
    for order in laid.values():
        if order is not None:
            assert readings(parse_tiles(order)), order
