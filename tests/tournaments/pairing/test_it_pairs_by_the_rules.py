"""The pure pairing package (tournaments/pairing): Swiss at 2 and at 3-4 a table, round
robins, arenas, points and tiebreaks, over many simulated tournaments with random results."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    ArenaWaiter,
    Entrant,
    GameRecord,
    arena_points,
    arena_tables,
    duplicate_points,
    round_robin,
    standings,
    swiss,
    table_sizes,
)
from tournaments.pairing.simulate import random_swiss


def play_swiss(players: int, size: int, rounds: int, seed: int) -> list[tuple[list, list]]:
    """A whole Swiss with random places: every round's (tables, byes)."""
    ratings = {k: float(1000 + 37 * k % 900) for k in range(players)}
    return [
        (list(paired.tables), list(paired.byes))
        for _, paired, _ in random_swiss(ratings, size, rounds, random.Random(seed), seed=seed)
    ]


@pytest.mark.parametrize("seed", range(20))
def test_a_9_player_swiss_at_2_gives_byes_to_the_lowest_and_never_repeats_a_pair(
    seed: int,
) -> None:
    played = play_swiss(9, 2, 5, seed)
    pairs = [frozenset(t) for tables, _ in played for t in tables]
    assert len(pairs) == len(set(pairs)) == 20
    byes = [k for _, round_byes in played for k in round_byes]
    assert len(byes) == 5 and len(set(byes)) == 5, "one bye a round, never twice to one player"


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    entrants = [Entrant(k, 1500 - k, points=float(5 - k)) for k in range(5)]
    assert swiss(entrants, 2, 2, b"x").byes == (4,)
    had = [*entrants[:4], Entrant(4, 1496, 1.0, byes=1)]
    assert swiss(had, 2, 2, b"x").byes == (3,)


def test_round_one_at_2_is_top_half_against_bottom_half_and_first_seats_alternate() -> None:
    entrants = [Entrant(k, 2000 - 10 * k) for k in range(8)]
    tables = swiss(entrants, 2, 1, b"r1").tables
    assert sorted(tuple(sorted(t)) for t in tables) == [(0, 4), (1, 5), (2, 6), (3, 7)]
    again = [Entrant(k, 2000 - 10 * k, firsts=(k in (0, 1, 2, 3),)) for k in range(8)]
    for a, b in swiss(again, 2, 2, b"r2").tables:
        assert not again[a].firsts[0] or again[b].firsts[0], "who was second goes first"


@pytest.mark.parametrize("seed", range(10))
def test_a_13_player_swiss_at_4_seats_everyone_in_tables_of_3_and_4(seed: int) -> None:
    played = play_swiss(13, 4, 4, seed)
    for tables, byes in played:
        assert sorted(len(t) for t in tables) == [3, 3, 3, 4] and byes == []
        assert sorted(k for t in tables for k in t) == list(range(13))
    meetings = Counter(
        frozenset(p) for tables, _ in played for t in tables for p in combinations(t, 2)
    )
    assert sum(n - 1 for n in meetings.values()) <= 6, "few repeat meetings"


def test_leaders_sit_together_after_round_one() -> None:
    entrants = [Entrant(k, 1500, points=float(k % 4)) for k in range(16)]
    tables = swiss(entrants, 4, 2, b"s").tables
    top = {k for k in range(16) if k % 4 == 3}
    assert set(tables[0]) == top


def test_table_sizes_never_make_a_table_of_two() -> None:
    for n in range(3, 60):
        for size in (3, 4):
            sizes = table_sizes(n, size)
            assert all(s in (3, 4) for s in sizes)
            assert n - sum(sizes) <= 2


def test_an_8_player_round_robin_at_2_meets_everyone_once_in_7_rounds() -> None:
    rounds = round_robin(list(range(8)), 2)
    assert len(rounds) == 7
    met = Counter(frozenset(t) for r in rounds for t in r.tables)
    assert len(met) == 28 and set(met.values()) == {1}
    firsts = Counter(t[0] for r in rounds for t in r.tables)
    assert max(firsts.values()) - min(firsts.values()) <= 2


def test_an_odd_round_robin_gives_each_player_one_bye() -> None:
    rounds = round_robin(list(range(7)), 2)
    assert len(rounds) == 7
    assert sorted(k for r in rounds for k in r.byes) == list(range(7))


