"""Submitting a final table: legal and complete solves the puzzle; anything else says why, in
the engine's words, and leaves the attempt open."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from puzzles.models import Attempt, PlayerRating, Puzzle

from .conftest import api, post, user_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def split(shipped: list[Puzzle]) -> Puzzle:
    """A level-2 puzzle: split a long run with a copy of a middle tile."""
    return next(p for p in shipped if p.level == 2)


def start(client: Client, puzzle: Puzzle, mode: str = "trainer") -> Any:
    return post(client, api(puzzle.slug, "attempt"), {"mode": mode})


def test_a_legal_complete_table_solves_and_rates(alice: Any, split: Puzzle) -> None:
    client = user_client(alice)
    assert start(client, split).status_code == 201
    answer = post(client, api(split.slug, "submit"), {"table": split.solution})
    assert answer.status_code == 200
    body = answer.json()
    assert body["solved"] is True
    assert sorted(body["played"]) == sorted(split.rack)
    assert body["rating"]["after"] > body["rating"]["before"]
    attempt = Attempt.objects.get(user=alice, puzzle=split)
    assert attempt.solved and attempt.rated and attempt.finished is not None
    assert PlayerRating.objects.get(user=alice).games == 1
    split.refresh_from_db()
    assert split.rating < 500 + 150 * 2 + 50  # the puzzle lost


def test_starting_twice_keeps_one_open_attempt(alice: Any, split: Puzzle) -> None:
    client = user_client(alice)
    first = start(client, split).json()
    again = start(client, split)
    assert again.status_code == 200 and again.json()["id"] == first["id"]
    assert Attempt.objects.filter(user=alice).count() == 1


def test_a_second_solve_of_the_same_puzzle_is_not_rated(alice: Any, split: Puzzle) -> None:
    client = user_client(alice)
    start(client, split)
    post(client, api(split.slug, "submit"), {"table": split.solution})
    start(client, split)
    answer = post(client, api(split.slug, "submit"), {"table": split.solution}).json()
    assert answer["solved"] and answer["rating"] is None
    assert PlayerRating.objects.get(user=alice).games == 1


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ("drop_a_table_tile", "table_tile_taken"),
        ("break_a_meld", "meld_invalid"),
        ("add_a_foreign_tile", "tile_not_in_rack"),
        ("play_nothing", "no_tile_played"),
    ],
)
def test_an_illegal_table_gets_the_engines_code_and_sentence(
    alice: Any, split: Puzzle, change: str, code: str
) -> None:
    client = user_client(alice)
    start(client, split)
    table = [list(meld) for meld in split.solution]
    if change == "drop_a_table_tile":
        table = table[:-1]  # the solution lists melds with rack tiles first
    elif change == "break_a_meld":
        first = table[0]
        table[0:1] = [first[:2], first[2:]]
    elif change == "add_a_foreign_tile":
        table.append(["K1", "B1", "R1"] if "K13" in str(table) else ["K13", "B13", "R13"])
    else:
        table = [list(meld) for meld in split.table]
    answer = post(client, api(split.slug, "submit"), {"table": table})
    assert answer.status_code == 422
    assert answer.json()["error"] == code
    assert answer.json()["message"].endswith(".")
    attempt = Attempt.objects.get(user=alice, puzzle=split)
    assert attempt.is_open and attempt.mistakes == 1


def test_a_joker_must_keep_its_place_unless_replaced(alice: Any, shipped: list[Puzzle]) -> None:
    puzzle = Puzzle.objects.create(
        slug="joker-rule",
        table=[["R4", "R5", "R6", "J"]],
        rack=["K9", "Y9", "R7"],
        solution=[["R4", "R5", "R6", "R7"], ["K9", "Y9", "J"]],
    )
    client = user_client(alice)
    start(client, puzzle)
    cheat = {"table": [["R4", "R5", "R6"], ["K9", "Y9", "J"], ["R7"]]}
    assert post(client, api(puzzle.slug, "submit"), cheat).json()["error"] == "meld_invalid"
    cheat = {"table": [["R4", "R5", "R6"], ["J", "K9", "Y9"]]}
    answer = post(client, api(puzzle.slug, "submit"), cheat)
    assert answer.status_code == 422 and answer.json()["error"] == "joker_not_replaced"
    good = {"table": [["R4", "R5", "R6", "R7"], ["J", "K9", "Y9"]]}
    assert post(client, api(puzzle.slug, "submit"), good).json()["solved"] is True


def test_falling_short_of_the_goal_is_not_a_solve(alice: Any, shipped: list[Puzzle]) -> None:
    puzzle = next(p for p in shipped if p.level == 3)  # two rack tiles with a group's tile
    client = user_client(alice)
    start(client, puzzle)
    partial = [list(m) for m in puzzle.table]
    answer = post(client, api(puzzle.slug, "submit"), {"table": partial})
    assert answer.json()["error"] == "no_tile_played"
    puzzle.goal = 1
    puzzle.save()
    answer = post(client, api(puzzle.slug, "submit"), {"table": puzzle.solution})
    assert answer.json()["solved"] is True


def test_it_says_how_many_tiles_are_left_when_the_goal_is_all(
    alice: Any, shipped: list[Puzzle]
) -> None:
    puzzle = Puzzle.objects.create(
        slug="two-runs", table=[["B1", "B2", "B3"]], rack=["B4", "K9"], solution=[]
    )
    client = user_client(alice)
    start(client, puzzle)
    answer = post(client, api(puzzle.slug, "submit"), {"table": [["B1", "B2", "B3", "B4"]]})
    assert answer.status_code == 422
    assert answer.json() == {
        "error": "goal_not_met",
        "message": "Put down every rack tile: 1 still on your rack.",
    }


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("not json", 400, "bad_json"),
        ([1, 2], 400, "bad_json"),
        ({"table": "R1 R2 R3"}, 400, "bad_table"),
        ({"table": [["R1", 2]]}, 400, "bad_table"),
        ({"table": [["X9", "R2", "R3"]]}, 400, "bad_table"),
        ({}, 400, "bad_table"),
    ],
)
def test_malformed_submissions_get_a_400_with_a_message(
    alice: Any, split: Puzzle, body: Any, status: int, code: str
) -> None:
    client = user_client(alice)
    start(client, split)
    if isinstance(body, str):
        answer = client.post(api(split.slug, "submit"), body, content_type="application/json")
    else:
        answer = post(client, api(split.slug, "submit"), body)
    assert answer.status_code == status
    assert answer.json()["error"] == code and answer.json()["message"]


def test_no_attempt_unknown_puzzle_and_wrong_method(alice: Any, split: Puzzle) -> None:
    client = user_client(alice)
    answer = post(client, api(split.slug, "submit"), {"table": split.solution})
    assert answer.status_code == 409 and answer.json()["error"] == "no_attempt"
    answer = post(client, api("no-such-puzzle", "attempt"), {})
    assert answer.status_code == 404 and answer.json()["error"] == "no_such_puzzle"
    assert client.get(api(split.slug, "submit")).status_code == 405
    answer = post(client, api(split.slug, "attempt"), {"mode": "ranked"})
    assert answer.status_code == 400 and answer.json()["error"] == "bad_mode"


def test_the_api_needs_a_csrf_token(alice: Any, split: Puzzle) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert post(client, api(split.slug, "attempt"), {}).status_code == 403
    client.get(split.get_absolute_url())
    token = client.cookies["csrftoken"].value
    answer = client.post(
        api(split.slug, "attempt"), "{}", content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert answer.status_code == 201
