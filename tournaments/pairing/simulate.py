"""A Swiss played with random results, round by round, through :func:`swiss`: what the pairing
tests check and the pairing bench times (benchmarks/bench_pairing.py). The tournament services
keep their own records; this is the same bookkeeping without a database: each table's places
give placement points, everyone at it has met the others, seat 0 moved first, a bye is worth
``bye_points``.

>>> rounds = list(random_swiss({k: 1500.0 for k in range(5)}, 2, 3, random.Random(1)))
>>> [len(paired.tables) for _, paired, _ in rounds], [len(paired.byes) for _, paired, _ in rounds]
([2, 2, 2], [1, 1, 1])
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping

from . import Entrant, Round, placement_points, swiss

Places = Callable[[random.Random, int], list[int]]


def shuffled_places(rng: random.Random, size: int) -> list[int]:
    """Places 1..size in a random order: no shared place."""
    places = list(range(1, size + 1))
    rng.shuffle(places)
    return places


def random_swiss(
    ratings: Mapping[int, float],
    size: int,
    rounds: int,
    rng: random.Random,
    *,
    places: Places = shuffled_places,
    seed: int = 0,
    bye_points: float = 0.5,
) -> Iterator[tuple[list[Entrant], Round, float]]:
    """Each round's entrants (as they stood before it), its pairing and the seconds
    :func:`swiss` took, for a Swiss of the players in ``ratings`` at ``size`` a table; each
    table's places come from ``places(rng, table size)``. Round ``n`` is paired with the seed
    ``bytes([seed % 256, n])``."""
    points = dict.fromkeys(ratings, 0.0)
    met: dict[int, set[int]] = {k: set() for k in ratings}
    firsts: dict[int, list[bool]] = {k: [] for k in ratings}
    byes = dict.fromkeys(ratings, 0)
    for number in range(1, rounds + 1):
        entrants = [
            Entrant(k, ratings[k], points[k], frozenset(met[k]), tuple(firsts[k]), byes[k])
            for k in ratings
        ]
        began = time.perf_counter()
        paired = swiss(entrants, size, number, bytes([seed % 256, number]))
        took = time.perf_counter() - began
        for table in paired.tables:
            got = placement_points(places(rng, len(table)), len(table))
            for seat, (key, gained) in enumerate(zip(table, got, strict=True)):
                points[key] += gained
                met[key].update(k for k in table if k != key)
                firsts[key].append(seat == 0)
        for key in paired.byes:
            byes[key] += 1
            points[key] += bye_points
        yield entrants, paired, took
