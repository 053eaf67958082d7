from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.engine.state import state_from_record
from games.models import Game

from .conftest import client_for, key, post

pytestmark = pytest.mark.django_db


def mover_and_other(duel: Game, alice: Any, bob: Any) -> tuple[Any, Any]:
    state = state_from_record(duel.state)
    return (alice, bob) if state.turn == 0 else (bob, alice)


def url(game: Game, action: str) -> str:
    return f"/api/games/{game.public_id}/{action}"


def test_a_draw_appends_an_event_and_answers_the_new_view(duel: Game, alice: Any, bob: Any) -> None:
    mover, _ = mover_and_other(duel, alice, bob)
    answer = post(client_for(mover), url(duel, "draw"), {"expected_seq": 2, "key": key()})
    assert answer.status_code == 200
    body = answer.json()
    assert body["seq"] == 3 and len(body["view"]["rack"]) == 15
    duel.refresh_from_db()
    assert duel.seq == 3 and duel.events.last().kind == "TileDrawn"


def test_a_stale_seq_gets_409_with_the_current_state(duel: Game, alice: Any, bob: Any) -> None:
    mover, _ = mover_and_other(duel, alice, bob)
    answer = post(client_for(mover), url(duel, "draw"), {"expected_seq": 1, "key": key()})
    assert answer.status_code == 409
    body = answer.json()
    assert body["error"] == "stale" and body["seq"] == 2 and len(body["view"]["rack"]) == 14


def test_a_retried_action_gets_the_first_answer_back(duel: Game, alice: Any, bob: Any) -> None:
    mover, _ = mover_and_other(duel, alice, bob)
    client, same = client_for(mover), key()
    first = post(client, url(duel, "draw"), {"expected_seq": 2, "key": same}).json()
    again = post(client, url(duel, "draw"), {"expected_seq": 2, "key": same})
    assert again.status_code == 200 and again.json() == first
    duel.refresh_from_db()
    assert duel.seq == 3


def test_a_key_used_again_for_a_new_action_is_refused_and_changes_nothing(
    duel: Game, alice: Any, bob: Any
) -> None:
    mover, other = mover_and_other(duel, alice, bob)
    same = key()
    first = post(client_for(mover), url(duel, "draw"), {"expected_seq": 2, "key": same})
    assert first.status_code == 200
    # Keys are per seat: the other seat may use the same one. The mover's old key at the new
    # seq is a client bug, not a retry.
    again = post(client_for(other), url(duel, "draw"), {"expected_seq": 3, "key": same})
    assert again.status_code == 200
    duel.refresh_from_db()
    reused = post(client_for(mover), url(duel, "draw"), {"expected_seq": duel.seq, "key": same})
    assert reused.status_code == 409 and reused.json()["error"] == "stale"
    after = Game.objects.get(pk=duel.pk)
    assert after.seq == duel.seq and after.state == duel.state


def test_an_illegal_play_gets_422_with_the_engines_sentence_and_changes_nothing(
    duel: Game, alice: Any, bob: Any
) -> None:
    mover, _ = mover_and_other(duel, alice, bob)
    state = state_from_record(duel.state)
    rack = state.racks[state.turn]
    answer = post(
        client_for(mover),
        url(duel, "play"),
        {"expected_seq": 2, "key": key(), "table": [list(rack[:3])]},
    )
    assert answer.status_code == 422
    body = answer.json()
    assert body["error"] in {"meld_invalid", "initial_meld_too_low"} and body["message"]
    duel.refresh_from_db()
    assert duel.seq == 2 and state_from_record(duel.state) == state


def test_not_your_turn_and_not_your_game(duel: Game, alice: Any, bob: Any, outsider: Any) -> None:
    _, other = mover_and_other(duel, alice, bob)
    answer = post(client_for(other), url(duel, "draw"), {"expected_seq": 2, "key": key()})
    assert answer.status_code == 422 and answer.json()["error"] == "not_your_turn"
    answer = post(client_for(outsider), url(duel, "draw"), {"expected_seq": 2, "key": key()})
    assert answer.status_code == 403 and answer.json()["error"] == "not_a_player"
    answer = post(Client(), url(duel, "draw"), {"expected_seq": 2, "key": key()})
    assert answer.status_code == 403
    duel.refresh_from_db()
    assert duel.seq == 2


