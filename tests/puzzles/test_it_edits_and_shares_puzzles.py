"""The puzzle editor: the solver checks a table and rack, saving shares it by a link anyone
can play; bad input gets a 4xx with a message."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from puzzles.models import Attempt, PlayerRating, Puzzle

from .conftest import api, post, user_client

pytestmark = pytest.mark.django_db
EDITOR = "/puzzles/api/editor"
SPLIT = {"table": [["R3", "R4", "R5", "R6", "R7", "R8"], ["K9", "B9", "Y9"]], "rack": ["R6"]}


def test_the_solver_checks_a_position(db: Any) -> None:
    answer = post(Client(), EDITOR, SPLIT)
    assert answer.status_code == 200
    body = answer.json()
    assert body["tiles_placeable"] == 1 and body["rack_size"] == 1
    assert ["R6", "R7", "R8"] in body["solution"] or ["R3", "R4", "R5", "R6"] in body["solution"]


def test_it_says_how_many_of_the_rack_can_go_down(db: Any) -> None:
    body = post(Client(), EDITOR, {"table": SPLIT["table"], "rack": ["R6", "B2"]}).json()
    assert (body["tiles_placeable"], body["rack_size"]) == (1, 2)
    assert body["played"] == ["R6"]


def test_saving_shares_a_puzzle_anyone_with_the_link_can_play(alice: Any, bob: Any) -> None:
    answer = post(user_client(alice), EDITOR, {**SPLIT, "save": True})
    assert answer.status_code == 201
    body = answer.json()
    puzzle = Puzzle.objects.get(slug=body["slug"])
    assert body["share_url"] == f"/puzzles/s/{puzzle.share_token}/"
    assert puzzle.source == "user" and not puzzle.public and puzzle.created_by == alice
    assert puzzle.goal is None and puzzle.solutions == 1 and puzzle.tiles_moved >= 1
    stranger = user_client(bob)
    page = stranger.get(body["share_url"])
    assert page.status_code == 200 and 'id="puzzle-bootstrap"' in page.content.decode()
    started = post(stranger, api(puzzle.slug, "attempt"), {"mode": "trainer"}).json()
    assert started["mode"] == "shared"
    solved = post(stranger, api(puzzle.slug, "submit"), {"table": puzzle.solution}).json()
    assert solved["solved"] and solved["rating"] is None
    assert not PlayerRating.objects.filter(user=bob).exists()
    assert Attempt.objects.get(user=bob).mode == "shared"


def test_a_puzzle_that_cannot_be_finished_gets_the_solvers_goal(db: Any) -> None:
    body = post(Client(), EDITOR, {"table": SPLIT["table"], "rack": ["R6", "B2"], "save": True})
    puzzle = Puzzle.objects.get(slug=body.json()["slug"])
    assert puzzle.goal == 1 and puzzle.goal_json == 1


def test_shared_puzzles_stay_out_of_the_trainer(alice: Any) -> None:
    post(user_client(alice), EDITOR, {**SPLIT, "save": True})
    state = user_client(alice).get("/puzzles/api/trainer").json()
    assert state["next"] is None


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"table": [["R1", "R2"]], "rack": ["R3"]}, 422, "meld_invalid"),
        ({"table": [["R1", "R2", "R3"]], "rack": []}, 400, "bad_rack"),
        ({"table": [["R1", "R2", "R3"]], "rack": "R4"}, 400, "bad_rack"),
        ({"table": [["R1", "R2", "R3"]], "rack": ["Q4"]}, 400, "bad_rack"),
        ({"table": "R1 R2 R3", "rack": ["R4"]}, 400, "bad_table"),
        ({"table": [["R1", "R2", "R3"]] * 3, "rack": ["R4"]}, 422, "too_many_copies"),
        ({"table": [], "rack": ["K1"] * 21}, 400, "bad_rack"),
    ],
)
def test_bad_positions_get_a_4xx_with_a_message(
    db: Any, body: dict[str, Any], status: int, code: str
) -> None:
    answer = post(Client(), EDITOR, body)
    assert answer.status_code == status
    assert answer.json()["error"] == code and answer.json()["message"]


def test_nothing_playable_cannot_be_saved(db: Any) -> None:
    answer = post(Client(), EDITOR, {"table": [["R1", "R2", "R3"]], "rack": ["K9"], "save": True})
    assert answer.status_code == 422 and answer.json()["error"] == "nothing_playable"
    assert not Puzzle.objects.exists()


def test_the_editor_page_checks_and_saves_by_form(db: Any) -> None:
    client = Client()
    page = client.get("/puzzles/editor/")
    assert page.status_code == 200 and "<textarea" in page.content.decode()
    form = {"table": "R3 R4 R5 R6 R7 R8\nK9, B9, Y9", "rack": "R6"}
    checked = client.post("/puzzles/editor/", {**form, "action": "check"})
    assert "1 of 1 rack tiles can go down" in checked.content.decode()
    saved = client.post("/puzzles/editor/", {**form, "action": "save"})
    puzzle = Puzzle.objects.get()
    assert saved.status_code == 302 and saved["Location"] == f"/puzzles/s/{puzzle.share_token}/"
    bad = client.post("/puzzles/editor/", {"table": "R3 R4", "rack": "R5", "action": "check"})
    assert bad.status_code == 422 and "at least 3 tiles" in bad.content.decode()


def test_a_field_the_editor_does_not_take_is_refused_and_nothing_is_saved(alice: Any) -> None:
    """A misspelt ``sav`` would check the position and save nothing, in silence."""
    answer = post(user_client(alice), EDITOR, {**SPLIT, "sav": True})

    assert answer.status_code == 400
    assert answer.json() == {
        "error": "bad_field",
        "message": "sav is not a field of a position; they are table, rack, save.",
    }
    assert not Puzzle.objects.filter(source="user").exists()


@pytest.mark.parametrize(
    ("save", "came"),
    [("no", 'text ("no")'), ([0], "a list"), (1, "the number 1"), ({}, "an object")],
)
def test_save_is_true_or_false_and_nothing_else(db: Any, save: Any, came: str) -> None:
    answer = post(Client(), EDITOR, {**SPLIT, "save": save})
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "bad_save",
        "message": f"save is true or false, or left out; it came as {came}.",
    }
    assert not Puzzle.objects.exists()


@pytest.mark.parametrize("save", [False, None])
def test_save_false_or_null_checks_without_saving(db: Any, save: Any) -> None:
    answer = post(Client(), EDITOR, {**SPLIT, "save": save})
    assert answer.status_code == 200 and "slug" not in answer.json()
    assert not Puzzle.objects.exists()
