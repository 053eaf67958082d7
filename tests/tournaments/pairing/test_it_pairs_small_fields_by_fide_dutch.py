"""Swiss at 2 a table through py4swiss's FIDE Dutch engine (tournaments/pairing/dutch.py) up to
DUTCH_LIMIT players, and our own pairing above it or where the Dutch rules pair nobody
(docs/tournaments.md "Swiss, 2 per table")."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from py4swiss.engines.dutch.engine import Engine
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
from py4swiss.trf.sections import PlayerSection, XSection

import tournaments.pairing as pairing
from tournaments.pairing import DUTCH_LIMIT, Entrant, Round, dutch, swiss
from tournaments.pairing.simulate import random_swiss


@pytest.fixture
def own_pairings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the rounds our own 2-a-table pairing makes (one entry per call: the field)."""
    calls: list[int] = []
    own = pairing._pairs

    def counted(playing: list[Entrant], round_number: int) -> list[tuple[int, ...]]:
        calls.append(len(playing))
        return own(playing, round_number)

    monkeypatch.setattr(pairing, "_pairs", counted)
    return calls


def lowest_without_a_bye(entrants: list[Entrant]) -> int:
    fewest = min(e.byes for e in entrants)
    return min(
        (e for e in entrants if e.byes == fewest), key=lambda e: (e.points, e.rating, -e.key)
    ).key


def play(
    players: int, rounds: int, seed: int, check: Callable[[list[Entrant], Round], None]
) -> None:
    """A Swiss at 2 a table with random results (a shared place now and then); ``check`` sees
    each round's entrants and pairing."""
    rng = random.Random(seed)
    ratings = {k: float(rng.randint(1000, 2000)) for k in range(players)}

    def places(rng: random.Random, size: int) -> list[int]:
        return [1, 1] if rng.random() < 0.1 else rng.sample([1, 2], 2)

    for entrants, paired, _ in random_swiss(ratings, 2, rounds, rng, places=places, seed=seed):
        check(entrants, paired)


@pytest.mark.parametrize("seed", range(20))
def test_a_9_player_swiss_gives_each_bye_to_the_lowest_without_one_and_repeats_no_pair(
    seed: int, own_pairings: list[int]
) -> None:
    pairs: list[frozenset[int]] = []
    byes: list[int] = []

    def check(entrants: list[Entrant], paired: Round) -> None:
        assert paired.byes == (lowest_without_a_bye(entrants),)
        pairs.extend(frozenset(t) for t in paired.tables)
        byes.extend(paired.byes)

    play(9, 5, seed, check)
    assert own_pairings == [], "every round paired by the Dutch engine"
    assert len(pairs) == len(set(pairs)) == 20, "no pair meets twice"
    assert len(set(byes)) == 5


def test_the_pairing_is_the_dutch_engines_own_answer_from_a_tournament_report(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Round 1 as the Dutch pairs 8 players (first seat = white), round 2 inside the score
    # groups (so no player has floated), then round 3 from both descriptions of that history.
    history = [
        [(1, 5, 1), (6, 2, 0), (3, 7, 0), (8, 4, 1)],
        [(7, 1, 1), (2, 8, 1), (5, 3, 1), (4, 6, 0)],
    ]
    ratings = {k: 2000 - 10 * k for k in range(1, 9)}
    results: dict[int, list[RoundResult]] = {k: [] for k in ratings}
    points = dict.fromkeys(ratings, 0.0)
    met: dict[int, set[int]] = {k: set() for k in ratings}
    firsts: dict[int, list[bool]] = {k: [] for k in ratings}
    for tables in history:
        for white, black, white_won in tables:
            won, lost = ResultToken.WIN, ResultToken.LOSS
            results[white].append(
                RoundResult(id=black, color=ColorToken.WHITE, result=won if white_won else lost)
            )
            results[black].append(
                RoundResult(id=white, color=ColorToken.BLACK, result=lost if white_won else won)
            )
            points[white if white_won else black] += 1
            met[white].add(black)
            met[black].add(white)
            firsts[white].append(True)
            firsts[black].append(False)
    report = ParsedTrf(
        player_sections=[
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=k,
                fide_rating=ratings[k],
                points_times_ten=round(points[k] * 10),
                rank=k,
                results=results[k],
            )
            for k in ratings
        ],
        x_section=XSection(number_of_rounds=5),
    )
    report.validate_contents()
    engine = tuple((p.white, p.black) for p in Engine.generate_pairings(report))
    entrants = [
        Entrant(k, ratings[k], points[k], frozenset(met[k]), tuple(firsts[k])) for k in ratings
    ]

    assert swiss(entrants, 2, 3, b"r3") == Round(engine)
    monkeypatch.setattr(pairing, "DUTCH_LIMIT", 0)
    assert swiss(entrants, 2, 3, b"r3").tables != engine, "our own pairing differs here"