def test_forged_seat_and_user_ids_in_a_payload_are_refused(
    duel: Game, alice: Any, bob: Any
) -> None:
    mover, other = mover_and_other(duel, alice, bob)
    mover_seat = duel.seats.get(user=mover).index
    forged = {"expected_seq": 2, "key": key(), "seat": mover_seat, "user": mover.pk}
    answer = post(client_for(other), url(duel, "draw"), forged)
    assert answer.status_code == 400 and answer.json()["error"] == "bad_field"
    assert answer.json()["message"] == (
        "seat is not a field of the draw action; they are key, expected_seq."
    )
    answer = post(client_for(other), url(duel, "draw"), {"expected_seq": 2, "key": key()})
    assert answer.status_code == 422 and answer.json()["error"] == "not_your_turn"
    duel.refresh_from_db()
    assert duel.seq == 2


@pytest.mark.parametrize(
    ("action", "body", "message"),
    [
        (
            "play",
            {"expected_seq": 2, "key": "k" * 10, "tabel": [[1, 2, 3]]},
            "tabel is not a field of the play action; they are key, expected_seq, table.",
        ),
        (
            "draw",
            {"expected_seq": 2, "key": "k" * 10, "table": []},
            "table is not a field of the draw action; they are key, expected_seq.",
        ),
        (
            "resign",
            {"expected_seq": 2, "key": "k" * 10, "expected_sq": 2},
            "expected_sq is not a field of the resign action; they are key, expected_seq.",
        ),
    ],
)
def test_a_field_an_action_does_not_take_is_refused_not_ignored(
    duel: Game, alice: Any, bob: Any, action: str, body: dict[str, Any], message: str
) -> None:
    mover, _ = mover_and_other(duel, alice, bob)
    answer = post(client_for(mover), url(duel, action), body)
    assert answer.status_code == 400 and answer.json() == {"error": "bad_field", "message": message}
    duel.refresh_from_db()
    assert duel.seq == 2 and duel.status == "playing"