@pytest.mark.parametrize("players", [8, 12, 16])
def test_a_round_robin_at_4_lets_every_pair_meet_with_few_repeats(players: int) -> None:
    rounds = round_robin(list(range(players)), 4)
    met = Counter(frozenset(p) for r in rounds for t in r.tables for p in combinations(t, 2))
    assert len(met) == players * (players - 1) // 2, "every pair meets"
    least = -(-(players - 1) // 3)
    assert len(rounds) <= least + 3
    for r in rounds:
        assert all(len(t) in (3, 4) for t in r.tables)


def test_an_arena_seats_full_tables_away_from_last_opponents() -> None:
    waiting = [
        ArenaWaiter(k, points=float(10 - k // 2), rating=1500, last_opponents=frozenset({k ^ 1}))
        for k in range(8)
    ]
    tables, left = arena_tables(waiting, 2)
    assert left == [] and len(tables) == 4
    assert all(frozenset(t) not in {frozenset({k, k ^ 1}) for k in range(8)} for t in tables)
    tables, left = arena_tables(waiting[:7], 4)
    assert len(tables) == 1 and len(left) == 3


def test_arena_streaks_double_the_points() -> None:
    assert arena_points([], 3.0) == 3.0
    assert arena_points([1, 1], 3.0) == 6.0
    assert arena_points([1, 2, 1], 3.0) == 3.0


def test_duplicate_points_compare_those_who_held_the_same_tiles() -> None:
    earned = duplicate_points([[(1, 50), (2, 20), (3, 20)], [(4, -10), (5, 30), (6, 0)]], 3)
    assert earned[1] == 2.0 and earned[2] == earned[3] == 0.5
    assert earned[5] == 2.0 and earned[6] == 1.0 and earned[4] == 0.0


def test_standings_and_their_tiebreaks_on_a_hand_checked_example() -> None:
    records = [
        GameRecord((1, 2, 3), (1, 2, 3), (30, 10, -40), (2.0, 1.0, 0.0)),
        GameRecord((1, 2, 4), (3, 1, 2), (-20, 40, 5), (0.0, 2.0, 1.0)),
    ]
    table = standings([1, 2, 3, 4], records, {3: 1.0}, {1: 1500, 2: 1500, 3: 1500, 4: 1500})
    by_key = {row.key: row for row in table}
    assert [row.key for row in table] == [2, 1, 4, 3]
    assert by_key[2].points == 3.0 and by_key[2].tiebreaks["score"] == 50
    # 1 met 2 (3 points) and 3 (1 point) in game one, 2 and 4 (1 point) in game two.
    assert by_key[1].tiebreaks["buchholz"] == 3 + 1 + 3 + 1
    # 1 placed above 2 and 3 in game one (3 + 1), below both in game two.
    assert by_key[1].tiebreaks["sonneborn_berger"] == 4


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=40),
    size=st.sampled_from([2, 3, 4]),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_every_entrant_is_seated_once_and_rounds_repeat_from_the_seed(
    players: int, size: int, rounds: int, seed: int
) -> None:
    played = play_swiss(players, size, rounds, seed)
    for tables, byes in played:
        seated = [k for t in tables for k in t] + byes
        assert sorted(seated) == list(range(players))
        assert (
            all(len(t) == 2 for t in tables) if size == 2 else all(len(t) in (3, 4) for t in tables)
        )
    assert play_swiss(players, size, rounds, seed) == played


def test_an_aborted_game_counts_in_the_tiebreaks_as_a_bye() -> None:
    """Its points stand; no opponent is met and no match total is added."""
    played = GameRecord((1, 2), (1, 2), (40, -40), (1.0, 0.0))
    aborted = GameRecord((1, 3), (1, 2), (25, -25), (0.5, 0.0), played=False)
    table = standings([1, 2, 3], [played, aborted], {}, {1: 1500, 2: 1500, 3: 1500})
    one = next(row for row in table if row.key == 1)
    assert one.points == 1.5
    assert one.tiebreaks == {"score": 40, "buchholz": 0.0, "sonneborn_berger": 0.0}
    three = next(row for row in table if row.key == 3)
    assert three.tiebreaks == {"score": 0, "buchholz": 0.0, "sonneborn_berger": 0.0}
    # As a game played, the same record met 3 and added 25.
    counted = standings(
        [1, 2, 3], [played, GameRecord((1, 3), (1, 2), (25, -25), (0.5, 0.0))], {}, {}
    )
    assert next(r for r in counted if r.key == 1).tiebreaks["score"] == 65
    assert next(r for r in counted if r.key == 3).tiebreaks["buchholz"] == 1.5


def test_an_absent_seat_meets_nobody_in_the_tiebreaks() -> None:
    """An absent seat (a stand-in played it) is not met; a seat whose every opponent was
    absent (a forfeit) has the game as a bye; the others still meet each other."""
    table = GameRecord(
        (1, 2, 3, 4), (1, 2, 3, 4), (30, 10, -15, -25), (3.0, 2.0, 0.0, 0.0),
        absent=frozenset({3, 4}),
    )  # fmt: skip
    forfeit = GameRecord((1, 5), (1, 2), (40, -40), (1.0, 0.0), absent=frozenset({5}))
    rows = {r.key: r for r in standings([1, 2, 3, 4, 5], [table, forfeit], {}, {})}
    assert rows[1].points == 4.0
    assert rows[1].tiebreaks == {"score": 30, "buchholz": 2.0, "sonneborn_berger": 2.0}
    assert rows[2].tiebreaks == {"score": 10, "buchholz": 4.0, "sonneborn_berger": 0.0}
    for absent in (3, 4, 5):
        assert rows[absent].tiebreaks == {"score": 0, "buchholz": 0.0, "sonneborn_berger": 0.0}