def test_round_one_alternates_first_seats_down_the_tables_up_to_the_limit_only(
    monkeypatch: pytest.MonkeyPatch, own_pairings: list[int]
) -> None:
    # The Dutch round 1: 1 v n/2+1 with 1 first, n/2+2 first against 2, and so on; our own
    # seats the higher ranked first at every table.
    for players in (DUTCH_LIMIT, DUTCH_LIMIT + 2):
        entrants = [Entrant(k, 3000 - k) for k in range(players)]
        half = players // 2
        tables = swiss(entrants, 2, 1, b"r1").tables
        assert [tuple(sorted(t)) for t in tables] == [(k, k + half) for k in range(half)]
        if players <= DUTCH_LIMIT:
            assert [t[0] < t[1] for t in tables] == [k % 2 == 0 for k in range(half)]
            assert own_pairings == []
        else:
            assert all(t[0] < t[1] for t in tables)
            assert own_pairings == [players]

    def unused(*args: Any) -> None:
        raise AssertionError("the Dutch engine is not asked above the limit")

    monkeypatch.setattr(dutch, "swiss_round", unused)
    swiss([Entrant(k, 3000 - k) for k in range(DUTCH_LIMIT + 1)], 2, 1, b"r1")


def test_where_the_dutch_rules_pair_nobody_our_own_pairs_without_repeats(
    own_pairings: list[int],
) -> None:
    # Rounds 1-2 were 0 v 1, 2 v 3 and 0 v 2, 1 v 3, with 0 and 3 first both times. The only
    # new tables, 0 v 3 and 1 v 2, each seat two players who must move first (or second): the
    # Dutch rule C.3 forbids both.
    entrants = [
        Entrant(0, 1900, 2.0, frozenset({1, 2}), (True, True)),
        Entrant(1, 1800, 1.0, frozenset({0, 3}), (False, False)),
        Entrant(2, 1700, 1.0, frozenset({3, 0}), (False, False)),
        Entrant(3, 1600, 0.0, frozenset({2, 1}), (True, True)),
    ]
    assert dutch.swiss_round(entrants, 3, None) is None
    tables = swiss(entrants, 2, 3, b"r3").tables
    assert sorted(tuple(sorted(t)) for t in tables) == [(0, 3), (1, 2)]
    assert own_pairings == [4]


def test_where_the_dutch_rules_would_move_the_bye_our_own_keeps_it_with_the_lowest(
    own_pairings: list[int],
) -> None:
    # Round 5 of a simulated 7-player Swiss. 3 is the lowest without a bye, but then 1 (who
    # must move first, having been second twice running) could only meet 4 or 5, who must too.
    entrants = [
        Entrant(0, 1978, 3.0, frozenset({1, 3, 4, 6}), (True, False, True, False)),
        Entrant(6, 1086, 2.5, frozenset({0, 1, 5}), (False, True, True), byes=1),
        Entrant(4, 1057, 2.5, frozenset({0, 3, 5}), (True, False, False), byes=1),
        Entrant(1, 1883, 2.0, frozenset({0, 2, 3, 6}), (True, True, False, False)),
        Entrant(3, 1869, 2.0, frozenset({0, 1, 2, 4}), (False, False, True, True)),
        Entrant(5, 1093, 1.5, frozenset({2, 4, 6}), (True, False, False), byes=1),
        Entrant(2, 1970, 0.5, frozenset({1, 3, 5}), (False, True, True), byes=1),
    ]
    assert dutch.swiss_round(entrants, 5, 3) is None
    paired = swiss(entrants, 2, 5, b"r5")
    assert paired.byes == (3,) and own_pairings == [6]
    by_key = {e.key: e for e in entrants}
    assert not any(b in by_key[a].met for a, b in paired.tables)


def test_an_engine_failure_leaves_the_round_to_our_own_pairing(
    monkeypatch: pytest.MonkeyPatch, own_pairings: list[int]
) -> None:
    def broken(*args: Any) -> list[tuple[int, int]]:
        raise RuntimeError("engine bug")

    monkeypatch.setattr(dutch, "_pair", broken)
    entrants = [Entrant(k, 2000 - k, float(k % 2)) for k in range(7)]
    paired = swiss(entrants, 2, 2, b"r2")
    assert paired.byes == (lowest_without_a_bye(entrants),) and len(paired.tables) == 3
    assert own_pairings == [6]


def test_points_the_engine_cannot_hold_leave_the_round_to_our_own_pairing(
    own_pairings: list[int],
) -> None:
    entrants = [Entrant(k, 2000 - k, 0.25 * k) for k in range(6)]
    assert dutch.swiss_round(entrants, 2, None) is None
    assert len(swiss(entrants, 2, 2, b"r2").tables) == 3 and own_pairings == [6]