def test_csrf_is_enforced_on_the_json_api(duel: Game, alice: Any, bob: Any) -> None:
    mover, _ = mover_and_other(duel, alice, bob)
    client = client_for(mover, csrf=True)
    answer = post(client, url(duel, "draw"), {"expected_seq": 2, "key": key()})
    assert answer.status_code == 403 and answer.json()["error"] == "csrf"
    client.get("/")
    token = client.cookies["csrftoken"].value
    answer = client.post(
        url(duel, "draw"),
        {"expected_seq": 2, "key": key()},
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    assert answer.status_code == 200


@pytest.mark.parametrize(
    ("action", "body", "status", "code"),
    [
        ("draw", {"key": "k" * 10}, 400, "bad_seq"),
        ("draw", {"expected_seq": 2}, 400, "bad_key"),
        ("draw", {"expected_seq": "2", "key": "k" * 10}, 400, "bad_seq"),
        ("play", {"expected_seq": 2, "key": "k" * 10, "table": "R1 R2 R3"}, 400, "bad_table"),
        ("play", {"expected_seq": 2, "key": "k" * 10, "table": [[1, True]]}, 400, "bad_table"),
        ("play", {"expected_seq": 2, "key": "k" * 10, "table": [[1, 999, 3]]}, 400, "bad_action"),
        ("fly", {"expected_seq": 2, "key": "k" * 10}, 404, "no_such_action"),
    ],
)
def test_bad_input_gets_a_clear_4xx(
    duel: Game, alice: Any, bob: Any, action: str, body: dict[str, Any], status: int, code: str
) -> None:
    mover, _ = mover_and_other(duel, alice, bob)
    answer = post(client_for(mover), url(duel, action), body)
    assert answer.status_code == status and answer.json()["error"] == code
    assert answer.json()["message"]
    duel.refresh_from_db()
    assert duel.seq == 2


def test_malformed_json_and_unknown_games(duel: Game, alice: Any) -> None:
    client = client_for(alice)
    answer = client.post(url(duel, "draw"), "{oops", content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "bad_json"
    assert client.get("/api/games/nope/").status_code == 404
    assert (
        post(client, "/api/games/nope/draw", {"expected_seq": 0, "key": key()}).status_code == 404
    )
    for after in ("x", "-5", "1e3", "99999999999999999999999"):
        answer = client.get(f"/api/games/{duel.public_id}/events?after={after}")
        assert answer.status_code == 400 and answer.json()["error"] == "bad_after", after
        assert "whole number" in answer.json()["message"], after
    assert client.get(url(duel, "draw")).status_code == 405


def test_resigning_ends_a_duel_and_reveals_the_seed(duel: Game, alice: Any, bob: Any) -> None:
    _, other = mover_and_other(duel, alice, bob)
    answer = post(client_for(other), url(duel, "resign"), {"expected_seq": 2, "key": key()})
    assert answer.status_code == 200
    duel.refresh_from_db()
    assert duel.status == "finished"
    assert answer.json()["view"]["seed"] == duel.seed
    record = client_for(alice).get(f"/g/{duel.public_id}/record.json").json()
    assert record["seed"] == duel.seed and record["events"][-1]["kind"] == "GameEnded"
    page = client_for(alice).get(f"/g/{duel.public_id}/verify/").content.decode()
    assert page.count(">yes<") == 2
    assert client_for(alice).get(f"/g/{duel.public_id}/replay/").status_code == 200


def test_after_the_end_a_late_move_is_stale_and_a_current_one_not_playing(
    duel: Game, alice: Any, bob: Any
) -> None:
    mover, other = mover_and_other(duel, alice, bob)
    resigned = post(client_for(other), url(duel, "resign"), {"expected_seq": 2, "key": key()})
    assert resigned.status_code == 200
    duel.refresh_from_db()
    # The mover's draw raced the resignation and lost: it learns the game moved on, with the end.
    late = post(client_for(mover), url(duel, "draw"), {"expected_seq": 2, "key": key()})
    assert late.status_code == 409 and late.json()["error"] == "stale"
    assert late.json()["seq"] == duel.seq
    current = post(client_for(mover), url(duel, "draw"), {"expected_seq": duel.seq, "key": key()})
    assert current.status_code == 409 and current.json()["error"] == "not_playing"
    duel.refresh_from_db()
    assert duel.events.last().kind == "GameEnded"


def test_the_record_waits_for_the_end(duel: Game, alice: Any) -> None:
    answer = client_for(alice).get(f"/g/{duel.public_id}/record.json")
    assert answer.status_code == 409 and answer.json()["error"] == "not_finished"
    assert duel.seed not in answer.content.decode()
    assert duel.seed not in client_for(alice).get(f"/g/{duel.public_id}/verify/").content.decode()


def test_events_after_a_seq_are_projected_for_the_viewer(
    duel: Game, alice: Any, bob: Any, outsider: Any
) -> None:
    mover, other = mover_and_other(duel, alice, bob)
    post(client_for(mover), url(duel, "draw"), {"expected_seq": 2, "key": key()})
    mine = client_for(mover).get(f"/api/games/{duel.public_id}/events?after=2").json()
    theirs = client_for(other).get(f"/api/games/{duel.public_id}/events?after=2").json()
    watched = client_for(outsider).get(f"/api/games/{duel.public_id}/events?after=0").json()
    assert mine["events"][0]["event"]["tile"] is not None
    assert theirs["events"][0]["event"]["tile"] is None
    assert watched["events"][1]["event"]["racks"] == [[], []]
    assert watched["events"][1]["event"]["pool"] == 78
