"""Rummy 45 actions over HTTP: ``POST /api/games/<gid>/r45`` with ``{"move": ...}`` under the
same idempotency key and expected-seq contract as every action; bad input is a 4xx with a
message and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game

from ..conftest import client_for, key, post

pytestmark = pytest.mark.django_db


def act(client: Any, game: Game, move: Any, seq: int | None = None, **extra: Any) -> Any:
    game.refresh_from_db()
    body = {"move": move, "key": key(), "expected_seq": game.seq if seq is None else seq}
    return post(client, f"/api/games/{game.public_id}/r45", {**body, **extra})


def test_both_seats_get_ready_and_play_starts(r45_duel: Game, alice: Any, bob: Any) -> None:
    a, b = client_for(alice), client_for(bob)
    first = act(a, r45_duel, {"action": "Ready"})
    assert first.status_code == 200, first.json()
    assert first.json()["view"]["ready"] == [True, False]
    started = act(b, r45_duel, {"action": "Ready"})
    view = started.json()["view"]
    assert view["phase"] == "play" and view["turn"] == (view["dealer"] + 1) % 2
    turn = view["turn"]
    mover = a if turn == 0 else b
    rack = (
        view["rack"]
        if turn == 1
        else a.get(f"/api/games/{r45_duel.public_id}/").json()["view"]["rack"]
    )
    laid = act(mover, r45_duel, {"action": "Discard", "tile": rack[0]})
    assert laid.status_code == 200, laid.json()
    assert laid.json()["view"]["train"] == [rack[0]]


def test_a_retry_with_the_same_key_gets_the_first_answer(r45_duel: Game, alice: Any) -> None:
    client = client_for(alice)
    r45_duel.refresh_from_db()
    body = {"move": {"action": "Ready"}, "key": key(), "expected_seq": r45_duel.seq}
    url = f"/api/games/{r45_duel.public_id}/r45"
    first, again = post(client, url, body), post(client, url, body)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    r45_duel.refresh_from_db()
    assert list(r45_duel.events.values_list("kind", flat=True)).count("PlayerReady") == 1


@pytest.mark.parametrize(
    "move, extra, status, error",
    [
        ({"action": "Frobnicate"}, {}, 400, "bad_action"),
        ({"action": "Stitch", "tile": 3}, {}, 400, "bad_action"),
        ({"action": "Ready", "seat": 1}, {}, 400, "bad_action"),
        ("Ready", {}, 400, "bad_action"),
        ({"action": "Draw"}, {}, 422, "not_playing"),
        ({"action": "Ready"}, {"key": "short"}, 400, "bad_key"),
        ({"action": "Ready"}, {"expected_seq": "2"}, 400, "bad_seq"),
        ({"action": "Ready"}, {"expected_seq": 0}, 409, "stale"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    r45_duel: Game, alice: Any, move: Any, extra: dict[str, Any], status: int, error: str | None
) -> None:
    before = r45_duel.seq
    answer = act(client_for(alice), r45_duel, move, **extra)
    assert answer.status_code == status, answer.json()
    assert answer.json()["message"]
    if error:
        assert answer.json()["error"] == error
    r45_duel.refresh_from_db()
    assert r45_duel.seq == before


def test_an_outsider_and_a_rummikub_action_are_refused(r45_duel: Game, outsider: Any) -> None:
    assert act(client_for(outsider), r45_duel, {"action": "Ready"}).status_code == 403
    r45_duel.refresh_from_db()
    seat = r45_duel.seats.get(index=0)
    client = client_for(seat.user)
    draw = post(
        client,
        f"/api/games/{r45_duel.public_id}/draw",
        {"key": key(), "expected_seq": r45_duel.seq},
    )
    assert draw.status_code == 400 and draw.json()["error"] == "wrong_game"


def test_a_rummy45_move_on_a_rummikub_game_is_refused(duel: Game, alice: Any) -> None:
    answer = act(client_for(alice), duel, {"action": "Ready"})
    assert answer.status_code == 400 and answer.json()["error"] == "wrong_game"
