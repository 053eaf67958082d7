"""Pairing a 1,000-player Swiss round (target: under 2 s) at 2 and at 4 a table, rounds 1-5
with random results between them; the largest field paired by the FIDE Dutch engine at 2 a
table (DUTCH_LIMIT players, target: well under 1 s a round); and a 500-player arena seating its
waiting players (tournaments/pairing; the services' own re-seat is bench_tournaments)."""

from __future__ import annotations

import random
import time
from typing import Any

from tournaments.pairing import DUTCH_LIMIT, ArenaWaiter, arena_tables
from tournaments.pairing.simulate import random_swiss

PLAYERS = 1000
ROUNDS = 5


def _swiss(size: int, players: int = PLAYERS, rounds: int = ROUNDS) -> list[float]:
    """Each round's pairing time in a Swiss of ``players`` at ``size`` a table."""
    rng = random.Random(size)
    ratings = {k: rng.gauss(1500, 250) for k in range(players)}
    return [took for _, _, took in random_swiss(ratings, size, rounds, rng, seed=size)]


def _arena() -> float:
    rng = random.Random(5)
    waiting = [
        ArenaWaiter(
            k,
            float(rng.randint(0, 30)),
            rng.gauss(1500, 250),
            frozenset(rng.sample(range(500), 3)),
            float(k),
        )
        for k in range(500)
    ]
    began = time.perf_counter()
    arena_tables(waiting, 4)
    return time.perf_counter() - began


def main() -> dict[str, Any]:
    two = _swiss(2)
    four = _swiss(4)
    _swiss(2, 8, 1)  # a warm-up round of the Dutch engine, outside the timings
    dutch = _swiss(2, DUTCH_LIMIT)
    arena = _arena()
    return {
        "players": PLAYERS,
        "swiss_2_per_table_s": [round(t, 3) for t in two],
        "swiss_4_per_table_s": [round(t, 3) for t in four],
        "swiss_max_s": round(max(two + four), 3),
        "swiss_target_s": 2.0,
        "swiss_met": max(two + four) < 2.0,
        "dutch_players": DUTCH_LIMIT,
        "dutch_2_per_table_s": [round(t, 3) for t in dutch],
        "dutch_max_s": round(max(dutch), 3),
        "dutch_target_s": 1.0,
        "dutch_met": max(dutch) < 1.0,
        "arena_500_seat_all_s": round(arena, 4),
        "arena_target_s": 1.0,
    }
