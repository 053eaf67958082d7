"""The solver on the positions that trip solvers up, and its promises on any position."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.bench_solver import Position, random_position
from games.engine.errors import IllegalMove, InvalidInput
from games.engine.melds import readings
from games.engine.rules import RULES
from games.engine.solver import Solution, solve, solve_ids
from games.engine.tiles import CLASSIC, JOKER, Tile, parse_tiles
from games.engine.turn import check_turn, check_turn_codes

from .helpers import melds
from .test_it_solves_optimally import best_by_exhaustion, solver_score

CLASSIC_RULES = RULES["classic"]


def best(table: list[str], rack: str, opened: bool = True, rules_name: str = "classic") -> Solution:
    """Solve a position in codes and check the answer with check_turn_codes."""
    rules = RULES[rules_name]
    before = [parse_tiles(meld.split()) for meld in table]
    solution = solve(rules, before, parse_tiles(rack.split()), opened)
    after = [[str(t) for t in meld] for meld in solution.melds]
    if solution.tiles_played:
        played = check_turn_codes(rules, melds(*table), rack.split(), after, opened)
        assert sorted(map(str, played)) == sorted(map(str, solution.played))
    else:
        assert after == melds(*table)
    table_tiles = Counter(t for meld in before for t in meld)
    assert not table_tiles - Counter(t for meld in solution.melds for t in meld)
    return solution


def codes(solution: Solution) -> list[str]:
    return sorted(" ".join(map(str, meld)) for meld in solution.melds)


# docs/rules.md rule 5, example by example


def test_a_joker_that_was_not_replaced_cannot_leave() -> None:
    assert best(["R4 R5 R6 J"], "K9 Y9").tiles_played == 0


def test_a_red_seven_frees_the_joker() -> None:
    solution = best(["R4 R5 R6 J"], "K9 Y9 R7")
    assert solution.tiles_played == 3
    assert "R4 R5 R6 R7" in codes(solution)


def test_a_joker_keeps_standing_for_its_tile_in_a_group() -> None:
    solution = best(["R9 R10 R11 J"], "K12 Y12")
    assert solution.tiles_played == 2
    assert codes(solution) == ["K12 Y12 J", "R9 R10 R11"]


def test_moving_a_table_tile_beside_the_jokers_mates_frees_it() -> None:
    solution = best(["R7 K7 Y7 B7", "R5 R6 J"], "K1 K2")
    assert solution.tiles_played == 2
    assert "R5 R6 R7" in codes(solution)


def test_a_rack_tile_frees_the_joker_only_beside_its_old_mates() -> None:
    # R7 could join K7 Y7 B7 instead, but then the joker (a red 7) would not be free.
    solution = best(["R5 R6 J", "K7 Y7 B7"], "R7 K1 K2")
    assert solution.tiles_played == 3
    assert "R5 R6 R7" in codes(solution)
    assert "K1 K2 J" in codes(solution)


def test_a_group_joker_moves_to_another_group_lacking_its_colour() -> None:
    solution = best(["K5 Y5 J", "R6 R7 R8"], "B5 R5")
    assert solution.tiles_played == 2


def test_a_group_joker_cannot_become_another_number() -> None:
    assert best(["K5 Y5 B5 J"], "K6 Y6").tiles_played == 0


# Jokers in long runs and four-groups


def test_four_groups_holding_a_joker() -> None:
    # The joker is a yellow 7: K7 may leave for K7 K8 K9 as long as the group keeps three tiles.
    solution = best(["K7 B7 R7 J"], "Y7 K8 K9")
    assert solution.tiles_played == 3
    assert solution.value_played == 7 + 8 + 9
    assert best(["K7 B7 R7 J"], "K8 K9").tiles_played == 2
    assert best(["K7 B7 R7 J"], "B8 B9").tiles_played == 2


@pytest.mark.parametrize(
    ("table", "rack", "played"),
    [
        (["J R5 R6 R7"], "R8", 1),
        (["R5 R6 R7 J"], "R4", 1),
        (["R5 R6 R7 J"], "R9", 1),  # R5 R6 R7 J R9: the joker stays a red 8
        (["J R11 R12 R13"], "R9", 1),  # J R9 ... the joker keeps being R10: R9 R10 R11 R12 R13
        (["J R2 R3 R4 J"], "R7", 0),  # the jokers are R1 and R5; R7 would need R6 as well
        (["J R2 R3 R4 J"], "R5 R6", 2),  # R5 frees the second joker, which moves up to R7
        (["K7 B7 Y7 J", "J R2 R3 R4"], "R7 R1", 2),  # both jokers replaced in place
    ],
)
def test_runs_that_start_or_end_with_a_joker(table: list[str], rack: str, played: int) -> None:
    assert best(table, rack).tiles_played == played


def test_a_table_of_tricky_melds_stays_valid_when_nothing_fits() -> None:
    table = ["J R11 R12 R13", "K7 B7 R7 J", "Y1 Y2 Y3 Y4 Y5"]
    solution = best(table, "B2 K12")
    assert solution.tiles_played == 0
    assert codes(solution) == sorted(table)


def test_a_joker_played_from_the_rack_goes_where_there_is_room() -> None:
    # A full run has no room, but split in two it has: K1 K2 J + K3 ... K13.
    solution = best(["K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13"], "J")
    assert solution.tiles_played == 1
    assert len(solution.melds) == 2
    solution = best(["K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12", "R4 B4 Y4 K4"], "J")
    assert solution.tiles_played == 1  # best() checks the layout with check_turn
    solution = best(["K1 K2 K3 K4 K5", "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13"], "J")
    assert solution.tiles_played == 1


def test_a_short_run_at_the_top_takes_its_joker_below_it() -> None:
    solution = best(["R12 B12 Y12 K12"], "J K13")
    assert solution.tiles_played == 2
    assert "J K12 K13" in codes(solution)


def test_points_first_takes_fewer_tiles_worth_more() -> None:
    table, rack = ["R6 B6 J"], "K4 B5 R11 Y2 Y4 Y6 J"
    by_tiles = best(table, rack)
    before = [parse_tiles(meld.split()) for meld in table]
    by_points = solve(CLASSIC_RULES, before, parse_tiles(rack.split()), True, prefer="points")
    assert (by_tiles.tiles_played, by_tiles.value_played) == (4, 44)
    assert (by_points.tiles_played, by_points.value_played) == (3, 47)
    after = [[str(t) for t in meld] for meld in by_points.melds]
    check_turn_codes(CLASSIC_RULES, melds(*table), rack.split(), after, True)


def test_an_unknown_preference_is_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        solve(CLASSIC_RULES, [], parse_tiles(["R1"]), True, prefer="luck")  # type: ignore[arg-type]


def test_a_meld_with_one_tile_and_two_jokers_can_be_freed_as_a_run_or_a_group() -> None:
    # K3 J J reads as K3 K4 K5 or as a group of threes: B3 and Y3 free the jokers as a group.
    solution = best(["K3 J J", "K3 K4 K5"], "B3 Y3")
    assert solution.tiles_played == 2


def two_joker_position(rng: random.Random) -> Position:
    """A table with a meld holding both jokers, and a rack of tiles near them."""
    rules = CLASSIC_RULES
    kinds = rules.tile_set.tiles
    free: dict[Tile, list[int]] = {}
    for i, kind in enumerate(kinds):
        free.setdefault(kind, []).append(i)
    colour, number = rng.choice("KBRY"), rng.randint(1, 10)
    table = [(free[Tile(colour, number)].pop(), *free[JOKER])]
    free[JOKER] = []
    other = rng.choice("KBRY"), rng.randint(1, 11)
    table.append(tuple(free[Tile(other[0], other[1] + k)].pop() for k in range(3)))
    left = [i for ids in free.values() for i in ids]
    near = [i for i in left if kinds[i].number and abs(kinds[i].number - number) <= 2]
    rack = rng.sample(near, rng.randint(1, 4)) + rng.sample(left, rng.randint(0, 2))
    return Position(rules, kinds, tuple(table), tuple(sorted(set(rack))))


@pytest.mark.heavy_solver
def test_melds_holding_both_jokers_give_legal_best_plays() -> None:
    # Freeing a joker by a real tile beside the *other* joker of its old meld is the one way
    # the solver does not use (see its docstring); its answers must still be legal, and never
    # better than the exhaustive search's.
    rng = random.Random(4)
    for _ in range(80):
        position = two_joker_position(rng)
        solver = solver_score(position, True)
        assert solver <= best_by_exhaustion(position, True)


# The initial meld


def test_an_opening_group_of_tens_is_worth_exactly_thirty() -> None:
    solution = best([], "K10 B10 R10", opened=False)
    assert solution.tiles_played == 3


def test_an_opening_of_nines_is_too_low() -> None:
    assert best(["B5 B6 B7"], "K9 B9 R9", opened=False).tiles_played == 0


def test_an_opening_with_repeated_numbers_plays_both_melds() -> None:
    # Two black tens cannot share a group: the best is K10 R10 Y10 and B10 B11 B12.
    solution = best(["B5 B6 B7"], "K10 B10 R10 K10 Y10 B11 B12", opened=False)
    assert solution.tiles_played == 6
    assert codes(solution) == ["B10 B11 B12", "B5 B6 B7", "K10 R10 Y10"]


def test_an_opening_never_touches_the_table() -> None:
    solution = best(["R10 R11 R12"], "R13 K1 K2 K3", opened=False)
    assert solution.tiles_played == 0  # R13 would need the table; K1 K2 K3 is only 6


def test_an_opening_counts_a_joker_at_its_value_and_prefers_more_tiles() -> None:
    solution = best([], "R10 R11 J K1 K2 K3", opened=False)
    assert solution.tiles_played == 6  # 33 + 6


def test_rush_opens_at_twenty_one() -> None:
    assert best([], "R6 R7 R8", opened=False, rules_name="rush").tiles_played == 3
    assert best([], "R5 R6 R7", opened=False, rules_name="rush").tiles_played == 0


def test_an_empty_rack_plays_nothing() -> None:
    assert best(["R1 R2 R3"], "").tiles_played == 0


# solve_ids on physical tiles


def test_table_jokers_keep_their_ids() -> None:
    kinds = CLASSIC.tiles
    ids = {str(kinds[i]): i for i in range(len(kinds))}
    first_joker, second_joker = (i for i, t in enumerate(kinds) if t == JOKER)
    r4, r5, r6, r7 = (ids[c] - 1 for c in ("R4", "R5", "R6", "R7"))
    table = [(r4, r5, r6, first_joker)]
    rack = [r7, second_joker]
    after = solve_ids(CLASSIC_RULES, kinds, table, rack, True)
    assert after is not None
    result = check_turn(CLASSIC_RULES, kinds, table, rack, after, True)
    assert sorted(result.played) == sorted(rack)
    assert first_joker in {i for meld in after for i in meld}


def test_nothing_playable_gives_none() -> None:
    kinds = CLASSIC.tiles
    assert solve_ids(CLASSIC_RULES, kinds, [(0, 2, 4)], [50], True) is None


# Promises on any position


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    table_size=st.integers(0, 45),
    rack_size=st.integers(0, 14),
    rules_name=st.sampled_from(["classic", "large", "rush"]),
    opened=st.booleans(),
)
def test_every_answer_is_a_legal_turn_that_keeps_the_table(
    seed: int, table_size: int, rack_size: int, rules_name: str, opened: bool
) -> None:
    rules = RULES[rules_name]
    position = random_position(random.Random(seed), table_size, rack_size, rules, 0.3)
    kinds = position.kinds
    after = solve_ids(rules, kinds, position.table, position.rack, opened)
    if after is None:
        return
    result = check_turn(rules, kinds, position.table, position.rack, after, opened)
    before_ids = Counter(i for meld in position.table for i in meld)
    after_ids = Counter(i for meld in after for i in meld)
    assert after_ids - before_ids == Counter(result.played)
    assert not before_ids - after_ids
    for meld in after:
        assert readings([kinds[i] for i in meld], rules.max_number)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), table_size=st.integers(0, 40), rack_size=st.integers(1, 12))
def test_solve_reports_what_it_plays(seed: int, table_size: int, rack_size: int) -> None:
    position = random_position(random.Random(seed), table_size, rack_size, joker_rate=0.3)
    kinds = position.kinds
    table = [[kinds[i] for i in meld] for meld in position.table]
    rack = [kinds[i] for i in position.rack]
    solution = solve(CLASSIC_RULES, table, rack, True)
    assert solution.tiles_played == len(solution.played)
    assert solution.value_played == sum(t.rack_value for t in solution.played)
    on_table = Counter(t for meld in solution.melds for t in meld)
    assert on_table == Counter(t for meld in table for t in meld) + Counter(solution.played)
    assert not Counter(solution.played) - Counter(rack)


def test_an_answer_check_turn_refuses_falls_back_to_holding_table_jokers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games.engine.solver import entry

    kinds = CLASSIC.tiles
    ids = {str(kinds[i]): i for i in range(len(kinds))}
    joker = next(i for i, t in enumerate(kinds) if t == JOKER)
    table = [(ids["R5"], ids["R6"], joker), (ids["K7"], ids["Y7"], ids["B7"], ids["R7"])]
    rack = [ids["K1"], ids["K2"], ids["R8"]]
    refusals = []

    def refuse_once(*args: object) -> object:
        if not refusals:
            refusals.append(args)
            raise IllegalMove("joker_not_replaced", "pretend the freed joker's mate is missing")
        return check_turn(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(entry, "check_turn", refuse_once)
    after = solve_ids(CLASSIC_RULES, kinds, table, rack, True)
    assert refusals
    assert after is not None
    played = check_turn(CLASSIC_RULES, kinds, table, rack, after, True).played
    assert sorted(played) == [ids["R8"]]  # the joker kept as R7: R5 R6 J R8; K1 K2 stay


def test_caches_are_trimmed_between_solves_without_changing_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games.engine.solver import entry, packing

    first = best(["R4 R5 R6 J"], "R7 K9 Y9")
    monkeypatch.setattr(entry, "CACHE_LIMIT", 0)
    assert best(["R4 R5 R6 J"], "R7 K9 Y9") == first
    assert len(packing._RUNS) < 100


def test_the_garbage_collector_is_left_as_it_was_found() -> None:
    import gc

    was = gc.isenabled()
    try:
        gc.enable()
        best(["R4 R5 R6"], "R7 K1")
        assert gc.isenabled()
        gc.disable()
        best(["R4 R5 R6"], "R7 K1")
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()
